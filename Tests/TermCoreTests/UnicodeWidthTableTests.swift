import CUTF8Proc
import Testing

@testable import TermCore

@Suite("Unicode width table")
struct UnicodeWidthTableTests {
    @Test func tableEqualsUtf8procForEveryCodePoint() {
        var mismatches: [UInt32] = []
        for scalar in UInt32(0)..<0x110000 {
            let expected = max(0, min(2, Int(utf8proc_charwidth(Int32(scalar)))))
            if UnicodeWidth.width(of: scalar) != expected { mismatches.append(scalar) }
        }
        #expect(mismatches.isEmpty, "first differences: \(mismatches.prefix(10).map { String($0, radix: 16) })")
    }

    @Test func tableWasGeneratedFromTheInstalledUtf8proc() {
        #expect(UnicodeWidthTable.utf8procVersion == String(cString: utf8proc_version()))
    }
}
