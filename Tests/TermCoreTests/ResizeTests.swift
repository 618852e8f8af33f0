import Testing

@testable import TermCore

@Suite("Resize and reflow")
struct ResizeTests {
    @Test("Narrowing rewraps a soft wrapped line") func narrowingRewrapsASoftWrappedLine() {
        let t = terminal(10, 4, "abcdefghij")
        t.resize(columns: 4, rows: 4)
        #expect(t.screenLines == ["abcd", "efgh", "ij", ""])
        #expect(t.isWrapped(row: 0) && t.isWrapped(row: 1) && !t.isWrapped(row: 2))
    }

    @Test("Widening joins soft wrapped rows") func wideningJoinsSoftWrappedRows() {
        let t = terminal(4, 4, "abcdefghij\r\nxy")
        #expect(t.screenLines == ["abcd", "efgh", "ij", "xy"])
        t.resize(columns: 10, rows: 4)
        #expect(t.screenLines == ["abcdefghij", "xy", "", ""])
        #expect(t.at == [1, 2])
    }

    @Test("Hard line breaks stay") func hardLineBreaksStay() {
        let t = terminal(10, 4, "ab\r\ncd")
        t.resize(columns: 20, rows: 4)
        #expect(t.screenLines == ["ab", "cd", "", ""])
    }

    @Test("Cursor stays on its character") func cursorStaysOnItsCharacter() {
        // The cursor is on "g" (row 1, column 2 at width 4).
        let t = terminal(4, 4, "abcdefghij\(CSI)2;3H")
        #expect(t.cellAt(1, 2).text == "g")
        t.resize(columns: 3, rows: 5)
        #expect(t.cellAt(t.cursor.position.row, t.cursor.position.column).text == "g")
        t.resize(columns: 12, rows: 5)
        #expect(t.at == [0, 6])
    }

    @Test("Wide character is never split") func wideCharacterIsNeverSplit() {
        let t = terminal(6, 3, "ab漢字")
        t.resize(columns: 3, rows: 3)
        // "ab" then 漢 does not fit in the last column: it moves down whole.
        #expect(t.screenLines == ["ab", "漢", "字"])
        #expect(t.cellAt(1, 0).width == .wide)
        t.resize(columns: 6, rows: 3)
        #expect(t.screenLine(0) == "ab漢字")
    }

    @Test("Shrinking rows pushes top lines into scrollback") func shrinkingRowsPushesTopLinesIntoScrollback() {
        let t = terminal(10, 4, "1\r\n2\r\n3\r\n4")
        t.resize(columns: 10, rows: 2)
        #expect(t.screenLines == ["3", "4"])
        #expect(t.scrollbackLines == ["1", "2"])
        #expect(t.at == [1, 1])
    }

    @Test("Growing rows pulls lines back from scrollback") func growingRowsPullsLinesBackFromScrollback() {
        let t = terminal(10, 2, "1\r\n2\r\n3\r\n4")
        #expect(t.scrollbackLines == ["1", "2"])
        t.resize(columns: 10, rows: 4)
        #expect(t.screenLines == ["1", "2", "3", "4"])
        #expect(t.scrollbackCount == 0)
        #expect(t.at == [3, 1])
    }

    @Test("Blank rows below the cursor are dropped first") func blankRowsBelowTheCursorAreDroppedFirst() {
        let t = terminal(10, 5, "a\r\nb")
        t.resize(columns: 10, rows: 2)
        #expect(t.screenLines == ["a", "b"])
        #expect(t.scrollbackCount == 0)
    }

    @Test("A row whose continuation a shrink drops below the screen ends its line (fuzz: compaction)")
    func rowWhoseContinuationIsDroppedEndsTheLine() {
        // The cursor stays on "ri"; "g", re-wrapped below it, is dropped
        // with the rows under the cursor.
        let t = terminal(33, 3, "rig\r")
        t.resize(columns: 2, rows: 1)
        #expect(t.screenLines == ["ri"])
        #expect(!t.isWrapped(row: 0))
        #expect(t.scrollbackCount == 0)
        // Widened after more output, "ri" is not joined to the next line.
        t.feed("\r\nxy")
        t.resize(columns: 10, rows: 3)
        #expect(t.screenLines == ["ri", "xy", ""])
    }

