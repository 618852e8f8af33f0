import Testing

@testable import TermCore

/// Page-local tables (issue #17): no count of distinct styles, links or
/// clusters is too many. With one terminal-wide table of 65,536 styles,
/// colours were lost past it, and every new style then scanned the whole
/// scrollback; now each cell keeps its own, and compaction visits one page.
@Suite("Pages: distinct styles, links and clusters")
struct PageTableTests {
    static let sizes = [(80, 24), (200, 50)]
    static let count = 300_000

    /// The cells of buffer line `line` (scrollback first, then the screen)
    /// and the tables of their page.
    static func line(_ terminal: Terminal, _ line: Int) -> (cells: UnsafePointer<Cell>, tables: PageTables) {
        let grid = terminal.state.primary
        if line < grid.historyCount {
            let history = ScrollbackLine(line)
            return (UnsafePointer(grid.historyRow(history)), grid.tables(ofHistoryLine: history))
        }
        let row = line - grid.historyCount
        return (grid.readRow(ScreenRow(row)), grid.tables(ofScreenRow: ScreenRow(row)))
    }

    /// Feeds `count` cells printed one after the other, each made by `piece`,
    /// and checks each with `check`, both given the cell's index.
    static func everyCellKept(
        columns: Int, rows: Int, piece: (Int) -> String, check: (Int, Cell, PageTables) -> Bool
    ) -> (terminal: Terminal, wrong: [Int]) {
        let terminal = Terminal(columns: columns, rows: rows, scrollback: 10_000)
        var input: [UInt8] = []
        input.reserveCapacity(count * 40)
        for index in 0..<count { input += Array(piece(index).utf8) }
        terminal.feed(input)
        let lines = count / columns
        #expect(terminal.scrollbackCount + terminal.rows == lines + (lines >= rows ? 0 : rows - lines))
        var wrong: [Int] = []
        for line in 0..<lines {
            let (cells, tables) = Self.line(terminal, line)
            for column in 0..<columns where !check(line * columns + column, cells[column], tables) {
                wrong.append(line * columns + column)
                if wrong.count == 5 { return (terminal, wrong) }
            }
        }
        return (terminal, wrong)
    }

    static func color(_ index: Int) -> (Int, Int, Int) { (index & 0xFF, (index >> 8) & 0xFF, index >> 16) }

    @Test(
        "300,000 distinct truecolor styles with 10,000 lines of scrollback: every cell keeps its own", arguments: sizes)
    func distinctStylesAreAllKept(columns: Int, rows: Int) {
        let (terminal, wrong) = Self.everyCellKept(
            columns: columns, rows: rows,
            piece: { index in
                let (red, green, blue) = Self.color(index)
                return "\u{1B}[38;2;\(red);\(green);\(blue)m\(Character(UnicodeScalar(UInt8(97 + index % 26))))"
            },
            check: { index, cell, tables in
                let (red, green, blue) = Self.color(index)
                return cell.value == UInt32(97 + index % 26)
                    && tables.style(of: cell).foreground == .rgb(UInt8(red), UInt8(green), UInt8(blue))
            })
        #expect(wrong.isEmpty, "cells \(wrong)")
        // Each page holds fewer cells than its table has ids: no compaction.
        #expect(terminal.counters.styleCompactions == 0)
        #expect(terminal.styleCount >= Self.count - columns * rows)
        // The tables cost a bounded amount per style: a 16-byte style, its
        // index slot, and at most doubled capacity of each.
        let usage = terminal.storageUsage
        let perStyle = Double(usage.tableBytes) / Double(terminal.styleCount)
        #expect(perStyle <= 64, "\(perStyle) table bytes per style")
    }

    @Test(
        "300,000 distinct OSC 8 links with ids and 10,000 lines of scrollback: every cell keeps its own",
        arguments: sizes)
    func distinctLinksAreAllKept(columns: Int, rows: Int) {
        let (terminal, wrong) = Self.everyCellKept(
            columns: columns, rows: rows,
            piece: { index in "\u{1B}]8;id=l\(index);https://example.com/\(index)\u{1B}\\x" },
            check: { index, cell, tables in
                tables.link(of: cell) == Hyperlink(uri: "https://example.com/\(index)", id: "l\(index)")
            })
        #expect(wrong.isEmpty, "cells \(wrong)")
        #expect(terminal.counters.hyperlinkCompactions == 0)
    }

    /// Base letter and two combining marks: 26 × 112 × 112 distinct clusters.
    static func cluster(_ index: Int) -> [UInt32] {
        [97 + UInt32(index % 26), 0x300 + UInt32((index / 26) % 112), 0x300 + UInt32((index / (26 * 112)) % 112)]
    }

