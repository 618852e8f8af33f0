import TestSupport
import Testing

@testable import VTParser

/// Records the shape of each print call: which requirement got it and what.
struct PrintCallRecorder: VTHandler {
    var calls: [String] = []
    mutating func printASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
        calls.append("ascii " + String(decoding: bytes, as: UTF8.self))
    }
    mutating func printScalars(_ scalars: UnsafeBufferPointer<UInt32>) {
        calls.append("scalars " + Self.text(scalars))
    }
    mutating func printText(_ scalars: UnsafeBufferPointer<UInt32>) {
        calls.append("text " + Self.text(scalars))
    }
    mutating func print(_ scalar: UInt32) {
        calls.append("scalar " + Self.text(CollectionOfOne(scalar)))
    }
    mutating func execute(_ control: UInt8) { calls.append("exec \(control)") }

    static func text(_ scalars: some Sequence<UInt32>) -> String {
        var text = ""
        for scalar in scalars { text.unicodeScalars.append(Unicode.Scalar(scalar)!) }
        return text
    }
}

/// `PrintCallRecorder` without `printText`: what a handler that keeps the
/// default gets.
struct StretchRecorder: VTHandler {
    var recorder = PrintCallRecorder()
    var calls: [String] { recorder.calls }
    mutating func printASCII(_ bytes: UnsafeBufferPointer<UInt8>) { recorder.printASCII(bytes) }
    mutating func printScalars(_ scalars: UnsafeBufferPointer<UInt32>) { recorder.printScalars(scalars) }
    mutating func print(_ scalar: UInt32) { recorder.print(scalar) }
}

func printCalls<H: VTHandler>(_ input: [UInt8], into handler: H) -> H {
    var parser = VTParser()
    var handler = handler
    parser.feed(input, into: &handler)
    return handler
}

@Suite("Parser: runs of text mixing ASCII with other scalars")
struct TextRunTests {
    static let stretchLimit = VTParser.asciiStretchInText

    @Test("A character alone before an ESC is one print call; before anything else, or not alone, a run")
    func aLoneCharacterBeforeAnEscapeIsOnePrintCall() {
        // Colour-dense output: a colour, one character, the next colour.
        let dense = printCalls(Array("\u{1B}[31m漢\u{1B}[32mé\u{1B}[m".utf8), into: PrintCallRecorder()).calls
        #expect(dense == ["scalar 漢", "scalar é"])
        // Two characters before the ESC, one before a space or a control, one
        // at the buffer's end: runs as before.
        #expect(printCalls(Array("漢字\u{1B}[m".utf8), into: PrintCallRecorder()).calls == ["scalars 漢字"])
        #expect(printCalls(Array("漢 \u{1B}[m".utf8), into: PrintCallRecorder()).calls == ["scalars 漢", "ascii  "])
        #expect(printCalls(Array("漢\r".utf8), into: PrintCallRecorder()).calls == ["scalars 漢", "exec 13"])
        #expect(printCalls(Array("漢".utf8), into: PrintCallRecorder()).calls == ["scalars 漢"])
    }

    @Test("Short ASCII stretches between non-ASCII scalars join one text call")
    func shortASCIIStretchesBetweenNonASCIIScalarsJoinOneTextCall() {
        let calls = printCalls(Array("漢 字 語".utf8), into: PrintCallRecorder()).calls
        #expect(calls == ["text 漢 字 語"])
        let marks = printCalls(Array("e\u{301}a\u{302}".utf8), into: PrintCallRecorder()).calls
        // The first letter is ASCII before any non-ASCII scalar: a run of
        // its own; the letter between the marks joins the text.
        #expect(marks == ["ascii e", "text \u{301}a\u{302}"])
    }

    @Test("A run without ASCII stays a scalars call") func aRunWithoutASCIIStaysAScalarsCall() {
        #expect(printCalls(Array("漢字Ж".utf8), into: PrintCallRecorder()).calls == ["scalars 漢字Ж"])
    }

