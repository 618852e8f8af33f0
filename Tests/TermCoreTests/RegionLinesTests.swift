import TestSupport
import Testing

@testable import TermCore

/// Plain lines (printable ASCII, then CR LF) offered at the bottom of a
/// scroll region whose scrolls keep no line: the alternate screen's, or one
/// that starts below the top row (`Grid.writeLinesAtRegionBottom`). ctlseqs
/// (DECSTBM, IND/LF at the bottom margin) has the region scroll up one line
/// for each line end, the rows outside it untouched and nothing added to the
/// scrollback; the expected screens here follow from that by hand, and the
/// same bytes fed one at a time (through the parser's general paths) must
/// agree in every cell.
@Suite("Plain lines in a scroll region")
struct RegionLinesTests {
    /// Lines handed to `printPlainLines` directly, each string one line:
    /// shows which lines the loop took, where feeding could not tell the
    /// loop from the general paths.
    struct ListedLines: PlainLineSource {
        final class Bytes {
            let buffer: UnsafeMutableBufferPointer<UInt8>
            let ranges: [Range<Int>]
            init(_ lines: [String]) {
                let utf8 = lines.map { Array($0.utf8) }
                buffer = .allocate(capacity: max(1, utf8.reduce(0) { $0 + $1.count }))
                var ranges: [Range<Int>] = []
                var start = 0
                for line in utf8 {
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[start...]).initialize(from: line)
                    ranges.append(start..<(start + line.count))
                    start += line.count
                }
                self.ranges = ranges
            }
            deinit { buffer.deallocate() }
        }
        let bytes: Bytes
        var taken = 0

        init(_ lines: [String]) { bytes = Bytes(lines) }

        mutating func next(maxLength: Int) -> UnsafeBufferPointer<UInt8>? {
            guard taken < bytes.ranges.count, bytes.ranges[taken].count <= maxLength else { return nil }
            let range = bytes.ranges[taken]
            taken += 1
            return UnsafeBufferPointer(rebasing: bytes.buffer[range])
        }

