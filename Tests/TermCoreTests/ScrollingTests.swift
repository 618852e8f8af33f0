import TestSupport
import Testing

@testable import TermCore

@Suite("Scrolling and scrollback")
struct ScrollingTests {
    @Test("Linefeed at the bottom scrolls into scrollback") func linefeedAtTheBottomScrollsIntoScrollback() {
        let t = terminal(10, 3, "1\r\n2\r\n3\r\n4\r\n5")
        #expect(t.screenLines == ["3", "4", "5"])
        #expect(t.scrollbackLines == ["1", "2"])
    }

    @Test("Recycled rows show nothing of their old lines") func recycledRowsShowNothingOfTheirOldLines() {
        // Seven row slots (3 rows, 4 lines of scrollback) reused 200 times by
        // lines of random length, wide characters and rows erased with a
        // background colour: a row cleared for a new line must keep nothing
        // of the line its slot held before (the grid clears a slot only up
        // to the columns it wrote).
        var generator = SplitMix64(seed: 11)
        let t = Terminal(columns: 12, rows: 3, scrollback: 4)
        var lines: [(text: String, coloured: Bool)] = []
        for _ in 0..<200 {
            let length = Int(generator.next() % 13)
            var text = ""
            var coloured = false
            switch generator.next() % 3 {
            case 0: text = String(repeating: "你", count: length / 2)
            case 1:
                coloured = true
                text = String(repeating: "c", count: length)
                t.feed("\(CSI)44m\(CSI)2K")
            default: text = String((0..<length).map { Character(UnicodeScalar(UInt8(0x61 + $0))) })
            }
            t.feed(text + "\(CSI)0m\r\n")
            lines.append((text, coloured))
        }
        let shown = lines.suffix(6)
        #expect(t.scrollbackLines == shown.prefix(4).map(\.text))
        #expect(t.screenLines == shown.suffix(2).map(\.text) + [""])
        for (row, line) in shown.suffix(2).enumerated() {
            #expect(t.cellAt(row, 11).style.background == (line.coloured ? .indexed(4) : .default))
        }
        #expect(t.cellAt(2, 11).style == Style())
    }

    @Test("Scrollback keeps only the newest lines") func scrollbackKeepsOnlyTheNewestLines() {
        var input = ""
        for line in 1...20 { input += "\(line)\r\n" }
        let t = terminal(10, 3, scrollback: 5, input)
        #expect(t.scrollbackLines == ["14", "15", "16", "17", "18"])
        #expect(t.screenLines == ["19", "20", ""])
    }

    @Test("Zero scrollback keeps nothing") func zeroScrollbackKeepsNothing() {
        let t = terminal(10, 2, scrollback: 0, "a\r\nb\r\nc")
        #expect(t.scrollbackCount == 0)
        #expect(t.screenLines == ["b", "c"])
    }

    @Test("Region scroll does not feed scrollback") func regionScrollDoesNotFeedScrollback() {
        let t = terminal(10, 4, "a\r\nb\r\nc\r\nd\(CSI)2;3r\(CSI)3;1H\nX")
        #expect(t.screenLines == ["a", "c", "X", "d"])
        #expect(t.scrollbackCount == 0)
    }

    @Test("Region at the top row feeds scrollback") func regionAtTheTopRowFeedsScrollback() {
        // xterm saves the lines scrolled off a region whose top margin is the
        // first row; rows below the region stay where they are.
        let t = terminal(10, 4, "a\r\nb\r\nc\r\nd\(CSI)1;3r\(CSI)3;1H\nX")
        #expect(t.screenLines == ["b", "c", "X", "d"])
        #expect(t.scrollbackLines == ["a"])
    }

    @Test("Reverse index at the top scrolls down") func reverseIndexAtTheTopScrollsDown() {
        let t = terminal(10, 3, "a\r\nb\r\nc\(CSI)H\(ESC)M")
        #expect(t.screenLines == ["", "a", "b"])
    }

    @Test("Index and next line") func indexAndNextLine() {
        #expect(terminal(10, 3, "ab\(ESC)D").at == [1, 2])
        #expect(terminal(10, 3, "ab\(ESC)E").at == [1, 0])
    }

    @Test("Scroll up and down") func scrollUpAndDown() {
        let t = terminal(10, 4, "a\r\nb\r\nc\r\nd\(CSI)2S")
        #expect(t.screenLines == ["c", "d", "", ""])
        #expect(t.scrollbackLines == ["a", "b"])
        let u = terminal(10, 4, "a\r\nb\r\nc\r\nd\(CSI)2T")
        #expect(u.screenLines == ["", "", "a", "b"])
    }

