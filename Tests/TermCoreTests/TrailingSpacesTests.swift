import TermCore
import Testing

@Suite("Trailing spaces of row text")
struct TrailingSpacesTests {
    @Test func onlyTrailingSpacesGo() {
        #expect("ab  c   ".droppingTrailingSpaces() == "ab  c")
        #expect("   ".droppingTrailingSpaces() == "")
        #expect("".droppingTrailingSpaces() == "")
        #expect("  lead".droppingTrailingSpaces() == "  lead")
        // Other white space is text a program wrote: kept.
        #expect("tab\t \u{A0} ".droppingTrailingSpaces() == "tab\t \u{A0}")
    }

    @Test func charactersBeforeTheSpacesStayWhole() {
        // A wide character, a space carrying a combining mark (one character
        // whose last scalar is not a space), and U+0600, which forms one
        // grapheme cluster with the space after it (UAX #29 GB9b).
        #expect("中  ".droppingTrailingSpaces() == "中")
        #expect("a \u{301}  ".droppingTrailingSpaces() == "a \u{301}")
        #expect("x\u{600}  ".droppingTrailingSpaces().unicodeScalars.map(\.value) == [0x78, 0x600])
    }

    @Test func wideRowsOfBlanksTrimToTheirText() {
        let t = terminal(200, 2, "ab\r\n\(CSI)150Gz")
        #expect(t.screenLines == ["ab", String(repeating: " ", count: 149) + "z"])
    }
}
