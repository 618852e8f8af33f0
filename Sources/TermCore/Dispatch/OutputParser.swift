import VTParser

// The parser a `Terminal` owns, held here with the other code that sees
// parser types: `Terminal` feeds it bytes and a `TerminalState`, and the
// parser's actions come back as the calls of TerminalState+Dispatch.swift.

/// The parser a ``Terminal`` feeds a program's output to, driving the
/// terminal's state (generic over it, so the calls specialise and inline).
struct OutputParser {
    private var parser = VTParser()

    /// Parses `bytes`, turning them into operations on `state`.
    /// - Complexity: O(n) in the number of bytes.
    @inline(__always)
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, into state: inout TerminalState) {
        parser.feed(bytes, into: &state)
    }

    /// What the parser dropped or replaced so far.
    var statistics: VTParser.Statistics { parser.statistics }
}

extension Terminal {
    /// Counters of dropped and replaced input in the parser.
    public var parserStatistics: VTParser.Statistics { parser.statistics }
}
