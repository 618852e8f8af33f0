import TermCore
import TestSupport
import Testing

/// `count` numbered lines ("line 7 …"), each a CR LF, from `first`: every
/// line's text is its own. With `styled`, each line carries an SGR, which
/// takes the scroll path one line at a time instead of the plain-lines loop
/// (`Grid.writeLinesAtBottom`): both evict.
private func numberedLines(_ first: Int, _ count: Int, styled: Bool = false) -> String {
    var output = ""
    for n in first..<(first + count) {
        output += styled ? "\u{1B}[1mline \(n)\u{1B}[m tail\r\n" : "line \(n) tail\r\n"
    }
    return output
}

/// A terminal of 20 × 3 with `lines` numbered lines in it.
private func numberedTerminal(scrollback: Int, lines: Int) -> Terminal {
    let t = Terminal(columns: 20, rows: 3, scrollback: scrollback)
    t.feed(numberedLines(0, lines))
    return t
}

/// A triple click on buffer line `line`.
private func wholeLine(_ line: Int) -> Selection {
    Selection(anchor: BufferPoint(line: line, column: 0), granularity: .line)
}

@Suite("Selection and search on snapshots, positions that survive eviction")
struct SnapshotSelectionTests {
    // MARK: Acceptance (issue #19, item 7)

    @Test("A selection keeps its text after ten thousand lines and an evicted one is gone", arguments: [false, true])
    func aSelectionKeepsItsTextAfterTenThousandLinesAndAnEvictedOneIsGone(styled: Bool) {
        let t = Terminal(columns: 40, rows: 10, scrollback: 20_000)
        t.feed(numberedLines(0, 20_100, styled: styled))  // the scrollback is full
        #expect(t.scrollbackCount == 20_000)
        let before = t.snapshot(scrollback: 0..<t.scrollbackCount)
        // Lines 15,000…15,002 of the buffer stay after 10,000 more lines;
        // 5,000…5,002 go (the oldest 10,000 are evicted).
        let kept = Selection(
            anchor: BufferPoint(line: 15_000, column: 0), head: BufferPoint(line: 15_002, column: 39))
        let lost = Selection(anchor: BufferPoint(line: 5_000, column: 0), granularity: .line)
        let straddling = Selection(
            anchor: BufferPoint(line: 9_999, column: 0), head: BufferPoint(line: 10_000, column: 3))
        let keptText = before.text(of: kept)
        #expect(keptText == "line 15091 tail\nline 15092 tail\nline 15093 tail")
        let stableKept = before.stableSelection(kept)
        let stableLost = before.stableSelection(lost)
        let stableStraddling = before.stableSelection(straddling)
        let evictedBefore = before.evictedLineCount

        t.feed(numberedLines(20_100, 10_000, styled: styled))
        #expect(t.scrollbackCount == 20_000)
        #expect(t.evictedLineCount == evictedBefore + 10_000)
        let after = t.snapshot(scrollback: 0..<t.scrollbackCount)
        #expect(after.evictedLineCount == evictedBefore + 10_000)
        #expect(after.text(of: stableKept) == keptText)
        #expect(t.text(of: stableKept) == keptText)
        #expect(after.selection(stableKept)?.anchor == BufferPoint(line: 5_000, column: 0))
        #expect(after.text(of: stableLost) == nil)
        #expect(t.text(of: stableLost) == nil)
        #expect(after.selection(stableLost) == nil)
        // One end evicted and the other not: gone too, never clipped onto the rest.
        #expect(after.text(of: stableStraddling) == nil)
        #expect(after.stableSelection(after.selection(stableKept)!) == stableKept)
        // The drift the stable form prevents: the same buffer lines now hold other text.
        #expect(after.text(of: kept) != keptText)
    }

    @Test("A logical line whose first rows were evicted is gone") func aLogicalLineWhoseFirstRowsWereEvictedIsGone() {
        let t = Terminal(columns: 10, rows: 3, scrollback: 5)
        t.feed("AAAAAAAAAABBBBBBBBBBCCCCCCCCCC\r\n1\r\n2\r\n")
        let selection = wholeLine(2)  // the row of C's, the last of three soft-wrapped ones
        let stable = t.snapshot(scrollback: 0..<5).stableSelection(selection)
        #expect(t.text(of: stable) == "AAAAAAAAAABBBBBBBBBBCCCCCCCCCC")
        t.feed("3\r\n4\r\n")
        #expect(t.evictedLineCount == 0)
        #expect(t.text(of: stable) == "AAAAAAAAAABBBBBBBBBBCCCCCCCCCC")
        t.feed("5\r\n")  // the A's go; the C's row is still there
        #expect(t.evictedLineCount == 1)
        let now = t.snapshot(scrollback: 0..<5)
        #expect(now.text(of: wholeLine(1)) == "BBBBBBBBBBCCCCCCCCCC")  // what it would have been clipped to
        #expect(now.text(of: stable) == nil)
        #expect(t.text(of: stable) == nil)
    }

