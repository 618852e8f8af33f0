import TestSupport
import Testing

@testable import VTParser

/// A handler that takes at most `limit` characters of each text offered
/// ahead (`printText(ahead:)`), recording the offers and what it took, and
/// records every other print call as `PrintCallRecorder` does.
struct TextAheadTaker: VTHandler {
    var limit: Int
    var recorder = PrintCallRecorder()
    /// The characters each offer would have given up to its end.
    var offered: [String] = []

    mutating func printText(ahead text: inout PrintableText) {
        var whole = ""
        var offset = text.position
        var taken = 0
        var takenEnd = offset
        while let (scalar, next) = text.character(at: offset) {
            whole.unicodeScalars.append(Unicode.Scalar(scalar)!)
            offset = next
            taken += 1
            if taken <= limit { takenEnd = next }
        }
        offered.append(whole)
        // The offer's bytes are those characters' UTF-8, in the buffer.
        let (base, end) = text.bytes
        let bytes = UnsafeBufferPointer(start: base + text.position, count: offset - text.position)
        #expect(offset <= end && String(decoding: bytes, as: UTF8.self) == whole)
        var takenText = ""
        offset = text.position
        while offset < takenEnd, let (scalar, next) = text.character(at: offset) {
            takenText.unicodeScalars.append(Unicode.Scalar(scalar)!)
            offset = next
        }
        if !takenText.isEmpty { recorder.calls.append("ahead " + takenText) }
        text.take(upTo: takenEnd)
    }
    mutating func printASCII(_ bytes: UnsafeBufferPointer<UInt8>) { recorder.printASCII(bytes) }
    mutating func printScalars(_ scalars: UnsafeBufferPointer<UInt32>) { recorder.printScalars(scalars) }
    mutating func printText(_ scalars: UnsafeBufferPointer<UInt32>) { recorder.printText(scalars) }
    mutating func print(_ scalar: UInt32) { recorder.print(scalar) }
    mutating func execute(_ control: UInt8) { recorder.execute(control) }
}

@Suite("Parser: printable text offered ahead, decoded where it is placed")
struct PrintableTextTests {
    static func feed(_ input: [UInt8], limit: Int) -> TextAheadTaker {
        var parser = VTParser()
        var handler = TextAheadTaker(limit: limit)
        parser.feed(input, into: &handler)
        return handler
    }

    static func callsByteByByte(_ input: [UInt8]) -> [String] {
        var parser = VTParser()
        var recorder = PrintCallRecorder()
        for byte in input { parser.feed([byte], into: &recorder) }
        return recorder.calls
    }

    /// What the parser printed, in order, whichever call carried it.
    static func printed(_ calls: [String]) -> String { TextRunTests.printed(calls) }

    /// A handler that takes none, some or all of each offer gets the same
    /// text as the byte-at-a-time parser prints, in order, with the
    /// controls in their places; nothing taken is handed over again.
    @Test("Taking none, some or all of the text prints what the byte-at-a-time parser prints")
    func takingAnyPrefixPrintsWhatTheByteAtATimeParserPrints() {
        let inputs: [[UInt8]] = [
            Array("æpıłčø àm ğdù аШБьмЗгв бП ΠβΓοΣ\r\nxóëi vu".utf8),
            Array("漢字かな ─│┌┐ e\u{301}x\u{302} 😀👩\u{200D}👧 🇫🇷 \u{1B}[31mЖ\u{1B}[m я".utf8),
            Array("ab é\u{7F}é\tβ\u{8}γ".utf8),
            // C1 controls as UTF-8 (C2 85 is NEL, C2 9B CSI) end the text.
            Array("éé".utf8) + [0xC2, 0x85] + Array("éé".utf8) + [0xC2, 0x9B, 0x41] + Array("é".utf8),
            // Invalid and overlong sequences, a surrogate, a lone
            // continuation byte, and a sequence cut by the buffer's end.
            Array("é".utf8) + [0xC0, 0xAF] + Array("ж".utf8) + [0xED, 0xA0, 0x80] + Array("漢".utf8) + [0x80]
                + Array("ж".utf8) + [0xF0, 0x9F, 0x98],
        ]
        for input in inputs {
            let expected = TextRunTests.printedByteByByte(input)
            for limit in [0, 1, 2, 3, 5, 8, 1_000] {
                let handler = Self.feed(input, limit: limit)
                #expect(Self.printed(handler.recorder.calls) == expected, "limit \(limit): \(input)")
                let controls = Self.callsByteByByte(input).filter { $0.hasPrefix("exec") }
                #expect(handler.recorder.calls.filter { $0.hasPrefix("exec") } == controls, "limit \(limit)")
            }
        }
    }

    /// The text offered starts at the run's first non-ASCII character and
    /// ends where the parser's own decoder must take over: at a control,
    /// an escape, DEL, a C1 control, an invalid sequence, or a sequence
    /// the buffer's end cuts; and where its ASCII path is faster, at eight
    /// printable ASCII bytes in a row.
    @Test("The text runs from a non-ASCII character to the first byte that is not printable text")
    func theTextRunsToTheFirstByteThatIsNotPrintableText() {
        let cases: [([UInt8], String)] = [
            (Array("ab é cd\r\n".utf8), "é cd"),
            (Array("жж\u{1B}[m".utf8), "жж"),
            (Array("漢 x\u{7F}y".utf8), "漢 x"),
            (Array("é".utf8) + [0xC2, 0x85], "é"),
            (Array("éa".utf8) + [0xC3, 0x28], "éa"),
            (Array("😀 ".utf8) + [0xF0, 0x9F, 0x98], "😀 "),
            // Eight printable ASCII bytes or more: the parser's own stretch
            // (eight at a time); fewer, or fewer than eight left in the
            // buffer, stay in the text.
            (Array("• a line of ASCII text\r\n".utf8), "•"),
            (Array("ж 123456ж 1234567ж".utf8), "ж 123456ж"),
            (Array("ж abcdef".utf8), "ж abcdef"),
            (Array("ж abcdefg".utf8), "ж"),
        ]
        for (input, offered) in cases {
            #expect(Self.feed(input, limit: 0).offered.first == offered, "\(input)")
        }
        // Plain ASCII and a lone character before an escape (colour-dense
        // output) are not offered.
        #expect(Self.feed(Array("plain text\r\n".utf8), limit: 1_000).offered.isEmpty)
        #expect(Self.feed(Array("\u{1B}[31m漢\u{1B}[32mé\u{1B}[m".utf8), limit: 1_000).offered.isEmpty)
    }

    /// A handler that takes everything gets each line of text in one offer.
    @Test("A handler that takes all gets a line of words in one offer")
    func aHandlerThatTakesAllGetsALineInOneOffer() {
        let handler = Self.feed(Array("æpıł čøàm аШБь ΠβΓοΣ xyz\r\nвг".utf8), limit: .max)
        #expect(handler.recorder.calls == ["ahead æpıł čøàm аШБь ΠβΓοΣ xyz", "exec 13", "exec 10", "ahead вг"])
    }
}
