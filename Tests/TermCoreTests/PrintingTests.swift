import TermCore
import Testing

@Suite("Printing and autowrap")
struct PrintingTests {
    @Test("Printing advances the cursor") func printingAdvancesTheCursor() {
        let t = terminal(10, 3, "abc")
        #expect(t.screenLine(0) == "abc")
        #expect(t.at == [0, 3])
    }

    @Test("Last column sets pending wrap without moving") func lastColumnSetsPendingWrapWithoutMoving() {
        // VT100: the cursor stays in the last column until the next character.
        let t = terminal(5, 3, "abcde")
        #expect(t.at == [0, 4])
        #expect(t.cursor.pendingWrap)
    }

    @Test("Next character after pending wrap wraps and marks the row")
    func nextCharacterAfterPendingWrapWrapsAndMarksTheRow() {
        let t = terminal(5, 3, "abcdef")
        #expect(t.screenLines == ["abcde", "f", ""])
        #expect(t.at == [1, 1])
        #expect(t.isWrapped(row: 0))
        #expect(!t.isWrapped(row: 1))
    }

    @Test("Carriage return cancels pending wrap") func carriageReturnCancelsPendingWrap() {
        let t = terminal(5, 3, "abcde\rX")
        #expect(t.screenLines == ["Xbcde", "", ""])
    }

    @Test("Linefeed cancels pending wrap") func linefeedCancelsPendingWrap() {
        let t = terminal(5, 3, "abcde\nX")
        #expect(t.screenLines == ["abcde", "    X", ""])
    }

    @Test("Autowrap off overwrites the last column") func autowrapOffOverwritesTheLastColumn() {
        let t = terminal(5, 3, "\(CSI)?7labcdefg")
        #expect(t.screenLines == ["abcdg", "", ""])
        #expect(t.at == [0, 4])
        #expect(!t.cursor.pendingWrap)
    }

    @Test("Wide character takes two cells") func wideCharacterTakesTwoCells() {
        let t = terminal(10, 2, "a漢b")
        #expect(t.screenLine(0) == "a漢b")
        #expect(t.cellAt(0, 1).width == .wide)
        #expect(t.cellAt(0, 2).width == .wideTail)
        #expect(t.at == [0, 4])
    }

    @Test("Wide character at the last column wraps whole") func wideCharacterAtTheLastColumnWrapsWhole() {
        // It cannot be split: the last cell stays blank and the character
        // moves to the next row (xterm).
        let t = terminal(5, 3, "abcd漢")
        #expect(t.screenLines == ["abcd", "漢", ""])
        #expect(t.cellAt(0, 4).width == .wrapSpacer)
        #expect(t.isWrapped(row: 0))
        #expect(t.at == [1, 2])
    }

    @Test("Wide character ending in the last column leaves pending wrap")
    func wideCharacterEndingInTheLastColumnLeavesPendingWrap() {
        let t = terminal(5, 3, "abc漢")
        #expect(t.at == [0, 4])
        #expect(t.cursor.pendingWrap)
    }

