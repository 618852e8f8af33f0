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
        #expect(table.key(for: Style()) == .default)
        #expect(table.key(for: Style(flags: .bold)) == StyleKey(tableID: 1))
        #expect(table.key(for: Style(flags: .bold)) == StyleKey(tableID: 1))  // interned once
    }

    @Test func palettePairsNeedNoTableEntry() throws {
        // All 65,536 pairs of palette colours: each is carried in its key,
        // the table keeps only the default style.
        var table = StyleTable()
        for foreground in 0..<256 {
            for background in 0..<256 {
                let style = Style(foreground: .indexed(UInt8(foreground)), background: .indexed(UInt8(background)))
                let found = table.key(for: style)
                let key = try #require(found)
                #expect(key.isPalettePair)
                #expect(table[key] == style)
            }
        }
        #expect(table.count == 1)
        // A default colour, an attribute or an underline colour: table styles.
        let others = [
            Style(foreground: .indexed(1)), Style(background: .indexed(2)),
            Style(foreground: .indexed(1), background: .indexed(2), flags: .bold),
            Style(foreground: .indexed(1), background: .indexed(2), underline: .single),
            Style(foreground: .indexed(1), background: .indexed(2), underlineColor: .indexed(3)),
            Style(foreground: .rgb(1, 2, 3), background: .indexed(2)),
        ]
        for (offset, style) in others.enumerated() {
            let found = table.key(for: style)
            let key = try #require(found)
            #expect(!key.isPalettePair)
            #expect(key == StyleKey(tableID: UInt16(offset + 1)))
            #expect(table[key] == style)
        }
    }

    @Test func cellKeepsItsStyleKeyApartFromItsContent() {
        let pair = StyleKey(palettePair: Style(foreground: .indexed(255), background: .indexed(0)))!
        var cell = Cell(scalar: 0x1F600, width: .wide, style: pair)
        cell.content |= Cell.protectedFlag
        #expect(cell.styleKey == pair)
        #expect(cell.value == 0x1F600 && cell.width == .wide && cell.isProtected && !cell.isCluster)
        cell.setCluster(7)
        #expect(cell.styleKey == pair && cell.value == 7 && cell.isCluster && cell.width == .wide)
        cell.styleKey = StyleKey(tableID: 0xFFFF)
        #expect(cell.styleKey == StyleKey(tableID: 0xFFFF) && !cell.styleKey.isPalettePair)
        #expect(cell.value == 7 && cell.isCluster && cell.width == .wide && cell.isProtected)
        cell.styleKey = pair
        #expect(cell.styleKey == pair)
        #expect(Cell.blank(style: .default) == Cell.empty)
    }
}
