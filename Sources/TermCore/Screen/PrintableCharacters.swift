/// What the printing loop (`TerminalState.printRow`) reads characters
/// from: a run of scalars the parser decoded into a buffer, or the parser's
/// bytes themselves (its `PrintableText`, which Dispatch/ conforms: this
/// folder names no parser type), decoded where they are placed. The loop is
/// specialised for each, so the reading inlines.
protocol PrintableCharacters {
    /// The character at `index` and the index after it; nil where the
    /// characters end.
    func character(at index: Int) -> (scalar: UInt32, next: Int)?

    /// The UTF-8 bytes the characters are, indexed as `character(at:)`
    /// indexes them, when they are bytes (the parser's text, which
    /// `TerminalState.placeNarrowText` reads); nil for decoded scalars.
    var utf8: (base: UnsafePointer<UInt8>, end: Int)? { get }
}

/// A run of scalars decoded by the parser (`printScalars`, `printText`).
struct ScalarRun: PrintableCharacters {
    let base: UnsafePointer<UInt32>
    let count: Int

    @inline(__always)
    func character(at index: Int) -> (scalar: UInt32, next: Int)? {
        // `index` < `count`, a buffer's count: `index + 1` cannot overflow.
        index < count ? (base[index], index &+ 1) : nil
    }

    var utf8: (base: UnsafePointer<UInt8>, end: Int)? { nil }
}
