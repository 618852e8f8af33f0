import TermCore
import Testing

/// One test per reply, with the expected bytes from xterm's ctlseqs
/// (https://invisible-island.net/xterm/ctlseqs/ctlseqs.html).
@Suite("Replies")
struct ReplyTests {
    func replies(_ input: String, columns: Int = 80, rows: Int = 24) -> String {
        let t = Terminal(columns: columns, rows: rows)
        var out: [UInt8] = []
        t.writeBack = { out += $0 }
        t.feed(input)
        return String(decoding: out, as: UTF8.self)
    }

    @Test("No callback no reply") func noCallbackNoReply() {
        let t = Terminal(columns: 10, rows: 2)
        t.feed("\(CSI)c\(CSI)6n")  // nothing to deliver to, nothing collected
        var out: [UInt8] = []
        t.writeBack = { out += $0 }
        t.feed("x")
        #expect(out.isEmpty)
    }

    @Test("Primary device attributes") func primaryDeviceAttributes() {
        // "CSI ? 6 4 ; Ps c": VT420 with 132 columns, selective erase, ANSI colour, rectangles.
        #expect(replies("\(CSI)c") == "\(CSI)?64;1;6;22;28c")
        #expect(replies("\(CSI)0c") == "\(CSI)?64;1;6;22;28c")
        #expect(replies("\(ESC)Z") == "\(CSI)?64;1;6;22;28c")  // DECID
    }

    @Test("Secondary and tertiary device attributes") func secondaryAndTertiaryDeviceAttributes() {
        #expect(replies("\(CSI)>c") == "\(CSI)>41;379;0c")
        #expect(replies("\(CSI)>0c") == "\(CSI)>41;379;0c")
        #expect(replies("\(CSI)=c") == "\(ESC)P!|00000000\(ESC)\\")
    }

    @Test("Device status and cursor position") func deviceStatusAndCursorPosition() {
        #expect(replies("\(CSI)5n") == "\(CSI)0n")
        #expect(replies("\(CSI)3;7H\(CSI)6n") == "\(CSI)3;7R")
        // Under DECOM the report is relative to the scroll region.
        #expect(replies("\(CSI)5;10r\(CSI)?6h\(CSI)2;3H\(CSI)6n") == "\(CSI)2;3R")
    }

    @Test("DECDSR: no locator, locator type unknown, no macros, no integrity errors, one session (VT510 manual)")
    func decDeviceStatusReports() {
        #expect(replies("\(CSI)?55n") == "\(CSI)?50n")
        #expect(replies("\(CSI)?56n") == "\(CSI)?57;0n")
        #expect(replies("\(CSI)?63;123n") == "\(ESC)P123!~0000\(ESC)\\")
        #expect(replies("\(CSI)?75n") == "\(CSI)?70n")
        #expect(replies("\(CSI)?85n") == "\(CSI)?83n")
    }

    @Test("DECSCL sets the conformance level: below VT300 no DECRQM, below VT400 no DECSLRM; DECRQSS reports it")
    func conformanceLevels() {
        #expect(replies("\(CSI)62;1\"p\(CSI)4$p\(CSI)?7$p") == "")
        #expect(replies("\(CSI)63;1\"p\(CSI)4$p") == "\(CSI)4;2$y")
        #expect(replies("\(CSI)63;1\"p\(ESC)P$q\"p\(ESC)\\") == "\(ESC)P1$r63;1\"p\(ESC)\\")
        #expect(replies("\(CSI)65;1\"p\(ESC)P$q\"p\(ESC)\\") == "\(ESC)P1$r64;1\"p\(ESC)\\")  // at most VT400
        let level3 = terminal(10, 2, "\(CSI)63;1\"p\(CSI)?69h\(CSI)5;6s\(CSI)1;5Habc")
        #expect(level3.at == [0, 7])  // no margins: "abc" runs on past column 6
        let level4 = terminal(10, 2, "\(CSI)64;1\"p\(CSI)?69h\(CSI)5;6s\(CSI)1;5Habc")
        #expect(level4.at == [1, 5])
    }

