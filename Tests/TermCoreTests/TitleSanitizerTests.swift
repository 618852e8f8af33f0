import TermCore
import TestSupport
import Testing

/// Hostile titles: the sanitizer's rules are PROTOCOL.md's "Titles".
@Suite("Title sanitizer")
struct TitleSanitizerTests {
    func clean(_ text: String, limit: Int = TitleSanitizer.defaultLimit) -> String {
        TitleSanitizer.sanitize(Array(text.utf8), limit: limit)
    }

    @Test("Plain title passes through") func plainTitlePassesThrough() {
        #expect(clean("vim — notes.txt") == "vim — notes.txt")
    }

    @Test("Right to left override spoofing is removed") func rightToLeftOverrideSpoofingIsRemoved() {
        // "invoice\u{202E}fdp.exe" would show as "invoiceexe.pdf".
        #expect(clean("invoice\u{202E}fdp.exe") == "invoicefdp.exe")
        #expect(clean("a\u{2066}b\u{2067}c\u{2068}d\u{2069}e\u{202A}f\u{202B}g\u{202C}h\u{202D}i") == "abcdefghi")
    }

    @Test("Zero width padding is removed") func zeroWidthPaddingIsRemoved() {
        #expect(clean("a\u{200B}b\u{200E}c\u{200F}d\u{2060}e\u{FEFF}f") == "abcdef")
    }

    @Test("Controls are removed") func controlsAreRemoved() {
        #expect(clean("a\u{01}b\u{1B}[31mc\u{7F}d\u{85}e\u{9B}f") == "ab[31mcdef")
    }

    @Test("Invalid UTF-8 becomes replacement characters") func invalidUTF8BecomesReplacementCharacters() {
        #expect(TitleSanitizer.sanitize([0x61, 0xFF, 0x62, 0xE2, 0x82]) == "a\u{FFFD}b\u{FFFD}")
    }

    @Test("Surrounding whitespace is trimmed") func surroundingWhitespaceIsTrimmed() {
        #expect(clean("  \u{3000} title \t ") == "title")
        #expect(clean("\u{200B} \u{202E} ") == "")
    }

    @Test("Long titles are capped at 256 scalars") func longTitlesAreCappedAt256Scalars() {
        #expect(clean(String(repeating: "a", count: 1000)).unicodeScalars.count == 256)
    }

    @Test("Cap never splits a grapheme cluster") func capNeverSplitsAGraphemeCluster() {
        // 255 letters, then "e" + combining acute: cutting at 256 would split it.
        let title = String(repeating: "a", count: 255) + "e\u{301}"
        let result = clean(title)
        #expect(result == String(repeating: "a", count: 255))
    }

    @Test("Emoji flood is capped at cluster boundaries") func emojiFloodIsCappedAtClusterBoundaries() {
        let flag = "\u{1F1EB}\u{1F1F7}"
        let result = clean(String(repeating: flag, count: 200))
        #expect(result.unicodeScalars.count == 256)
        #expect(result == String(repeating: flag, count: 128))
    }

    @Test("One megabyte title is cheap") func oneMegabyteTitleIsCheap() {
        let huge = [UInt8](repeating: 0x41, count: 1_000_000)
        #expect(TitleSanitizer.sanitize(huge).count == 256)
    }

    @Test("Terminal titles go through the sanitizer") func terminalTitlesGoThroughTheSanitizer() {
        let t = terminal(10, 2, "\(ESC)]0;\u{202E}evil\u{200B}\u{07}")
        #expect(t.title == "evil")
        #expect(t.iconName == "evil")
        // A C1 control inside an OSC (UTF-8 C2 9B) cannot smuggle a sequence in.
        let u = terminal(10, 2, "\(ESC)]2;a\u{9B}31mb\u{07}")
        #expect(u.title == "a31mb")
    }

    @Test("Oversized title OSC is dropped not truncated") func oversizedTitleOSCIsDroppedNotTruncated() {
        // Past the parser's 1 MiB OSC limit the whole string is dropped.
        let t = terminal(10, 2, "\(ESC)]2;old\u{07}\(ESC)]2;" + String(repeating: "x", count: (1 << 20) + 1) + "\u{07}")
        #expect(t.title == "old")
        #expect(t.parserStatistics.droppedOSCStrings == 1)
    }

