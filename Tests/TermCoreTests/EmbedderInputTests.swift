import Testing

@testable import TermCore

/// What an embedder passes in never traps (issue #19, item 3): sizes are
/// clamped, positions outside the screen or the scrollback give the
/// documented empty answer, and the viewport is drawn from one snapshot
/// taken in one call (item 2).
@Suite("Embedder input never traps")
struct EmbedderInputTests {
    @Test("Sizes outside the limits are clamped") func sizesOutsideTheLimitsAreClamped() {
        let zero = Terminal(columns: 0, rows: 0)
        #expect(zero.columns == 1 && zero.rows == 1)
        zero.feed("abc")
        #expect(zero.screenLine(0) == "c")  // autowrap on a 1 × 1 screen
        let huge = Terminal(columns: 5000, rows: -3, scrollback: 0)
        #expect(huge.columns == 1000 && huge.rows == 1)
        huge.resize(columns: -1, rows: 5000)
        #expect(huge.columns == 1 && huge.rows == 1000)
        huge.resize(columns: 0, rows: 0)
        #expect(huge.columns == 1 && huge.rows == 1)
        let noHistory = Terminal(columns: 10, rows: 2, scrollback: -5)
        noHistory.feed("1\r\n2\r\n3\r\n4")
        #expect(noHistory.scrollbackCount == 0)
        #expect(noHistory.screenLine(1) == "4")
    }

    @Test("Positions outside the screen read as empty") func positionsOutsideTheScreenReadAsEmpty() {
        let t = Terminal(columns: 10, rows: 3, scrollback: 100)
        t.feed("\(ESC)]133;A\(ESC)\\ab\r\ncd\r\nef\r\ngh")
        #expect(t.scrollbackCount == 1)
        let empty = t.cell(at: ScreenPosition(row: 0, column: 9))  // a real empty cell, for comparison
        for position in [(-1, 0), (3, 0), (0, -1), (0, 10), (Int.max, Int.min)] {
            #expect(t.cell(at: ScreenPosition(row: position.0, column: position.1)) == empty)
        }
        #expect(t.scrollbackCell(line: ScrollbackLine(0), column: 0).text == "a")
        #expect(t.scrollbackCell(line: ScrollbackLine(1), column: 0) == empty)
        #expect(t.scrollbackCell(line: ScrollbackLine(-1), column: 0) == empty)
        #expect(t.scrollbackCell(line: ScrollbackLine(0), column: 10) == empty)
        #expect(t.screenLine(-1) == "" && t.screenLine(3) == "" && t.screenLine(2) == "gh")
        #expect(t.scrollbackLine(ScrollbackLine(0)) == "ab" && t.scrollbackLine(ScrollbackLine(1)) == "")
        #expect(t.lineSize(row: 99) == .single && !t.isWrapped(row: -1) && !t.isWrapped(line: ScrollbackLine(7)))
        #expect(t.semanticMark(line: ScrollbackLine(0)) != nil)
        #expect(t.semanticMark(row: 3) == nil && t.semanticMark(line: ScrollbackLine(1)) == nil)
        let snapshot = t.snapshot()
        #expect(snapshot.line(2).text == "gh")
        #expect(snapshot.line(3).text == "" && snapshot.line(-1).text == "")
        #expect(snapshot.line(3).cell(0) == empty)
        #expect(snapshot.scrollbackLine(0).text == "")  // not asked for: blank, not a trap
        #expect(t.snapshot(scrollback: 0..<1).scrollbackLine(0).text == "ab")
    }

    @Test("Any cell pixel size reports without overflow") func anyCellPixelSizeReportsWithoutOverflow() {
        // Int.max times the columns overflowed in the XTWINOPS 14 reply.
        let t = Terminal(columns: 1000, rows: 1000, scrollback: 0)
        var replies: [UInt8] = []
        t.writeBack = { replies += $0 }
        t.setCellPixelSize(width: Int.max, height: -3)
        t.feed("\u{1B}[14t\u{1B}[16t")
        #expect(String(decoding: replies, as: UTF8.self) == "\u{1B}[4;1000;10000000t\u{1B}[6;1;10000t")
    }

    @Test("Viewport scrolls saturate instead of trapping") func viewportScrollsSaturateInsteadOfTrapping() {
        // Int.max lines overflowed the offset (a trap); now they saturate.
        var viewport = Viewport()
        viewport.scroll(by: 5, scrollbackCount: 100)
        viewport.scroll(by: Int.max, scrollbackCount: 100)
        #expect(viewport.offset == 100)
        viewport.follow(newScrollbackLines: Int.max, scrollbackCount: 100)
        #expect(viewport.offset == 100)
        viewport.scroll(by: Int.min, scrollbackCount: 100)
        #expect(viewport.offset == 0)
        viewport.scroll(by: 3, scrollbackCount: -4)
        #expect(viewport.offset == 0)
    }

    @Test("A viewport from a snapshot without its lines draws them blank")
    func aViewportFromASnapshotWithoutItsLinesDrawsThemBlank() {
        let t = Terminal(columns: 20, rows: 3, scrollback: 100)
        for line in 0..<10 { t.feed("line \(line)\r\n") }
        var viewport = Viewport()
        viewport.scroll(by: 5, scrollbackCount: t.scrollbackCount)
        // Taken without the viewport's lines (the mistake that trapped before).
        #expect(viewport.lines(of: t.snapshot()).map(\.text) == ["", "", ""])
        #expect(viewport.lines(of: t.snapshot(viewport: viewport)).map(\.text) == ["line 3", "line 4", "line 5"])
    }

    /// The viewport recipe with one thread feeding and another drawing: the
    /// snapshot and its scrollback range come from one call under the lock,
    /// so every frame is a run of consecutive lines, none blank. (Two calls,
    /// the scrollback's length and then the snapshot, gave 33 bad frames of
    /// 3,000 here while the scrollback was growing: before, `lines(of:)`
    /// trapped on them.)
    @Test("The viewport recipe under concurrent feeding shows consecutive lines")
    func theViewportRecipeUnderConcurrentFeedingShowsConsecutiveLines() async {
        let shared = LockedTerminal(Terminal(columns: 30, rows: 5, scrollback: 100_000))
        // A full screen first: only the cursor's row is ever blank.
        shared.feed(Array((0..<10).map { "line \($0)\r\n" }.joined().utf8))
        let chunks = (10..<6000).map { Array("line \($0)\r\n".utf8) }
        let badFrames = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for chunk in chunks { shared.feed(chunk) }
                return 0
            }
            group.addTask {
                var bad = 0
                for iteration in 0..<3000 {
                    var viewport = Viewport()
                    viewport.scroll(by: 1 + iteration % 40, scrollbackCount: shared.scrollbackCount)
                    let lines = viewport.lines(of: shared.snapshot(viewport: viewport)).map(\.text)
                    let numbers = lines.compactMap { Int($0.dropFirst(5)) }
                    let consecutive = zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 + 1 }
                    // The bottom row may be the empty one the cursor is on.
                    if lines.count != 5 || numbers.count < 4 || !consecutive { bad += 1 }
                }
                return bad
            }
            var total = 0
            for await bad in group { total += bad }
            return total
        }
        #expect(badFrames == 0)
    }
}
