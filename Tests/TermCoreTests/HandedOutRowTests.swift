import Testing

@testable import TermCore

/// The grid remembers the screen row it handed out last to the print paths
/// (`Grid.rowAndFlags`), and every change that moves lines between rows,
/// leaves cells stale or starts a generation must make it forget. Each case
/// prints on a row, changes the screen by one of those ways with the cursor
/// left on the same row, and prints again: the second text must land on the
/// line now shown there (the screens follow from the sequences' definitions
/// in xterm's ctlseqs and the VT510 manual), not on the line the row showed
/// before. Debug builds also check each remembered row where it is used.
@Suite("The row printing asked for last")
struct HandedOutRowTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let input: String
        let screen: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // LF at the bottom row scrolls the screen into the scrollback; LF
        // alone keeps the column.
        Case(name: "line feed at the bottom", input: "1\r\n2\r\n3\r\nab\ncd", screen: ["2", "3", "ab", "  cd"]),
        // SU: the lines move up, the cursor stays.
        Case(name: "SU", input: "1\r\n2\r\n3\r\nab\(CSI)Scd", screen: ["2", "3", "ab", "  cd"]),
        // SD: the lines move down, a blank line enters at the top.
        Case(name: "SD", input: "1\r\n2\r\nab\(CSI)Tcd", screen: ["", "1", "2 cd", "ab"]),
        // IL at the cursor's row pushes its line down.
        Case(name: "IL", input: "1\r\n2\r\nab\(CSI)L\rcd", screen: ["1", "2", "cd", "ab"]),
        // DL at the cursor's row pulls the lines below up.
        Case(name: "DL", input: "1\r\n\r\n2\r\n3\(CSI)2;1Hab\(CSI)M\rcd", screen: ["1", "cd", "3", ""]),
        // A line feed at the bottom of a region from the top row.
        Case(name: "region from the top", input: "\(CSI)1;3r1\r\n2\r\nab\ncd", screen: ["2", "ab", "  cd", ""]),
        // A line feed at the bottom of a region below the top row.
        Case(
            name: "region below the top",
            input: "\(CSI)2;4r\(CSI)1;1H1\(CSI)2;1H2\(CSI)3;1H3\(CSI)4;1Hab\ncd",
            screen: ["1", "3", "ab", "  cd"]),
        // RI at the top row scrolls the screen down.
        Case(name: "RI at the top", input: "1\r\n2\r\n3\(CSI)1;1Hab\(ESC)Mcd", screen: ["  cd", "ab", "2", "3"]),
        // Whole plain lines after a CR LF at the bottom row (the grid's
        // loop for scrolling output), then text on the bottom row again.
        Case(
            name: "plain lines at the bottom", input: "1\r\n2\r\n3\r\nab\r\nxy\r\nzw\r\ncd",
            screen: ["ab", "xy", "zw", "cd"]),
        // The same in a region of the alternate screen.
        Case(
            name: "plain lines in a region",
            input: "\(CSI)?1049h\(CSI)1;4r\(CSI)4;1Hab\r\nxy\r\nzw\r\ncd",
            screen: ["ab", "xy", "zw", "cd"]),
        // ED 3 forgets the scrollback and moves no screen line.
        Case(name: "ED 3", input: "1\r\n2\r\n3\r\n4\r\nab\(CSI)3Jcd", screen: ["2", "3", "4", "abcd"]),
        // The alternate screen and back: each screen's rows are its own.
        Case(name: "alternate screen", input: "1\r\nab\(CSI)?1049hcd\(CSI)?1049lef", screen: ["1", "abef", "", ""]),
        // DECDWL on the cursor's row: the row's flags change, its line does
        // not; five columns of ten are usable, so the text wraps after five.
        Case(name: "DECDWL", input: "ab\(ESC)#6cdefgh", screen: ["abcde", "fgh", "", ""]),
    ]

    @Test("Text after the screen changed lands on the line shown", arguments: cases)
    func textAfterTheScreenChangedLandsOnTheLineShown(_ example: Case) {
        let terminal = Terminal(columns: 10, rows: 4, scrollback: 5)
        terminal.feed(example.input)
        #expect(terminal.screenLines == example.screen)
    }

    @Test("The same, every byte fed on its own", arguments: cases)
    func theSameEveryByteFedOnItsOwn(_ example: Case) {
        let terminal = Terminal(columns: 10, rows: 4, scrollback: 5)
        for byte in example.input.utf8 { terminal.feed([byte]) }
        #expect(terminal.screenLines == example.screen)
    }

    @Test("Text after a resize lands on the resized screen") func textAfterAResizeLandsOnTheResizedScreen() {
        let terminal = Terminal(columns: 10, rows: 4, scrollback: 5)
        terminal.feed("1\r\n2\r\nab")
        terminal.resize(columns: 12, rows: 3)
        terminal.feed("cd")
        #expect(terminal.screenLines == ["1", "2", "abcd"])
    }

    @Test("A row printed on again after a snapshot is a changed row")
    func aRowPrintedOnAgainAfterASnapshotIsAChangedRow() {
        let terminal = Terminal(columns: 10, rows: 4, scrollback: 5)
        terminal.feed("1\r\nab")
        let first = terminal.snapshot()
        terminal.feed("cd")
        let second = terminal.snapshot()
        #expect(second.changes(since: first).rows == [1])
        terminal.feed("\(CSI)2;1Hef")
        #expect(terminal.snapshot().changes(since: second).rows == [1])
        #expect(terminal.screenLines == ["1", "efcd", "", ""])
    }
}