    @Test("A spacer before a continuation a shrink drops becomes a plain blank (fuzz: compaction)")
    func spacerBeforeADroppedContinuationIsABlank() {
        // At 3 columns "ab" and the spacer, then 漢 on the next row; the
        // cursor stays on "ab" (CUP), and the row below goes.
        let t = terminal(3, 2, "ab漢\(CSI)H")
        #expect(t.cellAt(0, 2).width == .wrapSpacer)
        t.resize(columns: 3, rows: 1)
        #expect(t.screenLines == ["ab"])
        #expect(!t.isWrapped(row: 0))
        #expect(t.cellAt(0, 2) == Terminal(columns: 3, rows: 1).cell(at: ScreenPosition(row: 0, column: 0)))
    }

    @Test("With autowrap off a resize leaves no pending wrap (fuzz: compaction)")
    func withAutowrapOffAResizeLeavesNoPendingWrap() {
        // "h" then the cursor one past it: at one column that is past the
        // edge, which with autowrap on is a pending wrap.
        let t = terminal(40, 12, "h\(CSI)?7l")
        t.resize(columns: 1, rows: 10)
        #expect(t.at == [0, 0])
        #expect(!t.cursor.pendingWrap)
        let on = terminal(40, 12, "h")
        on.resize(columns: 1, rows: 10)
        #expect(on.cursor.pendingWrap)
    }

