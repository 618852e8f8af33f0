import Testing

@testable import TermCore

/// A page's style and link tables are compacted when they hold
/// ``Limits/tableEntries(cells:)`` entries, the smallest power of two of at
/// least 5/4 of the page's cells (and 64 more): pages of 200 columns (128 rows, 25,600
/// cells) at 32,768, where every table used to grow to 65,536 under output
/// that makes every cell a new style or link.
@Suite("Page tables are sized to their page")
struct TableLimitTests {
    @Test("The limit is the smallest power of two of at least 5/4 of the cells and 64 more, at most 65,536")
    func theLimitFollowsTheRule() {
        let sizes = [1, 2, 3, 64, 65, 100, 13_107, 13_108, 16_896, 25_600, 26_214, 26_215, 40_960, Limits.cellsPerPage]
        for cells in sizes {
            let limit = Limits.tableEntries(cells: cells)
            #expect(limit & (limit - 1) == 0, "\(cells): \(limit) is a power of two")
            #expect(limit <= Limits.stylesPerPage)
            // At least 5/4 of the cells and 64 more than them, and half of
            // it is not.
            let beyond = Limits.tableEntriesBeyondCells
            #expect(limit * 4 >= cells * 5 && limit >= cells + beyond, "\(cells): \(limit)")
            #expect((limit / 2) * 4 < cells * 5 || limit / 2 < cells + beyond, "\(cells): \(limit)")
        }
        // Worked out by hand from the rule: 1 + 64 → 128; 65 + 64 → 256;
        // 5/4 of 25,600 is 32,000 → 32,768; of 26,215, 32,768.75 → 65,536.
        let expected = [1: 128, 64: 128, 65: 256, 100: 256, 25_600: 32_768, 26_214: 32_768, 26_215: 65_536]
        for (cells, limit) in expected { #expect(Limits.tableEntries(cells: cells) == limit, "\(cells) cells") }
        #expect(Limits.tableEntries(cells: 200 * Grid.rowsPerPage(columns: 200)) == 32_768)
        #expect(Limits.tableEntries(cells: 80 * Grid.rowsPerPage(columns: 80)) == 65_536)
        // A page's tables: a link table stops at its 65,535 ids.
        let largest = PageTables(cells: Limits.cellsPerPage)
        #expect(largest.styles.limit == 65_536 && largest.links.limit == 65_535)
        let wide = PageTables(cells: 25_600)
        #expect(wide.styles.limit == 32_768 && wide.links.limit == 32_768)
    }

    @Test("Every page of both screens gets its page's limit, after a resize too")
    func gridsGiveTheirPagesTheirLimit() {
        func limits(_ terminal: Terminal) -> Set<Int> {
            let pages = terminal.state.active.pages + terminal.state.inactive.pages
            return Set(pages.flatMap { [$0.styles.limit, $0.links.limit] })
        }
        let terminal = Terminal(columns: 200, rows: 50, scrollback: 1_000)
        #expect(limits(terminal) == [32_768])
        terminal.feed(Array("\u{1B}[?1049h".utf8))  // the alternate screen active
        #expect(limits(terminal) == [32_768])
        terminal.resize(columns: 80, rows: 24)
        #expect(limits(terminal) == [65_536, 65_535])
        terminal.resize(columns: 200, rows: 50)
        #expect(limits(terminal) == [32_768])
    }

    /// A page of one cell written again and again, each time in a new
    /// foreground and background after an erase in the pen's background:
    /// the cell's style, the pen's and the erase blank's all need entries,
    /// and a compaction must leave room for them (a table of 2 entries, 5/4
    /// of one cell, compacted for ever).
    @Test(
        "A one-cell page with a new pen and erase blank at every write keeps the last style", .timeLimit(.minutes(1)))
    func oneCellPagesKeepEveryStyle() {
        let terminal = Terminal(columns: 1, rows: 3, scrollback: 4, rowsPerPage: 1)
        for index in 0..<300 {
            let (red, green, blue) = (index & 0xFF, index >> 8, 7)
            let pen = "\u{1B}[38;2;\(red);\(green);\(blue);48;2;\(blue);\(green);\(red)m"
            terminal.feed(Array("\(pen)\u{1B}[2Kx\u{1B}[H".utf8))
        }
        #expect(terminal.counters.styleCompactions > 0)
        let grid = terminal.state.primary
        let row = ScreenRow(0)
        let style = grid.tables(ofScreenRow: row).style(of: grid.readRow(row)[0])
        // Write 299: red 43, green 1.
        #expect(style.foreground == .rgb(43, 1, 7))
        #expect(style.background == .rgb(7, 1, 43))
    }

    /// Frames of 200×50 cells, each cell a new style (or link), on a screen
    /// with no scrollback: its one page fills its tables again and again,
    /// and compacts them at 32,768 (four frames, 40,000 entries, fit the
    /// 65,536 ids of a table with no compaction).
    static func frames(_ count: Int, cell: (_ frame: Int, _ index: Int) -> String) -> Terminal {
        let terminal = Terminal(columns: 200, rows: 50, scrollback: 0)
        for frame in 0..<count {
            var input = Array("\u{1B}[H".utf8)
            for index in 0..<(200 * 50) { input += Array(cell(frame, index).utf8) }
            terminal.feed(input)
        }
        return terminal
    }

    static func color(_ frame: Int, _ index: Int) -> (Int, Int, Int) { (frame, index >> 8, index & 0xFF) }

    /// The screen's cells for which `isRight(index, cell, tables)` is false,
    /// counted (`index` runs over the screen row by row).
    static func wrongCells(_ terminal: Terminal, isRight: (Int, Cell, PageTables) -> Bool) -> Int {
        let grid = terminal.state.primary
        var wrong = 0
        for row in 0..<terminal.rows {
            let cells = grid.readRow(ScreenRow(row))
            let tables = grid.tables(ofScreenRow: ScreenRow(row))
            for column in 0..<terminal.columns where !isRight(row * terminal.columns + column, cells[column], tables) {
                wrong += 1
            }
        }
        return wrong
    }

    @Test("Truecolor frames at 200 columns keep every cell's style in tables of at most 32,768")
    func truecolorFramesStayWithinTheLimit() {
        let terminal = Self.frames(4) { frame, index in
            let (red, green, blue) = Self.color(frame, index)
            return "\u{1B}[38;2;\(red);\(green);\(blue)mx"
        }
        // 40,000 styles through a page whose tables hold 32,768: compacted.
        #expect(terminal.counters.styleCompactions > 0)
        let grid = terminal.state.primary
        for page in grid.pages {
            #expect(page.styles.count <= 32_768)
            // Never grown to the 65,536 of the 16-bit ids (the array's
            // capacity may exceed what was asked by the allocator's rounding).
            #expect(page.styles.styles.capacity < 65_536)
        }
        let wrong = Self.wrongCells(terminal) { index, cell, tables in
            let (red, green, blue) = Self.color(3, index)
            return tables.style(of: cell).foreground == .rgb(UInt8(red), UInt8(green), UInt8(blue))
        }
        #expect(wrong == 0)
    }

    @Test("A link a cell at 200 columns keeps every cell's link in tables of at most 32,768")
    func linkFramesStayWithinTheLimit() {
        let terminal = Self.frames(4) { frame, index in "\u{1B}]8;;https://e.org/\(frame)/\(index)\u{1B}\\x" }
        #expect(terminal.counters.hyperlinkCompactions > 0)
        let grid = terminal.state.primary
        for page in grid.pages {
            #expect(page.links.count <= 32_768)
            #expect(page.links.entries.capacity < 65_535)
        }
        let wrong = Self.wrongCells(terminal) { index, cell, tables in
            tables.link(of: cell)?.uri == "https://e.org/3/\(index)"
        }
        #expect(wrong == 0)
    }
}
