import TestSupport
import Testing

@testable import VTParser

/// The SGR of direct colours read whole (`VTParser.directColourListEnd`):
/// it must take exactly the lists it is for, and dispatch them as the
/// byte-by-byte loop does (ECMA-48 §5.4.2: parameters are digits separated
/// by `;`; xterm's ctlseqs, "CSI Pm m", `38;2;r;g;b` and `48;2;r;g;b`).
@Suite("Parser: direct colours read whole")
struct DirectColourTests {
    /// Printable bytes after a sequence, so that the whole-list path has the
    /// bytes ahead it needs.
    static let padding = String(repeating: "x", count: 48)

    /// What `directColourListEnd` does with `list` (the bytes after
    /// `ESC [`), padded: the offset after the list it took, or 0, and the
    /// sequence it stored.
    static func readWhole(_ list: String) -> (end: Int, sequence: String) {
        let bytes = Array((list + padding).utf8)
        var sequence = ControlSequence()
        let end = bytes.withUnsafeBufferPointer {
            VTParser.directColourListEnd($0.baseAddress!, 0, $0.count, into: &sequence)
        }
        guard end > 0 else { return (0, "") }
        return (end, sequence.withView { Recorder().describe($0) })
    }

    @Test("One or two direct colours are read whole, as ECMA-48 parses them")
    func oneOrTwoDirectColoursAreReadWhole() {
        let cases: [(String, String)] = [
            ("38;2;1;22;255m", "38;2;1;22;255m"),
            ("48;2;0;0;0m", "48;2;0;0;0m"),
            ("38;2;255;255;255;48;2;51;51;51m", "38;2;255;255;255;48;2;51;51;51m"),
            ("48;2;9;99;999;38;2;7;70;7m", "48;2;9;99;999;38;2;7;70;7m"),
            // Leading zeros, and components above 255 (the handler's to judge).
            ("38;2;007;010;300m", "38;2;7;10;300m"),
            ("38;2;1;2;3;38;2;4;5;6m", "38;2;1;2;3;38;2;4;5;6m"),
        ]
        for (list, expected) in cases {
            let (end, sequence) = Self.readWhole(list)
            #expect(end == list.utf8.count, "\(list)")
            #expect(sequence == expected, "\(list)")
        }
    }

    @Test("Every other list is left to the byte-by-byte loop")
    func everyOtherListIsLeftToTheByteByByteLoop() {
        let others = [
            "38;2;1;2m",  // two components
            "38;2;;1;2m",  // an empty component
            "38;2;1;2;m",
            "38;2;1234;0;0m",  // four digits
            "38;2;1;2;3;1m",  // another parameter after the colour
            "38;2;1;2;3;48;5;1m",  // a palette colour after it
            "38;2;1;2;3;48;2;4;5;6;1m",  // a third group
            "38;2;1;2;3;48;2;4;5;6;38;2;7;8;9m",
            "38;2;1;2;3H",  // another final byte
            "38;2;1:2;3m",  // a colon
            "38:2:1:2:3m",
            "38;5;1m", "58;2;1;2;3m", "?38;2;1;2;3m", "1;38;2;1;2;3m", "m", "0m", "H",
            "38;2;1;2;3 m",  // an intermediate
            "38;2;1;2\u{1B}[3m",  // ESC inside
            "38;2;1;2;3\u{7F}m",  // DEL inside
        ]
        for list in others {
            #expect(Self.readWhole(list).end == 0, "\(list)")
        }
    }