    @Test("Evicted count grows only once the scrollback is full") func evictedCountGrowsOnlyOnceTheScrollbackIsFull() {
        let t = Terminal(columns: 20, rows: 5, scrollback: 10)
        t.feed(numberedLines(0, 14))  // 14 lines scrolled… 10 into the scrollback, none dropped
        #expect(t.scrollbackCount == 10)
        #expect(t.evictedLineCount == 0)
        t.feed(numberedLines(14, 3))
        #expect(t.evictedLineCount == 3)
        #expect(t.snapshot().evictedLineCount == 3)
    }

    // MARK: Snapshot agrees with Terminal

    /// Random output: words, wide characters, combining marks, soft wraps and
    /// hard line ends, with a scrollback small enough to evict.
    private func randomSession(_ rng: inout SplitMix64, alternate: Bool = false) -> Terminal {
        let t = Terminal(
            columns: Int.random(in: 3...12, using: &rng), rows: Int.random(in: 1...6, using: &rng),
            scrollback: Int.random(in: 0...30, using: &rng))
        let pieces = ["ab", "foo", "/usr/bin", "x.y", " ", "  ", "漢字", "e\u{301}", "A", "\r\n", "\r\n", "-", "Foo"]
        if alternate { t.feed("\u{1B}[?1049h") }
        var output = ""
        for _ in 0..<Int.random(in: 0...120, using: &rng) { output += pieces.randomElement(using: &rng)! }
        t.feed(output)
        return t
    }

