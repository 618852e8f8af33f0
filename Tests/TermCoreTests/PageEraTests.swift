import Testing

@testable import TermCore

/// Page eras (issue #17: "tables reset in O(1), only once all their rows have
/// left the N-line window"). Output scrolling through a full scrollback
/// replaces a page's lines one by one; once every line that named an era's
/// entries is gone, the era's tables are emptied without visiting a cell, so
/// the tables hold about two pages' worth of entries per page however long
/// the session, and no compaction is needed.
@Suite("Page eras: a page's tables are freed at once when their lines have left the window")
struct PageEraTests {
    static func color(_ index: Int) -> (Int, Int, Int) { (index & 0xFF, (index >> 8) & 0xFF, (index >> 16) & 0xFF) }

    static func truecolor(_ index: Int) -> String {
        let (red, green, blue) = color(index)
        return "\u{1B}[38;2;\(red);\(green);\(blue)m"
    }

    /// The table entries of every page and era of both screens, by kind,
    /// besides each table's default or empty entry.
    static func entries(_ terminal: Terminal) -> (styles: Int, links: Int, clusters: Int) {
        let tables = terminal.state.active.pages + terminal.state.inactive.pages
        return (
            tables.reduce(0) { $0 + $1.styles.count - 1 }, tables.reduce(0) { $0 + $1.links.count - 1 },
            tables.reduce(0) { $0 + $1.clusters.count }
        )
    }

    /// The cell at `column` of buffer line `line` of the primary screen
    /// (scrollback first).
    static func cell(_ terminal: Terminal, line: Int, column: Int) -> CellContent {
        line < terminal.scrollbackCount
            ? terminal.scrollbackCell(line: ScrollbackLine(line), column: column)
            : terminal.cell(at: ScreenPosition(row: line - terminal.scrollbackCount, column: column))
    }

    @Test("480,000 distinct truecolor styles through 1,000 lines of scrollback: no compaction, tables bounded")
    func distinctStylesScrollingThroughAFullScrollback() {
        // 80 columns: 512 rows a page, so the 1,024 slots are two pages.
        // Each era then holds at most 512 lines of 80 styles (40,960, under
        // a table's 65,536 ids): the resets free every table before it
        // fills, where before each page compacted its table over and over.
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 1_000)
        let lines = 6_000
        var input: [UInt8] = []
        input.reserveCapacity(lines * 80 * 20)
        for line in 0..<lines {
            for column in 0..<80 { input += Array((Self.truecolor(line * 80 + column) + "x").utf8) }
            if line < lines - 1 { input += [0x0D, 0x0A] }
        }
        terminal.feed(input)
        #expect(terminal.scrollbackCount == 1_000)
        let counters = terminal.counters
        #expect(counters.styleCompactions == 0)
        #expect(terminal.state.active.compactionCellVisits == 0)
        // The ring first wraps after 1,024 lines; after that each page
        // empties an era every 512 lines.
        #expect(counters.tableResets >= (lines - 1_024) / 512 - 2, "\(counters.tableResets) resets")
        // At most two eras of 512 lines of 80 styles for each of the two
        // pages; without the resets, every one of the 480,000 but those the
        // compactions freed.
        let styles = Self.entries(terminal).styles
        #expect(styles <= 2 * 1_024 * 80, "\(styles) styles held")
        // Every cell of the 1,024 lines kept has its own colour.
        let first = lines - 1_024
        var wrong = 0
        for line in 0..<1_024 {
            for column in 0..<80 {
                let (red, green, blue) = Self.color((first + line) * 80 + column)
                let style = Self.cell(terminal, line: line, column: column).style
                if style.foreground != .rgb(UInt8(red), UInt8(green), UInt8(blue)) { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) cells with another colour")
    }

    @Test("30,000 lines with a link each through 10,000 lines of scrollback: the links of lines gone are freed")
    func linksOfLinesGoneAreFreed() {
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 10_000)
        let lines = 30_000
        var input: [UInt8] = []
        for line in 0..<lines {
            input += Array("\u{1B}]8;id=\(line);https://example.com/\(line)\u{1B}\\line \(line)\r\n".utf8)
        }
        terminal.feed(input)
        #expect(terminal.counters.hyperlinkCompactions == 0)
        #expect(terminal.counters.tableResets > 0)
        // 10,024 slots in 20 pages of 512: at most two eras of 512 lines
        // each, where before the tables kept all 30,000.
        let links = Self.entries(terminal).links
        #expect(links <= 2 * 20 * 512, "\(links) links held")
        // The lines kept have their own links.
        let total = terminal.scrollbackCount + terminal.rows
        let firstLine = lines + 1 - total
        for line in stride(from: 0, to: total - 1, by: 97) {
            let link = Self.cell(terminal, line: line, column: 0).hyperlink
            let number = firstLine + line
            #expect(link == Hyperlink(uri: "https://example.com/\(number)", id: "\(number)"), "line \(line)")
        }
    }

