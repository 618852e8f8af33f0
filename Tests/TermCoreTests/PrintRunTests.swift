import TermCore
import TestSupport
import Testing

/// Every cell with all it holds (role, scalars, style, protection, link),
/// the rows' wrap flags and the cursor: what the run path and the
/// one-scalar path must agree on.
struct CellGrid: Equatable {
    var cells: [[CellContent]]
    var wrapped: [Bool]
    var cursor: CursorState

    init(_ terminal: Terminal) {
        cells = (0..<terminal.rows).map { row in (0..<terminal.columns).map { terminal.cellAt(row, $0) } }
        wrapped = (0..<terminal.rows).map { terminal.isWrapped(row: $0) }
        cursor = terminal.cursor
    }
}

/// Feeds `cases` inputs of 200 random `pieces` each, then REP, whole and a
/// byte at a time, and expects the same cells: the first differing cell,
/// not two whole grids, on failure.
func expectRandomMixesMatchTheOneScalarPath(
    _ columns: Int, _ rows: Int, _ pieces: [String], cases: Int, generator: inout SplitMix64,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for _ in 0..<cases {
        var text = ""
        for _ in 0..<200 { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
        let (whole, oneByOne) = fedWholeAndByteByByte(columns, rows, text, then: "\u{1B}[3b", scrollback: 10)
        let (expected, got) = (CellGrid(oneByOne), CellGrid(whole))
        let row = (0..<rows).first { expected.cells[$0] != got.cells[$0] }
        let column = row.flatMap { row in (0..<columns).first { expected.cells[row][$0] != got.cells[row][$0] } }
        let location = row.map { "row \($0) column \(column ?? -1): \(got.cells[$0][column ?? 0])" } ?? "not in cells"
        #expect(
            got == expected, "\(location); input \(text.debugDescription.prefix(400))", sourceLocation: sourceLocation)
        if got != expected { return }
    }
}

@Suite("Printing runs of non-ASCII scalars")
struct PrintRunTests {
    /// Runs of non-ASCII characters from random pieces, with everything the
    /// run path must hand over or get right, compared cell by cell (roles,
    /// clusters, styles, protection, links) with the one-scalar path; each
    /// case ends with REP, which repeats whatever the run left as the last
    /// character.
    @Test("Runs match the one scalar path cell by cell", arguments: [(17, 5), (9, 4), (2, 3), (1, 2), (80, 24)])
    func runsMatchTheOneScalarPathCellByCell(columns: Int, rows: Int) {
        var generator = SplitMix64(seed: UInt64(columns * 1_000 + rows))
        let pieces: [String] = [
            "漢字かな", "─│┌┐├┤", "é", "e\u{301}", "漢\u{301}", "─\u{301}\u{302}", "\u{301}", "😀", "👩\u{200D}👧",
            "🇫🇷", "ＡＢ", "Ж", "x", "\r\n", "\r", "\u{1B}[?7l", "\u{1B}[?7h", "\u{1B}[?69h\u{1B}[3;7s", "\u{1B}[?69l",
            "\u{1B}#6", "\u{1B}#3", "\u{1B}#5", "\u{1B}[4h", "\u{1B}[4l", "\u{1B}[1\"q", "\u{1B}[0\"q", "\u{1B}[1;31m",
            "\u{1B}[44m", "\u{1B}[0m", "\u{1B}]8;;https://example.org\u{1B}\\", "\u{1B}]8;;\u{1B}\\", "\u{1B}[H",
            "\u{1B}[2G", "\u{1B}[5G", "\u{1B}[2;4H", "\u{1B}[3D", "\u{1B}7", "\u{1B}8", "\u{8}", "\u{1B}[2C",
            "\u{1B}[m\u{301}",
        ]
        expectRandomMixesMatchTheOneScalarPath(columns, rows, pieces, cases: 40, generator: &generator)
    }

