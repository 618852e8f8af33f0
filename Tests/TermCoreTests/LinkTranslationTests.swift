import Testing

@testable import TermCore

/// A copy of cells from one page to another (DECCRA, xterm ctlseqs "CSI Pts ;
/// Pls ; Pbs ; Prs ; Pps ; Ptd ; Pld ; Ppd $ v") gives each cell's link an id
/// in the destination page. A link's bytes are up to 4 KiB: each is looked up
/// by them once while neither page's ids change, not at every copy.
@Suite("Links copied between pages")
struct LinkTranslationTests {
    /// A terminal of 10×8 whose pages are 4 rows each: rows 1–4 and 5–8 of
    /// the screen in two pages, rows 1–4 holding a link of their own on
    /// each cell.
    static func twoPages() -> (Terminal, [String]) {
        let terminal = Terminal(columns: 10, rows: 8, scrollback: 0, rowsPerPage: 4)
        let uris = (0..<40).map { "https://e.example/\($0)/" + String(repeating: "x", count: 1_000) }
        terminal.feed(uris.map { "\(ESC)]8;;\($0)\(ESC)\\X" }.joined() + "\(ESC)]8;;\(ESC)\\")
        return (terminal, uris)
    }

    /// The URIs of the links of rows `rows` (0-based), cell by cell.
    static func links(_ terminal: Terminal, rows: Range<Int>) -> [String?] {
        rows.flatMap { row in (0..<10).map { terminal.cellAt(row, $0).hyperlink?.uri } }
    }

    @Test("A rectangle copied again and again between two pages looks each link up once")
    func eachLinkIsLookedUpOnce() {
        let (terminal, uris) = Self.twoPages()
        #expect(terminal.state.active.page(ofScreenRow: 0) != terminal.state.active.page(ofScreenRow: 4))
        for _ in 0..<100 { terminal.feed("\(CSI)1;1;4;10;1;5;1;1$v") }  // rows 1–4 to row 5
        #expect(Self.links(terminal, rows: 4..<8) == uris)
        #expect(Self.links(terminal, rows: 0..<4) == uris)
        // 40 links, looked up once each, where every copy looked them all up.
        #expect(terminal.state.active.linkTranslationLookups == 40)
    }

    @Test("Copies one way and back again look each link up once a way")
    func copiesBothWaysLookEachLinkUpOnceAWay() {
        let (terminal, uris) = Self.twoPages()
        for _ in 0..<50 {
            terminal.feed("\(CSI)1;1;4;10;1;5;1;1$v")  // rows 1–4 to row 5
            terminal.feed("\(CSI)5;1;8;10;1;1;1;1$v")  // and back
        }
        #expect(Self.links(terminal, rows: 0..<4) == uris)
        #expect(Self.links(terminal, rows: 4..<8) == uris)
        // The 40 links down, then the 40 ids they were given back up.
        #expect(terminal.state.active.linkTranslationLookups == 80)
    }

    @Test("Copies stay right across compactions and resets of either page, and both ways")
    func copiesStayRightAcrossCompactions() {
        let (terminal, uris) = Self.twoPages()
        terminal.feed("\(CSI)1;1;4;10;1;5;1;1$v")
        // The destination page's links compacted: 200 new links over one of
        // its cells (its table holds 128 entries: 5/4 of 40 cells and 64).
        let before = terminal.counters.hyperlinkCompactions
        for index in 0..<200 {
            terminal.feed("\(CSI)8;10H\(ESC)]8;;https://f.example/\(index)\(ESC)\\Y\(ESC)]8;;\(ESC)\\")
        }
        #expect(terminal.counters.hyperlinkCompactions > before)
        // Rows 5–8 copied back over rows 1–4 and rows 1–4 down again.
        terminal.feed("\(CSI)5;1;7;10;1;1;1;1$v\(CSI)1;1;4;10;1;5;1;1$v")
        #expect(Self.links(terminal, rows: 0..<3) == Array(uris[0..<30]))
        #expect(Self.links(terminal, rows: 3..<4) == Array(uris[30..<40]))
        #expect(Self.links(terminal, rows: 4..<8) == uris)
        // The source page's links compacted in their turn, then copied again.
        for index in 0..<200 {
            terminal.feed("\(CSI)1;1H\(ESC)]8;;https://g.example/\(index)\(ESC)\\Z\(ESC)]8;;\(ESC)\\")
        }
        terminal.feed("\(CSI)1;1;4;10;1;5;1;1$v")
        var copied = uris
        copied[0] = "https://g.example/199"
        #expect(Self.links(terminal, rows: 4..<8) == copied)
    }
}
