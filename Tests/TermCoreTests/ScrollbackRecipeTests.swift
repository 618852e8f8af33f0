import TermCore
import Testing

// The "Scrolling back, selecting, searching" recipe of docs/EMBEDDING.md,
// compiled and run here: keep the two the same.

/// What the UI thread keeps between frames: Sendable values, read off the lock.
struct ScrollbackView {
    let terminal: LockedTerminal
    var viewport = Viewport()
    var frame: Snapshot
    var selection: StableSelection?

    init(_ terminal: LockedTerminal) {
        self.terminal = terminal
        frame = terminal.snapshot(following: &viewport)
    }

    /// Every frame: the viewport follows the output (scrolled back, the same
    /// lines stay in view, with a full scrollback too) and the snapshot holds
    /// the lines it shows, in one acquisition of the lock.
    mutating func refresh() -> [SnapshotLine] {
        frame = terminal.snapshot(following: &viewport)
        if let kept = selection, frame.selection(kept) == nil { selection = nil }  // its lines were evicted
        return viewport.lines(of: frame)
    }

    mutating func wheel(_ lines: Int) {  // positive: back in history
        viewport.scroll(by: lines, scrollbackCount: frame.scrollbackCount)
        frame = terminal.snapshot(following: &viewport)
    }

    mutating func doubleClick(row: Int, column: Int) {
        let press = BufferPoint(line: viewport.bufferLine(ofRow: row, in: frame), column: column)
        selection = frame.stableSelection(Selection(anchor: press, granularity: .word))
    }

    /// The selected text, nil when there is none or its lines are gone.
    func copy() -> String? {
        guard let kept = selection else { return nil }
        let lines = terminal.snapshot(scrollback: 0..<Int.max)  // all of it: the selection may be out of view
        return lines.text(of: kept)
    }

    /// Matches in the whole scrollback and screen, kept as stable selections
    /// so that they still mark the same text in later frames.
    func find(_ text: String) -> [StableSelection] {
        let lines = terminal.snapshot(scrollback: 0..<Int.max)
        return lines.search(text, caseSensitive: false).map {
            lines.stableSelection(Selection(anchor: $0.start, head: $0.end))
        }
    }
}

@Suite("The scrollback recipe of EMBEDDING.md")
struct ScrollbackRecipeTests {
    @Test("The recipe keeps its lines selection and matches while output arrives")
    func theRecipeKeepsItsLinesSelectionAndMatchesWhileOutputArrives() {
        let locked = LockedTerminal(Terminal(columns: 30, rows: 5, scrollback: 200))
        var output = ""
        for n in 0..<300 { output += "entry \(n) /var/log/item\(n).txt\r\n" }
        locked.feed(Array(output.utf8))  // the scrollback is full
        var view = ScrollbackView(locked)
        view.wheel(10)
        let shown = view.refresh().map(\.text)
        #expect(shown.first == "entry 286 /var/log/item286.txt")
        view.doubleClick(row: 1, column: 12)
        #expect(view.copy() == "/var/log/item287.txt")
        let matches = view.find("ITEM290.")
        #expect(matches.count == 1)

        var more = ""
        for n in 300..<350 { more += "entry \(n) /var/log/item\(n).txt\r\n" }
        locked.feed(Array(more.utf8))
        #expect(view.refresh().map(\.text) == shown)  // the same lines in view
        #expect(view.copy() == "/var/log/item287.txt")  // the same selection
        let later = locked.snapshot(scrollback: 0..<Int.max)
        #expect(matches.compactMap { later.text(of: $0) } == ["item290."])

        for n in 350..<600 { locked.feed(Array("entry \(n)\r\n".utf8)) }
        _ = view.refresh()
        #expect(view.selection == nil)  // evicted: dropped, not moved onto other text
        #expect(view.copy() == nil)
        #expect(view.viewport.offset == view.frame.scrollbackCount)  // stopped at the oldest line left
    }
}
