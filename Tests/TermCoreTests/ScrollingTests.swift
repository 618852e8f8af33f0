import TermCore
import Testing

@Suite("Scrolling and scrollback")
struct ScrollingTests {
    @Test func linefeedAtTheBottomScrollsIntoScrollback() {
        let t = terminal(10, 3, "1\r\n2\r\n3\r\n4\r\n5")
        #expect(t.screenLines == ["3", "4", "5"])
        #expect(t.scrollbackLines == ["1", "2"])
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
