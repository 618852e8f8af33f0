import TermCore
import Testing

@Suite("Row text")
struct RowTextTests {
    @Test("Only trailing spaces go") func onlyTrailingSpacesGo() {
        #expect("ab  c   ".droppingTrailingSpaces() == "ab  c")
        #expect("   ".droppingTrailingSpaces() == "")
        #expect("".droppingTrailingSpaces() == "")
        #expect("  lead".droppingTrailingSpaces() == "  lead")
        // Other white space is text a program wrote: kept.
        #expect("tab\t \u{A0} ".droppingTrailingSpaces() == "tab\t \u{A0}")
    }

    @Test("Characters before the spaces stay whole") func charactersBeforeTheSpacesStayWhole() {
        // A wide character, a space carrying a combining mark (one character
        // whose last scalar is not a space), and U+0600, which forms one
        // grapheme cluster with the space after it (UAX #29 GB9b).
        #expect("中  ".droppingTrailingSpaces() == "中")
        #expect("a \u{301}  ".droppingTrailingSpaces() == "a \u{301}")
        #expect("x\u{600}  ".droppingTrailingSpaces().unicodeScalars.map(\.value) == [0x78, 0x600])
    }

    @Test("Wide rows of blanks trim to their text") func wideRowsOfBlanksTrimToTheirText() {
        let t = terminal(200, 2, "ab\r\n\(CSI)150Gz")
        #expect(t.screenLines == ["ab", String(repeating: " ", count: 149) + "z"])
    }

    @Test("Scalars are encoded as UTF-8 and non scalars as replacement")
    func scalarsAreEncodedAsUTF8AndNonScalarsAsReplacement() {
        var text = RowText(capacity: 8)
        // One of each UTF-8 length, then a surrogate and a value past U+10FFFF.
        for value: UInt32 in [0x41, 0xE9, 0x7FF, 0x800, 0x4E2D, 0xFFFF, 0x1_F600, 0x10_FFFF, 0xD800, 0x11_0000, 0x20] {
            text.append(value)
        }
        let expected: [UInt32] = [0x41, 0xE9, 0x7FF, 0x800, 0x4E2D, 0xFFFF, 0x1_F600, 0x10_FFFF, 0xFFFD, 0xFFFD, 0x20]
        #expect(text.string.unicodeScalars.map(\.value) == expected)
        #expect(text.droppingTrailingSpaces().unicodeScalars.map(\.value) == Array(expected.dropLast()))
        text.removeAll()
        #expect(text.isEmpty && text.string == "")
    }

    @Test("Every scalar round trips") func everyScalarRoundTrips() {
        // Every Unicode scalar value, as Swift encodes it.
        var text = RowText(capacity: 1 << 22)
        var expected = String.UnicodeScalarView()
        for value in UInt32(0)...0x10_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            text.append(value)
            expected.append(scalar)
        }
        #expect(text.string == String(expected))
    }
}
