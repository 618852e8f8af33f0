import Testing

@testable import TermCore

/// A letter and one combining diacritical mark held in the cell's id
/// (`ClusterTable.pairID(base:mark:)`): every reader gets the same scalars
/// a table entry gave, and the pages keep no storage for them.
@Suite("Clusters of a letter and one mark held in the id")
struct ClusterPairTests {
    /// Scalars of a string, as cells report them.
    static func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

    @Test("Each letter below U+1000 with each mark of U+0300–U+036F is held in the id and reads back")
    func pairsReadBack() {
        var table = ClusterTable()
        let bases = Array(stride(from: UInt32(0x20), to: 0x1000, by: 7)) + [0xFFF]
        for base in bases {
            for mark in UInt32(0x300)...0x36F {
                guard let id = table.id(for: [base, mark]) else {
                    Issue.record("no id for \(base) + \(mark)")
                    return
                }
                #expect(ClusterTable.isPair(id) && id <= Cell.valueMask)
                #expect(Array(table[id]) == [base, mark] && table.count(of: id) == 2)
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2) { buffer in
                    table.copy(id, into: buffer)
                    #expect(Array(buffer) == [base, mark])
                }
                #expect(table.id(for: [base, mark]) == id)
            }
        }
        // A character below U+20000 and VS16, VS15 or ZWJ.
        let characters = Array(stride(from: UInt32(0x20), to: 0x2_0000, by: 97)) + [0x1_FFFF]
        for base in characters {
            for follower: UInt32 in [0xFE0F, 0xFE0E, 0x200D] {
                let id = table.id(for: [base, follower])
                #expect(id.map(ClusterTable.isPair) == true && id! <= Cell.valueMask)
                #expect(id.map { Array(table[$0]) } == [base, follower])
            }
        }
        #expect(table.count == 0)
        // A table's own ids stay under the pair flag.
        #expect(Limits.clustersPerPage <= Int(ClusterTable.pairFlag))
    }

    @Test("Clusters just outside the ranges go to the table, and read back from it")
    func othersAreTableEntries() {
        var table = ClusterTable()
        let clusters: [[UInt32]] = [
            [0x1000, 0x301], [0x1E01, 0x301], [0x61, 0x2FF], [0x61, 0x370], [0x61, 0x1DC0], [0x61, 0x20D7],
            [0x61, 0x301, 0x302], [0x1F44D, 0x1F3FD], [0x2764, 0xFE0F, 0x200D], [0x2_0000, 0xFE0F],
            [0x61, 0xFE00], [0x1F468, 0x200C],
        ]
        for (index, cluster) in clusters.enumerated() {
            let id = table.id(for: cluster)
            #expect(id == UInt32(index), "\(cluster)")
            #expect(Array(table[UInt32(index)]) == cluster)
        }
        #expect(table.count == clusters.count)
    }

    @Test("Decomposed text reads back letter and mark, fed whole or byte by byte, with no cluster in any page")
    func decomposedTextOnATerminal() {
        let word = "e\u{301}te\u{301} cafe\u{301} Zo\u{308}e\u{0327} Вя\u{306}тка α\u{301}λφα "
        let text = String(repeating: word, count: 7)
        let (whole, byteByByte) = fedWholeAndByteByByte(9, 4, text, scrollback: 20)
        #expect(CellGrid(whole) == CellGrid(byteByByte))
        // No page's cluster table holds an entry or any storage. (Not the
        // terminals' whole table bytes against the same text without its
        // marks: an array's capacity is what the allocator gave, which
        // varies with the heap's state, and the test ran beside others.)
        for terminal in [whole, byteByByte] {
            #expect(PageEraTests.entries(terminal).clusters == 0)
            let pages = terminal.state.active.pages + terminal.state.inactive.pages
            #expect(pages.reduce(0) { $0 + $1.clusters.heapBytes } == 0)
        }
        let terminal = Terminal(columns: 20, rows: 2, scrollback: 0)
        terminal.feed(word)
        #expect(terminal.cell(at: ScreenPosition(row: 0, column: 0)).scalars == Self.scalars("e\u{301}"))
        #expect(terminal.cell(at: ScreenPosition(row: 0, column: 1)).scalars == Self.scalars("t"))
        #expect(terminal.cell(at: ScreenPosition(row: 0, column: 10)).scalars == Self.scalars("o\u{308}"))
        #expect(terminal.cell(at: ScreenPosition(row: 0, column: 11)).scalars == Self.scalars("e\u{327}"))
        #expect(terminal.cell(at: ScreenPosition(row: 0, column: 14)).scalars == Self.scalars("я\u{306}"))
        #expect(terminal.screenLine(0) == "e\u{301}te\u{301} cafe\u{301} Zo\u{308}e\u{327} Вя\u{306}тка α\u{301}")
        // Emoji sequences a scalar at a time (no mode 2027): the first
        // emoji with its joiner or selector is a pair in one cell.
        let emoji = Terminal(columns: 20, rows: 2, scrollback: 0)
        emoji.feed("\u{1F468}\u{200D}\u{1F4BB}\u{2708}\u{FE0F}x\u{2764}\u{FE0F}\u{200D}\u{1F525}")
        #expect(emoji.cell(at: ScreenPosition(row: 0, column: 0)).scalars == Self.scalars("\u{1F468}\u{200D}"))
        #expect(emoji.cell(at: ScreenPosition(row: 0, column: 2)).scalars == Self.scalars("\u{1F4BB}"))
        #expect(emoji.cell(at: ScreenPosition(row: 0, column: 4)).scalars == Self.scalars("\u{2708}\u{FE0F}"))
        #expect(emoji.cell(at: ScreenPosition(row: 0, column: 6)).scalars == Self.scalars("\u{2764}\u{FE0F}\u{200D}"))
        #expect(PageEraTests.entries(emoji).clusters == 1)
    }

    @Test("A second mark moves the cluster to the table; REP, a reflow and a copy to another page keep pairs")
    func pairsThroughEveryPath() {
        // A second mark: three scalars, one table entry.
        let terminal = Terminal(columns: 10, rows: 4, scrollback: 20, rowsPerPage: 1)
        terminal.feed("o\u{302}\u{323}a\u{301}")
        #expect(terminal.cell(at: ScreenPosition(row: 0, column: 0)).scalars == Self.scalars("o\u{302}\u{323}"))
        #expect(terminal.cell(at: ScreenPosition(row: 0, column: 1)).scalars == Self.scalars("a\u{301}"))
        #expect(PageEraTests.entries(terminal).clusters == 1)
        // REP repeats the pair (ECMA-48 8.3.103), across a wrap into the
        // next row's page.
        terminal.feed("\u{1B}[10b")
        #expect(terminal.screenLine(0) == "o\u{302}\u{323}" + String(repeating: "a\u{301}", count: 9))
        #expect(terminal.screenLine(1) == String(repeating: "a\u{301}", count: 2))
        // A reflow to fewer columns moves cells to rows of other pages.
        terminal.resize(columns: 4, rows: 4)
        let text = (0..<4).map { terminal.screenLine($0) }.joined()
        #expect(text == "o\u{302}\u{323}" + String(repeating: "a\u{301}", count: 11))
        #expect(PageEraTests.entries(terminal).clusters >= 1)
        // Insert mode takes the general path: the same cells.
        let inserted = Terminal(columns: 10, rows: 2, scrollback: 0)
        inserted.feed("\u{1B}[4hxy\u{1B}[1Gu\u{308}")
        #expect(inserted.screenLine(0) == "u\u{308}xy")
        #expect(PageEraTests.entries(inserted).clusters == 0)
    }

    @Test("Mode 2027: a pair is one narrow cell; a snapshot reads its letter and mark")
    func pairsUnderGraphemeClusteringAndReaders() {
        let terminal = Terminal(columns: 10, rows: 2, scrollback: 0)
        terminal.feed("\u{1B}[?2027he\u{301}x")
        #expect(terminal.cell(at: ScreenPosition(row: 0, column: 0)).scalars == Self.scalars("e\u{301}"))
        #expect(terminal.cell(at: ScreenPosition(row: 0, column: 1)).scalars == Self.scalars("x"))
        #expect(terminal.cursor.position.column == 2)
        let snapshot = terminal.snapshot()
        #expect(snapshot.line(0).text.hasPrefix("e\u{301}x"))
        #expect(snapshot.line(0).cell(0).scalars == Self.scalars("e\u{301}"))
    }
}