    @Test("REP after a resize repeats the cluster printed before it (its id is one of the new grid's)")
    func repeatAfterAResizeRepeatsTheCluster() {
        // Found by the page-boundary test in long mode: the cluster's id was
        // looked up in the new grid's page, past its table's end (a trap).
        // Three clusters before it, erased, take the old page's first ids;
        // the new grid interns only the one left, as its first.
        let t = terminal(10, 3, "a\u{301}o\u{301}u\u{301}\(CSI)2K\(CSI)3;1He\u{301}")
        t.resize(columns: 12, rows: 4)
        t.feed("\(CSI)2b")
        #expect(t.cursor.position.column == 3)
        for column in 0..<3 { #expect(t.cellAt(t.cursor.position.row, column).text == "e\u{301}") }
    }

    @Test("Scrollback lines reflow too") func scrollbackLinesReflowToo() {
        let t = terminal(4, 2, "abcdefgh\r\nx\r\ny")
        #expect(t.scrollbackLines == ["abcd", "efgh"])
        t.resize(columns: 8, rows: 2)
        #expect(t.scrollbackLines == ["abcdefgh"])
        #expect(t.screenLines == ["x", "y"])
    }

    @Test("Alternate screen is not reflowed") func alternateScreenIsNotReflowed() {
        let t = terminal(10, 3, "\(CSI)?1049habcdefghij")
        t.resize(columns: 5, rows: 3)
        #expect(t.screenLines == ["abcde", "", ""])
        t.feed("\(CSI)?1049l")
        #expect(t.screenLines == ["", "", ""])
    }

    @Test("Primary reflows while the alternate screen is shown") func primaryReflowsWhileTheAlternateScreenIsShown() {
        let t = terminal(10, 3, "abcdefghij\(CSI)?1049h")
        t.resize(columns: 5, rows: 3)
        t.feed("\(CSI)?1049l")
        #expect(t.screenLines == ["abcde", "fghij", ""])
    }

    @Test("Margins reset on resize") func marginsResetOnResize() {
        let t = terminal(10, 5, "\(CSI)2;3r")
        t.resize(columns: 10, rows: 6)
        t.feed("\(CSI)6;1Hx\n")
        // The region is the whole screen again: LF at the bottom scrolls it.
        #expect(t.screenLine(4) == "x")
    }

    @Test("Cells keep their styles") func cellsKeepTheirStyles() {
        let t = terminal(4, 3, "\(CSI)31mabcdef")
        t.resize(columns: 3, rows: 3)
        #expect(t.cellAt(1, 0).text == "d")
        #expect(t.cellAt(1, 0).style.foreground == .indexed(1))
    }

    // MARK: reflowsOnResize off

    /// A terminal that does not reflow, fed with `input`.
    func unreflowed(_ columns: Int, _ rows: Int, _ input: String) -> Terminal {
        let t = Terminal(columns: columns, rows: rows, scrollback: 100)
        t.reflowsOnResize = false
        t.feed(input)
        return t
    }

    @Test("Reflow is on by default and survives reset") func reflowIsOnByDefaultAndSurvivesReset() {
        let t = Terminal(columns: 10, rows: 4)
        #expect(t.reflowsOnResize)
        t.reflowsOnResize = false
        t.reset()
        #expect(!t.reflowsOnResize)
    }

    @Test("Without reflow narrowing cuts rows and clamps the cursor")
    func withoutReflowNarrowingCutsRowsAndClampsTheCursor() {
        let t = unreflowed(10, 4, "abcdefghij\r\nxy\(CSI)1;9H")
        t.resize(columns: 4, rows: 4)
        #expect(t.screenLines == ["abcd", "xy", "", ""])
        #expect(!t.isWrapped(row: 0))
        #expect(t.at == [0, 3])
    }

    @Test("Without reflow widening keeps soft wrapped rows apart") func withoutReflowWideningKeepsSoftWrappedRowsApart()
    {
        let t = unreflowed(4, 4, "abcdefghij\r\nxy")
        t.resize(columns: 10, rows: 4)
        #expect(t.screenLines == ["abcd", "efgh", "ij", "xy"])
        #expect(!t.isWrapped(row: 0) && !t.isWrapped(row: 1))
        #expect(t.at == [3, 2])
    }

    @Test("Without reflow a wide character cut at the edge is blanked")
    func withoutReflowAWideCharacterCutAtTheEdgeIsBlanked() {
        let t = unreflowed(4, 2, "ab漢")
        t.resize(columns: 3, rows: 2)
        #expect(t.screenLine(0) == "ab")
        #expect(t.cellAt(0, 2).scalars.isEmpty && t.cellAt(0, 2).width == .narrow)
    }

    @Test("Without reflow a pending wrap moves into the new columns")
    func withoutReflowAPendingWrapMovesIntoTheNewColumns() {
        // libvterm 16state_resize "Resize grow doesn't cancel phantom".
        let t = unreflowed(10, 2, "abcdefghij")
        #expect(t.cursor.pendingWrap)
        t.resize(columns: 12, rows: 2)
        #expect(t.at == [0, 10] && !t.cursor.pendingWrap)
        t.feed("k")
        #expect(t.screenLines == ["abcdefghijk", ""])
    }

    @Test("Without reflow rows still move through the scrollback") func withoutReflowRowsStillMoveThroughTheScrollback()
    {
        let t = unreflowed(10, 4, "1\r\n2\r\n3\r\n4")
        t.resize(columns: 8, rows: 2)
        #expect(t.screenLines == ["3", "4"])
        #expect(t.scrollbackLines == ["1", "2"])
        t.resize(columns: 8, rows: 4)
        #expect(t.screenLines == ["1", "2", "3", "4"])
        #expect(t.at == [3, 1])
    }

    @Test("Without reflow line sizes stay") func withoutReflowLineSizesStay() {
        let t = unreflowed(10, 2, "\(ESC)#6ab")
        t.resize(columns: 8, rows: 3)
        #expect(t.lineSize(row: 0) == .doubleWidth)
    }

    /// The hook the libvterm harness stands in for its driver's scrollback with.
    @Test("Appended scrollback lines come back when rows grow") func appendedScrollbackLinesComeBackWhenRowsGrow() {
        let t = terminal(10, 2, "top\r\nbottom")
        t.appendScrollbackLines(["ABCDE", "ABCDE"])
        #expect(t.screenLines == ["top", "bottom"])
        #expect(t.scrollbackLines == ["ABCDE", "ABCDE"])
        t.resize(columns: 10, rows: 3)
        #expect(t.screenLines == ["ABCDE", "top", "bottom"])
        #expect(t.at == [2, 6])
    }

    @Test("Resize of 10000 lines of scrollback works") func resizeOf10000LinesOfScrollbackWorks() {
        var input = ""
        for line in 0..<12_000 { input += "line \(line) " + String(repeating: "x", count: line % 150) + "\r\n" }
        let t = Terminal(columns: 200, rows: 50, scrollback: 10_000)
        t.feed(input)
        t.resize(columns: 80, rows: 24)
        #expect(t.scrollbackCount == 10_000)
        t.resize(columns: 200, rows: 50)
        // The last line printed is still just above the cursor.
        #expect(t.screenLine(t.cursor.position.row - 1).hasPrefix("line 11999"))
        #expect(t.scrollbackCount <= 10_000)
    }

    @Test("A protected wide character stays protected when reflowed")
    func aProtectedWideCharacterStaysProtectedWhenReflowed() {
        // "ab" and a DECSCA-protected 你 fill 4 columns; at 3 the wide
        // character moves to the next row, and a selective erase of the
        // screen must leave both of its halves.
        let t = terminal(4, 3, "ab\(CSI)1\"q你\(CSI)0\"q")
        t.resize(columns: 3, rows: 3)
        t.feed("\(CSI)?2J")
        #expect(t.screenLines.contains("你"))
        let row = (0..<3).first { t.screenLine($0) == "你" } ?? 0
        #expect(t.cellAt(row, 0).isProtected && t.cellAt(row, 1).width == .wideTail && t.cellAt(row, 1).isProtected)
    }
}
