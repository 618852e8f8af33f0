import TermCore
import Testing

@Suite("Left/right margins, selective erase and rectangles")
struct MarginsAndRectanglesTests {
    let grid = "abcdefgh\r\nijklmnop\r\nqrstuvwx\r\nyz012345"

    @Test("Margins need DECLRMM") func marginsNeedDECLRMM() {
        // Without ?69, CSI s is SCOSC (save cursor), not DECSLRM.
        let t = terminal(8, 4, grid + "\(CSI)2;3H\(CSI)3;6s\(CSI)H\(CSI)u")
        #expect(t.at == [1, 2])
    }

    @Test("Printing wraps at the right margin") func printingWrapsAtTheRightMargin() {
        let t = terminal(8, 2, "\(CSI)?69h\(CSI)3;5s\(CSI)1;3HABCDE")
        #expect(t.screenLines == ["  ABC", "  DE"])
    }

    @Test("Insert and delete characters stop at the right margin") func insertAndDeleteCharactersStopAtTheRightMargin()
    {
        #expect(terminal(8, 1, "abcdefgh\(CSI)?69h\(CSI)2;5s\(CSI)1;3H\(CSI)@").screenLine(0) == "ab cdfgh")
        #expect(terminal(8, 1, "abcdefgh\(CSI)?69h\(CSI)2;5s\(CSI)1;3H\(CSI)P").screenLine(0) == "abde fgh")
    }

    @Test("Scrolling moves only the rectangle") func scrollingMovesOnlyTheRectangle() {
        let t = terminal(8, 4, grid + "\(CSI)?69h\(CSI)2;4s\(CSI)S")
        // Columns 2–4 (1-based) move up one row; the rest stays.
        #expect(t.screenLines == ["ajklefgh", "irstmnop", "qz01uvwx", "y   2345"])
        #expect(t.scrollbackCount == 0)
    }

    @Test("Insert lines inside margins") func insertLinesInsideMargins() {
        let t = terminal(8, 3, "abcdefgh\r\nijklmnop\r\nqrstuvwx\(CSI)?69h\(CSI)3;5s\(CSI)1;3H\(CSI)L")
        #expect(t.screenLines == ["ab   fgh", "ijcdenop", "qrklmvwx"])
    }

    @Test("Carriage return goes to the left margin") func carriageReturnGoesToTheLeftMargin() {
        #expect(terminal(8, 1, "\(CSI)?69h\(CSI)3;6s\(CSI)1;5H\rX").screenLine(0) == "  X")
    }

    @Test("Selective erase keeps protected cells") func selectiveEraseKeepsProtectedCells() {
        let t = terminal(8, 2, "ab\(CSI)1\"qcd\(CSI)0\"qef\(CSI)?2J")
        #expect(t.screenLine(0) == "  cd")
        #expect(t.cellAt(0, 2).isProtected)
        // A plain ED erases everything, protected or not (DECSCA guards only selective erase).
        t.feed("\(CSI)2J")
        #expect(t.screenLine(0) == "")
    }

    @Test("Selective erase in line") func selectiveEraseInLine() {
        #expect(terminal(8, 1, "\(CSI)1\"qab\(CSI)0\"qcd\(CSI)1;1H\(CSI)?K").screenLine(0) == "ab")
    }

    @Test("Fill rectangle") func fillRectangle() {
        let t = terminal(6, 3, "\(CSI)88;2;2;3;4$x")  // 'X' into rows 2–3, columns 2–4
        #expect(t.screenLines == ["", " XXX", " XXX"])
    }

    @Test("Erase rectangle") func eraseRectangle() {
        let t = terminal(4, 3, "abcd\r\nefgh\r\nijkl\(CSI)1;2;2;3$z")
        #expect(t.screenLines == ["a  d", "e  h", "ijkl"])
    }

    @Test("Selective erase rectangle keeps protected cells") func selectiveEraseRectangleKeepsProtectedCells() {
        let t = terminal(4, 2, "\(CSI)1\"qab\(CSI)0\"qcd\(CSI)1;1;1;4${")
        #expect(t.screenLine(0) == "ab")
    }

    @Test("Copy rectangle") func copyRectangle() {
        let t = terminal(6, 3, "ab\r\ncd\(CSI)1;1;2;2;1;2;4;1$v")
        #expect(t.screenLines == ["ab", "cd ab", "   cd"])
    }

    // Expected screens below are esctest2's (decbi.py, decfi.py, decdc.py, nel.py), which real xterm 379 passes.

    @Test("DECBI moves left, and at the left margin shifts the scroll area right, a blank column entering")
    func backIndexScrollsAtTheLeftMargin() {
        let rows = ["abcde", "fghij", "klmno", "pqrst", "uvwxy"].enumerated().map { "\(CSI)\($0 + 3);2H\($1)" }
        let t = terminal(10, 8, rows.joined() + "\(CSI)?69h\(CSI)3;5s\(CSI)4;6r\(CSI)5;3H\u{1B}6")
        #expect(t.screenLines[2...6] == [" abcde", " f ghj", " k lmo", " p qrt", " uvwxy"])
        #expect(terminal(10, 2, "\(CSI)1;5H\u{1B}6").at == [0, 3])
        #expect(terminal(10, 2, "x\(CSI)H\u{1B}6").screenLine(0) == " x")  // at the screen's left edge
    }

    @Test("DECFI moves right, and at the right margin shifts the scroll area left, a blank column entering")
    func forwardIndexScrollsAtTheRightMargin() {
        let rows = ["abcde", "fghij", "klmno", "pqrst", "uvwxy"].enumerated().map { "\(CSI)\($0 + 3);2H\($1)" }
        let t = terminal(10, 8, rows.joined() + "\(CSI)?69h\(CSI)3;5s\(CSI)4;6r\(CSI)5;5H\u{1B}9")
        #expect(t.screenLines[2...6] == [" abcde", " fhi j", " kmn o", " prs t", " uvwxy"])
        #expect(terminal(10, 2, "\(CSI)1;5H\u{1B}9").at == [0, 5])
    }

    @Test("DECDC and DECIC do nothing with the cursor left of the left margin (DEC STD 070)")
    func columnEditsNeedTheCursorInsideTheMargins() {
        let t = terminal(10, 2, "abcdefg\r\nABCDEFG\(CSI)?69h\(CSI)2;5s\(CSI)1;1H\(CSI)10'~\(CSI)10'}\(CSI)?69l")
        #expect(t.screenLines == ["abcdefg", "ABCDEFG"])
    }

    @Test("NEL indexes before it returns: right of the margins at the bottom margin nothing scrolls")
    func nextLineIndexesFirst() {
        let t = terminal(10, 8, "\(CSI)2;5r\(CSI)?69h\(CSI)2;5s\(CSI)5;3Hx\(CSI)5;6H\u{1B}E")
        #expect(t.at == [4, 1])
        #expect(t.cellAt(4, 2).text == "x")
        t.feed("\(CSI)4;6H\u{1B}E")
        #expect(t.at == [4, 1])
    }
}
