import Dispatch
import TermCore
import Testing

@Suite("Snapshots")
struct SnapshotTests {
    @Test("Snapshot shows the screen with resolved styles") func snapshotShowsTheScreenWithResolvedStyles() {
        let t = terminal(10, 3, "ab\(CSI)1;31mcd\(CSI)0m\r\n漢")
        let s = t.snapshot()
        #expect(s.line(0).text == "abcd")
        #expect(s.line(1).text == "漢")
        #expect(s.line(0).cell(2).style == Style(foreground: .indexed(1), flags: .bold))
        #expect(s.cursor.position == ScreenPosition(row: 1, column: 2))
    }

    @Test("Unchanged terminal gives the same rows") func unchangedTerminalGivesTheSameRows() {
        let t = terminal(10, 3, "ab")
        let first = t.snapshot()
        let second = t.snapshot()
        #expect(second.changedRows(since: first).isEmpty)
    }

    @Test("Only changed rows differ") func onlyChangedRowsDiffer() {
        let t = terminal(10, 4, "a\r\nb\r\nc")
        let first = t.snapshot()
        t.feed("\(CSI)2;1HX")
        let second = t.snapshot()
        #expect(second.changedRows(since: first) == [1])
        #expect(second.line(1).text == "X")
        #expect(first.line(1).text == "b")  // the older snapshot is untouched
    }

    @Test("Scrolling changes every row") func scrollingChangesEveryRow() {
        let t = terminal(10, 3, "a\r\nb\r\nc")
        let first = t.snapshot()
        t.feed("\r\nd")
        let second = t.snapshot()
        #expect(second.changedRows(since: first) == [0, 1, 2])
        #expect((0..<3).map { second.line($0).text } == ["b", "c", "d"])
    }

    @Test("Runs group cells by style") func runsGroupCellsByStyle() {
        let t = terminal(8, 1, "ab\(CSI)7mcd\(CSI)0me")
        let runs = t.snapshot().line(0).runs
        #expect(runs.map(\.column) == [0, 2, 4])
        #expect(runs.map(\.width) == [2, 2, 4])
        #expect(runs.map(\.text) == ["ab", "cd", "e   "])
        #expect(runs[1].style.flags == .inverse)
    }

    @Test("Runs count wide characters by columns") func runsCountWideCharactersByColumns() {
        let runs = terminal(6, 1, "漢a").snapshot().line(0).runs
        #expect(runs.count == 1)
        #expect(runs[0].text == "漢a   ")
        #expect(runs[0].width == 6)
    }

    @Test("Hyperlinks are resolved") func hyperlinksAreResolved() {
        let t = terminal(10, 1, "\(ESC)]8;id=x;https://example.com\u{07}link\(ESC)]8;;\u{07} no")
        let line = t.snapshot().line(0)
        #expect(line.cell(0).hyperlink == Hyperlink(uri: "https://example.com", id: "x"))
        #expect(line.cell(5).hyperlink == nil)
        #expect(line.runs.first?.hyperlink?.uri == "https://example.com")
    }

    @Test("Scrollback range is copied in") func scrollbackRangeIsCopiedIn() {
        let t = terminal(10, 2, "1\r\n2\r\n3\r\n4")
        let s = t.snapshot(scrollback: 0..<10)
        #expect(s.scrollbackCount == 2)
        #expect(s.scrollbackRange == 0..<2)
        #expect(s.scrollbackLine(0).text == "1")
        #expect(s.scrollbackLine(1).text == "2")
    }

    @Test("Snapshot carries modes title and directory") func snapshotCarriesModesTitleAndDirectory() {
        let t = terminal(10, 2, "\(CSI)?2004h\(CSI)?1002h\(CSI)5 q\(ESC)]2;T\u{07}\(ESC)]7;file://h/tmp\u{07}")
        let s = t.snapshot()
        #expect(s.modes.bracketedPaste)
        #expect(s.modes.mouseTracking == .buttonEvent)
        #expect(s.modes.cursorShape == .bar)
        #expect(s.title == "T")
        #expect(s.workingDirectory == "file://h/tmp")
    }

    @Test("Style compaction invalidates cached rows") func styleCompactionInvalidatesCachedRows() {
        let t = Terminal(columns: 10, rows: 2, scrollback: 0)
        t.feed("\(CSI)38;2;1;2;3mA")
        let before = t.snapshot()
        var input = ""
        for index in 0..<70_000 {
            input += "\(CSI)38;2;\(index >> 16);\((index >> 8) & 0xFF);\(index & 0xFF)m\r\(CSI)2;1HZ"
        }
        t.feed(input)
        #expect(t.counters.styleCompactions >= 1)
        let after = t.snapshot()
        #expect(after.line(0).cell(0).style.foreground == .rgb(1, 2, 3))
        #expect(before.line(0).cell(0).style.foreground == .rgb(1, 2, 3))
    }

    @Test("Snapshots are read while another thread feeds") func snapshotsAreReadWhileAnotherThreadFeeds() async {
        let shared = LockedTerminal(Terminal(columns: 40, rows: 10))
        let lines = (0..<2000).map { Array("line \($0) \(CSI)3\($0 % 8)mcolour\(CSI)0m\r\n".utf8) }
        await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for line in lines { shared.feed(line) }
                return 0
            }
            group.addTask {
                var seen = 0
                for _ in 0..<200 {
                    let snapshot = shared.snapshot()
                    seen += (0..<snapshot.rows).map { snapshot.line($0).text.count }.reduce(0, +)
                }
                return seen
            }
            for await _ in group {}
        }
        let final = shared.snapshot()
        #expect(final.line(8).text == "line 1999 colour")
    }
}