    /// Text that mixes scripts with short ASCII stretches (one parser call
    /// for the whole mix) under every state that changes how ASCII prints
    /// (DEC graphics in G0 or G1, a single shift, insert mode, a protected
    /// pen, grapheme clustering, margins, double-width rows, autowrap off),
    /// compared cell by cell with the one-scalar path; each case ends with
    /// REP.
    @Test("Mixed text matches the one scalar path cell by cell", arguments: [(17, 5), (9, 4), (3, 2), (80, 24)])
    func mixedTextMatchesTheOneScalarPathCellByCell(columns: Int, rows: Int) {
        var generator = SplitMix64(seed: UInt64(columns * 7_919 + rows))
        let pieces: [String] = [
            "漢", "字", "Ж", "я", " ", " ", "ab", "qx", "abcdefgh", "lqk", "e\u{301}", "\u{301}", "😀", "👩\u{200D}👧",
            "🇫🇷", "\r\n", "\u{1B}(0", "\u{1B}(B", "\u{1B})0\u{0E}", "\u{0F}", "\u{1B}N", "\u{1B}*0\u{1B}N",
            "\u{1B}[4h", "\u{1B}[4l", "\u{1B}[1\"q", "\u{1B}[0\"q", "\u{1B}[?2027h", "\u{1B}[?2027l", "\u{1B}[?7l",
            "\u{1B}[?7h", "\u{1B}[?69h\u{1B}[2;6s", "\u{1B}[?69l", "\u{1B}#6", "\u{1B}#5", "\u{1B}[32m", "\u{1B}[m",
            "\u{1B}[H", "\u{1B}[3G", "\u{8}",
        ]
        expectRandomMixesMatchTheOneScalarPath(columns, rows, pieces, cases: 60, generator: &generator)
    }

