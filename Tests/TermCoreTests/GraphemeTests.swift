import TermCore
import Testing

/// Mode 2027 off: widths per code point (xterm, alacritty); on: whole
/// clusters (UAX #29 through utf8proc) decide the cells.
@Suite("Grapheme clusters")
struct GraphemeTests {
    static let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"  // 👨‍👩‍👧
    static let thumbsUpMedium = "\u{1F44D}\u{1F3FD}"  // 👍🏽
    static let flagFR = "\u{1F1EB}\u{1F1F7}"  // 🇫🇷
    static let flagDE = "\u{1F1E9}\u{1F1EA}"
    static let heartEmoji = "\u{2764}\u{FE0F}"  // ❤️: text-default base + VS16
    static let watchText = "\u{231A}\u{FE0E}"  // ⌚︎: emoji-default base + VS15

    func cursorColumn(_ text: String, clustering: Bool, columns: Int = 20) -> Int {
        terminal(columns, 2, (clustering ? "\(CSI)?2027h" : "") + text).cursor.position.column
    }

    @Test("Many distinct marked characters keep their marks") func manyDistinctMarkedCharactersKeepTheirMarks() {
        // 6,000 letters with two combining marks each: far more distinct
        // (character, mark) steps than the extension cache has slots, so
        // entries collide and are replaced; every cell must still be right.
        func marked(_ index: Int) -> String {
            let letter = Unicode.Scalar(UInt8(ascii: "a") + UInt8(index % 26))
            let first = Unicode.Scalar(0x300 + UInt32(index / 26 % 112))!
            let second = Unicode.Scalar(0x300 + UInt32(index % 7))!
            return String(String.UnicodeScalarView([letter, first, second]))
        }
        let t = Terminal(columns: 100, rows: 60, scrollback: 0)
        t.feed((0..<6_000).map(marked).joined())
        for index in [0, 1, 25, 26, 2_911, 2_912, 4_095, 4_096, 5_999] {
            #expect(t.cellAt(index / 100, index % 100).text == marked(index))
        }
    }

    @Test("Mode is off by default and reported") func modeIsOffByDefaultAndReported() {
        let t = terminal(10, 1)
        t.writeBack = { _ in }
        #expect(!t.modes.graphemeClustering)
        t.feed("\(CSI)?2027h")
        #expect(t.modes.graphemeClustering)
    }

    @Test("ZWJ family per code point takes six columns") func zwjFamilyPerCodePointTakesSixColumns() {
        // Three wide emoji; the joiners attach to the cell before them.
        #expect(cursorColumn(Self.family, clustering: false) == 6)
    }

    @Test("ZWJ family as a cluster takes two columns") func zwjFamilyAsAClusterTakesTwoColumns() {
        let t = terminal(20, 2, "\(CSI)?2027h" + Self.family + "x")
        #expect(t.cellAt(0, 0).text == Self.family)
        #expect(t.cellAt(0, 0).width == .wide)
        #expect(t.cellAt(0, 2).text == "x")
    }

    @Test("Skin tone modifier") func skinToneModifier() {
        #expect(cursorColumn(Self.thumbsUpMedium, clustering: false) == 4)
        #expect(cursorColumn(Self.thumbsUpMedium, clustering: true) == 2)
        #expect(terminal(10, 1, "\(CSI)?2027h" + Self.thumbsUpMedium).cellAt(0, 0).text == Self.thumbsUpMedium)
    }

    @Test("Regional indicator pairs form flags") func regionalIndicatorPairsFormFlags() {
        #expect(cursorColumn(Self.flagFR, clustering: true) == 2)
        // Two flags in a row: indicators pair up in order, not three-and-one.
        let t = terminal(10, 1, "\(CSI)?2027h" + Self.flagFR + Self.flagDE)
        #expect(t.cellAt(0, 0).text == Self.flagFR)
        #expect(t.cellAt(0, 2).text == Self.flagDE)
        #expect(t.cursor.position.column == 4)
    }

    @Test("Variation selector 16 widens only with clustering") func variationSelector16WidensOnlyWithClustering() {
        #expect(cursorColumn(Self.heartEmoji, clustering: false) == 1)
        #expect(cursorColumn(Self.heartEmoji, clustering: true) == 2)
    }

    @Test("Variation selector 15 narrows") func variationSelector15Narrows() {
        #expect(cursorColumn("\u{231A}", clustering: true) == 2)
        #expect(cursorColumn(Self.watchText, clustering: true) == 1)
        let t = terminal(10, 1, "\(CSI)?2027h" + Self.watchText + "y")
        #expect(t.cellAt(0, 1).text == "y")
    }

    @Test("Combining marks join in both modes") func combiningMarksJoinInBothModes() {
        for clustering in [false, true] {
            let t = terminal(10, 1, (clustering ? "\(CSI)?2027h" : "") + "e\u{301}\u{323}x")
            #expect(t.cellAt(0, 0).scalars == ["e", "\u{301}", "\u{323}"])
            #expect(t.cellAt(0, 1).text == "x")
        }
    }