    @Test("DECSCL is a hard reset that keeps the scrollback (VT510 manual; xterm's VTReset without saved lines)")
    func conformanceLevelChangeResets() {
        let t = terminal(10, 2, "a\r\nb\r\nc\(CSI)4h\(CSI)2;3H\u{1B}7\(CSI)61\"p")
        #expect(t.screenLines == ["", ""])
        #expect(t.scrollbackLines == ["a"])
        #expect(!t.modes.insert && t.at == [0, 0])
        #expect(t.savedCursor(alternateScreen: false) == nil)
    }

    @Test("Extended cursor position") func extendedCursorPosition() {
        #expect(replies("\(CSI)4;9H\(CSI)?6n") == "\(CSI)?4;9;1R")
    }

    @Test("Mode reports for ANSI modes") func modeReportsForANSIModes() {
        #expect(replies("\(CSI)4$p") == "\(CSI)4;2$y")
        #expect(replies("\(CSI)4h\(CSI)4$p") == "\(CSI)4;1$y")
        #expect(replies("\(CSI)20h\(CSI)20$p") == "\(CSI)20;1$y")
        #expect(replies("\(CSI)99$p") == "\(CSI)99;0$y")  // not recognised
    }

    @Test("KAM and SRM are reported as set or reset, SRM set at power-on (xterm's do_rpm)")
    func modeReportsForKeyboardActionAndSendReceive() {
        #expect(replies("\(CSI)2$p") == "\(CSI)2;2$y")
        #expect(replies("\(CSI)2h\(CSI)2$p") == "\(CSI)2;1$y")
        #expect(replies("\(CSI)12$p") == "\(CSI)12;1$y")
        #expect(replies("\(CSI)12l\(CSI)12$p") == "\(CSI)12;2$y")
    }

    @Test("ECMA-48 modes a terminal emulator has no use for are permanently reset; CRM is reset (xterm's do_rpm)")
    func modeReportsForUnusedANSIModes() {
        for mode in [1, 5, 7, 10, 11, 13, 14, 15, 16, 17, 18, 19] {
            #expect(replies("\(CSI)\(mode)$p") == "\(CSI)\(mode);4$y", "mode \(mode)")
        }
        #expect(replies("\(CSI)3$p") == "\(CSI)3;2$y")
    }

    @Test("DECSCLM, DECPFF, DECPEX and DECBKM can be set and reset, all reset at power-on")
    func modeReportsForStoredDECModes() {
        for mode in [4, 18, 19, 67] {
            #expect(replies("\(CSI)?\(mode)$p") == "\(CSI)?\(mode);2$y", "mode \(mode)")
            #expect(replies("\(CSI)?\(mode)h\(CSI)?\(mode)$p") == "\(CSI)?\(mode);1$y", "mode \(mode)")
        }
    }

    @Test("Mode reports for DEC modes") func modeReportsForDECModes() {
        #expect(replies("\(CSI)?7$p") == "\(CSI)?7;1$y")
        #expect(replies("\(CSI)?7l\(CSI)?7$p") == "\(CSI)?7;2$y")
        #expect(replies("\(CSI)?1049h\(CSI)?1049$p") == "\(CSI)?1049;1$y")
        #expect(replies("\(CSI)?1006h\(CSI)?1006$p\(CSI)?1005$p") == "\(CSI)?1006;1$y\(CSI)?1005;2$y")
        #expect(replies("\(CSI)?2004h\(CSI)?2004$p") == "\(CSI)?2004;1$y")
        #expect(replies("\(CSI)?2026$p") == "\(CSI)?2026;2$y")
        #expect(replies("\(CSI)?12345$p") == "\(CSI)?12345;0$y")
    }

    @Test("Status string for SGR") func statusStringForSGR() {
        #expect(replies("\(CSI)1;31;48;5;100m\(ESC)P$qm\(ESC)\\") == "\(ESC)P1$r0;1;31;48:5:100m\(ESC)\\")
        #expect(replies("\(CSI)38;2;1;2;3m\(ESC)P$qm\(ESC)\\") == "\(ESC)P1$r0;38:2::1:2:3m\(ESC)\\")
    }