    @Test("Overwriting half a wide character blanks the other half")
    func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        let t = terminal(10, 2, "漢字\(CSI)1;2HX")
        // X lands on the right half of 漢: its left half goes blank.
        #expect(t.screenLine(0) == " X字")
        let u = terminal(10, 2, "漢字\(CSI)1;3HY")
        // Y lands on the left half of 字: its right half goes blank.
        #expect(u.screenLine(0) == "漢Y")
    }

    @Test("Combining mark joins the previous cell") func combiningMarkJoinsThePreviousCell() {
        let t = terminal(10, 2, "e\u{301}x")
        #expect(t.cellAt(0, 0).scalars == ["e", "\u{301}"])
        #expect(t.cellAt(0, 1).text == "x")
        #expect(t.screenLine(0) == "e\u{301}x")
    }

    @Test("Combining mark after pending wrap joins the last column")
    func combiningMarkAfterPendingWrapJoinsTheLastColumn() {
        let t = terminal(3, 2, "abc\u{301}")
        #expect(t.cellAt(0, 2).scalars == ["c", "\u{301}"])
        #expect(t.cursor.pendingWrap)
    }

    @Test("Combining mark on a wide character joins its left half") func combiningMarkOnAWideCharacterJoinsItsLeftHalf()
    {
        let t = terminal(10, 2, "漢\u{20DD}")
        #expect(t.cellAt(0, 0).scalars == ["漢", "\u{20DD}"])
    }

    @Test("Zero width joiner stays in the cell") func zeroWidthJoinerStaysInTheCell() {
        let t = terminal(10, 2, "👩\u{200D}")
        #expect(t.cellAt(0, 0).scalars == ["👩", "\u{200D}"])
    }

    @Test("Invalid UTF-8 prints replacement character") func invalidUTF8PrintsReplacementCharacter() {
        let t = Terminal(columns: 10, rows: 2)
        t.feed([0x61, 0xFF, 0x62] as [UInt8])
        #expect(t.screenLine(0) == "a\u{FFFD}b")
    }

    @Test("Insert mode shifts the row right") func insertModeShiftsTheRowRight() {
        let t = terminal(10, 2, "abcd\(CSI)1;2H\(CSI)4hXY")
        #expect(t.screenLine(0) == "aXYbcd")
    }

    @Test("DEC special graphics draws lines") func decSpecialGraphicsDrawsLines() {
        // ESC ( 0 designates DEC Special Graphics to G0 (VT100 User Guide table 3-9).
        let t = terminal(10, 2, "\(ESC)(0lqk\(ESC)(Bq")
        #expect(t.screenLine(0) == "┌─┐q")
    }

    @Test("Shift out selects G1") func shiftOutSelectsG1() {
        let t = terminal(10, 2, "\(ESC))0a\u{0E}x\u{0F}x")
        #expect(t.screenLine(0) == "a│x")
    }

    @Test("British charset maps hash to pound") func britishCharsetMapsHashToPound() {
        let t = terminal(10, 2, "\(ESC)(A#")
        #expect(t.screenLine(0) == "£")
    }

    @Test("Repeat repeats the preceding character") func repeatRepeatsThePrecedingCharacter() {
        let t = terminal(10, 2, "x\(CSI)3b")
        #expect(t.screenLine(0) == "xxxx")
    }

    @Test("Repeat after a control does nothing") func repeatAfterAControlDoesNothing() {
        // xterm repeats only a graphic character immediately before REP.
        let t = terminal(10, 2, "x\r\(CSI)3b")
        #expect(t.screenLine(0) == "x")
    }
}

@Suite("Printing on double-width rows")
struct DoubleWidthPrintingTests {
    @Test("Cursor restored past the half of a double width row is clamped")
    func cursorRestoredPastTheHalfOfADoubleWidthRowIsClamped() {
        // DECSC at column 9, the row becomes double width (5 usable columns),
        // DECRC: printing must not run off the usable half.
        let t = terminal(10, 3, "aaaaaaaaa\(ESC)7\(ESC)#6\(ESC)8bc")
        #expect(t.lineSize(row: 0) == .doubleWidth)
        #expect(t.screenLine(0) == "aaaab")
        #expect(t.screenLine(1) == "c")
    }

    @Test("DECDWL blanks a wide character its half cuts, keeping its style (fuzz: compaction)")
    func doubleWidthBlanksAWideCharacterCutAtTheHalf() {
        // 18 columns keep 9: 한 in columns 8–9 loses its right half.
        let t = terminal(18, 2, "abcdefgh\(CSI)44m한\(CSI)H\(ESC)#6")
        #expect(t.screenLine(0) == "abcdefgh")
        #expect(t.cell(at: ScreenPosition(row: 0, column: 8)).width == .narrow)
        #expect(t.cell(at: ScreenPosition(row: 0, column: 8)).scalars.isEmpty)
        #expect(t.cell(at: ScreenPosition(row: 0, column: 8)).style.background == .indexed(4))
    }
}