    /// Lines of words in several scripts, long enough to wrap, which the
    /// terminal prints as it decodes them (the parser's text ahead): fed in
    /// pieces of random length, so that sequences are cut between feeds,
    /// under the states that change how text prints, and compared cell by
    /// cell with the one-scalar path; each case ends with REP.
    @Test("Lines of words fed in random pieces match the one scalar path", arguments: [(80, 24), (17, 5), (7, 3)])
    func linesOfWordsFedInRandomPiecesMatchTheOneScalarPath(columns: Int, rows: Int) {
        var generator = SplitMix64(seed: UInt64(columns * 31 + rows))
        let words = [
            "æpıłčø", "àmğdù", "аШБьмЗгв", "бП", "ΠβΓοΣ", "xóëivu", "plain", "漢字かな", "─│┌┐", "e\u{301}x\u{302}",
            "😀👩\u{200D}👧", "🇫🇷🇩🇪", "ＡＢ", "\u{301}",
        ]
        let separators = [
            " ", " ", " ", "  ", "\r\n", "\u{1B}[31m", "\u{1B}[m", "\u{1B}[?7l", "\u{1B}[?7h", "\u{1B}(0", "\u{1B}(B",
            "\u{1B}[4h", "\u{1B}[4l", "\u{1B}[1\"q", "\u{1B}[0\"q", "\u{1B}[?2027h", "\u{1B}[?2027l",
            "\u{1B}[?69h\u{1B}[2;6s", "\u{1B}[?69l", "\u{1B}#6", "\u{1B}[3G", "\u{7F}", "\u{85}",
        ]
        for _ in 0..<30 {
            var text = ""
            for _ in 0..<120 {
                text += words[Int(generator.next() % UInt64(words.count))]
                // Mostly a space between words, as in running text.
                text += generator.next() % 4 == 0 ? separators[Int(generator.next() % UInt64(separators.count))] : " "
            }
            let bytes = Array(text.utf8)
            let pieces = Terminal(columns: columns, rows: rows, scrollback: 10)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + 1 + Int(generator.next() % 40))
                pieces.feed(bytes[start..<end])
                start = end
            }
            pieces.feed("\(CSI)3b")
            let (_, oneByOne) = fedWholeAndByteByByte(columns, rows, text, then: "\(CSI)3b", scrollback: 10)
            #expect(CellGrid(pieces) == CellGrid(oneByOne), "input \(text.debugDescription.prefix(400))")
            #expect(pieces.scrollbackLines == oneByOne.scrollbackLines)
            if CellGrid(pieces) != CellGrid(oneByOne) { return }
        }
    }

    /// Text that starts with a two-byte character goes through a loop of
    /// its own for characters of one and two bytes
    /// (`TerminalState.printNarrowText`), which joins diacritics and stops at
    /// anything else. Fed whole (that loop) and a byte at a time (the
    /// general path), over a screen with wide characters to overwrite, with
    /// the characters at its edges: C1 controls as UTF-8, other marks
    /// (Hebrew, Cyrillic, a second diacritic), a mark at the start of a row,
    /// after a blank or a wide character, cut and invalid UTF-8, DEL, NBSP
    /// and the soft hyphen, the right margin and autowrap off; then REP.
    @Test(
        "Two-byte letters, diacritics and what ends them match the one scalar path",
        arguments: [(80, 24), (9, 4), (2, 3), (1, 2)])
    func twoByteLettersMatchTheOneScalarPath(columns: Int, rows: Int) {
        var generator = SplitMix64(seed: UInt64(columns * 7 + rows))
        let pieces: [[UInt8]] =
            [
                "é", "ñ", "ß", "Ω", "ж", "Ք", "ש", "ب", "a", "Z", " ", "  ", "\u{301}", "\u{308}\u{323}", "\u{5B0}",
                "\u{483}", "\u{85}", "\u{A0}", "\u{AD}", "\u{7F}", "中", "😀", "─", "\r\n", "\u{1B}[?7l", "\u{1B}[?7h",
                "\u{1B}[?69h\u{1B}[2;5s", "\u{1B}[?69l", "\u{1B}[1G", "\u{1B}[2D", "\u{1B}[33m", "\u{1B}[m",
                "\u{1B}[2b", "\u{1B}[3C", "\u{1B}[B",
            ].map { Array($0.utf8) } + [[0xC3], [0xC3, 0x41], [0xC0, 0x80], [0xDF], [0x80], [0xE2, 0x94]]
        for _ in 0..<40 {
            // A row of wide characters under the text, to be cut.
            var bytes = Array("中文字符中文字符中文字符中文字符中文字符中文字符中文字符中文字符中文字符中文字符\r".utf8)
            for _ in 0..<150 {
                // Mostly letters, as in running text.
                let index =
                    generator.next() % 3 == 0
                    ? Int(generator.next() % UInt64(pieces.count)) : Int(generator.next() % 10)
                bytes += pieces[index]
            }
            let (whole, oneByOne) = fedWholeAndByteByByte(columns, rows, bytes, then: "\(CSI)3b", scrollback: 10)
            #expect(CellGrid(whole) == CellGrid(oneByOne), "input \(bytes)")
            #expect(whole.scrollbackLines == oneByOne.scrollbackLines)
            #expect(whole.counters.droppedCombiningMarks == oneByOne.counters.droppedCombiningMarks)
            if CellGrid(whole) != CellGrid(oneByOne) { return }
        }
    }

    /// Text that starts with a character of three bytes goes through a loop
    /// of its own for wide characters of three bytes
    /// (`TerminalState.printWideText`), which stops at anything else and
    /// leaves the edge's column to the general path. Fed whole (that loop)
    /// and a byte at a time, over a screen of wide characters at odd and
    /// even columns, with what ends it: narrow characters of three bytes
    /// (box drawing), ASCII, marks, emoji, an overlong form, a surrogate
    /// and a cut sequence as bytes, the right margin, double-width rows,
    /// autowrap off; then REP.
    @Test(
        "CJK and what ends it match the one scalar path",
        arguments: [(80, 24), (9, 4), (3, 3), (2, 3), (1, 2)])
    func cjkMatchesTheOneScalarPath(columns: Int, rows: Int) {
        var generator = SplitMix64(seed: UInt64(columns * 13 + rows))
        let pieces: [[UInt8]] =
            [
                "中", "文", "字", "か", "ナ", "한", "。", "Ａ", "─", "a", " ", "\u{301}", "😀", "é", "\r\n",
                "\u{1B}[?7l", "\u{1B}[?7h", "\u{1B}[?69h\u{1B}[2;6s", "\u{1B}[?69l", "\u{1B}#6", "\u{1B}[1G",
                "\u{1B}[2G", "\u{1B}[3C", "\u{1B}[B", "\u{1B}[32m", "\u{1B}[m", "\u{1B}[2b", "\u{85}",
            ].map { Array($0.utf8) } + [[0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xE4, 0xB8], [0xE4, 0x41, 0x80]]
        for _ in 0..<40 {
            // Wide characters under the text, from the second column: the
            // text's wide characters from the first cut them in two.
            var bytes = Array("\u{1B}[2G中文字符中文字符中文字符中文字符中文字符中文字符中文字符中文字符中文字符中文\r".utf8)
            for _ in 0..<150 {
                // Mostly wide characters, as in CJK text.
                let index =
                    generator.next() % 3 == 0
                    ? Int(generator.next() % UInt64(pieces.count)) : Int(generator.next() % 8)
                bytes += pieces[index]
            }
            let (whole, oneByOne) = fedWholeAndByteByByte(columns, rows, bytes, then: "\(CSI)3b", scrollback: 10)
            #expect(CellGrid(whole) == CellGrid(oneByOne), "input \(bytes)")
            #expect(whole.scrollbackLines == oneByOne.scrollbackLines)
            #expect(whole.counters.droppedWideCharacters == oneByOne.counters.droppedWideCharacters)
            if CellGrid(whole) != CellGrid(oneByOne) { return }
        }
    }

    /// A character the general path takes last (here a wide one dropped
    /// after a wrap, on a screen of one column) leaves the rows the text
    /// did not write unchanged: the quick path is not entered again for
    /// nothing (review of bb61cc1).
    @Test("A character left to the general path last touches no other row")
    func aCharacterLeftToTheGeneralPathLastTouchesNoOtherRow() {
        for input in ["中", "\(CSI)?69h\(CSI)1;1s中", "中x\u{301}"] {
            let whole = Terminal(columns: 1, rows: 3, scrollback: 10)
            let oneByOne = Terminal(columns: 1, rows: 3, scrollback: 10)
            whole.feed("a")
            oneByOne.feed("a")
            let (wholeBefore, oneByOneBefore) = (whole.snapshot(), oneByOne.snapshot())
            whole.feed(input)
            for byte in input.utf8 { oneByOne.feed([byte]) }
            #expect(CellGrid(whole) == CellGrid(oneByOne), "\(input.debugDescription)")
            #expect(
                whole.snapshot().changedRows(since: wholeBefore)
                    == oneByOne.snapshot().changedRows(since: oneByOneBefore), "\(input.debugDescription)")
        }
        let terminal = Terminal(columns: 1, rows: 3, scrollback: 10)
        terminal.feed("a")
        let before = terminal.snapshot()
        terminal.feed("中")
        #expect(terminal.snapshot().changedRows(since: before) == [0])
    }

    /// Zero-width scalars at the start of a run (after ASCII, after a
    /// sequence that ends a run without moving the cursor, after cursor
    /// motion) against the one-scalar path: the cells, the cursor, the
    /// marks counted as dropped, and what REP repeats afterwards (the last
    /// character, changed only by a mark that joined it).
    @Test(
        "Marks at the start of a run match the one scalar path",
        arguments: [
            (10, 2, "e\u{301}"),
            (10, 2, "e\u{301}\u{302}漢\u{303}"),
            (3, 2, "abc\u{301}"),  // pending wrap: joins the last column
            (4, 2, "\(CSI)?7labcd\u{301}"),  // autowrap off: joins the cell left of the cursor
            (4, 2, "\(CSI)?7labcd\u{301}\u{302}─\u{303}"),
            (5, 2, "\(CSI)?7labc漢\u{301}"),
            (10, 2, "漢\(CSI)m\u{301}"),  // after a wide character: past its right half
            (10, 2, "漢\(CSI)1D\u{301}"),  // cursor on the right half
            (10, 2, "ab\(CSI)1D\u{301}"),
            (10, 2, "\(CSI)5G\u{301}"),  // a blank before the cursor: dropped
            (10, 2, "ab\(CSI)4G\u{301}x"),
            (10, 2, "abc\r\u{301}"),  // start of the row: dropped
            (10, 2, "abc\n\u{301}"),
            (10, 2, "e" + String(repeating: "\u{301}", count: 40) + "x"),  // the cluster limit within a run
            (10, 2, "e" + String(repeating: "\(CSI)m\u{301}", count: 40)),  // ... at run starts: REP state kept
            (10, 2, "e\(CSI)m" + String(repeating: "\u{301}", count: 40) + "漢"),
            (10, 2, "e\(CSI)m\u{301}"),  // REP state set by the mark alone
            (10, 2, "\(CSI)?2027he\u{301}x\u{1F469}\u{200D}\u{1F467}"),  // clustering: the general path
            (10, 2, "\(CSI)4he\u{301}"),
            (10, 2, "\(CSI)1\"qe\u{301}"),
            (10, 2, "\(CSI)?69h\(CSI)3;6s\(CSI)1;7He\u{301}f\u{302}"),
            (10, 2, "abcdefgh\(ESC)7\(ESC)#6\(ESC)8\u{301}"),  // cursor past a DECDWL row's last column
        ])
    func marksAtTheStartOfARunMatchTheOneScalarPath(columns: Int, rows: Int, input: String) {
        let (whole, oneByOne) = fedWholeAndByteByByte(columns, rows, input, scrollback: 10)
        #expect(CellGrid(whole) == CellGrid(oneByOne))
        #expect(whole.counters.droppedCombiningMarks == oneByOne.counters.droppedCombiningMarks)
        whole.feed("\(CSI)2b")
        oneByOne.feed("\(CSI)2b")
        #expect(CellGrid(whole) == CellGrid(oneByOne), "after REP")
    }

    @Test("Mark after ASCII joins it and becomes what REP repeats") func markAfterASCIIJoinsItAndBecomesWhatREPRepeats()
    {
        let t = terminal(10, 2, "ae\u{301}\(CSI)2b")
        #expect(t.screenLine(0) == "ae\u{301}e\u{301}e\u{301}")
        #expect(t.cellAt(0, 1).scalars == ["e", "\u{301}"])
        #expect(t.at == [0, 4])
    }

    @Test("Mark after a wide character joins its left half") func markAfterAWideCharacterJoinsItsLeftHalf() {
        let t = terminal(10, 2, "漢\(CSI)m\u{301}\(CSI)b")
        #expect(t.cellAt(0, 0).scalars == ["漢", "\u{301}"] && t.cellAt(0, 0).width == .wide)
        #expect(t.cellAt(0, 2).scalars == ["漢", "\u{301}"] && t.cellAt(0, 2).width == .wide)
        #expect(t.at == [0, 4])
    }

    @Test("Mark after a blank or at the start of a row is dropped") func markAfterABlankOrAtTheStartOfARowIsDropped() {
        let t = terminal(10, 2, "ab\(CSI)4G\u{301}\r\u{302}")
        #expect(t.screenLine(0) == "ab")
        #expect(t.counters.droppedCombiningMarks == 2)
    }

    @Test("Mark after ASCII in the last column without autowrap joins the cell left of the cursor")
    func markAfterASCIIInTheLastColumnWithoutAutowrapJoinsTheCellLeftOfTheCursor() {
        let t = terminal(4, 2, "\(CSI)?7labcd\u{301}")
        #expect(t.screenLine(0) == "abc\u{301}d")
        let u = terminal(4, 2, "abcd\u{301}")  // autowrap on: the wrap is pending, the mark joins d
        #expect(u.screenLine(0) == "abcd\u{301}" && u.cursor.pendingWrap)
    }

    @Test("Marks past the cluster limit at run starts are dropped and leave REP alone")
    func marksPastTheClusterLimitAtRunStartsAreDroppedAndLeaveREPAlone() {
        // 31 marks fill the cluster (32 scalars); each further one, alone in
        // its run after an SGR (which clears the REP state), is dropped, and
        // REP then has nothing to repeat.
        let marks = String(repeating: "\(CSI)m\u{301}", count: 40)
        let t = terminal(10, 2, "e\(marks)\(CSI)2b")
        #expect(t.cellAt(0, 0).scalars.count == 32)
        #expect(t.counters.droppedCombiningMarks == 9)
        #expect(t.screenLine(0).unicodeScalars.count == 32 && t.at == [0, 1])
    }

    @Test("Wide character ending at the edge leaves a pending wrap and the next one wraps")
    func wideCharacterEndingAtTheEdgeLeavesAPendingWrapAndTheNextOneWraps() {
        let t = terminal(5, 3, "abc漢字")
        #expect(t.screenLines == ["abc漢", "字", ""])
        #expect(t.isWrapped(row: 0))
        #expect(t.at == [1, 2])
        let u = terminal(5, 3, "abc漢")
        #expect(u.at == [0, 4] && u.cursor.pendingWrap)
    }

    @Test("Wide character that does not fit leaves a spacer mid run")
    func wideCharacterThatDoesNotFitLeavesASpacerMidRun() {
        let t = terminal(5, 3, "abc─漢字")
        #expect(t.screenLines == ["abc─", "漢字", ""])
        #expect(t.cellAt(0, 3).width == .narrow && t.cellAt(0, 4).width == .wrapSpacer)
    }

    @Test("Zero width scalars mid run join the character before them")
    func zeroWidthScalarsMidRunJoinTheCharacterBeforeThem() {
        let t = terminal(10, 2, "漢\u{301}─\u{302}\u{303}字")
        #expect(t.cellAt(0, 0).scalars == ["漢", "\u{301}"] && t.cellAt(0, 0).width == .wide)
        #expect(t.cellAt(0, 1).width == .wideTail)
        #expect(t.cellAt(0, 2).scalars == ["─", "\u{302}", "\u{303}"])
        #expect(t.cellAt(0, 3).text == "字")
        #expect(t.at == [0, 5])
    }

    @Test("Repeat after a run ending in a cluster repeats the cluster")
    func repeatAfterARunEndingInAClusterRepeatsTheCluster() {
        let t = terminal(10, 2, "─漢\u{301}\(CSI)2b")
        #expect(t.screenLine(0) == "─漢\u{301}漢\u{301}漢\u{301}")
        #expect(t.cellAt(0, 3).width == .wide && t.cellAt(0, 5).width == .wide)
        let u = terminal(10, 2, "漢─\(CSI)2b")
        #expect(u.screenLine(0) == "漢───")
    }

    @Test("Zero width scalar after the last column without autowrap joins the cell left of the cursor")
    func zeroWidthScalarAfterTheLastColumnWithoutAutowrapJoinsTheCellLeftOfTheCursor() {
        // With autowrap off the cursor stays on the last column, and a mark
        // joins the cell before the cursor (as xterm's does): the run path
        // must not attach it to the character it just put in the last column.
        let t = terminal(4, 2, "\(CSI)?7lab─│\u{301}")
        #expect(t.screenLine(0) == "ab─\u{301}│")
        #expect(t.at == [0, 3] && !t.cursor.pendingWrap)
    }

    @Test("Zero width scalar after a pending wrap joins the last column")
    func zeroWidthScalarAfterAPendingWrapJoinsTheLastColumn() {
        let t = terminal(3, 2, "ab─\u{301}")
        #expect(t.cellAt(0, 2).scalars == ["─", "\u{301}"])
        #expect(t.cursor.pendingWrap)
    }

    @Test("Run over halves of wide characters blanks the other halves")
    func runOverHalvesOfWideCharactersBlanksTheOtherHalves() {
        // ─ lands on 漢's right half, │ on 字's left half.
        let t = terminal(10, 2, "漢字\(CSI)1;2H─│")
        #expect(t.screenLine(0) == " ─│")
        #expect((0..<4).map { t.cellAt(0, $0).width } == [.narrow, .narrow, .narrow, .narrow])
        // A wide character over the right half of one and the left of the next.
        let u = terminal(10, 2, "漢字\(CSI)1;2Hか")
        #expect(u.screenLine(0) == " か")
        #expect(u.cellAt(0, 1).width == .wide && u.cellAt(0, 2).width == .wideTail && u.cellAt(0, 3).width == .narrow)
    }

    @Test("Run on a double width row wraps at half the columns") func runOnADoubleWidthRowWrapsAtHalfTheColumns() {
        let t = terminal(10, 3, "\(ESC)#6─│┌┐├┤")
        #expect(t.screenLines == ["─│┌┐├", "┤", ""])
        let u = terminal(10, 3, "\(ESC)#6漢字か")
        #expect(u.screenLines == ["漢字", "か", ""])
        #expect(u.cellAt(0, 4).width == .wrapSpacer)
    }

    @Test("Run inside left and right margins wraps at the right margin")
    func runInsideLeftAndRightMarginsWrapsAtTheRightMargin() {
        let t = terminal(10, 3, "\(CSI)?69h\(CSI)3;6s\(CSI)1;3H漢字か─")
        #expect(t.screenLines == ["  漢字", "  か─", ""])
        #expect(t.at == [1, 5])
    }

    @Test("Run in insert mode shifts the rest of the line") func runInInsertModeShiftsTheRestOfTheLine() {
        let t = terminal(10, 2, "abcd\(CSI)2G\(CSI)4h漢─")
        #expect(t.screenLine(0) == "a漢─bcd")
        #expect(t.at == [0, 4])
    }

    @Test("Run with a protected pen protects both halves") func runWithAProtectedPenProtectsBothHalves() {
        let t = terminal(10, 2, "\(CSI)1\"q漢─\(CSI)0\"q字")
        #expect(t.cellAt(0, 0).isProtected && t.cellAt(0, 1).isProtected && t.cellAt(0, 2).isProtected)
        #expect(!t.cellAt(0, 3).isProtected && !t.cellAt(0, 4).isProtected)
    }

    @Test("Run carries the pen style and link to both halves") func runCarriesThePenStyleAndLinkToBothHalves() {
        let t = terminal(10, 2, "\(CSI)31;44m\(ESC)]8;;https://example.org\(ESC)\\漢─")
        for column in 0..<3 {
            #expect(t.cellAt(0, column).style == t.cellAt(0, 0).style)
            #expect(t.cellAt(0, column).hyperlink?.uri == "https://example.org")
        }
        #expect(t.cellAt(0, 0).style != Style())
    }
}