    @Test("Snapshot selection and search agree with the terminal", arguments: [false, true])
    func snapshotSelectionAndSearchAgreeWithTheTerminal(alternate: Bool) {
        var rng = SplitMix64(seed: alternate ? 19 : 7)
        let needles = ["a", "foo", "b/", "漢", "e\u{301}", "x.y f", "  ", "FOO"]
        for _ in 0..<300 {
            let t = randomSession(&rng, alternate: alternate)
            let snapshot = t.snapshot(scrollback: 0..<t.scrollbackCount)
            #expect(snapshot.bufferLineCount == t.bufferLineCount)
            for _ in 0..<10 {
                func point() -> BufferPoint {
                    BufferPoint(
                        line: Int.random(in: -1...t.bufferLineCount, using: &rng),
                        column: Int.random(in: -1...t.columns, using: &rng))
                }
                let granularity = [Selection.Granularity.character, .word, .line].randomElement(using: &rng)!
                let selection = Selection(anchor: point(), head: point(), granularity: granularity)
                #expect(snapshot.range(of: selection) == t.range(of: selection))
                #expect(snapshot.text(of: selection) == t.text(of: selection))
                let stable = snapshot.stableSelection(selection)
                #expect(stable == t.stableSelection(selection))
            }
            for needle in needles {
                let caseSensitive = Bool.random(using: &rng)
                #expect(
                    snapshot.search(needle, caseSensitive: caseSensitive)
                        == t.search(needle, caseSensitive: caseSensitive))
            }
        }
    }

    @Test("A snapshot searches only the lines it holds") func aSnapshotSearchesOnlyTheLinesItHolds() {
        let t = terminal(10, 2, scrollback: 100, "foo\r\nbar\r\nfoo\r\nbaz\r\nfoo")
        #expect(t.scrollbackCount == 3)
        let screenOnly = t.snapshot()
        #expect(
            screenOnly.search("foo") == [BufferRange(start: .init(line: 4, column: 0), end: .init(line: 4, column: 2))])
        #expect(!screenOnly.holdsBufferLine(2))
        #expect(
            screenOnly.text(in: BufferRange(start: .init(line: 2, column: 0), end: .init(line: 4, column: 9)))
                == "\nbaz\nfoo")
        let some = t.snapshot(scrollback: 2..<3)
        #expect(some.search("foo").map(\.start.line) == [2, 4])
        #expect(t.search("foo").map(\.start.line) == [0, 2, 4])
    }

    @Test("A match wraps from the scrollback onto the screen in a snapshot")
    func aMatchWrapsFromTheScrollbackOntoTheScreenInASnapshot() {
        let t = terminal(4, 2, scrollback: 10, "abneedle")
        #expect(t.scrollbackCount == 0)
        t.feed("xx")
        let snapshot = t.snapshot(scrollback: 0..<t.scrollbackCount)
        #expect(snapshot.search("needle") == t.search("needle"))
        #expect(!snapshot.search("needle").isEmpty)
    }

    // MARK: Viewport

    /// 20 lines into a scrollback of 100 (not full), 50 into one of 30 (full:
    /// its count stays the same while lines arrive, what fooled the old recipe).
    @Test("The viewport follows new lines", arguments: [(scrollback: 100, lines: 20), (scrollback: 30, lines: 50)])
    func theViewportFollowsNewLines(scrollback: Int, lines: Int) {
        let t = numberedTerminal(scrollback: scrollback, lines: lines)
        let full = t.scrollbackCount == scrollback
        var viewport = Viewport()
        viewport.scroll(by: 5, scrollbackCount: t.scrollbackCount)
        let older = t.snapshot(viewport: viewport)
        let shown = viewport.lines(of: older).map(\.text)
        t.feed(numberedLines(lines, 7))
        let newer = t.snapshot()
        #expect((newer.scrollbackCount == older.scrollbackCount) == full)
        viewport.follow(from: older, to: newer)
        #expect(viewport.offset == 12)
        #expect(viewport.lines(of: t.snapshot(viewport: viewport)).map(\.text) == shown)
        // More than the scrollback holds: the lines shown were evicted; the
        // view stops at the oldest line left.
        let last = t.snapshot(viewport: viewport)
        t.feed(numberedLines(lines + 7, 200))
        viewport.follow(from: last, to: t.snapshot())
        #expect(viewport.offset == scrollback)
    }

    @Test("Snapshot following keeps the same lines in view whatever arrives")
    func snapshotFollowingKeepsTheSameLinesInViewWhateverArrives() {
        var rng = SplitMix64(seed: 3)
        for scrollback in [0, 10, 40, 1_000] {
            let t = Terminal(columns: 16, rows: 4, scrollback: scrollback)
            var next = 0
            t.feed(numberedLines(next, 60))
            next += 60
            var viewport = Viewport()
            var frame = t.snapshot(following: &viewport)
            viewport.scroll(by: min(3, t.scrollbackCount), scrollbackCount: t.scrollbackCount)
            frame = t.snapshot(following: &viewport)
            var shown = viewport.lines(of: frame).map(\.text)
            for _ in 0..<50 {
                let count = Int.random(in: 0...4, using: &rng)
                t.feed(numberedLines(next, count, styled: Bool.random(using: &rng)))
                next += count
                frame = t.snapshot(following: &viewport)
                let lines = viewport.lines(of: frame).map(\.text)
                // Scrolled back and not stopped at the oldest line (whose
                // lines were evicted): the same lines as the frame before.
                if viewport.offset > 0 && viewport.offset < t.scrollbackCount {
                    #expect(lines == shown, "scrollback \(scrollback)")
                }
                shown = lines
            }
        }
    }

    @Test("A viewport on the live screen stays there") func aViewportOnTheLiveScreenStaysThere() {
        let t = Terminal(columns: 20, rows: 3, scrollback: 10)
        var viewport = Viewport()
        _ = t.snapshot(following: &viewport)
        t.feed(numberedLines(0, 30))
        let frame = t.snapshot(following: &viewport)
        #expect(viewport.offset == 0)
        #expect(viewport.lines(of: frame).last?.text == "")
    }

    // MARK: Edge cases

    @Test("Clearing the scrollback evicts it but not the screen") func clearingTheScrollbackEvictsItButNotTheScreen() {
        let t = numberedTerminal(scrollback: 100, lines: 10)
        let snapshot = t.snapshot(scrollback: 0..<t.scrollbackCount)
        let inScrollback = snapshot.stableSelection(wholeLine(2))
        let onScreen = snapshot.stableSelection(wholeLine(snapshot.bufferLine(ofScreenRow: 1)))
        let screenText = snapshot.text(of: onScreen)
        t.feed("\u{1B}[3J")
        #expect(t.scrollbackCount == 0)
        #expect(t.evictedLineCount == 8)
        #expect(t.snapshot().text(of: inScrollback) == nil)
        #expect(t.snapshot().text(of: onScreen) == screenText)
        #expect(screenText == "line 9 tail")
    }

    @Test("A reset evicts every line") func aResetEvictsEveryLine() {
        for reset in ["ris", "api"] {
            let t = numberedTerminal(scrollback: 100, lines: 10)
            let snapshot = t.snapshot(scrollback: 0..<t.scrollbackCount)
            let screen = snapshot.stableSelection(wholeLine(8))
            let history = snapshot.stableSelection(Selection(anchor: BufferPoint(line: 1, column: 0)))
            if reset == "ris" { t.feed("\u{1B}c") } else { t.reset() }
            t.feed("other\r\nlines")
            #expect(t.evictedLineCount == 8 + 3, "\(reset)")
            #expect(t.text(of: screen) == nil, "\(reset)")
            #expect(t.snapshot().text(of: history) == nil, "\(reset)")
        }
    }

    @Test("A resize retires every line", arguments: [true, false])
    func aResizeRetiresEveryLine(reflows: Bool) {
        let t = Terminal(columns: 20, rows: 3, scrollback: 100)
        t.reflowsOnResize = reflows
        t.feed(numberedLines(0, 10))
        var viewport = Viewport()
        viewport.scroll(by: 2, scrollbackCount: t.scrollbackCount)
        _ = t.snapshot(following: &viewport)
        let selection = t.stableSelection(wholeLine(3))
        t.resize(columns: 10, rows: 4)
        #expect(t.text(of: selection) == nil)
        #expect(t.evictedLineCount == 8 + 3)
        // The viewport keeps its offset rather than counting every line as new.
        _ = t.snapshot(following: &viewport)
        #expect(viewport.offset == 2)
        t.feed("\u{1B}[?40h\u{1B}[?3h")  // DECCOLM resizes from inside a feed
        #expect(t.columns == 132)
        #expect(t.evictedLineCount > 8 + 3)
    }

    @Test("The alternate screen numbers its own lines") func theAlternateScreenNumbersItsOwnLines() {
        let t = numberedTerminal(scrollback: 100, lines: 10)
        let primary = t.stableSelection(wholeLine(4))
        #expect(t.text(of: primary) == "line 4 tail")
        t.feed("\u{1B}[?1049h")
        #expect(t.text(of: primary) == nil)  // not on the screen shown
        t.feed("\u{1B}[Halt one\r\nalt two")  // the cursor came from the primary screen
        let snapshot = t.snapshot(scrollback: 0..<t.scrollbackCount)
        #expect(snapshot.bufferLineCount == 3)
        let alternate = snapshot.stableSelection(wholeLine(1))
        #expect(alternate.anchor.isAlternateScreen)
        #expect(snapshot.text(of: alternate) == "alt two")
        t.feed("\r\n\r\n")  // scrolls "alt one" off: the alternate screen keeps no scrollback
        #expect(t.text(of: alternate) == "alt two")
        #expect(t.evictedLineCount == 0)  // the primary's count
        t.feed("\u{1B}[?1049l")
        #expect(t.text(of: primary) == "line 4 tail")  // back, with its text
        #expect(t.text(of: alternate) == nil)
        t.feed("\u{1B}[?1049h")  // entered again and cleared: new lines
        #expect(t.text(of: alternate) == nil)
    }

    @Test("With no scrollback every line scrolled off is evicted") func withNoScrollbackEveryLineScrolledOffIsEvicted()
    {
        let t = numberedTerminal(scrollback: 0, lines: 2)
        let selection = t.stableSelection(wholeLine(1))
        #expect(t.text(of: selection) == "line 1 tail")
        t.feed("x\r\n")
        #expect(t.evictedLineCount == 1)
        #expect(t.text(of: selection) == "line 1 tail")
        t.feed("y\r\n")
        #expect(t.text(of: selection) == nil)
    }

    @Test("Ranges outside the buffer do not trap") func rangesOutsideTheBufferDoNotTrap() {
        let t = terminal(5, 2, "abc")
        let snapshot = t.snapshot()
        let backwards = BufferRange(start: BufferPoint(line: 9, column: 9), end: BufferPoint(line: -3, column: -1))
        #expect(t.text(in: backwards) == snapshot.text(in: backwards))
        #expect(snapshot.text(in: backwards) == "abc\n")
        #expect(snapshot.bufferPoint(StablePoint(line: 99, column: 0)) == nil)
        #expect(snapshot.bufferPoint(StablePoint(line: -1, column: 0)) == nil)
    }
}
