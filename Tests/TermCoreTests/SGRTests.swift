import TermCore
import Testing

@Suite("Select Graphic Rendition")
struct SGRTests {
    func style(_ parameters: String) -> Style {
        terminal(10, 1, "\(CSI)\(parameters)mX").cellAt(0, 0).style
    }

    @Test("Basic attributes") func basicAttributes() {
        #expect(style("1").flags == .bold)
        #expect(style("2").flags == .dim)
        #expect(style("3").flags == .italic)
        #expect(style("5").flags == .blink)
        #expect(style("7").flags == .inverse)
        #expect(style("8").flags == .hidden)
        #expect(style("9").flags == .strikethrough)
        #expect(style("53").flags == .overline)
        // A prefix or an intermediate makes another sequence, not SGR.
        #expect(style("1;3;0") == Style())
        #expect(terminal(10, 1, "\(CSI)?1m\(CSI)>4;1m\(CSI)1 mX").cellAt(0, 0).style == Style())
        #expect(style("") == Style())
    }

    @Test("Resets") func resets() {
        #expect(style("1;2;22").flags == [])
        #expect(style("3;23").flags == [])
        #expect(style("4;24").underline == .none)
        #expect(style("5;25").flags == [])
        #expect(style("7;27").flags == [])
        #expect(style("8;28").flags == [])
        #expect(style("9;29").flags == [])
        #expect(style("53;55").flags == [])
        #expect(style("31;39").foreground == .default)
        #expect(style("41;49").background == .default)
    }