        mutating func next(
            maxLength: Int, handingOutEights eight: (_ offset: Int, _ bytes: UInt64) -> Void
        ) -> (text: UnsafeBufferPointer<UInt8>, handedOut: Int)? {
            next(maxLength: maxLength).map { ($0, 0) }
        }
    }

    @Test("The loop takes lines at the bottom of an alternate-screen region")
    func theLoopTakesLinesAtTheBottomOfAnAlternateScreenRegion() {
        let t = Terminal(columns: 10, rows: 4, scrollback: 10)
        t.feed("\(CSI)?1049h\(CSI)2;4r\(CSI)1;1Hhead\(CSI)4;1H")
        var lines = ListedLines(["ab", "cd", "ef", "gh", "0123456789x", "ij"])
        t.state.printPlainLines(&lines)
        // Four lines fit; the fifth is longer than the row and is left.
        #expect(lines.taken == 4)
        #expect(t.screenLines == ["head", "ef", "gh", ""])
        #expect(t.at == [3, 0])
    }

    @Test("The loop takes lines at the bottom of a region below the top row")
    func theLoopTakesLinesAtTheBottomOfARegionBelowTheTopRow() {
        let t = Terminal(columns: 10, rows: 4, scrollback: 10)
        t.feed("head\(CSI)2;3r\(CSI)4;1Hstatus\(CSI)3;1H")
        var lines = ListedLines(["ab", "cd", "ef"])
        t.state.printPlainLines(&lines)
        #expect(lines.taken == 3)
        #expect(t.screenLines == ["head", "ef", "", "status"])
        #expect(t.scrollbackCount == 0)
    }

    @Test("A region from the top row of the primary screen is left to the usual calls")
    func aRegionFromTheTopRowOfThePrimaryScreenIsLeftToTheUsualCalls() {
        // Its scrolls feed the scrollback and move the rows below it back:
        // not the region loop's (and not the whole-screen loop's) work.
        let t = Terminal(columns: 10, rows: 3, scrollback: 10)
        t.feed("\(CSI)1;2r\(CSI)2;1H")
        var lines = ListedLines(["ab"])
        t.state.printPlainLines(&lines)
        #expect(lines.taken == 0)
        // Fed, the lines go to the scrollback and the last row stays.
        let fed = fedBothWays(10, 3, "\(CSI)3;1Hstatus\(CSI)1;2r\(CSI)2;1H\r\nab\r\ncd\r\n")
        #expect(fed.screenLines == ["cd", "", "status"])
        #expect(fed.scrollbackLines == ["", "", "ab"])
    }

    @Test("The alternate screen's lines leave it and the primary screen stays")
    func theAlternateScreensLinesLeaveItAndThePrimaryScreenStays() {
        let lines = (0..<7).map { "line \($0)\r\n" }.joined()
        let t = fedBothWays(10, 3, "main\(CSI)?1049h\r\n" + lines + "end")
        #expect(t.screenLines == ["line 5", "line 6", "end"])
        #expect(t.scrollbackCount == 0)
        t.feed("\(CSI)?1049l")
        #expect(t.screenLines == ["main", "", ""])
    }

    /// The alternate screen numbers its lines on its own, and a line
    /// scrolled off its top is gone for good (LineNumbering.swift): a stable
    /// point stays with its line as the lines move it up.
    @Test("A stable point follows its line up the alternate screen")
    func aStablePointFollowsItsLineUpTheAlternateScreen() {
        let t = terminal(10, 4, "\(CSI)?1049ha\r\nb\r\nc\r\n")
        let point = t.snapshot().stablePoint(BufferPoint(line: 2, column: 0))
        // "d" goes through the usual calls, "e" through the loop: each
        // scrolls the screen up a line.
        t.feed("d\r\ne\r\n")
        let after = t.snapshot()
        #expect(t.screenLines == ["c", "d", "e", ""])
        #expect(after.bufferPoint(point) == BufferPoint(line: 0, column: 0))
    }

    @Test("Rows above and below the region stay") func rowsAboveAndBelowTheRegionStay() {
        // 6 rows, region 2–5: a title above and a status line below, as a
        // pager or an editor keeps them.
        let body = (0..<9).map { "l\($0)\r\n" }.joined()
        for alternate in [false, true] {
            let t = fedBothWays(
                12, 6, (alternate ? "\(CSI)?1049h" : "") + "title\(CSI)6;1Hstatus\(CSI)2;5r\(CSI)5;1H" + body)
            #expect(t.screenLines == ["title", "l6", "l7", "l8", "", "status"])
            #expect(t.scrollbackCount == 0)
            #expect(t.at == [4, 0])
        }
    }

    /// A region of two rows: each slot comes back every other line.
    @Test("A two-row region") func aTwoRowRegion() {
        let t = fedBothWays(8, 4, "\(CSI)?1049h\(CSI)2;3r\(CSI)3;1H" + "aaaaaaaa\r\nb\r\ncccc\r\nd")
        #expect(t.screenLines == ["", "cccc", "d", ""])
    }

    /// The first line goes over what the bottom row held: the cells past it
    /// stay, and a wide character it cuts in two loses its other half.
    @Test("The first line goes over the bottom row") func theFirstLineGoesOverTheBottomRow() {
        let t = fedBothWays(6, 3, "\(CSI)?1049h\(CSI)3;1Hab漢z\(CSI)2;1H\r\nxyz\r\nend")
        #expect(t.screenLines == ["", "xyz z", "end"])
        #expect(t.cellAt(1, 3).text == "" && t.cellAt(1, 3).width == .narrow)
    }

    /// Rows a line leaves short keep what an older line left past it until
    /// the run ends (the grid's stale cells): none of it may show.
    @Test("Cells past short lines never show", arguments: [false, true])
    func cellsPastShortLinesNeverShow(alternate: Bool) {
        let long = String(repeating: "0123456789\r\n", count: 9)
        let short = String(repeating: "ab\r\n", count: 5)
        let t = fedBothWays(
            10, 5, (alternate ? "\(CSI)?1049h" : "") + "\(CSI)2;4r\(CSI)4;1H" + long + short + "cd")
        #expect(t.screenLines == ["", "ab", "ab", "cd", ""])
        for row in 1..<4 {
            #expect((2..<10).allSatisfy { t.cellAt(row, $0).text.isEmpty }, "row \(row)")
        }
    }

    /// Rows scrolled into the region are erased with the background colour
    /// (bce), as an LF scroll erases them; text takes the pen.
    @Test("New rows take the background") func newRowsTakeTheBackground() {
        let t = fedBothWays(6, 4, "\(CSI)?1049h\(CSI)2;4r\(CSI)4;1H\(CSI)1;44m" + "ab\r\ncd\r\nef\r\ngh\r\n")
        #expect(t.screenLines == ["", "ef", "gh", ""])
        #expect(t.cellAt(1, 0).style.flags.contains(.bold))
        #expect((1..<4).allSatisfy { t.cellAt($0, 5).style.background == .indexed(4) })
        #expect(t.cellAt(0, 5).style.background == .default)
    }

    /// OSC 133 marks belong to a row's line: a row scrolled in has none.
    @Test("Rows scrolled in carry no mark") func rowsScrolledInCarryNoMark() {
        // The marked row is the region's top one when the lines begin.
        let t = fedBothWays(
            6, 4, "\(CSI)2;4r\(CSI)2;1H\(ESC)]133;A\u{7}\(CSI)3;1H\r\n" + "a\r\nb\r\nc\r\n")
        #expect(t.screenLines == ["", "b", "c", ""])
        #expect((0..<4).allSatisfy { t.semanticMark(row: $0) == nil })
    }

    /// A snapshot taken before sees every row of the region as changed
    /// (each shows another line), and no row outside it: here three lines
    /// in a region of three rows, where the rotation comes full circle.
    @Test("Snapshots see the region's rows change") func snapshotsSeeTheRegionsRowsChange() {
        let t = terminal(6, 5, "\(CSI)?1049htop\(CSI)5;1Hbottom\(CSI)2;4r\(CSI)4;1H")
        let before = t.snapshot()
        var lines = ListedLines(["a", "b", "c"])
        t.state.printPlainLines(&lines)
        t.noteChange()
        let after = t.snapshot()
        #expect(lines.taken == 3)
        #expect((0..<5).map { after.line($0).text } == ["top", "b", "c", "", "bottom"])
        #expect(after.changedRows(since: before) == [1, 2, 3])
    }

    /// With one or two rows a page, a region's rows lie in several pages:
    /// the loop stops at each to bind the pen there (truecolor pens, which
    /// each page interns), binds a truecolor background's erase blank in a
    /// page when a row there needs it, and goes on; with the default
    /// background between, rows of one run are left stale across the stops.
    /// Every cell as fed a byte at a time, but the style tables' sizes: the
    /// loop binds the pen in the page it stops at before it knows a line
    /// follows, as the whole-screen loop does (`PlainLinesTests`), so a page
    /// may hold one style more.
    @Test("A region across pages", arguments: [1, 2, 4])
    func aRegionAcrossPages(rowsPerPage: Int) {
        var input = "top\(CSI)2;6r\(CSI)6;1H"
        for line in 0..<60 {
            if line % 7 == 0 {
                let (r, g, b) = (line * 37 % 256, line * 53 % 256, line * 11 % 256)
                let background = line % 3 == 0 ? "49" : "48;2;\(b);\(r);\(g)"
                input += "\(CSI)38;2;\(r);\(g);\(b);\(background)m"
            }
            input += String(repeating: "x", count: (line * 5) % 10) + "\(line % 10)\r\n"
        }
        let whole = Terminal(columns: 10, rows: 7, scrollback: 4, rowsPerPage: rowsPerPage)
        whole.feed(input)
        let bytes = Terminal(columns: 10, rows: 7, scrollback: 4, rowsPerPage: rowsPerPage)
        for byte in input.utf8 { bytes.feed([byte]) }
        var (expected, got) = (ScreenState(bytes), ScreenState(whole))
        (expected.styleCount, got.styleCount) = (0, 0)
        #expect(got == expected)
        func line(_ index: Int) -> String { String(repeating: "x", count: (index * 5) % 10) + "\(index % 10)" }
        #expect(whole.screenLines == ["top", line(56), line(57), line(58), line(59), "", ""])
        #expect(whole.scrollbackCount == 0)
    }

    /// Random output mixing regions, both screens, plain lines of every
    /// length (longer ones wrap), colours (truecolor pens and backgrounds
    /// among them), wide characters, marks and cursor moves, in terminals
    /// with one to four rows a page: fed whole, it agrees in every cell,
    /// flag and mark with the same bytes fed one at a time.
    @Test("Random lines in regions agree however they arrive", arguments: 1...12 as ClosedRange<UInt64>)
    func randomLinesInRegionsAgree(seed: UInt64) {
        var generator = SplitMix64(seed: seed &* 7919)
        let columns = 4 + Int(generator.next() % 12)
        let rows = 3 + Int(generator.next() % 7)
        let scrollback = Int(generator.next() % 6)
        let rowsPerPage = [1, 2, 4, 512][Int(generator.next() % 4)]
        var input = ""
        for _ in 0..<500 {
            switch generator.next() % 14 {
            case 0:
                let top = 1 + Int(generator.next() % UInt64(rows - 1))
                let bottom = top + 1 + Int(generator.next() % UInt64(rows - top))
                input += "\(CSI)\(top);\(bottom)r\(CSI)\(bottom);1H"
            case 1: input += ["\(CSI)?1049h", "\(CSI)?1049l", "\(CSI)r"][Int(generator.next() % 3)]
            case 2:
                let value = generator.next() % 256
                let pens = [
                    "\(CSI)\(40 + value % 8)m", "\(CSI)m", "\(CSI)1m", "\(CSI)38;2;\(value);1;2m",
                    "\(CSI)48;2;3;\(value);4m",
                ]
                input += pens[Int(generator.next() % UInt64(pens.count))]
            case 3: input += "漢"
            case 4: input += ["\(ESC)]133;A\u{7}", "\(ESC)]133;D;1\u{7}"][Int(generator.next() % 2)]
            case 5:
                let moves = ["\n", "\r", "\(CSI)H", "\(CSI)2;3H", "\(CSI)\(rows);1H", "\(CSI)2J", "\(ESC)M"]
                input += moves[Int(generator.next() % UInt64(moves.count))]
            default:
                let length = Int(generator.next() % UInt64(columns + 3))
                input += String(
                    (0..<length).map { _ in Character(Unicode.Scalar(UInt8(0x20 + generator.next() % 95))) })
                input += "\r\n"
            }
        }
        let whole = Terminal(columns: columns, rows: rows, scrollback: scrollback, rowsPerPage: rowsPerPage)
        whole.feed(input)
        let bytes = Terminal(columns: columns, rows: rows, scrollback: scrollback, rowsPerPage: rowsPerPage)
        for byte in input.utf8 { bytes.feed([byte]) }
        // Every cell, but the style tables' sizes (see `aRegionAcrossPages`).
        var (expected, got) = (ScreenState(bytes), ScreenState(whole))
        (expected.styleCount, got.styleCount) = (0, 0)
        #expect(got == expected)
        #expect((0..<rows).map { whole.semanticMark(row: $0) } == (0..<rows).map { bytes.semanticMark(row: $0) })
        let origin = BufferPoint(line: 0, column: 0)
        #expect(whole.snapshot().stablePoint(origin) == bytes.snapshot().stablePoint(origin))
    }
}
