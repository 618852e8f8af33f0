import Testing

@testable import TermCore

@Suite("Memory layout")
struct LayoutTests {
    @Test func cellIsEightBytes() {
        #expect(MemoryLayout<Cell>.size == 8)
        #expect(MemoryLayout<Cell>.stride == 8)
    }

    @Test func emptyCellIsAllZero() {
        withUnsafeBytes(of: Cell.empty) { bytes in
            #expect(bytes.allSatisfy { $0 == 0 })
        }
    }

    @Test func defaultStyleHasIDZero() {
        var table = StyleTable()
        #expect(table.id(for: Style()) == 0)
        #expect(table.id(for: Style(flags: .bold)) == 1)
        #expect(table.id(for: Style(flags: .bold)) == 1)  // interned once
    }
}
