import Testing

@testable import TermCore

@Suite("Unicode width table")
struct UnicodeWidthTableTests {
    @Test("Table equals utf8proc for every code point", .utf8procLinked) func tableEqualsUtf8procForEveryCodePoint() {
        var mismatches: [UInt32] = []
        for scalar in UInt32(0)..<0x110000 where UnicodeWidth.width(of: scalar) != Utf8procReference.width(of: scalar) {
            mismatches.append(scalar)
        }
        #expect(mismatches.isEmpty, "first differences: \(mismatches.prefix(10).map { String($0, radix: 16) })")
    }

    // Without utf8proc too (Apple platforms, the pure-Swift build): widths
    // of alphabets, marks, box drawing, CJK and emoji, by the Unicode data
    // (UAX #11, general category Mn; ambiguous widths are narrow, as in
    // utf8proc).
    @Test("Widths of common scripts by the Unicode data") func widthsOfCommonScripts() {
        let widths = UnicodeWidth.shared
        #expect(widths.width(of: 0x0301) == 0)  // COMBINING ACUTE ACCENT, Mn
        #expect(widths.width(of: 0x0416) == 1)  // CYRILLIC CAPITAL LETTER ZHE, A (ambiguous: narrow)
        #expect(widths.width(of: 0x2500) == 1)  // BOX DRAWINGS LIGHT HORIZONTAL, A (ambiguous: narrow)
        #expect(widths.width(of: 0x2E80) == 2)  // CJK RADICAL REPEAT, W
        #expect(widths.width(of: 0x3000) == 2)  // IDEOGRAPHIC SPACE, F
        #expect(widths.width(of: 0x3099) == 0)  // COMBINING KATAKANA-HIRAGANA VOICED SOUND MARK, Mn
        #expect(widths.width(of: 0x4E2D) == 2)  // CJK UNIFIED IDEOGRAPH-4E2D, W
        #expect(widths.width(of: 0x1F600) == 2)  // GRINNING FACE, W
    }

    // Scalars past U+10FFFF never come from the parser; a lookup of one
    // must still stay inside the table (no stage-1 entry for it) and answer
    // one column.
    @Test("Values past U+10FFFF are one column") func valuesPastTheLastCodePoint() {
        for value: UInt32 in [0x11_0000, 0x11_00FF, 0x1F_FFFF, 0xFFFF_FFFF] {
            #expect(UnicodeWidth.width(of: value) == 1)
        }
    }

    @Test("Table was generated from the installed utf8proc", .utf8procLinked)
    func tableWasGeneratedFromTheInstalledUtf8proc() {
        #expect(UnicodeWidthTable.utf8procVersion == Utf8procReference.version)
    }
}
