import TermCore
import Testing

@Suite("Modes, screens and resets")
struct ModeTests {
    @Test("Alternate screen 1049 saves and restores the cursor") func alternateScreen1049SavesAndRestoresTheCursor() {
        let t = terminal(10, 3, "main\(CSI)?1049h")
        #expect(t.isAlternateScreen)
        #expect(t.screenLines == ["", "", ""])
        t.feed("alt\(CSI)?1049l")
        #expect(!t.isAlternateScreen)
        #expect(t.screenLines == ["main", "", ""])
        #expect(t.at == [0, 4])
    }

    @Test("Alternate screen keeps no scrollback") func alternateScreenKeepsNoScrollback() {
        let t = terminal(10, 2, "\(CSI)?1049ha\r\nb\r\nc\r\nd")
        #expect(t.scrollbackCount == 0)
        t.feed("\(CSI)?1049l")
        #expect(t.scrollbackCount == 0)
    }

    @Test("Mode 47 keeps the alternate content") func mode47KeepsTheAlternateContent() {
        let t = terminal(10, 2, "\(CSI)?47hX\(CSI)?47l\(CSI)?47h")
        #expect(t.screenLine(0) == "X")
    }

    @Test("Mode 1047 clears the alternate screen on entry") func mode1047ClearsTheAlternateScreenOnEntry() {
        let t = terminal(10, 2, "\(CSI)?1047hX\(CSI)?1047l\(CSI)?1047h")
        #expect(t.screenLine(0) == "")
    }

    @Test("Newline mode adds carriage return") func newlineModeAddsCarriageReturn() {
        #expect(terminal(10, 3, "\(CSI)20hab\ncd").screenLines == ["ab", "cd", ""])
    }

    @Test("Cursor visibility") func cursorVisibility() {
        #expect(!terminal(10, 2, "\(CSI)?25l").cursor.isVisible)
        #expect(terminal(10, 2, "\(CSI)?25l\(CSI)?25h").cursor.isVisible)
    }

    @Test("RIS clears the screen and the scrollback, as xterm's full reset drops its saved lines")
    func fullResetClearsTheScreenAndTheScrollback() {
        let t = terminal(10, 2, "\(CSI)1ma\r\nb\r\nc\(ESC)]2;t\u{07}\(ESC)c")
        #expect(t.screenLines == ["", ""])
        #expect(t.scrollbackLines == [])
        #expect(t.at == [0, 0])
        #expect(t.title == nil)
        t.feed("x")
        #expect(t.cellAt(0, 0).style == Style())
    }

    @Test("Soft reset keeps the screen and resets modes") func softResetKeepsTheScreenAndResetsModes() {
        let t = terminal(10, 3, "ab\(CSI)4h\(CSI)?6h\(CSI)2;3r\(CSI)1m\(CSI)!p")
        #expect(t.screenLine(0) == "ab")
        t.feed("\(CSI)3;1HX")
        #expect(t.screenLine(2) == "X")
        #expect(t.cellAt(2, 0).style == Style())
    }

    @Test("DECSTR turns off DECLRMM with its margins and reverse wraparound, as xterm's soft reset does")
    func softResetDropsHorizontalMarginsAndReverseWrap() {
        let t = terminal(20, 3, "\(CSI)?69h\(CSI)3;8s\(CSI)?45h\(CSI)!p")
        #expect(!t.modes.leftRightMargins && !t.modes.reverseWrap)
        #expect(t.horizontalMargins == 0...19)
        t.feed("\(CSI)?69h" + String(repeating: "a", count: 25))
        #expect(t.screenLines == [String(repeating: "a", count: 20), "aaaaa", ""])
    }

