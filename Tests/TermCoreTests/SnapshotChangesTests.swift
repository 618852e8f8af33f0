import Testing

@testable import TermCore

/// The change description (issue #19, item 1): what a front end must redraw
/// between two snapshots, including what changes no cell.
@Suite("Snapshot changes")
struct SnapshotChangesTests {
    /// A terminal with some text, and a snapshot of it.
    static func settled() -> (Terminal, Snapshot) {
        let terminal = Terminal(columns: 20, rows: 5, scrollback: 10)
        terminal.feed("hello\r\nworld")
        return (terminal, terminal.snapshot())
    }

    /// The changes after `input`, with what `changedRows(since:)` (rows
    /// only, the old recipe) said.
    static func changes(after input: String) -> (SnapshotChanges, rows: [Int]) {
        let (terminal, before) = settled()
        terminal.feed(input)
        let after = terminal.snapshot()
        return (after.changes(since: before), after.changedRows(since: before))
    }

    @Test("A cursor move alone is a cursor change") func aCursorMoveAloneIsACursorChange() {
        let (changes, rows) = Self.changes(after: "\u{1B}[3;4H")
        #expect(rows.isEmpty)  // what the documented loop missed
        #expect(changes.cursor && !changes.isEmpty)
        #expect(changes.rows.isEmpty && !changes.needsFullRedraw)
    }

    @Test("Hiding the cursor is a cursor change") func hidingTheCursorIsACursorChange() {
        let (changes, rows) = Self.changes(after: "\u{1B}[?25l")
        #expect(rows.isEmpty)
        #expect(changes.cursor)
        let (shape, _) = Self.changes(after: "\u{1B}[5 q")  // DECSCUSR: blinking bar
        #expect(shape.cursor && !shape.inputModes)
    }

    @Test("Reverse video redraws the whole screen") func reverseVideoRedrawsTheWholeScreen() {
        let (changes, rows) = Self.changes(after: "\u{1B}[?5h")
        #expect(rows.isEmpty)
        #expect(changes.screenModes && changes.needsFullRedraw)
    }

    @Test("Default colours and the palette are colour changes") func defaultColoursAndThePaletteAreColourChanges() {
        for input in ["\u{1B}]11;rgb:10/20/30\u{7}", "\u{1B}]4;1;rgb:ff/00/00\u{7}", "\u{1B}]10;#abcdef\u{1B}\\"] {
            let (changes, rows) = Self.changes(after: input)
            #expect(rows.isEmpty, "\(input.debugDescription)")
            #expect(changes.colors && changes.needsFullRedraw, "\(input.debugDescription)")
        }
        let (terminal, before) = Self.settled()
        var palette = terminal.palette
        palette.defaultBackground = RGB(1, 2, 3)
        terminal.palette = palette
        #expect(terminal.snapshot().changes(since: before).colors)
    }

    @Test("Title directory scrollback and input modes") func titleDirectoryScrollbackAndInputModes() {
        #expect(Self.changes(after: "\u{1B}]2;build\u{7}").0.title)
        #expect(Self.changes(after: "\u{1B}]1;icon\u{7}").0.title)
        #expect(Self.changes(after: "\u{1B}]7;file://host/tmp\u{7}").0.workingDirectory)
        let scrolled = Self.changes(after: "\r\n\r\n\r\n\r\n").0
        #expect(scrolled.scrollback && !scrolled.rows.isEmpty)
        // A full scrollback (10 lines) keeps its count as lines arrive.
        let (terminal, _) = Self.settled()
        terminal.feed(String(repeating: "\r\n", count: 30))
        let full = terminal.snapshot()
        terminal.feed("\r\nmore")
        let later = terminal.snapshot()
        #expect(later.scrollbackCount == full.scrollbackCount)
        #expect(later.changes(since: full).scrollback)
        let paste = Self.changes(after: "\u{1B}[?2004h").0
        #expect(paste.inputModes && !paste.cursor && !paste.needsFullRedraw)
    }

    @Test("Nothing fed is no change") func nothingFedIsNoChange() {
        let (terminal, before) = Self.settled()
        let again = terminal.snapshot()
        #expect(again.generation == before.generation)
        #expect(again.changes(since: before).isEmpty)
        // A feed that changes nothing shown advances the generation (it may)
        // but describes no change.
        terminal.feed("\u{1B}[c")
        let after = terminal.snapshot()
        #expect(after.generation > before.generation)
        #expect(after.changes(since: before).isEmpty)
    }

