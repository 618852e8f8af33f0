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

    @Test("Table was generated from the installed utf8proc", .utf8procLinked)
    func tableWasGeneratedFromTheInstalledUtf8proc() {
        #expect(UnicodeWidthTable.utf8procVersion == Utf8procReference.version)
    }
}