    @Test("XTSAVE and XTRESTORE save DEC private modes and set them back; unsaved modes stay (xtermsave.py)")
    func xtermSaveAndRestoreModes() {
        let t = terminal(10, 2, "\(CSI)?7;1;2004h\(CSI)?7;1;2004s\(CSI)?7;1;2004l")
        #expect(!t.modes.autowrap && !t.modes.applicationCursorKeys && !t.modes.bracketedPaste)
        t.feed("\(CSI)?7;2004r")
        #expect(t.modes.autowrap && t.modes.bracketedPaste && !t.modes.applicationCursorKeys)
        t.feed("\(CSI)?1r\(CSI)?25l\(CSI)?25r")  // 25 was never saved
        #expect(t.modes.applicationCursorKeys && !t.cursor.isVisible)
    }

    @Test("Title from OSC") func titleFromOSC() {
        #expect(terminal(10, 2, "\(ESC)]2;hello\u{07}").title == "hello")
        #expect(terminal(10, 2, "\(ESC)]0;both\(ESC)\\").title == "both")
        #expect(terminal(10, 2, "\(ESC)]0;both\(ESC)\\").iconName == "both")
        #expect(terminal(10, 2, "\(ESC)]1;icon\u{07}").title == nil)
    }
}

@Suite("Reset through the API")
struct APIResetTests {
    @Test("Reset clears screen scrollback and parser state") func resetClearsScreenScrollbackAndParserState() {
        let t = terminal(10, 2, "\(CSI)1ma\r\nb\r\nc\(ESC)]0;half")
        t.reset()
        #expect(t.screenLines == ["", ""])
        #expect(t.scrollbackCount == 0)
        t.feed("x")
        // The unterminated OSC was forgotten: "x" prints, unstyled.
        #expect(t.screenLine(0) == "x")
        #expect(t.cellAt(0, 0).style == Style())
    }
}

@Suite("Column mode and character set shifts")
struct ColumnModeAndShiftTests {
    @Test("DECCOLM needs mode 40") func deccolmNeedsMode40() {
        // xterm ignores DECCOLM unless 132-column switching is allowed (?40).
        let t = terminal(80, 3, "abc\(CSI)?3h")
        #expect(t.columns == 80)
        #expect(t.screenLine(0) == "abc")
    }

    @Test("DECCOLM switches to 132 and back clearing the screen") func deccolmSwitchesTo132AndBackClearingTheScreen() {
        let t = terminal(80, 3, "abc\(CSI)2;2r\(CSI)?40h\(CSI)?3h")
        #expect(t.columns == 132)
        #expect(t.screenLines == ["", "", ""])
        #expect(t.at == [0, 0])
        t.feed("\(CSI)?3l")
        #expect(t.columns == 80)
    }

    @Test("Single shift two applies to one character") func singleShiftTwoAppliesToOneCharacter() {
        // G2 = DEC Special Graphics; SS2 (ESC N) uses it for the next character only.
        #expect(terminal(10, 1, "\(ESC)*0\(ESC)Nqq").screenLine(0) == "─q")
    }

    @Test("Locking shift two stays") func lockingShiftTwoStays() {
        #expect(terminal(10, 1, "\(ESC)*0\(ESC)nqq\u{0F}q").screenLine(0) == "──q")
    }
}

@Suite("Reset keeps the embedder's settings")
struct ResetSettingsTests {
    @Test("Replies events and palette survive reset") func repliesEventsAndPaletteSurviveReset() {
        let t = Terminal(columns: 10, rows: 2)
        var replies: [UInt8] = []
        var events: [TerminalEvent] = []
        t.writeBack = { replies += $0 }
        t.onEvent = { events.append($0) }
        var theme = Palette.xterm
        theme.defaultBackground = RGB(1, 2, 3)
        t.palette = theme
        t.feed("\(ESC)]11;#ffffff\u{07}")  // the program changes it…
        t.reset()  // …the reset returns to the embedder's theme
        t.feed("\(CSI)5n\u{07}")
        #expect(String(decoding: replies, as: UTF8.self) == "\(CSI)0n")
        #expect(events == [.bell])
        #expect(t.palette.defaultBackground == RGB(1, 2, 3))
    }
}
