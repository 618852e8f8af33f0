import TermCore
import Testing

@Suite("Erasing and editing")
struct EditingTests {
    let filled = "abcdefgh\r\nijklmnop\r\nqrstuvwx"

    @Test("Erase display below above and all") func eraseDisplayBelowAboveAndAll() {
        #expect(terminal(8, 3, filled + "\(CSI)2;4H\(CSI)J").screenLines == ["abcdefgh", "ijk", ""])
        #expect(terminal(8, 3, filled + "\(CSI)2;4H\(CSI)1J").screenLines == ["", "    mnop", "qrstuvwx"])
        #expect(terminal(8, 3, filled + "\(CSI)2J").screenLines == ["", "", ""])
    }

    @Test("Erase display does not move the cursor") func eraseDisplayDoesNotMoveTheCursor() {
        #expect(terminal(8, 3, filled + "\(CSI)2;4H\(CSI)2J").at == [1, 3])
    }

    @Test("ED 3 clears only the scrollback") func ed3ClearsOnlyTheScrollback() {
        let t = terminal(8, 2, "a\r\nb\r\nc\(CSI)3J")
        #expect(t.scrollbackCount == 0)
        #expect(t.screenLines == ["b", "c"])
    }

    @Test("Erase line right left and all") func eraseLineRightLeftAndAll() {
        #expect(terminal(8, 1, "abcdefgh\(CSI)4G\(CSI)K").screenLine(0) == "abc")
        #expect(terminal(8, 1, "abcdefgh\(CSI)4G\(CSI)1K").screenLine(0) == "    efgh")
        #expect(terminal(8, 1, "abcdefgh\(CSI)4G\(CSI)2K").screenLine(0) == "")
    }

    @Test("Erase characters") func eraseCharacters() {
        #expect(terminal(8, 1, "abcdefgh\(CSI)3G\(CSI)3X").screenLine(0) == "ab   fgh")
    }

    @Test("Insert and delete characters") func insertAndDeleteCharacters() {
        #expect(terminal(8, 1, "abcdefgh\(CSI)3G\(CSI)2@").screenLine(0) == "ab  cdef")
        #expect(terminal(8, 1, "abcdefgh\(CSI)3G\(CSI)2P").screenLine(0) == "abefgh")
    }

    @Test("Deleting into a wide character blanks it") func deletingIntoAWideCharacterBlanksIt() {
        // Deleting the left half of 漢 leaves its right half alone: it is blanked.
        let t = terminal(8, 1, "a漢b\(CSI)2G\(CSI)P")
        #expect(t.screenLine(0) == "a b")
    }

    @Test("Erase with background keeps the colour") func eraseWithBackgroundKeepsTheColour() {
        // Background colour erase: blanks take the current background only.
        let t = terminal(8, 1, "abc\(CSI)1;41m\(CSI)2K")
        let cell = t.cellAt(0, 5)
        #expect(cell.style.background == .indexed(1))
        #expect(!cell.style.flags.contains(.bold))
    }

    @Test("Screen alignment fills with E") func screenAlignmentFillsWithE() {
        let t = terminal(4, 2, "\(CSI)2;2H\(ESC)#8")
        #expect(t.screenLines == ["EEEE", "EEEE"])
        #expect(t.at == [0, 0])
    }

    @Test("Shift left and right move columns") func shiftLeftAndRightMoveColumns() {
        #expect(terminal(6, 1, "abcdef\(CSI)2 @").screenLine(0) == "cdef")
        #expect(terminal(6, 1, "abcdef\(CSI)2 A").screenLine(0) == "  abcd")
    }

    @Test("Insert and delete columns at the cursor") func insertAndDeleteColumnsAtTheCursor() {
        #expect(terminal(6, 2, "abcdef\r\nghijkl\(CSI)1;3H\(CSI)'}").screenLines == ["ab cde", "gh ijk"])
        #expect(terminal(6, 2, "abcdef\r\nghijkl\(CSI)1;3H\(CSI)2'~").screenLines == ["abef", "ghkl"])
    }
}