    @Test("The parser's first test lets in every list the path reads")
    func theParsersFirstTestLetsInEveryListThePathReads() {
        func mayStart(_ list: String) -> Bool {
            let bytes = Array((list + Self.padding).utf8)
            return bytes.withUnsafeBufferPointer { VTParser.mayStartDirectColour($0.baseAddress!, 0) }
        }
        #expect(mayStart("38;2;1;2;3m") && mayStart("48;2;255;0;0;38;2;1;1;1m"))
        // CUPs and palette colours, whatever their first digit.
        for list in ["38;5;1m", "48;5;200m", "3;4H", "38;40H", "40;2H", "4;2;1m", "38:2:1:2:3m", "m"] {
            #expect(!mayStart(list), "\(list)")
        }
        // Every head the path takes passes: `38;2;` and `48;2;`, and of the
        // first bytes `0`–`9` only those two heads' `3` and `4` read whole.
        for first in "0123456789" {
            let list = "\(first)8;2;1;2;3m"
            if Self.readWhole(list).end > 0 { #expect(mayStart(list), "\(list)") }
            #expect((Self.readWhole(list).end > 0) == (first == "3" || first == "4"), "\(list)")
        }
    }

    @Test("Near the end of the buffer the byte-by-byte loop reads the list")
    func nearTheEndOfTheBufferTheByteByByteLoopReadsTheList() {
        let bytes = Array("38;2;1;2;3m".utf8)
        var sequence = ControlSequence()
        let end = bytes.withUnsafeBufferPointer {
            VTParser.directColourListEnd($0.baseAddress!, 0, $0.count, into: &sequence)
        }
        #expect(end == 0)
        #expect(parse("\u{1B}[38;2;1;2;3m") == ["csi 38;2;1;2;3m"])
    }

    @Test("Random lists dispatch as they do fed a byte at a time")
    func randomListsDispatchAsTheyDoFedAByteAtATime() {
        // Fed a byte at a time, no call has the bytes ahead the whole-list
        // path needs, so the parser reads every list byte by byte there.
        var generator = SplitMix64(seed: 21)
        func pick(_ choices: [String]) -> String { choices[Int(generator.next() % UInt64(choices.count))] }
        let components = ["1", "22", "255", "007", "999", "0", "42", "128", "", "1000", "65536"]
        let separators = [";", ";", ";", ";", ";", ";", ";", ":"]
        let heads = ["38;2;", "48;2;", "38;2;", "48;2;", "38;5;", "58;2;", "38:2:", "1;"]
        let tails = ["", "", "", "", "", ";1", ";", ";48;5;9", " "]
        let finals = ["m", "m", "m", "m", "m", "H", "\u{1B}[0m", "\n", "\u{7F}m"]
        var taken = 0
        for round in 0..<3_000 {
            // Lists shaped like direct colours, with a piece changed here
            // and there: one to three groups, components of any length.
            var list = ""
            for _ in 0..<(1 + Int(generator.next() % 3)) {
                if !list.isEmpty { list += pick(separators) }
                list += pick(heads) + pick(components) + pick(separators)
                list += pick(components) + pick(separators) + pick(components)
            }
            list += pick(tails) + pick(finals)
            if Self.readWhole(list).end > 0 { taken += 1 }
            let input = Array(("\u{1B}[" + list + Self.padding).utf8)
            #expect(parse(input) == parse(input, chunk: 1), "round \(round): \(list.debugDescription)")
        }
        // Some of the lists take the whole-list path (so the comparison
        // covers it), and most do not.
        #expect(taken > 20 && taken < 1_500, "\(taken) of 3000 read whole")
    }

    @Test("Generated direct colours dispatch as they do fed a byte at a time")
    func generatedDirectColoursDispatchAsTheyDoFedAByteAtATime() {
        var generator = SplitMix64(seed: 5)
        var input = ""
        for _ in 0..<2_000 {
            let fg = generator.next() & 0xFF_FFFF
            let bg = generator.next() & 0xFF_FFFF
            input += "\u{1B}[38;2;\(fg >> 16);\((fg >> 8) & 255);\(fg & 255)"
            if generator.next() % 2 == 0 { input += ";48;2;\(bg >> 16);\((bg >> 8) & 255);\(bg & 255)" }
            input += "m\u{2580}"
        }
        let bytes = Array(input.utf8)
        let whole = parse(bytes)
        #expect(whole.count == 4_000)
        #expect(whole == parse(bytes, chunk: 1))
    }
}