    @Test("Cluster that no longer fits wraps") func clusterThatNoLongerFitsWraps() {
        // ❤ fits in the last column; VS16 makes it wide, so it moves down.
        let t = terminal(5, 2, "\(CSI)?2027habcd" + Self.heartEmoji)
        #expect(t.screenLines == ["abcd", Self.heartEmoji])
        #expect(t.cellAt(1, 0).width == .wide)
        #expect(t.at == [1, 2])
    }

    @Test("Controls end a cluster") func controlsEndACluster() {
        // After CR the joiner-less emoji starts anew; nothing joins across it.
        let t = terminal(10, 1, "\(CSI)?2027h\u{1F468}\r\u{1F469}")
        #expect(t.cellAt(0, 0).text == "\u{1F469}")
    }

    @Test("A scalar continues the cluster of the cell before the cursor, judged from that cell, whatever came between")
    func joinIsJudgedFromTheCellBeforeTheCursor() {
        // Ghostty's rule: the break is computed from the previous cell's
        // scalars, so an SGR between the indicators of a flag keeps it one
        // cell, and a move back next to a lone indicator pairs it.
        let sgr = terminal(10, 1, "\(CSI)?2027h\u{1F1EB}\(CSI)1m\u{1F1F7}")
        #expect(sgr.cellAt(0, 0).text == Self.flagFR)
        #expect(sgr.cellAt(0, 0).width == .wide)
        let moved = terminal(10, 1, "\(CSI)?2027h\u{1F1EB}x\(CSI)2G\u{1F1F7}")
        #expect(moved.cellAt(0, 0).text == Self.flagFR)
        // A letter before the cursor is never continued by an indicator,
        // whatever was printed last (UAX #29 GB999).
        let letter = terminal(10, 1, "\(CSI)?2027ha\u{1F1EB}\(CSI)2G\u{1F1F7}")
        #expect(letter.cellAt(0, 0).text == "a")
        #expect(letter.cellAt(0, 1).text == "\u{1F1F7}")
    }

    @Test("A cell printed partly with mode 2027 on and partly off keeps what each part made")
    func cellPrintedInBothModes() {
        // On: the ZWJ sequence is one wide cluster; off: VS15 is a zero-width
        // scalar that joins without changing the width.
        let t = terminal(10, 1, "\(CSI)?2027h\u{1F469}\u{200D}\u{1F467}\(CSI)?2027l\u{FE0E}")
        #expect(t.cellAt(0, 0).scalars.map(\.value) == [0x1F469, 0x200D, 0x1F467, 0xFE0E])
        #expect(t.cellAt(0, 0).width == .wide)
        let scalars: [Unicode.Scalar] = ["\u{1F469}", "\u{200D}", "\u{1F467}", "\u{FE0E}"]
        // Neither mode alone prints that cell: off makes two, on narrows it.
        #expect(Terminal.printedWidth(of: scalars, graphemeClustering: false) == nil)
        #expect(Terminal.printedWidth(of: scalars, graphemeClustering: true) == 1)
        let runs = Terminal.printRuns(of: scalars, width: 2, clustering: true)
        #expect(runs?.map(\.clustering) == [true, false])
        #expect(runs?.map(\.count) == [3, 1])
        // Two cells' worth of scalars make no one cell.
        #expect(Terminal.printRuns(of: ["a", "b"], width: 1, clustering: false) == nil)
    }

    @Test("Cluster length is bounded") func clusterLengthIsBounded() {
        let t = terminal(10, 1, "\(CSI)?2027he" + String(repeating: "\u{301}", count: 100))
        #expect(t.cellAt(0, 0).scalars.count == 32)
        #expect(t.counters.droppedCombiningMarks == 69)
    }

    @Test("A cluster moved to the next row keeps its style through a compaction")
    func aClusterMovedToTheNextRowKeepsItsStyleThroughACompaction() {
        // A smiley in the last column of the last row becomes wide (VS16)
        // and moves to the next row: the wrap scrolls and compacts the full
        // style table. The moved cluster and what follows keep the pen.
        let pen = Style(foreground: .rgb(1, 2, 3), background: .rgb(9, 9, 9))
        let t = Terminal(columns: 10, rows: 2, scrollback: 0)
        t.feed("\(CSI)?2027h" + SGRTests.fillingTheStyleTable(last: pen) + "\(CSI)2;10H\u{263A}\u{FE0F}x")
        #expect(t.counters.styleCompactions == 1)
        #expect(t.cellAt(1, 0).text == "\u{263A}\u{FE0F}" && t.cellAt(1, 0).style == pen)
        #expect(t.cellAt(1, 1).width == .wideTail && t.cellAt(1, 1).style == pen)
        #expect(t.cellAt(1, 2).text == "x" && t.cellAt(1, 2).style == pen)
    }

    @Test("A cluster widened in place keeps its protection") func aClusterWidenedInPlaceKeepsItsProtection() {
        // DECSCA-protected smiley made wide by VS16: its right half is
        // protected too, so a selective erase leaves the whole character.
        let t = terminal(10, 2, "\(CSI)?2027h\(CSI)1\"q\u{263A}\u{FE0F}\(CSI)0\"q\(CSI)1G\(CSI)?2K")
        #expect(t.cellAt(0, 0).text == "\u{263A}\u{FE0F}" && t.cellAt(0, 0).isProtected)
        #expect(t.cellAt(0, 1).width == .wideTail && t.cellAt(0, 1).isProtected)
    }
}