    /// ctlseqs, SGR: "Ps = 0 -> Normal (default)", and `CSI m` is `CSI 0
    /// m`. From a pen of each kind (palette pair, table style with direct
    /// colours and underline colour, one with a link), the cell after the
    /// reset has the default style; the link is OSC 8's, not SGR's, and
    /// stays; an erase after the reset fills with the default background.
    @Test("SGR 0 and an empty SGR reset every rendition from any pen, but not the link")
    func sgrZeroAndAnEmptySGRResetEveryRenditionFromAnyPen() {
        let pens = [
            "31;42", "1;3;4;7;9;53", "38;2;1;2;3;48;2;4;5;6", "4:3;58;2;9;9;9", "38;5;200;48;5;100;21",
        ]
        for pen in pens {
            for reset in ["0", ""] {
                let t = terminal(10, 2, "\(CSI)\(pen)mA\(CSI)\(reset)mB\(CSI)\(pen)mC\(CSI)\(reset)m\(CSI)2;1H\(CSI)K")
                #expect(t.cellAt(0, 0).style != Style(), "\(pen)")
                #expect(t.cellAt(0, 1).style == Style(), "\(pen) then CSI \(reset) m")
                #expect(t.cellAt(0, 2).style == t.cellAt(0, 0).style)
                #expect(t.cellAt(1, 5).style.background == .default, "\(pen): the erase after the reset")
            }
        }
        let linked = terminal(10, 1, "\u{1B}]8;;https://x.example\u{1B}\\\(CSI)38;2;1;2;3mA\(CSI)0mB\(CSI)mC")
        for column in 0..<3 { #expect(linked.cellAt(0, column).hyperlink?.uri == "https://x.example") }
        #expect(linked.cellAt(0, 1).style == Style())
        #expect(linked.cellAt(0, 2).style == Style())
    }

    @Test("Underline styles") func underlineStyles() {
        #expect(style("4").underline == .single)
        #expect(style("21").underline == .double)
        #expect(style("4:0").underline == .none)
        #expect(style("4:2").underline == .double)
        #expect(style("4:3").underline == .curly)
        #expect(style("4:4").underline == .dotted)
        #expect(style("4:5").underline == .dashed)
    }

    @Test("Sixteen colours") func sixteenColours() {
        #expect(style("31").foreground == .indexed(1))
        #expect(style("47").background == .indexed(7))
        #expect(style("92").foreground == .indexed(10))
        #expect(style("104").background == .indexed(12))
    }

    @Test("Indexed and direct colours") func indexedAndDirectColours() {
        #expect(style("38;5;196").foreground == .indexed(196))
        #expect(style("48;5;17").background == .indexed(17))
        #expect(style("38;2;1;2;3").foreground == .rgb(1, 2, 3))
        #expect(style("48;2;10;20;30").background == .rgb(10, 20, 30))
        #expect(style("38:5:9").foreground == .indexed(9))
        #expect(style("38:2::1:2:3").foreground == .rgb(1, 2, 3))
        #expect(style("38:2:1:2:3").foreground == .rgb(1, 2, 3))
        #expect(style("38:2:0:1:2:3").foreground == .rgb(1, 2, 3))
    }

    @Test("Parameters after a colour still apply") func parametersAfterAColourStillApply() {
        let s = style("38;2;1;2;3;1;48;5;4")
        #expect(s.foreground == .rgb(1, 2, 3))
        #expect(s.flags == .bold)
        #expect(s.background == .indexed(4))
        // A colon group is one parameter: what follows it is read normally.
        let t = style("38:5:1;4")
        #expect(t.foreground == .indexed(1))
        #expect(t.underline == .single)
    }

    @Test("Underline colour") func underlineColour() {
        #expect(style("58;5;3").underlineColor == .indexed(3))
        #expect(style("58:2::9:8:7").underlineColor == .rgb(9, 8, 7))
        #expect(style("58;5;3;59").underlineColor == .default)
    }

    @Test("Truncated extended colour is ignored") func truncatedExtendedColourIsIgnored() {
        #expect(style("38;5").foreground == .default)
        #expect(style("38;2;1;2").foreground == .default)
    }

    @Test("Every palette colour pair keeps its style") func everyPaletteColourPairKeepsItsStyle() {
        // All 256 × 256 foreground/background pairs, a row per background, on
        // a screen that keeps the last 128 rows. Pairs are held in the cells
        // (StyleKey), so the table stays empty and never compacts; bold pairs
        // over the top row go through the table. Every cell must still show
        // its own pair.
        let t = Terminal(columns: 256, rows: 128, scrollback: 0)
        var input = ""
        for background in 0..<256 {
            for foreground in 0..<256 { input += "\(CSI)38;5;\(foreground);48;5;\(background)mX" }
        }
        input += "\(CSI)2H"
        for foreground in 0..<256 { input += "\(CSI)38;5;\(foreground);48;5;200mX" }
        input += "\(CSI)1m\(CSI)H"
        for foreground in 0..<256 { input += "\(CSI)38;5;\(foreground);48;5;7mX" }
        t.feed(input)
        #expect(t.counters.styleCompactions == 0)
        // Default, 256 bold pairs, and erase styles (a background only) for
        // the scrolls: far below the 65,536 ids.
        #expect(t.styleCount <= 1 + 256 + 256)
        let backgrounds = [0: 7, 1: 200, 77: 128 + 77, 127: 255]
        for (row, background) in backgrounds {
            for column in [0, 9, 128, 255] {
                let cell = t.cellAt(row, column)
                #expect(cell.style.foreground == .indexed(UInt8(column)))
                #expect(cell.style.background == .indexed(UInt8(background)))
                #expect(cell.style.flags == (row == 0 ? .bold : []))
            }
        }
    }

    /// SGR for a foreground of its own for each `index` (0x00RRGGBB).
    static func truecolor(_ index: Int) -> String {
        "\(CSI)38;2;\(index >> 16);\((index >> 8) & 0xFF);\(index & 0xFF)m"
    }

    @Test("Compaction keeps every other cell's style") func compactionKeepsEveryOtherCellsStyle() {
        // A plain row and a bold row, then 70,000 colours through one cell:
        // the table compacts, and only that cell's style may change.
        let t = Terminal(columns: 10, rows: 4, scrollback: 0)
        var input = "plain\r\n\(CSI)1mbold\(CSI)0m\r\n\(CSI)38;5;9;48;5;4mpair\(CSI)0m"
        for index in 0..<70_000 {
            input += "\(CSI)4H" + Self.truecolor(index) + "X"
        }
        t.feed(input)
        #expect(t.counters.styleCompactions >= 1)
        #expect(t.cellAt(0, 0).style == Style())
        #expect(t.cellAt(0, 9).style == Style())
        #expect(t.cellAt(1, 0).style == Style(flags: .bold))
        #expect(t.cellAt(2, 3).style == Style(foreground: .indexed(9), background: .indexed(4)))
        #expect(t.cellAt(2, 4).style == Style())
        #expect(t.cellAt(3, 0).style.foreground == .rgb(1, 0x11, 0x6F))  // 69,999 = 0x1116F
    }

    /// SGRs that fill the style table exactly: 65,534 foregrounds, then
    /// `last` (a new background as well, so its erase style is not interned
    /// yet). The next style interned compacts the table.
    static func fillingTheStyleTable(last: Style) -> String {
        var input = ""
        for index in 0..<65_534 { input += truecolor(index) }
        guard case .rgb(let r, let g, let b) = last.foreground.kind,
            case .rgb(let br, let bg, let bb) = last.background.kind
        else { return input }
        return input + "\(CSI)48;2;\(br);\(bg);\(bb);38;2;\(r);\(g);\(b)m"
    }

    @Test("A compaction in the middle of a run keeps the pen's style")
    func aCompactionInTheMiddleOfARunKeepsThePensStyle() {
        // "a" fills the last column; the wrap before "b" scrolls, interns
        // the erase style of the new background and so compacts the full
        // table, renumbering the pen while the run is being printed. "b"
        // must get the pen's new id (it kept the old one, past the end of
        // the compacted table). No scrollback: the page has no eras
        // (Grid+Pages.swift), so the scroll interns in the full table.
        let pen = Style(foreground: .rgb(1, 2, 3), background: .rgb(9, 9, 9))
        let t = Terminal(columns: 80, rows: 24, scrollback: 0)
        t.feed(Self.fillingTheStyleTable(last: pen) + "\(CSI)24;80Hab")
        #expect(t.counters.styleCompactions == 1)
        #expect(t.cellAt(22, 79).text == "a" && t.cellAt(22, 79).style == pen)
        #expect(t.cellAt(23, 0).text == "b" && t.cellAt(23, 0).style == pen)
        #expect(t.cellAt(23, 1).style == Style(background: .rgb(9, 9, 9)))
    }

    @Test("A rectangle filled during a compaction takes the pen's style")
    func aRectangleFilledDuringACompactionTakesThePensStyle() {
        // DECFRA erases its area first, which interns the erase style of the
        // new background and compacts the full table: the fill must use the
        // pen's id from after the compaction.
        let pen = Style(foreground: .rgb(1, 2, 3), background: .rgb(9, 9, 9))
        let t = Terminal(columns: 10, rows: 3, scrollback: 0)
        t.feed(Self.fillingTheStyleTable(last: pen) + "\(CSI)88;1;1;2;3$x")
        #expect(t.counters.styleCompactions == 1)
        #expect(t.screenLines == ["XXX", "XXX", ""])
        #expect(t.cellAt(1, 2).style == pen)
    }

    /// 200,000 distinct styles, one truecolor foreground per cell (issue #4):
    /// the tables of lines scrolled out are freed (issue #17: the page's
    /// eras, reset as their last line goes), and every cell still on the
    /// screen or in the scrollback keeps its own colour, the newest too
    /// (SwiftTerm drops colours once its table is full).
    @Test("Many distinct styles never run out") func manyDistinctStylesNeverRunOut() {
        let t = Terminal(columns: 80, rows: 24, scrollback: 100)
        let count = 200_000
        var input = ""
        input.reserveCapacity(count * 24)
        for index in 0..<count {
            input += Self.truecolor(index) + "X"
        }
        t.feed(input)
        // 124 slots in one page: an era of at most 124 lines of 80 styles
        // is reset every 124 lines, before any table fills.
        #expect(t.counters.styleCompactions == 0)
        #expect(t.counters.tableResets >= 2_500 / 124 - 2)
        // 200,000 is a multiple of 80: the last X sits in the last column,
        // pending wrap, so the last of the 2,500 rows written is the bottom row.
        #expect(t.cursor.pendingWrap)
        #expect(t.scrollbackCount == 100)
        func colour(_ index: Int) -> TerminalColor {
            .rgb(UInt8(index >> 16), UInt8((index >> 8) & 0xFF), UInt8(index & 0xFF))
        }
        var wrong: [String] = []
        for row in 0..<24 {
            for column in 0..<80 where t.cellAt(row, column).style.foreground != colour((2476 + row) * 80 + column) {
                wrong.append("screen \(row),\(column)")
            }
        }
        for line in 0..<100 {
            for column in 0..<80
            where t.scrollbackCell(line: ScrollbackLine(line), column: column).style.foreground
                != colour((2376 + line) * 80 + column)
            {
                wrong.append("scrollback \(line),\(column)")
            }
        }
        let wrongCells = wrong.count
        #expect(wrongCells == 0, "first: \(wrong.prefix(5))")
        #expect(t.cellAt(23, 79).style.foreground == .rgb(3, 0x0D, 0x3F))  // 199,999 = 0x30D3F
    }
}
