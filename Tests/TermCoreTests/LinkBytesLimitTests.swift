import Testing

@testable import TermCore

/// A page's link table is compacted when its links pass
/// ``Limits/linkBytes(cells:)`` bytes (64 a cell, at least 64 KiB), or twice
/// what its last compaction kept: links no cell names cost a bounded amount,
/// and links cells name are all kept. Its entries alone let one page hold
/// 65,535 links of 4 KiB.
@Suite("A page's links are bounded by their bytes")
struct LinkBytesLimitTests {
    /// A URI of `length` bytes, different for each `index`.
    static func uri(_ index: Int, length: Int) -> String {
        let head = "https://e.example/\(index)/"
        return head + String(repeating: "a", count: length - head.utf8.count)
    }

    /// An OSC 8 to `uri`, one character in it, and the OSC 8 that ends it.
    static func linked(_ uri: String) -> String { "\(ESC)]8;;\(uri)\(ESC)\\X\(ESC)]8;;\(ESC)\\" }

    /// The link table of the page screen row `row` is stored in.
    static func links(_ terminal: Terminal, row: Int) -> HyperlinkTable {
        terminal.state.active.tables(ofScreenRow: ScreenRow(row)).links
    }

    /// The heap bytes of `table`.
    static func heapBytes(_ table: HyperlinkTable) -> Int {
        var counted = Set<UnsafeRawPointer>()
        return table.heapBytes(counted: &counted)
    }

    /// The bytes of links of a page of 512 rows of 80 columns: 40,960 × 64.
    static let pageBytes = 2_621_440

    @Test("The limit is 64 bytes a cell of the page, and at least 64 KiB")
    func theLimitFollowsTheRule() {
        // Worked out by hand: 40,960 × 64 = 2,621,440; 25,600 × 64 =
        // 1,638,400; 1,025 × 64 = 65,600; 1,024 cells and fewer, 65,536.
        let expected = [1: 65_536, 80: 65_536, 1_024: 65_536, 1_025: 65_600, 25_600: 1_638_400, 40_960: 2_621_440]
        for (cells, bytes) in expected { #expect(Limits.linkBytes(cells: cells) == bytes, "\(cells) cells") }
        #expect(PageTables(cells: 80 * 512).links.byteLimit == Self.pageBytes)
        #expect(PageTables(cells: 200 * 128).links.byteLimit == 1_638_400)
        #expect(Self.links(Terminal(columns: 80, rows: 24, scrollback: 0), row: 0).byteLimit == Self.pageBytes)
    }

    @Test("A table refuses a link past its bytes; a compaction leaves room for as many as it kept")
    func aTableRefusesALinkPastItsBytes() throws {
        var table = HyperlinkTable(limit: 1_024, byteLimit: 65_536)
        func add(_ index: Int) -> UInt16? {
            // Keys of 4,000 bytes: 3 bytes of header and a URI of 3,997.
            Array(Self.uri(index, length: 3_997).utf8).withUnsafeBufferPointer { table.id(uri: $0, linkID: nil) }
        }
        // 16 fit in 65,536 bytes (64,000), the 17th does not.
        for index in 0..<16 { #expect(add(index) != nil, "link \(index)") }
        #expect(add(16) == nil)
        // Every link still named: the compaction keeps 64,000 bytes and
        // makes room for as many again (128,000).
        _ = compact(&table, keeping: [Bool](repeating: true, count: table.count))
        #expect(table.byteLimit == 128_000)
        for index in 16..<32 { #expect(add(index) != nil, "link \(index)") }
        #expect(add(32) == nil)
        // One link named: back to 65,536.
        var used = [Bool](repeating: false, count: table.count)
        used[1] = true
        _ = compact(&table, keeping: used)
        #expect(table.byteLimit == 65_536)
        #expect(add(32) != nil)
        // An era's reset: back to 65,536 as well.
        _ = compact(&table, keeping: [Bool](repeating: true, count: table.count))
        table.removeAll()
        #expect(table.byteLimit == 65_536)
    }

    @Test("Links no cell names are compacted away at the page's bytes", .timeLimit(.minutes(1)))
    func linksNoCellNamesAreCompactedAway() {
        // 2,000 links of 4 KiB, each new, over one cell: 8 MB of links, of
        // which the cell names one. The page (512 rows of 80 columns) holds
        // 2.5 MiB of them.
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 0)
        for index in 0..<2_000 { terminal.feed("\(CSI)H" + Self.linked(Self.uri(index, length: 4_096))) }
        // Its key bytes at most the limit, with the entries (16 bytes each)
        // and the index (2 bytes a slot) of the few hundred links that fit.
        #expect(Self.heapBytes(Self.links(terminal, row: 0)) < Self.pageBytes + 64 << 10)
        #expect(terminal.counters.hyperlinkCompactions >= 3)  // 8 MB in 2.5 MiB
        #expect(terminal.cellAt(0, 0).hyperlink?.uri == Self.uri(1_999, length: 4_096))
    }

    @Test("Links the cells name are all kept past the page's bytes, with few compactions", .timeLimit(.minutes(1)))
    func linksTheCellsNameAreAllKept() throws {
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 0)
        // 1,000 cells, each its own link of 4,000 bytes of key: 4 MB, past
        // the page's 2,621,440. The first compaction (at 655 links) keeps
        // them all and makes room for as many again.
        let uris = (0..<1_000).map { Self.uri($0, length: 3_997) }
        terminal.feed(uris.map(Self.linked).joined())
        for (cell, uri) in uris.enumerated() {
            #expect(terminal.cellAt(cell / 80, cell % 80).hyperlink?.uri == uri, "cell \(cell)")
        }
        #expect(terminal.counters.hyperlinkCompactions == 1)
        let named = 1_000 * 4_000
        #expect(Self.heapBytes(Self.links(terminal, row: 0)) < 2 * named + 64 << 10)

        // The cells erased, links over one cell: the next compaction keeps
        // one, and the table is back within the page's bytes.
        terminal.feed("\(CSI)2J")
        for index in 1_000..<3_000 { terminal.feed("\(CSI)H" + Self.linked(Self.uri(index, length: 3_997))) }
        #expect(terminal.counters.hyperlinkCompactions >= 3)
        #expect(Self.links(terminal, row: 0).byteLimit == Self.pageBytes)
        #expect(Self.heapBytes(Self.links(terminal, row: 0)) < Self.pageBytes + 64 << 10)
        #expect(terminal.cellAt(0, 0).hyperlink?.uri == Self.uri(2_999, length: 3_997))
    }
}