    @Test("The generation grows with every change") func theGenerationGrowsWithEveryChange() {
        let terminal = Terminal(columns: 10, rows: 3, scrollback: 0)
        var last = terminal.generation
        for step in ["a", "\u{1B}[2J", "\u{1B}[?1049h"] {
            terminal.feed(step)
            #expect(terminal.generation > last)
            last = terminal.generation
        }
        terminal.resize(columns: 12, rows: 3)
        #expect(terminal.generation > last)
        last = terminal.generation
        terminal.reset()
        #expect(terminal.generation > last)
        last = terminal.generation
        _ = terminal.snapshot()
        terminal.feed([UInt8]())
        #expect(terminal.generation == last)  // an empty feed changes nothing
        #expect(terminal.snapshot().generation == last)
    }

    @Test("On change fires once per feed never per byte") func onChangeFiresOncePerFeedNeverPerByte() {
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 100)
        var calls = 0
        var repliesBefore = 0
        var replies = 0
        terminal.writeBack = { _ in replies += 1 }
        terminal.onChange = {
            calls += 1
            repliesBefore = replies  // replies are delivered first
        }
        terminal.feed(String(repeating: "line of output\r\n", count: 2_000) + "\u{1B}[6n")
        #expect(calls == 1)
        #expect(repliesBefore == 1)
        terminal.feed([UInt8]())
        #expect(calls == 1)
        terminal.feed("x")
        #expect(calls == 2)
    }

    @Test("A synchronized update holds the frame until it ends or times out")
    func aSynchronizedUpdateHoldsTheFrameUntilItEndsOrTimesOut() {
        let terminal = Terminal(columns: 10, rows: 3, scrollback: 0)
        var now: UInt64 = 5_000_000_000
        terminal.clock = { now }
        #expect(!terminal.isHoldingFrame && terminal.frameHoldRemaining == nil)
        terminal.feed("\u{1B}[?2026hA")
        #expect(terminal.isHoldingFrame)
        #expect(terminal.frameHoldRemaining == 1)
        let held = terminal.snapshot()
        #expect(held.isHoldingFrame)
        now += 400_000_000
        terminal.feed("B")  // more of the same update: its clock goes on
        #expect(abs((terminal.frameHoldRemaining ?? 0) - 0.6) < 1e-9)
        now += 700_000_000
        // 1.1 s in: released anyway, though the program never ended it.
        #expect(!terminal.isHoldingFrame && terminal.modes.synchronizedOutput)
        let released = terminal.snapshot()
        #expect(!released.isHoldingFrame)
        #expect(released.changes(since: held).frameHold && !released.changes(since: held).needsFullRedraw)
        // The end of the update, then a new one: a new hold, from now.
        terminal.feed("\u{1B}[?2026l")
        #expect(!terminal.isHoldingFrame)
        terminal.feed("\u{1B}[?2026h")
        #expect(terminal.frameHoldRemaining == 1)
        // Ended and begun again within one feed: still a new update.
        now += 900_000_000
        terminal.feed("\u{1B}[?2026l\u{1B}[?2026h")
        #expect(terminal.frameHoldRemaining == 1)
        terminal.synchronizedOutputTimeout = 0
        #expect(!terminal.isHoldingFrame)
        terminal.synchronizedOutputTimeout = 1e9
        #expect(terminal.synchronizedOutputTimeout == 60)
        terminal.reset()
        #expect(!terminal.isHoldingFrame)
    }

    @Test("The real clock releases a held frame") func theRealClockReleasesAHeldFrame() throws {
        // No injected clock: the monotonic clock moves on its own.
        let terminal = Terminal(columns: 10, rows: 3, scrollback: 0)
        terminal.synchronizedOutputTimeout = 0.02
        terminal.feed("\u{1B}[?2026h")
        #expect(terminal.isHoldingFrame)
        let start = MonotonicClock.nanoseconds()
        while terminal.isHoldingFrame {
            try #require(MonotonicClock.nanoseconds() - start < 5_000_000_000, "still held after 5 s")
        }
        #expect(MonotonicClock.nanoseconds() - start >= 10_000_000)
    }
}