    @Test("Insert and delete lines stay in the region") func insertAndDeleteLinesStayInTheRegion() {
        let t = terminal(10, 5, "a\r\nb\r\nc\r\nd\r\ne\(CSI)1;4r\(CSI)2;3H\(CSI)L")
        #expect(t.screenLines == ["a", "", "b", "c", "e"])
        #expect(t.at == [1, 0])
        let u = terminal(10, 5, "a\r\nb\r\nc\r\nd\r\ne\(CSI)1;4r\(CSI)2;1H\(CSI)2M")
        #expect(u.screenLines == ["a", "d", "", "", "e"])
        #expect(u.scrollbackCount == 0)
    }

    @Test("Delete lines at the top never feed scrollback") func deleteLinesAtTheTopNeverFeedScrollback() {
        let t = terminal(10, 3, "a\r\nb\r\nc\(CSI)H\(CSI)M")
        #expect(t.screenLines == ["b", "c", ""])
        #expect(t.scrollbackCount == 0)
    }

    @Test("Scroll region needs top below bottom") func scrollRegionNeedsTopBelowBottom() {
        // DECSTBM with top >= bottom is ignored; a valid one homes the cursor.
        let t = terminal(10, 5, "\(CSI)3;3H\(CSI)4;2r")
        #expect(t.at == [2, 2])
        let u = terminal(10, 5, "\(CSI)3;3H\(CSI)2;4r")
        #expect(u.at == [0, 0])
    }
}

/// Region scrolls move entries of the grid's ring of rows: a short scroll of
/// a contiguous region by moving them, anything else along the rotation's
/// cycles. Random regions and counts, with the ring's start moved by
/// full-screen scrolls so that regions also wrap around its end, are checked
/// against a plain model of the rows.
@Suite("Scrolling regions against a model")
struct RegionScrollModelTests {
    @Test("Random region scrolls match a model", arguments: [0, 3, 7])
    func randomRegionScrollsMatchAModel(scrollback: Int) {
        let rows = 6
        let t = Terminal(columns: 4, rows: rows, scrollback: scrollback)
        var model = [String](repeating: "", count: rows)
        var generator = SplitMix64(seed: UInt64(scrollback) + 1)
        var label = 0
        func relabel() {
            var input = "\(CSI)r\(CSI)H"
            for row in 0..<rows {
                label += 1
                model[row] = String(String(label % 10_000 + 10_000).dropFirst())
                input += "\(CSI)\(row + 1)H" + model[row]
            }
            t.feed(input)
        }
        relabel()
        for _ in 0..<400 {
            switch generator.next() % 4 {
            case 0:
                relabel()
            case 1:
                // Full-screen line feeds at the bottom: the ring's start moves.
                let lines = Int(generator.next() % 4) + 1
                t.feed("\(CSI)r\(CSI)\(rows)H" + String(repeating: "\n", count: lines))
                for _ in 0..<lines {
                    model.removeFirst()
                    model.append("")
                }
            default:
                let top = Int(generator.next() % UInt64(rows - 1))
                let bottom = top + 1 + Int(generator.next() % UInt64(rows - 1 - top))
                let count = Int(generator.next() % UInt64(bottom - top + 2)) + 1
                let up = generator.next() % 2 == 0
                t.feed("\(CSI)\(top + 1);\(bottom + 1)r\(CSI)\(count)\(up ? "S" : "T")")
                var region = Array(model[top...bottom])
                let moved = min(count, region.count)
                if up {
                    region.removeFirst(moved)
                    region += [String](repeating: "", count: moved)
                } else {
                    region.removeLast(moved)
                    region = [String](repeating: "", count: moved) + region
                }
                model.replaceSubrange(top...bottom, with: region)
            }
            let screen = (0..<rows).map { t.screenLine($0) }
            #expect(screen == model)
            if screen != model { return }
        }
    }
}

