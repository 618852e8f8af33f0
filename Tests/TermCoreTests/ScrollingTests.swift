import TermCore
import TestSupport
import Testing

@Suite("Scrolling and scrollback")
struct ScrollingTests {
    @Test func linefeedAtTheBottomScrollsIntoScrollback() {
        let t = terminal(10, 3, "1\r\n2\r\n3\r\n4\r\n5")
        #expect(t.screenLines == ["3", "4", "5"])
        #expect(t.scrollbackLines == ["1", "2"])
    }

    @Test func recycledRowsShowNothingOfTheirOldLines() {
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

    @Test func scrollbackKeepsOnlyTheNewestLines() {
        var input = ""
        for line in 1...20 { input += "\(line)\r\n" }
        let t = terminal(10, 3, scrollback: 5, input)
        #expect(t.scrollbackLines == ["14", "15", "16", "17", "18"])
        #expect(t.screenLines == ["19", "20", ""])
    }

    @Test func zeroScrollbackKeepsNothing() {
        let t = terminal(10, 2, scrollback: 0, "a\r\nb\r\nc")
        #expect(t.scrollbackCount == 0)
        #expect(t.screenLines == ["b", "c"])
    }

    @Test func regionScrollDoesNotFeedScrollback() {
        let t = terminal(10, 4, "a\r\nb\r\nc\r\nd\(CSI)2;3r\(CSI)3;1H\nX")
        #expect(t.screenLines == ["a", "c", "X", "d"])
        #expect(t.scrollbackCount == 0)
    }

    @Test func regionAtTheTopRowFeedsScrollback() {
        // xterm saves the lines scrolled off a region whose top margin is the
        // first row; rows below the region stay where they are.
        let t = terminal(10, 4, "a\r\nb\r\nc\r\nd\(CSI)1;3r\(CSI)3;1H\nX")
        #expect(t.screenLines == ["b", "c", "X", "d"])
        #expect(t.scrollbackLines == ["a"])
    }

    @Test func reverseIndexAtTheTopScrollsDown() {
        let t = terminal(10, 3, "a\r\nb\r\nc\(CSI)H\(ESC)M")
        #expect(t.screenLines == ["", "a", "b"])
    }

    @Test func indexAndNextLine() {
        #expect(terminal(10, 3, "ab\(ESC)D").at == [1, 2])
        #expect(terminal(10, 3, "ab\(ESC)E").at == [1, 0])
    }

    @Test func scrollUpAndDown() {
        let t = terminal(10, 4, "a\r\nb\r\nc\r\nd\(CSI)2S")
        #expect(t.screenLines == ["c", "d", "", ""])
        #expect(t.scrollbackLines == ["a", "b"])
        let u = terminal(10, 4, "a\r\nb\r\nc\r\nd\(CSI)2T")
        #expect(u.screenLines == ["", "", "a", "b"])
    }

    @Test func insertAndDeleteLinesStayInTheRegion() {
        let t = terminal(10, 5, "a\r\nb\r\nc\r\nd\r\ne\(CSI)1;4r\(CSI)2;3H\(CSI)L")
        #expect(t.screenLines == ["a", "", "b", "c", "e"])
        #expect(t.at == [1, 0])
        let u = terminal(10, 5, "a\r\nb\r\nc\r\nd\r\ne\(CSI)1;4r\(CSI)2;1H\(CSI)2M")
        #expect(u.screenLines == ["a", "d", "", "", "e"])
        #expect(u.scrollbackCount == 0)
    }

    @Test func deleteLinesAtTheTopNeverFeedScrollback() {
        let t = terminal(10, 3, "a\r\nb\r\nc\(CSI)H\(CSI)M")
        #expect(t.screenLines == ["b", "c", ""])
        #expect(t.scrollbackCount == 0)
    }

    @Test func scrollRegionNeedsTopBelowBottom() {
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
    @Test(arguments: [0, 3, 7])
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

/// CR LF reaches the terminal as one call when both bytes arrive together and
/// as two `execute`s when a feed ends between them: both must do what ctlseqs
/// says of CR (to the left margin, or column 1 when left of it) and then LF
/// (down a row, scrolling at the bottom margin; with LNM also a CR).
@Suite("CR LF as one call")
struct CarriageReturnLineFeedTests {
    /// `input` fed whole, then byte by byte: the screens and cursors agree,
    /// and the whole feed's screen is returned.
    func fedBothWays(_ columns: Int, _ rows: Int, _ input: String) -> Terminal {
        let (whole, bytes) = fedWholeAndByteByByte(columns, rows, input)
        #expect(ScreenState(bytes) == ScreenState(whole), "\(input.debugDescription)")
        #expect(bytes.scrollbackLines == whole.scrollbackLines)
        return whole
    }

    @Test func linesScrollIntoTheScrollback() {
        let t = fedBothWays(10, 2, "ab\r\ncd\r\nef")
        #expect(t.screenLines == ["cd", "ef"])
        #expect(t.scrollbackLines == ["ab"])
        #expect(t.at == [1, 2])
    }

    @Test func aPendingWrapIsCancelledWithoutAnExtraLine() {
        let t = fedBothWays(4, 3, "abcd\r\nef")
        #expect(t.screenLines == ["abcd", "ef", ""])
        #expect(t.at == [1, 2])
    }

    @Test func carriageReturnGoesToTheLeftMargin() {
        // DECLRMM on, margins at columns 3–8; the cursor starts inside them.
        let t = fedBothWays(10, 3, "\(CSI)?69h\(CSI)3;8s\(CSI)1;5Hx\r\ny")
        #expect(t.screenLines == ["    x", "  y", ""])
        #expect(t.at == [1, 3])
    }

    @Test func carriageReturnLeftOfTheMarginGoesToColumnOne() {
        let t = fedBothWays(10, 3, "\(CSI)?69h\(CSI)3;8s\(CSI)1;2H\r\ny")
        #expect(t.screenLines == ["", "y", ""])
    }

    @Test func lineFeedScrollsTheRegionAtItsBottomMargin() {
        let t = fedBothWays(10, 4, "top\(CSI)2;3r\(CSI)2;1Ha\(CSI)3;1Hb\r\nc\(CSI)4;1Hlast")
        #expect(t.screenLines == ["top", "b", "c", "last"])
    }

    @Test func newlineModeAddsNothingAfterACarriageReturn() {
        let t = fedBothWays(10, 3, "\(CSI)20hab\r\ncd\r\n")
        #expect(t.screenLines == ["ab", "cd", ""])
        #expect(t.at == [2, 0])
    }

    @Test func repeatAfterALineEndRepeatsNothing() {
        // REP repeats the graphic character just before it; after CR LF there
        // is none (xterm).
        let t = fedBothWays(10, 3, "a\r\n\(CSI)3bz")
        #expect(t.screenLines == ["a", "z", ""])
    }

    @Test func aLoneCarriageReturnOrLineFeedStillWorks() {
        let t = fedBothWays(10, 3, "abc\rX\nY\n\r\r\nZ")
        #expect(t.screenLines == [" Y", "", "Z"])
        #expect(t.scrollbackLines == ["Xbc"])
    }
}
