import Testing

@testable import TermCore

@Suite("Memory layout")
struct LayoutTests {
    @Test("Cell is eight bytes") func cellIsEightBytes() {
        #expect(MemoryLayout<Cell>.size == 8)
        #expect(MemoryLayout<Cell>.stride == 8)
    }

    @Test("Empty cell is all zero") func emptyCellIsAllZero() {
        withUnsafeBytes(of: Cell.empty) { bytes in
            #expect(bytes.allSatisfy { $0 == 0 })
        }
    }

    @Test("Default style has ID zero") func defaultStyleHasIDZero() {
        var table = StyleTable()
        #expect(table.key(for: Style()) == .default)
        #expect(table.key(for: Style(flags: .italic)) == StyleKey(tableID: 1))
        #expect(table.key(for: Style(flags: .italic)) == StyleKey(tableID: 1))  // interned once
    }

    @Test("A full style table finds each style at its id again, through its index's rebuilds and a compaction")
    func aFullStyleTableFindsEachStyleAgain() throws {
        // Direct colours are table styles: 65,535 of them fill a table to its
        // limit, its index rebuilt at each doubling. Each is found again at
        // the id it was given, whichever way its slot was written (by the
        // lookup that added it, or by a rebuild), and none is added twice.
        var table = StyleTable()
        func style(_ index: Int) -> Style {
            Style(foreground: .rgb(UInt8(index & 0xFF), UInt8(index >> 8 & 0xFF), 7), background: .rgb(1, 2, 3))
        }
        for index in 1..<Limits.stylesPerPage {
            let found = table.key(for: style(index))
            let key = try #require(found)
            #expect(key == StyleKey(tableID: UInt16(index)))
        }
        #expect(table.isFull)
        let overflow = table.key(for: Style(foreground: .rgb(9, 9, 9), flags: .italic))
        #expect(overflow == nil)
        for index in 1..<Limits.stylesPerPage where table.key(for: style(index)) != StyleKey(tableID: UInt16(index)) {
            Issue.record("style \(index) not found at its id")
        }
        #expect(table.count == Limits.stylesPerPage)
        // Keep the odd ids: each kept style is found at its new id, each
        // dropped one is added anew.
        table.compact(
            markUsed: { mark in for id in stride(from: 1, to: Limits.stylesPerPage, by: 2) { mark(UInt16(id)) } },
            renumber: { _ in })
        #expect(table.count == 1 + Limits.stylesPerPage / 2)
        for index in stride(from: 1, to: Limits.stylesPerPage, by: 2)
        where table.key(for: style(index)) != StyleKey(tableID: UInt16((index + 1) / 2)) {
            Issue.record("kept style \(index) not found at its new id")
        }
        let new = table.key(for: style(2))
        let added = try #require(new)
        #expect(added == StyleKey(tableID: UInt16(1 + Limits.stylesPerPage / 2)))
        #expect(table[added] == style(2))
    }

    /// The colours an inline style may have: the default and the 256.
    static let inlineColours: [TerminalColor] = [.default] + (0..<256).map { TerminalColor.indexed(UInt8($0)) }
    /// The attributes an inline style may have (bold, single underline, inverse), by bits.
    static func inlineAttributes(_ bits: Int) -> (Style.Flags, Style.Underline) {
        var flags: Style.Flags = []
        if bits & 1 != 0 { flags.insert(.bold) }
        if bits & 4 != 0 { flags.insert(.inverse) }
        return (flags, bits & 2 != 0 ? .single : .none)
    }

    @Test("Inline styles need no table entry") func inlineStylesNeedNoTableEntry() throws {
        // Every foreground and background of the default and the 256, with
        // each of the 8 sets of attributes an inline style has: each is
        // carried in its key, one key per style, and the table keeps only
        // the default style.
        var table = StyleTable()
        var keys = Set<UInt32>()
        for (fgIndex, foreground) in Self.inlineColours.enumerated() {
            for (bgIndex, background) in Self.inlineColours.enumerated() {
                // All 8 sets for a few colours, one (in turn) for the rest.
                let sets = fgIndex % 64 == 0 ? Array(0..<8) : [(fgIndex + bgIndex) % 8]
                for bits in sets {
                    let (flags, underline) = Self.inlineAttributes(bits)
                    let style = Style(
                        foreground: foreground, background: background, flags: flags, underline: underline)
                    let found = table.key(for: style)
                    let key = try #require(found)
                    #expect(table[key] == style)
                    #expect(key.isInline == (style != Style()))
                    #expect(keys.insert(key.rawValue).inserted)
                    #expect(Cell(scalar: 0x41, width: .narrow, style: key).styleKey == key)
                }
            }
        }
        #expect(table.count == 1)
        #expect(table.key(for: Style()) == .default)
        // Direct colours, another attribute, another underline or an
        // underline colour: table styles.
        let others = [
            Style(foreground: .rgb(1, 2, 3)), Style(background: .rgb(0, 0, 0)),
            Style(foreground: .indexed(1), flags: .dim), Style(flags: .italic), Style(flags: .blink),
            Style(flags: .hidden), Style(flags: .strikethrough), Style(flags: .overline),
            Style(flags: [.bold, .inverse, .dim]), Style(underline: .double), Style(underline: .curly),
            Style(foreground: .indexed(1), background: .indexed(2), underlineColor: .indexed(3)),
        ]
        for (offset, style) in others.enumerated() {
            let found = table.key(for: style)
            let key = try #require(found)
            #expect(!key.isInline)
            #expect(key == StyleKey(tableID: UInt16(offset + 1)))
            #expect(table[key] == style)
        }
    }

    @Test("Cell keeps its style key apart from its content") func cellKeepsItsStyleKeyApartFromItsContent() {
        // Every bit of the key in use: a palette foreground and background,
        // bold, underline and inverse.
        let pair = StyleKey(
            inline: Style(
                foreground: .indexed(255), background: .indexed(0), flags: [.bold, .inverse], underline: .single))!
        var cell = Cell(scalar: 0x1F600, width: .wide, style: pair)
        cell.content |= Cell.protectedFlag
        #expect(!cell.isWrittenBlank)
        #expect(cell.styleKey == pair)
        #expect(cell.value == 0x1F600 && cell.width == .wide && cell.isProtected && !cell.isCluster)
        cell.setCluster(7)
        #expect(cell.styleKey == pair && cell.value == 7 && cell.isCluster && cell.width == .wide)
        cell.styleKey = StyleKey(tableID: 0xFFFF)
        #expect(cell.styleKey == StyleKey(tableID: 0xFFFF) && !cell.styleKey.isInline && cell.namesTableStyle)
        #expect(cell.value == 7 && cell.isCluster && cell.width == .wide && cell.isProtected)
        cell.styleKey = pair
        #expect(cell.styleKey == pair && !cell.namesTableStyle)
        #expect(Cell.blank(style: .default) == Cell.empty)
        // A written blank keeps its flag apart from the style's bits.
        let blank = Cell.writtenBlank(style: pair)
        #expect(blank.isWrittenBlank && blank.styleKey == pair && blank.isBlank && !blank.isEmptyOrWrittenBlank)
        #expect(Cell.writtenBlank(style: .default).isEmptyOrWrittenBlank)
    }
}
