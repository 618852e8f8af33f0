import Foundation
import TermCore
import Testing

@Suite("OSC commands and events")
struct OSCTests {
    func events(_ input: String, allowClipboardRead: Bool = false) -> [TerminalEvent] {
        let t = Terminal(columns: 20, rows: 3)
        var seen: [TerminalEvent] = []
        t.onEvent = { seen.append($0) }
        t.allowsClipboardRead = allowClipboardRead
        t.feed(input)
        return seen
    }

    @Test("Bell is an event") func bellIsAnEvent() {
        #expect(events("a\u{07}") == [.bell])
    }

    @Test("Title changes are events") func titleChangesAreEvents() {
        #expect(events("\(ESC)]2;hi\u{07}") == [.titleChanged("hi")])
    }

    @Test("Working directory") func workingDirectory() {
        #expect(events("\(ESC)]7;file://host/home/me\(ESC)\\") == [.workingDirectoryChanged("file://host/home/me")])
        #expect(terminal(10, 1, "\(ESC)]7;file://h/x\u{07}").workingDirectory == "file://h/x")
    }

    @Test("Notifications") func notifications() {
        #expect(events("\(ESC)]9;build done\u{07}") == [.notification(title: "", body: "build done")])
        #expect(events("\(ESC)]777;notify;CI;green\u{07}") == [.notification(title: "CI", body: "green")])
        // ConEmu's OSC 9;4 progress is not a notification.
        #expect(events("\(ESC)]9;4;1;50\u{07}") == [])
    }

    @Test("Clipboard write is decoded") func clipboardWriteIsDecoded() {
        let payload = Data("hello".utf8).base64EncodedString()
        #expect(events("\(ESC)]52;c;\(payload)\u{07}") == [.clipboardWrite(selection: "c", data: Array("hello".utf8))])
    }

    @Test("Clipboard read is refused by default") func clipboardReadIsRefusedByDefault() {
        let t = Terminal(columns: 10, rows: 1)
        var seen: [TerminalEvent] = []
        t.onEvent = { seen.append($0) }
        t.feed("\(ESC)]52;c;?\u{07}")
        #expect(seen.isEmpty)
        #expect(t.counters.refusedClipboardReads == 1)
        #expect(events("\(ESC)]52;c;?\u{07}", allowClipboardRead: true) == [.clipboardReadRequest(selection: "c")])
    }

    @Test("Answering a clipboard read writes base 64") func answeringAClipboardReadWritesBase64() {
        let t = Terminal(columns: 10, rows: 1)
        var out: [UInt8] = []
        t.writeBack = { out += $0 }
        t.answerClipboardRead(selection: "c", data: Array("hi".utf8))
        #expect(String(decoding: out, as: UTF8.self) == "\(ESC)]52;c;aGk=\(ESC)\\")
    }

    @Test("Hyperlinks mark cells") func hyperlinksMarkCells() {
        let t = terminal(20, 1, "\(ESC)]8;;https://a.example\(ESC)\\ab\(ESC)]8;;\(ESC)\\c")
        #expect(t.cellAt(0, 0).hyperlink?.uri == "https://a.example")
        #expect(t.cellAt(0, 1).hyperlink?.uri == "https://a.example")
        #expect(t.cellAt(0, 2).hyperlink == nil)
    }

    @Test("Overlong hyperlink is ignored") func overlongHyperlinkIsIgnored() {
        let t = terminal(20, 1, "\(ESC)]8;;https://" + String(repeating: "a", count: 5000) + "\u{07}x")
        #expect(t.cellAt(0, 0).hyperlink == nil)
        #expect(t.counters.droppedHyperlinks == 1)
    }

    @Test("Shell integration marks rows") func shellIntegrationMarksRows() {
        let t = terminal(
            20, 4, "\(ESC)]133;A\u{07}$ \(ESC)]133;B\u{07}ls\r\n\(ESC)]133;C\u{07}out\r\n\(ESC)]133;D;1\u{07}")
        #expect(t.semanticMark(row: 0) == .input)  // A then B on the same row: the last wins
        #expect(t.semanticMark(row: 1) == .output)
        #expect(t.semanticMark(row: 2) == .commandEnd(exitStatus: 1))
        #expect(t.semanticMark(row: 3) == nil)
    }

    @Test("Command-end marks keep their exit status on the screen and in the scrollback, Windows' 32-bit codes too")
    func commandEndStatusesAreKept() {
        // 0xC0000005 (an access violation) as Windows reports it; a status
        // of 2^60 or more is kept as a command end without one.
        let statuses = ["0", "-1", "255", "3221225477", "-2147483648", "1152921504606846975"]
        var input = ""
        for status in statuses { input += "\(ESC)]133;D;\(status)\u{07}x\r\n" }
        input += "\(ESC)]133;D;1152921504606846976\u{07}y\r\n\(ESC)]133;D\u{07}z"
        let t = terminal(20, 3, input)
        var marks = (0..<t.scrollbackCount).map { t.semanticMark(line: ScrollbackLine($0)) }
        marks += (0..<3).map { t.semanticMark(row: $0) }
        let expected: [SemanticMark?] =
            statuses.map { .commandEnd(exitStatus: Int($0)) } + [
                .commandEnd(exitStatus: nil), .commandEnd(exitStatus: nil),
            ]
        #expect(marks == expected)
    }

    /// ST (`ESC \`, ECMA-48 §8.3.143) ends the string before it; it is not
    /// an unknown escape sequence of its own.
    @Test("ST after an OSC, and ST alone, count as no unknown sequence")
    func stringTerminatorIsKnown() {
        let t = terminal(10, 1, "\(ESC)]2;title\(ESC)\\x\(ESC)\\")
        #expect(t.title == "title")
        #expect(t.screenLine(0) == "x")
        #expect(t.counters.unknownSequences == 0)
    }

    @Test("Unknown OSC is ignored") func unknownOSCIsIgnored() {
        let t = terminal(10, 1, "\(ESC)]1337;File=whatever\u{07}x")
        #expect(t.screenLine(0) == "x")
        #expect(t.counters.unknownSequences == 1)
    }
}