/// `input` fed whole, then byte by byte (where no CR LF pair, sequence or
/// line is ever whole in a feed): everything `ScreenState` holds agrees.
/// Returns the whole feed's terminal.
func fedBothWays(
    _ columns: Int, _ rows: Int, _ input: String, scrollback: Int = 100,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Terminal {
    let (whole, bytes) = fedWholeAndByteByByte(columns, rows, input, scrollback: scrollback)
    #expect(ScreenState(bytes) == ScreenState(whole), "\(input.debugDescription)", sourceLocation: sourceLocation)
    return whole
}

/// CR LF reaches the terminal as one call when both bytes arrive together and
/// as two `execute`s when a feed ends between them: both must do what ctlseqs
/// says of CR (to the left margin, or column 1 when left of it) and then LF
/// (down a row, scrolling at the bottom margin; with LNM also a CR).
@Suite("CR LF as one call")
struct CarriageReturnLineFeedTests {
    @Test("Lines scroll into the scrollback") func linesScrollIntoTheScrollback() {
        let t = fedBothWays(10, 2, "ab\r\ncd\r\nef")
        #expect(t.screenLines == ["cd", "ef"])
        #expect(t.scrollbackLines == ["ab"])
        #expect(t.at == [1, 2])
    }

    @Test("A pending wrap is cancelled without an extra line") func aPendingWrapIsCancelledWithoutAnExtraLine() {
        let t = fedBothWays(4, 3, "abcd\r\nef")
        #expect(t.screenLines == ["abcd", "ef", ""])
        #expect(t.at == [1, 2])
    }

    @Test("Carriage return goes to the left margin") func carriageReturnGoesToTheLeftMargin() {
        // DECLRMM on, margins at columns 3–8; the cursor starts inside them.
        let t = fedBothWays(10, 3, "\(CSI)?69h\(CSI)3;8s\(CSI)1;5Hx\r\ny")
        #expect(t.screenLines == ["    x", "  y", ""])
        #expect(t.at == [1, 3])
    }

    @Test("Carriage return left of the margin goes to column one") func carriageReturnLeftOfTheMarginGoesToColumnOne() {
        let t = fedBothWays(10, 3, "\(CSI)?69h\(CSI)3;8s\(CSI)1;2H\r\ny")
        #expect(t.screenLines == ["", "y", ""])
    }

    @Test("Line feed scrolls the region at its bottom margin") func lineFeedScrollsTheRegionAtItsBottomMargin() {
        let t = fedBothWays(10, 4, "top\(CSI)2;3r\(CSI)2;1Ha\(CSI)3;1Hb\r\nc\(CSI)4;1Hlast")
        #expect(t.screenLines == ["top", "b", "c", "last"])
    }

    @Test("Newline mode adds nothing after a carriage return") func newlineModeAddsNothingAfterACarriageReturn() {
        let t = fedBothWays(10, 3, "\(CSI)20hab\r\ncd\r\n")
        #expect(t.screenLines == ["ab", "cd", ""])
        #expect(t.at == [2, 0])
    }

    @Test("Repeat after a line end repeats nothing") func repeatAfterALineEndRepeatsNothing() {
        // REP repeats the graphic character just before it; after CR LF there
        // is none (xterm).
        let t = fedBothWays(10, 3, "a\r\n\(CSI)3bz")
        #expect(t.screenLines == ["a", "z", ""])
    }

    @Test("A lone carriage return or line feed still works") func aLoneCarriageReturnOrLineFeedStillWorks() {
        let t = fedBothWays(10, 3, "abc\rX\nY\n\r\r\nZ")
        #expect(t.screenLines == [" Y", "", "Z"])
        #expect(t.scrollbackLines == ["Xbc"])
    }
}

/// Plain lines after a CR LF (printable ASCII, then CR LF) are printed in one
/// loop when the cursor is at the start of the bottom row of a full-screen
/// scroll region on the primary screen (`TerminalState.printLines`; regions
/// that keep no line: RegionLinesTests). Each line must come out as
/// ctlseqs has it for the text and then CR and LF, the same as when the
/// bytes arrive one at a time through the parser's general paths; in every
/// other state the lines go through those paths.
@Suite("Plain lines in one loop")
struct PlainLinesTests {
    static func lines(_ count: Int, from first: Int = 0) -> String {
        (first..<(first + count)).map { "line \($0)\r\n" }.joined()
    }

    @Test("Lines scroll into the scrollback until it is full") func linesScrollIntoTheScrollbackUntilItIsFull() {
        let t = fedBothWays(10, 3, "top\r\n" + Self.lines(6), scrollback: 3)
        #expect(t.scrollbackLines == ["line 1", "line 2", "line 3"])
        // Eight lines, three on the screen: five left it, "top" and "line 0"
        // past the scrollback's three.
        #expect(t.evictedLineCount == 2)
        #expect(t.screenLines == ["line 4", "line 5", ""])
        #expect(t.at == [2, 0])
    }

    @Test("Without scrollback the lines leave the screen") func withoutScrollbackTheLinesLeaveTheScreen() {
        let t = fedBothWays(10, 3, "\r\n\r\n" + Self.lines(5) + "end", scrollback: 0)
        #expect(t.scrollbackCount == 0)
        #expect(t.screenLines == ["line 3", "line 4", "end"])
    }

    /// A row reused from the scrollback's oldest line keeps nothing of it:
    /// short lines after full ones show only themselves.
    @Test("Short lines after long ones leave no trace") func shortLinesAfterLongOnesLeaveNoTrace() {
        let long = String(repeating: "0123456789\r\n", count: 3)
        let t = fedBothWays(10, 2, "\r\n" + long + "ab\r\ncd\r\nef\r\n", scrollback: 1)
        #expect(t.scrollbackLines == ["cd"])
        #expect(t.screenLines == ["ef", ""])
    }

    /// In a long run of lines, the rows a line leaves short keep their old
    /// characters past it until the grid hands the row out (the grid's stale
    /// cells): none of them may ever show, on the screen or in the
    /// scrollback, and a row the grid clears again is not stale.
    @Test("Cells left stale never show") func cellsLeftStaleNeverShow() {
        let long = String(repeating: "0123456789\r\n", count: 8)
        let short = String(repeating: "ab\r\n", count: 6)
        let t = fedBothWays(10, 3, "\r\n" + long + short + "cd", scrollback: 4)
        #expect(t.scrollbackLines == ["ab", "ab", "ab", "ab"])
        #expect(t.screenLines == ["ab", "ab", "cd"])
        for row in 0..<2 {
            #expect((2..<10).allSatisfy { t.cellAt(row, $0).text.isEmpty })
        }
    }

    /// With two rows a page the loop stops at every other row to bind the
    /// pen there, and goes on: the rows of one run of lines that end on the
    /// screen must lose their stale cells however many stops the run made.
    @Test("Cells left stale never show when a run of lines crosses pages", arguments: [1, 2, 4])
    func cellsLeftStaleNeverShowAcrossPages(rowsPerPage: Int) {
        let long = String(repeating: "0123456789\r\n", count: 8)
        let short = String(repeating: "ab\r\n", count: 6)
        let t = Terminal(columns: 10, rows: 3, scrollback: 4, rowsPerPage: rowsPerPage)
        t.feed("\r\n" + long + short + "cd")
        #expect(t.scrollbackLines == ["ab", "ab", "ab", "ab"])
        #expect(t.screenLines == ["ab", "ab", "cd"])
        for row in 0..<3 {
            #expect((2..<10).allSatisfy { t.cellAt(row, $0).text.isEmpty }, "row \(row)")
        }
        for line in 0..<4 {
            #expect((2..<10).allSatisfy { t.scrollbackCell(line: ScrollbackLine(line), column: $0).text.isEmpty })
        }
    }

    @Test("A row cleared again keeps its new cells") func aRowClearedAgainKeepsItsNewCells() {
        // The rows of the short lines go to the scrollback stale past "ab";
        // lines in colour take the general paths, whose scrolls clear those
        // rows whole and write them again.
        let short = String(repeating: "ab\r\n", count: 12)
        let coloured = String(repeating: "\(CSI)1mABCDEFGHIJ\(CSI)m\r\n", count: 6)
        let t = fedBothWays(
            10, 3, "\r\n" + String(repeating: "0123456789\r\n", count: 8) + short + coloured, scrollback: 4)
        #expect(t.scrollbackLines == Array(repeating: "ABCDEFGHIJ", count: 4))
        #expect(t.screenLines == ["ABCDEFGHIJ", "ABCDEFGHIJ", ""])
    }

    /// ED 3 frees the scrollback's slots, stale ones among them; the lines
    /// that reuse them show only themselves.
    @Test("Lines after erase scrollback show no stale cells") func linesAfterEraseScrollbackShowNoStaleCells() {
        let long = String(repeating: "0123456789\r\n", count: 8)
        let short = String(repeating: "ab\r\n", count: 6)
        let t = fedBothWays(
            10, 3, "\r\n" + long + short + "\(CSI)3J" + String(repeating: "c\r\n", count: 6), scrollback: 4)
        #expect(t.scrollbackLines == ["c", "c", "c", "c"])
        #expect(t.screenLines == ["c", "c", ""])
    }

    @Test("A resize reads no stale cells") func aResizeReadsNoStaleCells() {
        let t = fedBothWays(
            10, 3, "\r\n" + String(repeating: "0123456789\r\n", count: 8) + String(repeating: "ab\r\n", count: 6),
            scrollback: 4)
        t.resize(columns: 12, rows: 3)
        #expect(t.scrollbackLines == ["ab", "ab", "ab", "ab"])
        #expect(t.screenLines == ["ab", "ab", ""])
    }

    /// A run of lines leaves the rows still on the screen stale (cleared
    /// only when asked for). RI at the top margin scrolls such a row down
    /// to the bottom (ctlseqs, RI: "Reverse Index"), where the next run's
    /// first line is written into it as the cursor's row: its old cells
    /// must be gone before the line covers some of them, or the part of the
    /// line over them would read as stale.
    @Test("A stale row scrolled down to the bottom takes the next line whole")
    func aStaleRowScrolledDownTakesTheNextLineWhole() {
        let long = String(repeating: "XXXXXXXXX\r\n", count: 6)
        let short = String(repeating: "b\r\n", count: 6)
        // RI on the top row, then the cursor to row 2 and CR LF to the bottom
        // row's start without a scroll: the plain-lines path starts there.
        let t = fedBothWays(10, 3, "\r\n" + long + short + "\(ESC)[1;1H\(ESC)M\(ESC)[2;1H\r\nYYYYY\r\n", scrollback: 2)
        #expect(t.screenLines == ["b", "YYYYY", ""])
        #expect((5..<10).allSatisfy { t.cellAt(1, $0).text.isEmpty })
    }

    /// DCH moves a row's cells left from past the cursor (ctlseqs, DCH:
    /// "Delete Ps Character(s)"), ICH right: on a row a run left stale, the
    /// old cells past its line must not come into view.
    @Test("Editing a row left stale brings back none of its old cells")
    func editingARowLeftStaleBringsBackNoneOfItsOldCells() {
        let long = String(repeating: "0123456789\r\n", count: 8)
        let short = String(repeating: "ab\r\n", count: 6)
        let t = fedBothWays(
            10, 3, "\r\n" + long + short + "\(CSI)1;1H\(CSI)P\(CSI)2;1H\(CSI)2@\(CSI)2;9HZ", scrollback: 4)
        #expect(t.screenLines == ["b", "  ab    Z", ""])
    }

    /// Live output comes in reads of a few KiB, and each ends a run of lines
    /// with rows still on the screen stale: read back between the reads and
    /// after them, the screen shows only the lines.
    @Test("Lines fed in small reads show no stale cells between reads")
    func linesFedInSmallReadsShowNoStaleCellsBetweenReads() {
        let t = Terminal(columns: 10, rows: 3, scrollback: 4)
        t.feed("\r\n" + String(repeating: "0123456789\r\n", count: 8))
        let short = Array(String(repeating: "ab\r\n", count: 3).utf8)
        for read in 0..<3 {
            t.feed(short)
            #expect(t.screenLines == ["ab", "ab", ""], "after read \(read)")
            for row in 0..<2 {
                #expect((2..<10).allSatisfy { t.cellAt(row, $0).text.isEmpty }, "after read \(read), row \(row)")
            }
        }
        #expect(t.scrollbackLines == ["ab", "ab", "ab", "ab"])
    }

    /// The plain-lines loop scrolls a recycled row up to the bottom and may
    /// stop there, before writing it, where that row lies in another page
    /// (`.otherTables`). The row has just joined its page's current era, and
    /// the caller binds the pen there, which can compact that era's tables:
    /// the old line's cells, whose ids are of the era the row left, must
    /// read as gone, not as ids of the new one.
    @Test("A recycled row the plain-lines loop stops at holds nothing of its old line")
    func aRecycledRowTheLoopStopsAtHoldsNothingOfItsOldLine() {
        var grid = Grid(columns: 4, rows: 2, scrollbackLimit: 2, rowsPerPage: 1)
        let old = Cell(scalar: 0x58, width: .narrow, style: .default)  // "X"
        let new = Cell(scalar: 0x61, width: .narrow, style: .default)  // "a"
        // Lines of "XXXX" until the ring of 4 slots has gone round, a run of
        // calls that each stop at the next page (one row a page) and go on.
        var left = 6
        var recycled = false
        while true {
            let stop = grid.writeLinesAtBottom(
                tables: grid.page(ofScreenRow: ScreenRow(1)), cellBits: 0, fill: .empty, bottomIsRecycled: recycled
            ) { row, _ in
                guard left > 0 else { return nil }
                for column in 0..<4 { row[column] = old }
                left -= 1
                return 4
            }
            if stop == .noLine { break }
            recycled = true
        }
        // Then a run whose first line, "aa", goes to the cursor's row: the
        // next row, recycled, is of another page, where the call stops.
        let stop = grid.writeLinesAtBottom(
            tables: grid.page(ofScreenRow: ScreenRow(1)), cellBits: 0, fill: .empty, bottomIsRecycled: false
        ) { row, _ in
            for column in 0..<2 { row[column] = new }
            return 2
        }
        #expect(stop == .otherTables)
        let bottom = grid.readRow(ScreenRow(1))
        #expect((0..<4).allSatisfy { bottom[$0] == .empty })
        #expect((0..<2).allSatisfy { grid.readRow(ScreenRow(0))[$0] == new })
    }

    @Test("A line as wide as the row cancels its pending wrap") func aLineAsWideAsTheRowCancelsItsPendingWrap() {
        // The last column's character leaves a wrap pending; CR LF cancels it.
        let t = fedBothWays(4, 2, "\r\nabcd\r\nefgh\r\nij")
        #expect(t.scrollbackLines == ["", "abcd"])
        #expect(t.screenLines == ["efgh", "ij"])
    }

    @Test("A longer line wraps") func aLongerLineWraps() {
        let t = fedBothWays(4, 2, "\r\nab\r\nabcdef\r\ngh\r\n")
        #expect(t.scrollbackLines == ["", "ab", "abcd", "ef"])
        #expect(t.screenLines == ["gh", ""])
        #expect(t.isWrapped(line: ScrollbackLine(2)))
        #expect(!t.isWrapped(line: ScrollbackLine(1)) && !t.isWrapped(line: ScrollbackLine(3)))
    }

    @Test("Empty lines scroll too") func emptyLinesScrollToo() {
        let t = fedBothWays(10, 2, "a\r\n\r\n\r\nb\r\n\r\nc")
        #expect(t.scrollbackLines == ["a", "", "", "b"])
        #expect(t.screenLines == ["", "c"])
    }

    /// Text takes the pen's style; the rows scrolled in are erased with the
    /// background colour (bce), as an LF scroll erases them.
    @Test("Text takes the pen and new rows the background") func textTakesThePenAndNewRowsTheBackground() {
        let t = fedBothWays(6, 2, "\(CSI)1;44m\r\nab\r\ncd\r\n")
        #expect(t.screenLines == ["cd", ""])
        #expect(t.cellAt(0, 0).style.flags.contains(.bold))
        #expect(t.cellAt(0, 5).style.background == .indexed(4))
        #expect(t.cellAt(1, 0).style.background == .indexed(4))
    }

    /// Plain lines written under truecolor pens, with a background of its
    /// own (a blank each page must intern) or the default one, across
    /// several pages of rows and once the scrollback recycles them: every
    /// cell as when the lines go through the usual calls a byte at a time.
    @Test("Lines keep truecolor pens and backgrounds across pages")
    func linesKeepTruecolorPensAndBackgroundsAcrossPages() {
        var input = ""
        // 128 rows a page at 200 columns (`Limits.cellsPerPage`).
        for line in 0..<700 {
            if line % 23 == 0 {
                let (r, g, b) = (line % 251, line / 7 % 253, line / 13 % 241)
                let background = line % 3 == 0 ? "49" : "48;2;\(b);\(r);\(g)"
                input += "\(CSI)38;2;\(r);\(g);\(b);\(background)m"
            }
            input += "l\(line)\r\n"
        }
        let (t, bytes) = fedWholeAndByteByByte(200, 3, input, scrollback: 300)
        // Every cell's style, not how many entries the tables hold: which
        // blanks a page interns depends on where its eras end.
        var (expected, got) = (ScreenState(bytes), ScreenState(t))
        (expected.styleCount, got.styleCount) = (0, 0)
        #expect(got == expected)
        #expect(t.scrollbackCount == 300)
        #expect(t.scrollbackLine(ScrollbackLine(299)) == "l697")
    }

    /// A line stored over the left half of a wide character blanks its right
    /// half (ctlseqs leaves this to the terminal; xterm erases the other
    /// half).
    @Test("A line over the head of a wide character blanks its tail")
    func aLineOverTheHeadOfAWideCharacterBlanksItsTail() {
        // The bottom row holds "ab漢"; the cursor comes down onto it with a
        // CR LF, and "xyz" covers the wide character's left half.
        let t = fedBothWays(6, 2, "\(CSI)2;1Hab漢\(CSI)1;1H\r\nxyz\r\nend")
        #expect(t.scrollbackLines == [""])
        #expect(t.screenLines == ["xyz", "end"])
        #expect(t.cellAt(0, 3).text == "" && t.cellAt(0, 3).width == .narrow)
    }

    /// A snapshot taken before sees the rows the lines wrote as changed:
    /// here the first line overwrites a bottom row that the CR LF before it
    /// moved the cursor onto (text is stored over the row; the rest stays).
    @Test("Snapshots see the rows the lines wrote") func snapshotsSeeTheRowsTheLinesWrote() {
        let t = terminal(6, 3, "\(CSI)3;1Hold\(CSI)2;1H")
        let before = t.snapshot()
        t.feed("\r\nxy\r\n")
        let after = t.snapshot()
        #expect((0..<3).map { after.line($0).text } == ["", "xyd", ""])
        #expect(after.changedRows(since: before).contains(1))
    }

    /// After CR LF there is no character for REP to repeat.
    @Test("Repeat after the lines repeats nothing") func repeatAfterTheLinesRepeatsNothing() {
        let t = fedBothWays(10, 3, "\r\na\r\nbc\r\n\(CSI)3bz")
        #expect(t.screenLines == ["a", "bc", "z"])
    }

    /// A combining mark right after the lines has no character to join.
    @Test("Grapheme clustering starts afresh after the lines") func graphemeClusteringStartsAfreshAfterTheLines() {
        let t = fedBothWays(10, 3, "\(CSI)?2027h\r\nab\r\ne\r\n\u{301}x")
        #expect(t.screenLines == ["ab", "e", "x"])
    }

    /// The lines' last character is the one a later cluster decision
    /// compares with, as after `printASCII`. A character from the DEC
    /// graphics set leaves that comparison's scalar alone, so a regional
    /// indicator after it is compared with the lines' "d" (a new cell), not
    /// with the indicator before the lines (they would pair into a flag).
    @Test("The lines' last character is what clustering compares with")
    func theLinesLastCharacterIsWhatClusteringComparesWith() {
        let t = fedBothWays(10, 2, "\(CSI)?2027h\u{1F1E6}\r\nab\r\ncd\r\n\(ESC)(0q\u{1F1E7}")
        #expect(t.cellAt(1, 0).text == "─")
        #expect(t.screenLines == ["cd", "─\u{1F1E7}"])
    }

    /// The erase cell's style is interned when a line feed first scrolls
    /// after a background change, not before: lines offered while it is not
    /// yet interned go through the usual calls. Here a prompt follows the
    /// CR LF and nothing scrolls, so no style is added for the blank.
    @Test("The erase style is not interned before anything scrolls")
    func theEraseStyleIsNotInternedBeforeAnythingScrolls() {
        let t = fedBothWays(10, 3, "\(CSI)2;1H\(CSI)1;44m\r\nprompt$ ")
        #expect(t.styleCount == terminal(10, 3, "\(CSI)1;44mx").styleCount)
        #expect(t.screenLines == ["", "", "prompt$"])
    }

    /// DECSCA's protection goes with every character the pen writes.
    @Test("A protected pen protects the lines' characters") func aProtectedPenProtectsTheLinesCharacters() {
        let t = fedBothWays(10, 2, "\(CSI)1\"q\r\nab\r\ncd\r\n\(CSI)0\"q\(CSI)A\(CSI)?2K")
        #expect(t.screenLines == ["cd", ""])
        #expect(t.cellAt(0, 0).isProtected)
    }

    /// Random output that is mostly plain lines (of every length up to past
    /// the row, some empty) with colour changes, wide characters, lone line
    /// ends and cursor moves among them, fed whole, in random chunks and byte
    /// by byte into terminals with a small scrollback: all three agree.
    @Test(
        "Random plain lines agree however they arrive", arguments: [(1, 8), (2, 8), (3, 8), (4, 20), (5, 20), (6, 80)])
    func randomPlainLinesAgreeHoweverTheyArrive(seed: UInt64, columns: Int) {
        Self.expectRandomPlainLinesAgree(seed: seed, columns: columns, rows: 3, scrollback: 5, alsoEditing: false)
    }

    /// The same among the sequences that move rows and free scrollback
    /// slots (ED 3, a scroll region from the top row, RI, IL, DL, ED 2), at
    /// other sizes: one row, two, none kept in the scrollback, a width under
    /// eight and one that is not a multiple of it.
    @Test(
        "Random plain lines among scrolls and erases agree",
        arguments: [(7, 5, 1, 0), (8, 5, 2, 3), (9, 8, 4, 0), (10, 16, 2, 6), (11, 20, 4, 10), (12, 13, 3, 2)])
    func randomPlainLinesAmongScrollsAndErasesAgree(seed: UInt64, columns: Int, rows: Int, scrollback: Int) {
        Self.expectRandomPlainLinesAgree(
            seed: seed, columns: columns, rows: rows, scrollback: scrollback, alsoEditing: true)
    }

    static func expectRandomPlainLinesAgree(
        seed: UInt64, columns: Int, rows: Int, scrollback: Int, alsoEditing: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var generator = SplitMix64(seed: seed)
        let edits = ["\(CSI)3J", "\(CSI)1;2r", "\(CSI)r", "\(ESC)M", "\(CSI)L", "\(CSI)M", "\(CSI)2J"]
        var input = ""
        for _ in 0..<600 {
            switch generator.next() % (alsoEditing ? 11 : 10) {
            case 0: input += "\(CSI)\(40 + generator.next() % 8)m"
            case 1: input += "漢"
            case 2: input += ["\n", "\r", "\(CSI)H", "\(CSI)2;3H", "\(CSI)m"][Int(generator.next() % 5)]
            case 10: input += edits[Int(generator.next() % UInt64(edits.count))]
            default:
                let length = Int(generator.next() % UInt64(columns + 4))
                input += String(
                    (0..<length).map { _ in Character(Unicode.Scalar(UInt8(0x20 + generator.next() % 95))) })
                input += "\r\n"
            }
        }
        let (whole, bytes) = fedWholeAndByteByByte(columns, rows, input, scrollback: scrollback)
        let chunked = Terminal(columns: columns, rows: rows, scrollback: scrollback)
        let utf8 = Array(input.utf8)
        var start = 0
        while start < utf8.count {
            let end = min(utf8.count, start + 1 + Int(generator.next() % 40))
            chunked.feed(Array(utf8[start..<end]))
            start = end
        }
        #expect(ScreenState(whole) == ScreenState(bytes), sourceLocation: sourceLocation)
        #expect(ScreenState(chunked) == ScreenState(bytes), sourceLocation: sourceLocation)
    }

    /// Each state in which a line is more than a store and a scroll: the
    /// lines go through the general paths, with the same result as byte by
    /// byte and as ctlseqs has it.
    @Test("Other states take the general paths") func otherStatesTakeTheGeneralPaths() {
        // A scroll region from the top row to above the last: the lines go
        // to the scrollback and the last row stays (regions that keep no
        // line have a loop of their own: RegionLinesTests).
        let fromTheTop = fedBothWays(10, 3, "\(CSI)3;1Hend\(CSI)1;2r\(CSI)2;1H\r\nab\r\ncd\r\n")
        #expect(fromTheTop.screenLines == ["cd", "", "end"])
        #expect(fromTheTop.scrollbackLines == ["", "", "ab"])
        // Left and right margins: CR returns to the left margin, and a line
        // wraps at the right one.
        #expect(
            fedBothWays(10, 2, "\(CSI)?69h\(CSI)3;8s\(CSI)2;5H\r\nab\r\ncd\r\n").screenLines == ["  cd", ""])
        #expect(fedBothWays(10, 2, "\(CSI)?69h\(CSI)1;5s\(CSI)1;1H\r\nabcdefg\r\n").screenLines == ["fg", ""])
        // Insert mode shifts what the row holds.
        #expect(
            fedBothWays(10, 2, "\(CSI)2;1Hxyz\(CSI)1;1H\(CSI)4h\r\nab\r\n").screenLines == ["abxyz", ""])
        // The DEC special graphics set: q is a horizontal line.
        #expect(fedBothWays(10, 2, "\(ESC)(0\r\nqq\r\nqx\r\n").screenLines == ["─│", ""])
        // A double-width bottom row holds three characters here, and wraps.
        let doubleWidth = fedBothWays(6, 2, "\(CSI)2;1H\(ESC)#6\(CSI)1;1H\r\nabcdef\r\n")
        #expect(doubleWidth.scrollbackLines == ["", "abc"])
        #expect(doubleWidth.screenLines == ["def", ""])
        // LNM: LF also returns the cursor, which changes nothing here.
        #expect(fedBothWays(10, 2, "\(CSI)20h\r\nab\r\ncd\r\n").screenLines == ["cd", ""])
    }
}