    @Test("An ASCII stretch longer than the limit is a run of its own")
    func anASCIIStretchLongerThanTheLimitIsARunOfItsOwn() {
        let atLimit = String(repeating: "a", count: Self.stretchLimit)
        let overLimit = atLimit + "b"
        #expect(printCalls(Array("漢\(atLimit)字".utf8), into: PrintCallRecorder()).calls == ["text 漢\(atLimit)字"])
        #expect(
            printCalls(Array("漢\(overLimit)字".utf8), into: PrintCallRecorder()).calls == [
                "scalars 漢", "ascii \(overLimit)", "scalars 字",
            ])
    }

    @Test("ASCII not followed by non-ASCII text stays out of the run")
    func asciiNotFollowedByNonASCIITextStaysOutOfTheRun() {
        // At the end of the buffer, before a control, before an escape.
        #expect(printCalls(Array("漢 ab".utf8), into: PrintCallRecorder()).calls == ["scalars 漢", "ascii  ab"])
        #expect(
            printCalls(Array("漢 a\r".utf8), into: PrintCallRecorder()).calls == ["scalars 漢", "ascii  a", "exec 13"])
        #expect(printCalls(Array("漢 \u{1B}[m".utf8), into: PrintCallRecorder()).calls == ["scalars 漢", "ascii  "])
    }

    @Test("A stretch before an invalid or cut sequence keeps every character")
    func aStretchBeforeAnInvalidOrCutSequenceKeepsEveryCharacter() {
        // 0xE6 0xBC is the start of 漢 without its last byte: the stretch
        // joins (a lead byte follows it) and the run ends there; the cut
        // sequence waits for more input.
        var parser = VTParser()
        var recorder = PrintCallRecorder()
        parser.feed(Array("漢 ".utf8) + [0xE6, 0xBC], into: &recorder)
        #expect(recorder.calls == ["text 漢 "])
        parser.feed([0xA2], into: &recorder)
        #expect(recorder.calls == ["text 漢 ", "scalar 漢"])
        // An invalid lead byte after the stretch: U+FFFD for it, as before.
        let invalid = printCalls(Array("漢 ".utf8) + [0xF5, 0x41], into: PrintCallRecorder()).calls
        #expect(invalid.first == "text 漢 ")
        #expect(Self.printed(invalid) == "漢 \u{FFFD}A")
    }

    @Test("Runs stay within the scalar buffer") func runsStayWithinTheScalarBuffer() {
        let input = String(repeating: "漢字 ", count: 100)
        let calls = printCalls(Array(input.utf8), into: PrintCallRecorder()).calls
        #expect(calls.count > 1)
        for call in calls {
            #expect(Self.printed([call]).unicodeScalars.count <= VTParser.scalarRunCapacity, "\(call)")
        }
        #expect(Self.printed(calls) == input)
    }

    /// A single printable byte before a lead byte joins without the scan
    /// (the letter under a combining mark, the space between words): the
    /// run still stops at its capacity, and still ends in that byte when
    /// the sequence after it is cut or invalid.
    @Test("One printable byte before non-ASCII text joins the run, within its capacity")
    func onePrintableByteBeforeNonASCIITextJoinsTheRun() {
        let marked = String(repeating: "e\u{301}", count: 100)
        let calls = printCalls(Array(marked.utf8), into: PrintCallRecorder()).calls
        // A run starts at the first mark (the letter before it is ASCII on
        // its own) and takes letters and marks until its capacity; the
        // letter after a full run starts the next in the same way (the last
        // may be a mark alone, with no ASCII: a scalars call).
        // (Compared as scalars: the space after "text" and the mark after it
        // are one Character.)
        let isText = { (call: String) in call.unicodeScalars.starts(with: "text ".unicodeScalars) }
        #expect(calls.allSatisfy { $0 == "ascii e" || isText($0) || $0 == "scalars \u{301}" }, "\(calls)")
        let runs = calls.filter(isText).map { Self.printed([$0]).unicodeScalars.count }
        #expect(runs.dropLast().allSatisfy { $0 >= VTParser.scalarRunCapacity - 1 }, "\(runs)")
        for call in calls {
            #expect(Self.printed([call]).unicodeScalars.count <= VTParser.scalarRunCapacity, "\(call)")
        }
        #expect(Self.printed(calls) == marked)
        // Before a cut sequence and before an invalid one.
        #expect(printCalls(Array("é a".utf8) + [0xC3], into: PrintCallRecorder()).calls == ["text é a"])
        let invalid = printCalls(Array("éa".utf8) + [0xC3, 0x28], into: PrintCallRecorder()).calls
        #expect(invalid.first == "text éa")
        #expect(Self.printed(invalid) == "éa\u{FFFD}(")
    }

    @Test("Without printText a handler gets the same text in stretches, in order")
    func withoutPrintTextAHandlerGetsTheSameTextInStretchesInOrder() {
        #expect(
            printCalls(Array("漢 字ab語".utf8), into: StretchRecorder()).calls == [
                "scalars 漢", "ascii  ", "scalars 字", "ascii ab", "scalars 語",
            ])
    }

    /// Repeats of one character are compared as bytes, not decoded
    /// (`VTParser.repeatedSequences`): they must print as decoded ones do,
    /// for each length of sequence, up to the buffer's end, past the run's
    /// capacity, and when the repeat is cut, invalid, or followed by
    /// another character with the same first bytes.
    @Test("Repeated characters print as decoded ones: each length, to the buffer's end, past the run's capacity")
    func repeatedCharactersPrintAsDecodedOnes() {
        for character in ["é", "─", "漢", "😀"] {
            for repeats in [2, 3, 4, 5, 63, 64, 65, 130] {
                let text = String(repeating: character, count: repeats)
                // Each input with the text it prints (controls and
                // sequences print nothing).
                let cases = [
                    (text, text), (text + "x", text + "x"), ("a" + text + "\r", "a" + text),
                    (text + "\u{1B}[m" + text, text + text),
                ]
                for (input, printed) in cases {
                    let calls = printCalls(Array(input.utf8), into: PrintCallRecorder()).calls
                    #expect(Self.printed(calls) == printed, "\(repeats) × \(character) in \(input.debugDescription)")
                    #expect(Self.printedByteByByte(Array(input.utf8)) == printed)
                    for call in calls {
                        #expect(Self.printed([call]).unicodeScalars.count <= VTParser.scalarRunCapacity)
                    }
                }
            }
        }
        // Sequences that share their first bytes with the repeated one: ─
        // is E2 94 80, │ E2 94 82, ┼ E2 94 BC; a cut or invalid last byte.
        let neighbours: [[UInt8]] = [
            Array("────│──┼".utf8),
            Array("───".utf8) + [0xE2, 0x94],
            Array("───".utf8) + [0xE2, 0x94, 0x41, 0x42],
            Array("───".utf8) + [0xE2, 0x94, 0xC0, 0x80, 0x80],
            Array("ééé".utf8) + [0xC3, 0x29] + Array("éé".utf8),
            Array("😀😀".utf8) + [0xF0, 0x9F, 0x98] + Array("😀".utf8),
        ]
        for input in neighbours {
            let whole = Self.printed(printCalls(input, into: PrintCallRecorder()).calls)
            #expect(whole.unicodeScalars.elementsEqual(Self.printedByteByByte(input).unicodeScalars), "\(input)")
        }
        #expect(Self.printed(printCalls(Array("────│──┼".utf8), into: PrintCallRecorder()).calls) == "────│──┼")
    }

    /// Random mixes of scripts, ASCII, controls and cut sequences, whole and
    /// in every chunk size up to 7: the printed text is the same as the
    /// one-scalar-a-call reading of a byte at a time.
    @Test("Chunked mixed text prints the same scalars") func chunkedMixedTextPrintsTheSameScalars() {
        var generator = SplitMix64(seed: 2_027)
        let pieces = [
            "漢", "Ж", "\u{301}", "😀", " ", "ab", "abcdefgh", "abcdefghi", "\r", "\u{1B}[m", "é", "───", "😀😀😀", "éé",
        ]
        for _ in 0..<200 {
            var input: [UInt8] = []
            for _ in 0..<30 { input += Array(pieces[Int(generator.next() % UInt64(pieces.count))].utf8) }
            let expected = Self.printedByteByByte(input)
            for chunk in 1...7 {
                var parser = VTParser()
                var recorder = PrintCallRecorder()
                var start = 0
                while start < input.count {
                    parser.feed(input[start..<min(start + chunk, input.count)], into: &recorder)
                    start += chunk
                }
                let chunked = Self.printed(recorder.calls)
                #expect(chunked.unicodeScalars.elementsEqual(expected.unicodeScalars), "chunk \(chunk)")
            }
            let whole = Self.printed(printCalls(input, into: PrintCallRecorder()).calls)
            #expect(whole.unicodeScalars.elementsEqual(expected.unicodeScalars))
        }
    }

    /// The printed scalars of the calls, controls left out. Split on
    /// scalars: a space and the combining mark after it are one `Character`.
    static func printed(_ calls: [String]) -> String {
        var text = String.UnicodeScalarView()
        for call in calls where !call.hasPrefix("exec") {
            let scalars = call.unicodeScalars
            text.append(contentsOf: scalars[scalars.index(after: scalars.firstIndex(of: " ")!)...])
        }
        return String(text)
    }

    static func printedByteByByte(_ input: [UInt8]) -> String {
        var parser = VTParser()
        var recorder = PrintCallRecorder()
        for byte in input { parser.feed([byte], into: &recorder) }
        return printed(recorder.calls)
    }
}
