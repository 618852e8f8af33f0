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

    // The flat part (below U+3000) is filled from the two stages, which
    // answer every code point too: both agree with utf8proc, so a flat part
    // filled wrongly or a stage-1 offset off by a block shows here.
    @Test("The flat part and the two stages agree with utf8proc below U+3000", .utf8procLinked)
    func flatPartAndTwoStagesAgree() {
        let widths = UnicodeWidth.shared
        var mismatches: [UInt32] = []
        for scalar in UInt32(0)..<UInt32(UnicodeWidth.flatCount)
        where widths.twoStageWidth(of: scalar) != Utf8procReference.width(of: scalar)
            || widths.width(of: scalar) != widths.twoStageWidth(of: scalar)
        {
            mismatches.append(scalar)
        }
        let none = mismatches.isEmpty
        #expect(none, "first differences: \(mismatches.prefix(10).map { String($0, radix: 16) })")
        #expect(widths.width(of: 0x2FFF) == Utf8procReference.width(of: 0x2FFF))
    }

    // Without utf8proc too (Apple platforms, the pure-Swift build): widths
    // either side of the flat part's end, by the Unicode data (UAX #11,
    // general category Mn; ambiguous widths are narrow, as in utf8proc).
    @Test("Widths either side of U+3000") func widthsEitherSideOfTheFlatPart() {
        let widths = UnicodeWidth.shared
        #expect(widths.width(of: 0x0301) == 0)  // COMBINING ACUTE ACCENT, Mn
        #expect(widths.width(of: 0x0416) == 1)  // CYRILLIC CAPITAL LETTER ZHE, A (ambiguous: narrow)
        #expect(widths.width(of: 0x2500) == 1)  // BOX DRAWINGS LIGHT HORIZONTAL, A (ambiguous: narrow)
        #expect(widths.width(of: 0x2E80) == 2)  // CJK RADICAL REPEAT, W (flat part)
        #expect(widths.width(of: 0x3000) == 2)  // IDEOGRAPHIC SPACE, F (two stages)
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
