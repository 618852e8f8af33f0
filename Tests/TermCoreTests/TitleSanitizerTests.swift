import TermCore
import Testing

/// Hostile titles: the sanitizer's rules are PROTOCOL.md's "Titles".
@Suite("Title sanitizer")
struct TitleSanitizerTests {
    func clean(_ text: String, limit: Int = TitleSanitizer.defaultLimit) -> String {
        TitleSanitizer.sanitize(Array(text.utf8), limit: limit)
    }

    @Test func plainTitlePassesThrough() {
        #expect(clean("vim — notes.txt") == "vim — notes.txt")
    }

    @Test func rightToLeftOverrideSpoofingIsRemoved() {
        // "invoice\u{202E}fdp.exe" would show as "invoiceexe.pdf".
        #expect(clean("invoice\u{202E}fdp.exe") == "invoicefdp.exe")
        #expect(clean("a\u{2066}b\u{2067}c\u{2068}d\u{2069}e\u{202A}f\u{202B}g\u{202C}h\u{202D}i") == "abcdefghi")
    }

    @Test func zeroWidthPaddingIsRemoved() {
        #expect(clean("a\u{200B}b\u{200C}c\u{200D}d\u{200E}e\u{200F}f\u{2060}g\u{FEFF}h") == "abcdefgh")
    }

    @Test func controlsAreRemoved() {
        #expect(clean("a\u{01}b\u{1B}[31mc\u{7F}d\u{85}e\u{9B}f") == "ab[31mcdef")
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        #expect(TitleSanitizer.sanitize([0x61, 0xFF, 0x62, 0xE2, 0x82]) == "a\u{FFFD}b\u{FFFD}")
    }

    @Test func surroundingWhitespaceIsTrimmed() {
        #expect(clean("  \u{3000} title \t ") == "title")
        #expect(clean("\u{200B} \u{202E} ") == "")
    }

    @Test func longTitlesAreCappedAt256Scalars() {
        #expect(clean(String(repeating: "a", count: 1000)).unicodeScalars.count == 256)
    }

    @Test func capNeverSplitsAGraphemeCluster() {
        // 255 letters, then "e" + combining acute: cutting at 256 would split it.
        let title = String(repeating: "a", count: 255) + "e\u{301}"
        let result = clean(title)
        #expect(result == String(repeating: "a", count: 255))
    }

    @Test func emojiFloodIsCappedAtClusterBoundaries() {
        let flag = "\u{1F1EB}\u{1F1F7}"
        let result = clean(String(repeating: flag, count: 200))
        #expect(result.unicodeScalars.count == 256)
        #expect(result == String(repeating: flag, count: 128))
    }

    @Test func oneMegabyteTitleIsCheap() {
        let huge = [UInt8](repeating: 0x41, count: 1_000_000)
        #expect(TitleSanitizer.sanitize(huge).count == 256)
    }

    @Test func terminalTitlesGoThroughTheSanitizer() {
        let t = terminal(10, 2, "\(ESC)]0;\u{202E}evil\u{200B}\u{07}")
        #expect(t.title == "evil")
        #expect(t.iconName == "evil")
        // A C1 control inside an OSC (UTF-8 C2 9B) cannot smuggle a sequence in.
        let u = terminal(10, 2, "\(ESC)]2;a\u{9B}31mb\u{07}")
        #expect(u.title == "a31mb")
    }

    @Test func oversizedTitleOSCIsDroppedNotTruncated() {
        // Past the parser's 1 MiB OSC limit the whole string is dropped.
        let t = terminal(10, 2, "\(ESC)]2;old\u{07}\(ESC)]2;" + String(repeating: "x", count: (1 << 20) + 1) + "\u{07}")
        #expect(t.title == "old")
        #expect(t.parserStatistics.droppedOSCStrings == 1)
    }

    @Test func titleStackIsBounded() {
        var input = ""
        for index in 0..<30 { input += "\(ESC)]2;t\(index)\u{07}\(CSI)22;0t" }
        input += String(repeating: "\(CSI)23;0t", count: 30)
        let t = terminal(10, 2, input)
        // Only the 10 newest pushes survive; popping them all leaves t20.
        #expect(t.title == "t20")
    }
}