    @Test("Status string for margins cursor style and protection") func statusStringForMarginsCursorStyleAndProtection()
    {
        #expect(replies("\(CSI)3;20r\(ESC)P$qr\(ESC)\\") == "\(ESC)P1$r3;20r\(ESC)\\")
        #expect(replies("\(CSI)?69h\(CSI)5;40s\(ESC)P$qs\(ESC)\\") == "\(ESC)P1$r5;40s\(ESC)\\")
        #expect(replies("\(CSI)4 q\(ESC)P$q q\(ESC)\\") == "\(ESC)P1$r4 q\(ESC)\\")
        #expect(replies("\(CSI)1\"q\(ESC)P$q\"q\(ESC)\\") == "\(ESC)P1$r1\"q\(ESC)\\")
    }

    @Test("Status string for unknown setting is invalid") func statusStringForUnknownSettingIsInvalid() {
        #expect(replies("\(ESC)P$qz\(ESC)\\") == "\(ESC)P0$r\(ESC)\\")
    }

    @Test("Version") func version() {
        #expect(replies("\(CSI)>q") == "\(ESC)P>|TermEngine(0.1)\(ESC)\\")
    }

    @Test("Window size reports") func windowSizeReports() {
        let t = Terminal(columns: 80, rows: 24)
        var out: [UInt8] = []
        t.writeBack = { out += $0 }
        t.setCellPixelSize(width: 9, height: 18)
        t.feed("\(CSI)14t\(CSI)16t\(CSI)18t\(CSI)19t")
        #expect(String(decoding: out, as: UTF8.self) == "\(CSI)4;432;720t\(CSI)6;18;9t\(CSI)8;24;80t\(CSI)9;24;80t")
    }

    @Test("Title is never reported") func titleIsNeverReported() {
        #expect(replies("\(ESC)]2;secret\u{07}\(CSI)21t\(CSI)20t") == "")
    }

    @Test("Rectangle checksum") func rectangleChecksum() {
        // "AB" = 0x41 + 0x42 = 0x83; negated modulo 2^16 = 0xFF7D. Bold adds 0x80 per cell.
        #expect(replies("AB\(CSI)1;0;1;1;1;2*y") == "\(ESC)P1!~FF7D\(ESC)\\")
        #expect(replies("\(CSI)1mAB\(CSI)7;0;1;1;1;2*y") == "\(ESC)P7!~FE7D\(ESC)\\")
        #expect(replies("\(CSI)2;0;1;1;1;2*y") == "\(ESC)P2!~0000\(ESC)\\")
    }

    @Test("DECRQCRA counts a blank an erase wrote inside a line as a space, a never-written one as nothing (xterm 379)")
    func rectangleChecksumOfErasedCells() {
        // One cell at 1;3 after "abcde": a space is 0x20, negated 0xFFE0.
        func cell(_ edit: String) -> String { replies("abcde\(edit)\(CSI)1;0;1;3;1;3*y") }
        #expect(cell("\(CSI)1;3H\(CSI)X") == "\(ESC)P1!~FFE0\(ESC)\\")  // ECH
        #expect(cell("\(CSI)1;3H\(CSI)1K") == "\(ESC)P1!~FFE0\(ESC)\\")  // EL 1
        #expect(cell("\(CSI)1;3H\(CSI)1J") == "\(ESC)P1!~FFE0\(ESC)\\")  // ED 1
        #expect(cell("\(CSI)1;3H\(CSI)@") == "\(ESC)P1!~FFE0\(ESC)\\")  // ICH
        #expect(cell("\(CSI)1;3;1;3$z") == "\(ESC)P1!~FFE0\(ESC)\\")  // DECERA
        #expect(cell("\(CSI)1;3H\(CSI)K") == "\(ESC)P1!~0000\(ESC)\\")  // EL 0: never written
        #expect(cell("\(CSI)2J") == "\(ESC)P1!~0000\(ESC)\\")  // ED 2
        #expect(cell("\(CSI)1;3H\(CSI)P") == "\(ESC)P1!~FF9C\(ESC)\\")  // DCH: "d" (0x64) moves in
    }