    @Test("Title stack is bounded") func titleStackIsBounded() {
        var input = ""
        for index in 0..<30 { input += "\(ESC)]2;t\(index)\u{07}\(CSI)22;0t" }
        input += String(repeating: "\(CSI)23;0t", count: 30)
        let t = terminal(10, 2, input)
        // Only the 10 newest pushes survive; popping them all leaves t20.
        #expect(t.title == "t20")
    }
}

/// The title rule as PROTOCOL.md amends it: joiners inside clusters, the cap
/// at a cluster boundary followed by a second trim, and a fixed point.
@Suite("Title sanitizer: joiners, the cap and idempotence")
struct TitleSanitizerJoinerTests {
    func clean(_ text: String, limit: Int = TitleSanitizer.defaultLimit) -> String {
        TitleSanitizer.sanitize(Array(text.utf8), limit: limit)
    }

    @Test("ZWJ sequences keep their joiners: a family emoji stays one cluster")
    func zwjSequencesSurvive() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        #expect(clean("ab\(family)cd") == "ab\(family)cd")
        #expect(clean("ab\(family)cd").count == 5)  // a, b, the family, c, d
    }

    @Test("ZWNJ between two letters stays (Persian shaping)")
    func zwnjBetweenLettersSurvives() {
        #expect(clean("\u{0645}\u{06CC}\u{200C}\u{062E}") == "\u{0645}\u{06CC}\u{200C}\u{062E}")
    }

    @Test("joiners with no visible character on one side are removed")
    func strayJoinersAreRemoved() {
        #expect(clean("\u{200D}a") == "a")
        #expect(clean("a\u{200D}") == "a")
        #expect(clean("a\u{200D} b") == "a b")
        #expect(clean("a \u{200C}b") == "a b")
        #expect(clean("a\u{200D}\u{200D}b") == "a\u{200D}b")
        #expect(clean("\u{200D}\u{200C}") == "")
    }

    @Test("the cap never splits a ZWJ sequence")
    func capKeepsZWJSequencesWhole() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"  // 5 scalars
        let title = clean(String(repeating: "a", count: 253) + family + "z")
        #expect(title == String(repeating: "a", count: 253))
        #expect(clean(String(repeating: "a", count: 251) + family + "z") == String(repeating: "a", count: 251) + family)
    }

    @Test("a cut after a joiner drops that joiner's whole cluster, so the title stays the text's first clusters (fuzz)")
    func cutAfterAJoinerDropsItsCluster() {
        // U+FFFD ZWJ U+FFFD: the joiner extends the first U+FFFD's cluster;
        // a cap of 4 ends inside the joined pair, after the joiner.
        let title = clean("ab\u{FFFD}\u{200D}\u{FFFD}c", limit: 4)
        #expect(title == "ab")
        #expect(clean(title, limit: 4) == title)
    }

    @Test("a cut that ends after white space is trimmed again (fuzz: trailing-space-after-cut)")
    func cutIsTrimmedAgain() {
        #expect(clean(String(repeating: "a", count: 255) + " b") == String(repeating: "a", count: 255))
        #expect(clean("a  b", limit: 3) == "a")
    }

    @Test("sanitizing a sanitized title gives it back, on 20,000 random titles")
    func sanitizedTitlesAreFixedPoints() {
        var random = SplitMix64(seed: 0x7171e)
        let pieces: [String] = [
            "a", "Z", " ", "\t", "\u{3000}", "\u{200D}", "\u{200C}", "\u{200B}", "\u{202E}", "\u{1B}", "\u{7F}",
            "\u{85}", "e\u{301}", "\u{1F468}", "\u{1F3FD}", "\u{FE0F}", "\u{1F1FA}", "漢", "\u{FEFF}", "\u{0645}",
        ]
        for round in 0..<20_000 {
            var text = ""
            for _ in 0..<Int(random.next() % 24) { text += pieces[Int(random.next() % UInt64(pieces.count))] }
            let limit = 1 + Int(random.next() % 12)
            let once = clean(text, limit: limit)
            #expect(clean(once, limit: limit) == once, "round \(round): \(Array(text.unicodeScalars))")
            #expect(once.unicodeScalars.count <= limit)
            #expect(once.unicodeScalars.first.map { !$0.properties.isWhitespace } ?? true)
            #expect(once.unicodeScalars.last.map { !$0.properties.isWhitespace } ?? true)
        }
    }
}