    @Test(
        "300,000 distinct grapheme clusters with 10,000 lines of scrollback: every cell keeps its own", arguments: sizes
    )
    func distinctClustersAreAllKept(columns: Int, rows: Int) {
        let (terminal, wrong) = Self.everyCellKept(
            columns: columns, rows: rows,
            piece: { index in String(String.UnicodeScalarView(Self.cluster(index).compactMap(Unicode.Scalar.init))) },
            check: { index, cell, tables in cell.isCluster && Array(tables.clusters[cell.value]) == Self.cluster(index) })
        #expect(wrong.isEmpty, "cells \(wrong)")
        #expect(terminal.counters.clusterCompactions == 0)
    }

    @Test("Styles written over and over the same screen: compactions visit a page's cells, linear in the styles")
    func compactionWorkIsLinear() {
        // 80×24 with 10,000 lines of scrollback: the screen's rows lie in
        // one or two pages; 300,000 distinct styles over the same 1,920
        // cells fill their tables again and again. Each compaction visits
        // one page (≤ 49,152 cells) once per 16,384 new styles at least, so
        // the cells visited stay within a small multiple of the styles.
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 10_000)
        var input: [UInt8] = []
        for index in 0..<Self.count {
            if index % 1_920 == 0 { input += Array("\u{1B}[H".utf8) }
            let (red, green, blue) = Self.color(index)
            input += Array("\u{1B}[48;2;\(red);\(green);\(blue)mx".utf8)
        }
        terminal.feed(input)
        #expect(terminal.counters.styleCompactions > 0)
        let visits = terminal.state.active.compactionCellVisits
        #expect(visits <= 4 * Self.count, "\(visits) cells visited for \(Self.count) styles")
        // And each cell has the style it was given last.
        for cell in 0..<1_920 {
            let index = cell + 1_920 * ((Self.count - 1 - cell) / 1_920)
            let (red, green, blue) = Self.color(index)
            let style = terminal.cell(at: ScreenPosition(row: cell / 80, column: cell % 80)).style
            if style.background != .rgb(UInt8(red), UInt8(green), UInt8(blue)) {
                Issue.record("cell \(cell): \(style)")
                break
            }
        }
    }

    @Test("Storage by kind: 8-byte cells and a fixed row overhead for every slot of both screens, tables apart")
    func storageUsageByKind() {
        // 80×24 with 10,000 lines of scrollback: the primary screen has
        // 10,024 row slots, the alternate 24, each of 80 cells.
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 10_000)
        let fresh = terminal.storageUsage
        #expect(fresh.cells == 80 * (10_024 + 24))
        #expect(fresh.cellBytes == 8 * fresh.cells)
        #expect(fresh.rowBytes > 0 && fresh.rowBytes <= 32 * (10_024 + 24))
        // Issue #17: at most 8.5 bytes per cell, row and page overhead in.
        #expect(fresh.bytesPerCell <= 8.5, "\(fresh.bytesPerCell) bytes per cell")
        // Styles grow the tables only; the cells and rows stay as they were.
        var input: [UInt8] = []
        for index in 0..<5_000 {
            let (red, green, blue) = Self.color(index)
            input += Array("\u{1B}[38;2;\(red);\(green);\(blue)mx".utf8)
        }
        terminal.feed(input)
        let used = terminal.storageUsage
        #expect(used.cellBytes == fresh.cellBytes && used.rowBytes == fresh.rowBytes)
        #expect(used.tableBytes >= fresh.tableBytes + 5_000 * MemoryLayout<Style>.stride)
    }

    @Test("A cluster table finds every cluster it holds by its scalars, before and after a compaction")
    func clusterTableLookups() {
        // 20,000 distinct clusters of two to four scalars (many share a
        // prefix, and their hashes collide in the index's slots), on
        // letters of Latin Extended Additional: no pair an id holds.
        func cluster(_ index: Int) -> [UInt32] {
            [0x1E00 + UInt32(index % 26), 0x300 + UInt32(index / 26 % 112)]
                + (index >= 2_912 ? [0x301, UInt32(index)] : [])
        }
        var table = ClusterTable()
        var ids: [UInt32] = []
        for index in 0..<20_000 { ids.append(table.id(for: cluster(index)) ?? .max) }
        #expect(Set(ids).count == 20_000 && table.count == 20_000)
        for index in 0..<20_000 where table.id(for: cluster(index)) != ids[index] {
            Issue.record(
                "cluster \(index) found as \(String(describing: table.id(for: cluster(index)))), not \(ids[index])")
            break
        }
        #expect(table.count == 20_000)
        // Keep every third: the kept ones are found at their new ids, the
        // others are new again.
        let used = (0..<20_000).map { $0 % 3 == 0 }
        let map = compact(&table, keeping: used)
        #expect(table.count == (20_000 + 2) / 3)
        for index in stride(from: 0, to: 20_000, by: 3) where table.id(for: cluster(index)) != map[Int(ids[index])] {
            Issue.record("kept cluster \(index) not at its new id")
            break
        }
        #expect(table.count == (20_000 + 2) / 3)
        #expect(table.id(for: cluster(1)) == UInt32((20_000 + 2) / 3))
    }
}