    @Test("DECRQCRA reads a DECSCA-protected cell by its character alone (xterm 379: esctest2's DECSED tests)")
    func rectangleChecksumOfProtectedCells() {
        #expect(replies("\(CSI)1\"qa\(CSI)1;0;1;1;1;1*y") == "\(ESC)P1!~FF9F\(ESC)\\")
    }

    @Test("a blank an erase wrote reads, reflows and dumps as any blank")
    func writtenBlanksAreBlanks() {
        let t = terminal(10, 2, "abcdefghij\(CSI)1;6H\(CSI)5X")
        #expect(t.screenLine(0) == "abcde")
        #expect(t.cellAt(0, 7).scalars == [] && t.cellAt(0, 7).style == Style())
        t.resize(columns: 5, rows: 2)
        #expect(t.screenLines == ["abcde", ""])  // the erased cells do not wrap onto a row of their own
    }

    @Test("Palette queries and sets") func paletteQueriesAndSets() {
        // xterm's colour 1 is #cd0000, reported with 16 bits per channel.
        #expect(replies("\(ESC)]4;1;?\u{07}") == "\(ESC)]4;1;rgb:cdcd/0000/0000\(ESC)\\")
        #expect(replies("\(ESC)]4;1;#102030\u{07}\(ESC)]4;1;?\u{07}") == "\(ESC)]4;1;rgb:1010/2020/3030\(ESC)\\")
        #expect(replies("\(ESC)]4;2;rgb:f/8/0\u{07}\(ESC)]4;2;?\u{07}") == "\(ESC)]4;2;rgb:ffff/8888/0000\(ESC)\\")
        #expect(
            replies("\(ESC)]4;1;#102030\u{07}\(ESC)]104;1\u{07}\(ESC)]4;1;?\u{07}")
                == "\(ESC)]4;1;rgb:cdcd/0000/0000\(ESC)\\")
    }

    @Test("Dynamic colour queries and resets") func dynamicColourQueriesAndResets() {
        #expect(replies("\(ESC)]10;?\u{07}") == "\(ESC)]10;rgb:e5e5/e5e5/e5e5\(ESC)\\")
        #expect(replies("\(ESC)]11;?\u{07}") == "\(ESC)]11;rgb:0000/0000/0000\(ESC)\\")
        #expect(replies("\(ESC)]11;#ffffff\u{07}\(ESC)]11;?\u{07}") == "\(ESC)]11;rgb:ffff/ffff/ffff\(ESC)\\")
        #expect(
            replies("\(ESC)]11;#ffffff\u{07}\(ESC)]111\u{07}\(ESC)]11;?\u{07}")
                == "\(ESC)]11;rgb:0000/0000/0000\(ESC)\\")
        // One OSC 10 with two parameters asks for foreground then background.
        #expect(
            replies("\(ESC)]10;?;?\u{07}") == "\(ESC)]10;rgb:e5e5/e5e5/e5e5\(ESC)\\\(ESC)]11;rgb:0000/0000/0000\(ESC)\\"
        )
        #expect(replies("\(ESC)]12;?\u{07}") == "\(ESC)]12;rgb:e5e5/e5e5/e5e5\(ESC)\\")
    }

    @Test("Kitty keyboard flags") func kittyKeyboardFlags() {
        #expect(replies("\(CSI)?u") == "\(CSI)?0u")
        #expect(replies("\(CSI)>5u\(CSI)?u") == "\(CSI)?5u")
        #expect(replies("\(CSI)>1u\(CSI)>3u\(CSI)<u\(CSI)?u") == "\(CSI)?1u")
        #expect(replies("\(CSI)=8;1u\(CSI)=1;2u\(CSI)?u\(CSI)=8;3u\(CSI)?u") == "\(CSI)?9u\(CSI)?1u")
    }

    @Test("Flood of queries is bounded") func floodOfQueriesIsBounded() {
        let t = Terminal(columns: 80, rows: 24)
        var out: [UInt8] = []
        t.writeBack = { out += $0 }
        t.feed(String(repeating: "\(CSI)6n", count: 20_000))
        #expect(out.count <= 64 << 10)
        #expect(t.counters.droppedReplies > 0)
    }
}
