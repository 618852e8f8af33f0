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

    @Test func styleIdsStayTheSameWhenThePairTableIsMade() throws {
        // Pairs interned before the direct pair table exists, and after.
        var table = StyleTable()
        var ids: [Style: UInt16] = [:]
        for foreground in 0..<64 {
            for background in 0..<40 {
                let style = Style(foreground: .indexed(UInt8(foreground)), background: .indexed(UInt8(background)))
                let id = table.id(for: style)
                ids[style] = try #require(id)
                let other = Style(foreground: .indexed(UInt8(foreground)), flags: .italic)
                let otherID = table.id(for: other)
                ids[other] = try #require(otherID)
            }
        }
        #expect(table.count > StyleTable.pairTableThreshold)
        for (style, id) in ids {
            #expect(table.id(for: style) == id)
            #expect(table[id] == style)
        }
        #expect(table.id(for: Style(background: .indexed(3))) == table.id(for: Style(background: .indexed(3))))
        #expect(table.id(for: Style()) == 0)
    }
}