@Suite("Wide characters with no room")
struct WideCharacterRoomTests {
    @Test("Wide character on a one column screen is dropped") func wideCharacterOnAOneColumnScreenIsDropped() {
        let t = terminal(1, 2, "漢a")
        #expect(t.screenLines == ["a", ""])
        #expect(t.counters.droppedWideCharacters == 1)
    }

    @Test("Wide character on a double width row of two columns is dropped")
    func wideCharacterOnADoubleWidthRowOfTwoColumnsIsDropped() {
        // One usable column (the right half of a double-width row is not
        // shown), autowrap off: there is nowhere to put two cells.
        let t = terminal(2, 2, "\(ESC)#6\(CSI)?7l漢")
        #expect(t.counters.droppedWideCharacters == 1)
        #expect(t.screenLine(0) == "")
    }
}

/// Characters printed one at a time, each after a CUP or an SGR (the shape of
/// cursor-motion and colour-heavy output), must land as in a run.
@Suite("Printing single characters between sequences")
struct SingleCharacterPrintingTests {
    @Test("A character over a wide head or tail clears the other half")
    func aCharacterOverAWideHeadOrTailClearsTheOtherHalf() {
        // xterm: overwriting either half of a wide character erases all of it.
        let head = terminal(10, 2, "中\(CSI)1;1Ha")
        #expect(head.cellAt(0, 0).text == "a" && head.cellAt(0, 1).width == .narrow && head.cellAt(0, 1).text == "")
        let tail = terminal(10, 2, "中\(CSI)1;2Hb")
        #expect(tail.cellAt(0, 0).width == .narrow && tail.cellAt(0, 0).text == "" && tail.cellAt(0, 1).text == "b")
    }

    @Test("The last column sets pending wrap and the next character wraps")
    func theLastColumnSetsPendingWrapAndTheNextCharacterWraps() {
        let t = terminal(5, 3, "\(CSI)1;5Ha\(CSI)1mb")
        #expect(t.screenLines == ["    a", "b", ""])
        #expect(t.isWrapped(row: 0))
        #expect(t.at == [1, 1])
        let pending = terminal(5, 3, "\(CSI)1;5H\(CSI)31ma")
        #expect(pending.at == [0, 4] && pending.cursor.pendingWrap)
        #expect(pending.cellAt(0, 4).style.foreground == .indexed(1))
    }

    @Test("REP repeats a single character") func repRepeatsASingleCharacter() {
        #expect(terminal(10, 2, "\(CSI)2;3Hx\(CSI)3b").screenLines == ["", "  xxxx"])
    }

    @Test("On a double width row the cursor past the half prints at its last column")
    func onADoubleWidthRowTheCursorPastTheHalfPrintsAtItsLastColumn() {
        // DECDWL keeps columns 0–4 of 10; a CUP past them is clamped when printing.
        let t = terminal(10, 2, "\u{1B}#6\(CSI)1;9Hq")
        #expect(t.cellAt(0, 4).text == "q")
        #expect(t.at == [0, 4] && t.cursor.pendingWrap)
    }

    @Test("Every character positioned alone matches the same text printed as a run")
    func everyCharacterPositionedAloneMatchesTheSameTextPrintedAsARun() {
        // A CUP before each character of a line, in a random order, gives the line.
        var generator = SystemRandomNumberGenerator()
        let line = Array("The quick brown fox jumps over the lazy dog")
        var input = ""
        for column in (0..<line.count).shuffled(using: &generator) {
            input += "\(CSI)3;\(column + 1)H\(line[column])"
        }
        let t = terminal(50, 4, input)
        #expect(t.screenLine(2) == String(line))
    }
}
