import TermCore
import Testing

@Suite("Cursor movement")
struct CursorTests {
    @Test("CUP is one based and clamped") func cupIsOneBasedAndClamped() {
        #expect(terminal(10, 5, "\(CSI)2;3H").at == [1, 2])
        #expect(terminal(10, 5, "\(CSI)99;99H").at == [4, 9])
        #expect(terminal(10, 5, "\(CSI)3;4H\(CSI)H").at == [0, 0])
        #expect(terminal(10, 5, "\(CSI)0;0f").at == [0, 0])
    }

    @Test("Only the plain form is CUP") func onlyThePlainFormIsCUP() {
        // A prefix or an intermediate makes another sequence (or none): the
        // cursor stays where the plain CUP put it.
        #expect(terminal(10, 5, "\(CSI)2;3H\(CSI)?4;5H\(CSI)4;5 H\(CSI)>4;5H").at == [1, 2])
    }

    @Test("Relative moves default to one") func relativeMovesDefaultToOne() {
        #expect(terminal(10, 5, "\(CSI)3;3H\(CSI)A").at == [1, 2])
        #expect(terminal(10, 5, "\(CSI)3;3H\(CSI)0B").at == [3, 2])
        #expect(terminal(10, 5, "\(CSI)3;3H\(CSI)2C").at == [2, 4])
        #expect(terminal(10, 5, "\(CSI)3;3H\(CSI)5D").at == [2, 0])
    }

    @Test("CNL and CPL go to the first column") func cnlAndCplGoToTheFirstColumn() {
        #expect(terminal(10, 5, "\(CSI)2;5H\(CSI)2E").at == [3, 0])
        #expect(terminal(10, 5, "\(CSI)4;5H\(CSI)2F").at == [1, 0])
    }

    @Test("Absolute column and row") func absoluteColumnAndRow() {
        #expect(terminal(10, 5, "\(CSI)3G").at == [0, 2])
        #expect(terminal(10, 5, "\(CSI)4`").at == [0, 3])
        #expect(terminal(10, 5, "\(CSI)4d").at == [3, 0])
        #expect(terminal(10, 5, "\(CSI)2;2H\(CSI)2a\(CSI)2e").at == [3, 3])
    }

    @Test("CUU stops at the top margin from inside the region") func cuuStopsAtTheTopMarginFromInsideTheRegion() {
        #expect(terminal(10, 6, "\(CSI)2;5r\(CSI)4;1H\(CSI)9A").at == [1, 0])
        // From above the region it can reach row 0.
        #expect(terminal(10, 6, "\(CSI)3;5r\(CSI)2;1H\(CSI)9A").at == [0, 0])
    }

    @Test("Origin mode addresses the region") func originModeAddressesTheRegion() {
        let t = terminal(10, 6, "\(CSI)2;4r\(CSI)?6h\(CSI)1;1HX\(CSI)9;1HY")
        #expect(t.screenLines == ["", "X", "", "Y", "", ""])
    }

    @Test("Backspace from pending wrap moves left") func backspaceFromPendingWrapMovesLeft() {
        #expect(terminal(5, 2, "abcde\u{08}").at == [0, 3])
    }

    @Test("Tabs stop every eight columns") func tabsStopEveryEightColumns() {
        #expect(terminal(20, 2, "\t").at == [0, 8])
        #expect(terminal(20, 2, "\t\t\t").at == [0, 19])
    }

    @Test("Tab stops can be set and cleared") func tabStopsCanBeSetAndCleared() {
        let t = terminal(20, 2, "\(CSI)3G\(ESC)H\r\t")
        #expect(t.at == [0, 2])
        let u = terminal(20, 2, "\(CSI)3g\t")
        #expect(u.at == [0, 19])
        let v = terminal(20, 2, "\(CSI)9G\(CSI)0g\r\t")
        #expect(v.at == [0, 16])
    }

    @Test("CHT and CBT move by tab stops") func chtAndCbtMoveByTabStops() {
        #expect(terminal(40, 2, "\(CSI)2I").at == [0, 16])
        #expect(terminal(40, 2, "\(CSI)20G\(CSI)Z").at == [0, 16])
        #expect(terminal(40, 2, "\(CSI)20G\(CSI)3Z").at == [0, 0])
    }

    @Test("Save and restore cursor keeps position attributes and charsets")
    func saveAndRestoreCursorKeepsPositionAttributesAndCharsets() {
        let t = terminal(10, 4, "\(CSI)2;3H\(CSI)1m\(ESC)(0\(ESC)7\(CSI)H\(CSI)0m\(ESC)(B\(ESC)8q")
        #expect(t.at == [1, 3])
        #expect(t.cellAt(1, 2).text == "─")
        #expect(t.cellAt(1, 2).style.flags.contains(.bold))
    }

    @Test("Restore cursor restores pending wrap") func restoreCursorRestoresPendingWrap() {
        // xterm's DECSC saves do_wrap and DECRC restores it.
        let t = terminal(5, 3, "abcde\(ESC)7\r\n\(ESC)8X")
        #expect(t.screenLines == ["abcde", "X", ""])
    }

    @Test("Restore without save homes the cursor") func restoreWithoutSaveHomesTheCursor() {
        #expect(terminal(10, 4, "\(CSI)3;3H\(ESC)8").at == [0, 0])
    }

    // Expected positions below are esctest2's (bs.py, cub.py, decset.py), which real xterm 379 passes.

    @Test("under reverse wraparound, BS from a pending wrap cancels it and the cursor stays in the last column")
    func backspaceFromPendingWrapStaysUnderReverseWrap() {
        let t = terminal(10, 3, "\(CSI)?45h\(CSI)1;9Hab\u{08}X")
        #expect(t.screenLine(0) == "        aX")
        let plain = terminal(10, 3, "\(CSI)1;9Hab\u{08}X")  // without 45 it moves left first
        #expect(plain.screenLine(0) == "        Xb")
    }

    @Test("under reverse wraparound, CUB wraps to the right margin of the rows above, column by column")
    func cursorBackwardReverseWraps() {
        let t = terminal(10, 4, "\(CSI)1;9Habcd\(CSI)?45h\(CSI)4D")
        #expect(t.at == [0, 8])
        let across = terminal(10, 6, "\(CSI)?45h\(CSI)5;5H\(CSI)20D")  // 4, then 10 a row, then 6
        #expect(across.at == [2, 4])
        #expect(terminal(10, 4, "\(CSI)2;5H\(CSI)20D").at == [1, 0])  // without 45: stops at column 1
    }
}