    @Test("30,000 lines with a grapheme cluster each through 10,000 lines of scrollback: clusters of lines gone freed")
    func clustersOfLinesGoneAreFreed() {
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 10_000)
        let lines = 30_000
        func cluster(_ line: Int) -> [Unicode.Scalar] {
            // Letters of Latin Extended Additional: each pair of a letter and
            // a mark is a table entry (no id holds it).
            [Unicode.Scalar(0x1E00 + UInt32(line % 26))!, Unicode.Scalar(0x300 + UInt32(line / 26 % 112))!]
                + (line >= 2_912 ? [Unicode.Scalar(0x300 + UInt32(line / 2_912 % 112))!] : [])
        }
        var input: [UInt8] = []
        for line in 0..<lines { input += Array((String(String.UnicodeScalarView(cluster(line))) + "\r\n").utf8) }
        terminal.feed(input)
        #expect(terminal.counters.clusterCompactions == 0)
        #expect(terminal.counters.tableResets > 0)
        // A line of three scalars interns two clusters (its first two
        // scalars, then all three: clusters are built as the marks come), so
        // at most two eras of 512 lines of two clusters in each of the 20
        // pages, where before the tables kept all 57,088.
        let clusters = Self.entries(terminal).clusters
        #expect(clusters <= 2 * 20 * 512 * 2, "\(clusters) clusters held")
        let total = terminal.scrollbackCount + terminal.rows
        let firstLine = lines + 1 - total
        for line in stride(from: 0, to: total - 1, by: 89) {
            #expect(Self.cell(terminal, line: line, column: 0).scalars == cluster(firstLine + line), "line \(line)")
        }
    }

    @Test("A reset empties an era's tables in place: the eras after it fill the same arrays")
    func resetsKeepTheArrays() {
        // One style a line through 1,000 lines of scrollback (two pages of
        // 512 slots): after the first passes every era holds 512 styles, so
        // the arrays have the size they need, and later resets must reuse
        // them (fresh tables made each era allocate as they grew again).
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 1_000)
        func feed(_ lines: Range<Int>) {
            var input: [UInt8] = []
            for line in lines { input += Array((Self.truecolor(line) + "line \(line)\r\n").utf8) }
            terminal.feed(input)
        }
        func storage() -> [UnsafeRawPointer?] {
            terminal.state.primary.pages.map { tables in
                tables.styles.styles.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            }
        }
        feed(0..<4_000)
        let before = storage()
        let resets = terminal.counters.tableResets
        feed(4_000..<8_000)
        #expect(terminal.counters.tableResets >= resets + 6)
        #expect(storage() == before)
    }

    @Test("A snapshot taken before a page's era is reset keeps its rows' styles")
    func snapshotOutlivesAReset() {
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 1_000)
        var input: [UInt8] = []
        for line in 0..<1_100 { input += Array((Self.truecolor(line) + "line \(line)\r\n").utf8) }
        terminal.feed(input)
        let snapshot = terminal.snapshot(scrollback: 0..<terminal.scrollbackCount)
        let resetsBefore = terminal.counters.tableResets
        // A page's worth of lines more empties an era of each page.
        input = []
        for line in 1_100..<2_200 { input += Array((Self.truecolor(line) + "line \(line)\r\n").utf8) }
        terminal.feed(input)
        #expect(terminal.counters.tableResets > resetsBefore)
        // The snapshot's first scrollback line is line 1_100 + 1 - 1_024 = 77.
        #expect(snapshot.scrollbackCount == 1_000)
        for index in snapshot.scrollbackRange {
            let (red, green, blue) = Self.color(77 + index)
            let cell = snapshot.scrollbackLine(index).cell(0)
            guard cell.style.foreground == .rgb(UInt8(red), UInt8(green), UInt8(blue)) else {
                Issue.record("scrollback line \(index): \(cell.style)")
                break
            }
        }
    }

    @Test("Rows a scroll region moves start no era: the page compacts instead, and every row keeps its style")
    func rowsOfARegionStartNoEra() {
        // The top row written once, above a region that scrolls 70,000
        // lines of distinct styles (more than a table's ids) and sends none
        // to the scrollback: no line is dropped from it, so no era ends, and
        // the table of the screen's page is compacted when it fills.
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 1_000)
        var input = Array("\u{1B}[H\u{1B}[38;2;1;2;3mheader\u{1B}[2;24r\u{1B}[24;1H".utf8)
        let lines = 70_000
        for line in 0..<lines { input += Array((Self.truecolor(line) + "x\r\n").utf8) }
        terminal.feed(input)
        #expect(terminal.cell(at: ScreenPosition(row: 0, column: 0)).style.foreground == .rgb(1, 2, 3))
        #expect(terminal.counters.styleCompactions > 0)
        #expect(terminal.counters.tableResets == 0)
        // The region's rows above the cursor's: the last 22 lines.
        for row in 1..<23 {
            let (red, green, blue) = Self.color(lines - 23 + row)
            #expect(
                terminal.cell(at: ScreenPosition(row: row, column: 0)).style.foreground
                    == .rgb(UInt8(red), UInt8(green), UInt8(blue)), "row \(row)")
        }
    }
}
