import TermCore
import Testing

@Suite("Left/right margins, selective erase and rectangles")
struct MarginsAndRectanglesTests {
    let grid = "abcdefgh\r\nijklmnop\r\nqrstuvwx\r\nyz012345"

    @Test func marginsNeedDECLRMM() {
        // Without ?69, CSI s is SCOSC (save cursor), not DECSLRM.
        let t = terminal(8, 4, grid + "\(CSI)2;3H\(CSI)3;6s\(CSI)H\(CSI)u")
        #expect(t.at == [1, 2])
    }

    @Test func printingWrapsAtTheRightMargin() {
        let t = terminal(8, 2, "\(CSI)?69h\(CSI)3;5s\(CSI)1;3HABCDE")
        #expect(t.screenLines == ["  ABC", "  DE"])
    }

    @Test func insertAndDeleteCharactersStopAtTheRightMargin() {
        #expect(terminal(8, 1, "abcdefgh\(CSI)?69h\(CSI)2;5s\(CSI)1;3H\(CSI)@").screenLine(0) == "ab cdfgh")
        #expect(terminal(8, 1, "abcdefgh\(CSI)?69h\(CSI)2;5s\(CSI)1;3H\(CSI)P").screenLine(0) == "abde fgh")
    }

    @Test func scrollingMovesOnlyTheRectangle() {
        let t = terminal(8, 4, grid + "\(CSI)?69h\(CSI)2;4s\(CSI)S")
        // Columns 2–4 (1-based) move up one row; the rest stays.
        #expect(t.screenLines == ["ajklefgh", "irstmnop", "qz01uvwx", "y   2345"])
        #expect(t.scrollbackCount == 0)
    }

    @Test func insertLinesInsideMargins() {
        let t = terminal(8, 3, "abcdefgh\r\nijklmnop\r\nqrstuvwx\(CSI)?69h\(CSI)3;5s\(CSI)1;3H\(CSI)L")
        #expect(t.screenLines == ["ab   fgh", "ijcdenop", "qrklmvwx"])
    }

    @Test func carriageReturnGoesToTheLeftMargin() {
        #expect(terminal(8, 1, "\(CSI)?69h\(CSI)3;6s\(CSI)1;5H\rX").screenLine(0) == "  X")
    }

    @Test func selectiveEraseKeepsProtectedCells() {
        let t = terminal(8, 2, "ab\(CSI)1\"qcd\(CSI)0\"qef\(CSI)?2J")
        #expect(t.screenLine(0) == "  cd")
        #expect(t.cellAt(0, 2).isProtected)
        // A plain ED erases everything, protected or not (DECSCA guards only selective erase).
        t.feed("\(CSI)2J")
        #expect(t.screenLine(0) == "")
    }

    @Test func selectiveEraseInLine() {
        #expect(terminal(8, 1, "\(CSI)1\"qab\(CSI)0\"qcd\(CSI)1;1H\(CSI)?K").screenLine(0) == "ab")
    }

    @Test func fillRectangle() {
        let t = terminal(6, 3, "\(CSI)88;2;2;3;4$x")  // 'X' into rows 2–3, columns 2–4
        #expect(t.screenLines == ["", " XXX", " XXX"])
    }

    @Test func eraseRectangle() {
        let t = terminal(4, 3, "abcd\r\nefgh\r\nijkl\(CSI)1;2;2;3$z")
        #expect(t.screenLines == ["a  d", "e  h", "ijkl"])
    }

    @Test func selectiveEraseRectangleKeepsProtectedCells() {
        let t = terminal(4, 2, "\(CSI)1\"qab\(CSI)0\"qcd\(CSI)1;1;1;4${")
        #expect(t.screenLine(0) == "ab")
    }

    @Test func copyRectangle() {
        let t = terminal(6, 3, "ab\r\ncd\(CSI)1;1;2;2;1;2;4;1$v")
        #expect(t.screenLines == ["ab", "cd ab", "   cd"])
    }
}
