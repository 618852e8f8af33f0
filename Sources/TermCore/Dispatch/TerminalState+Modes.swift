import VTParser

// SM/RM and DECSET/DECRST (xterm ctlseqs "CSI Pm h", "CSI ? Pm h"),
// the alternate screen, and the resets RIS and DECSTR.

extension TerminalState {
    /// ANSI modes (SM/RM without a prefix).
    mutating func setANSIMode(_ mode: Int, _ on: Bool) {
        switch mode {
        case 2: modes.keyboardLocked = on  // KAM
        case 4: modes.insert = on  // IRM
        case 12: modes.sendReceive = on  // SRM
        case 20: modes.newline = on  // LNM
        default: counters.unknownModes += 1
        }
    }

    /// DEC private modes (SM/RM with `?`).
    mutating func setDECMode(_ mode: Int, _ on: Bool) {
        switch mode {
        case 1: modes.applicationCursorKeys = on
        case 3: setColumnMode(wide: on)  // DECCOLM
        case 4: modes.smoothScroll = on  // DECSCLM
        case 5: modes.reverseVideo = on
        case 6:
            modes.origin = on
            setPosition(row: 0, col: 0)  // DECOM homes the cursor
        case 7:
            modes.autowrap = on
            if !on { cursor.pendingWrap = false }
        case 9: setMouseTracking(.x10, on)
        case 12: modes.cursorBlink = on
        case 18: modes.printFormFeed = on  // DECPFF
        case 19: modes.printFullScreen = on  // DECPEX
        case 25: modes.cursorVisible = on
        case 40: modes.allowColumnSwitch = on
        case 45: modes.reverseWrap = on
        case 47: switchScreen(toAlternate: on, clearAlternate: false)
        case 66: modes.applicationKeypad = on  // DECNKM
        case 67: modes.backarrowSendsBackspace = on  // DECBKM
        case 69:
            modes.leftRightMargins = on
            if !on {
                marginLeft = 0
                marginRight = columns - 1
            }
        case 1000: setMouseTracking(.normal, on)
        case 1002: setMouseTracking(.buttonEvent, on)
        case 1003: setMouseTracking(.anyEvent, on)
        case 1004: modes.focusEvents = on
        case 1005: setMouseEncoding(.utf8, on)
        case 1006: setMouseEncoding(.sgr, on)
        case 1007: modes.alternateScroll = on
        case 1015: setMouseEncoding(.urxvt, on)
        case 1016: setMouseEncoding(.sgrPixels, on)
        case 1047: switchScreen(toAlternate: on, clearAlternate: on)
        case 1048: if on { saveCursor() } else { restoreCursor() }
        case 1049:
            // Save the cursor, switch, clear; back: switch, restore (xterm).
            if on {
                if !isAlternateScreen { saveCursor() }
                switchScreen(toAlternate: true, clearAlternate: true)
            } else if isAlternateScreen {
                switchScreen(toAlternate: false, clearAlternate: false)
                restoreCursor()
            }
        case 2004: modes.bracketedPaste = on
        case 2026:
            // Each update begun is counted, so the terminal can tell a new
            // one from one still going on after a feed (its timeout).
            if on && !modes.synchronizedOutput { synchronizedOutputBlocks &+= 1 }
            modes.synchronizedOutput = on
        case 2027: modes.graphemeClustering = on
        default: counters.unknownModes += 1
        }
    }

    /// XTSAVE (`CSI ? Pm s`): remembers the state of a DEC private mode
    /// for XTRESTORE. Only modes the terminal implements are kept, so the
    /// saved set is bounded by them.
    mutating func saveDECMode(_ mode: Int) {
        guard let isSet = decModeState(mode) else { return }
        savedDECModes[mode] = isSet
    }

    /// XTRESTORE (`CSI ? Pm r`): sets a DEC private mode back to what
    /// XTSAVE saved; a mode never saved is left as it is.
    mutating func restoreDECMode(_ mode: Int) {
        guard let isSet = savedDECModes[mode] else { return }
        setDECMode(mode, isSet)
    }

    /// Mouse tracking modes exclude each other: setting one replaces the
    /// other; resetting one that is not in force changes nothing.
    mutating func setMouseTracking(_ tracking: TerminalModes.MouseTracking, _ on: Bool) {
        if on {
            modes.mouseTracking = tracking
        } else if modes.mouseTracking == tracking {
            modes.mouseTracking = .none
        }
    }

    mutating func setMouseEncoding(_ encoding: TerminalModes.MouseEncoding, _ on: Bool) {
        if on {
            modes.mouseEncoding = encoding
        } else if modes.mouseEncoding == encoding {
            modes.mouseEncoding = .legacy
        }
    }

    /// DECSCUSR (`CSI Ps SP q`): 0/1 blinking block, 2 steady block,
    /// 3/4 underline, 5/6 bar (odd blinks).
    mutating func setCursorStyle(_ style: Int) {
        switch style {
        case 0, 1: (modes.cursorShape, modes.cursorBlink) = (.block, true)
        case 2: (modes.cursorShape, modes.cursorBlink) = (.block, false)
        case 3: (modes.cursorShape, modes.cursorBlink) = (.underline, true)
        case 4: (modes.cursorShape, modes.cursorBlink) = (.underline, false)
        case 5: (modes.cursorShape, modes.cursorBlink) = (.bar, true)
        case 6: (modes.cursorShape, modes.cursorBlink) = (.bar, false)
        default: counters.unknownSequences += 1
        }
    }

    // MARK: Kitty keyboard protocol (progressive enhancement)

    var kittyStack: [UInt8] {
        get { isAlternateScreen ? kittyStackAlternate : kittyStackPrimary }
        set {
            if isAlternateScreen { kittyStackAlternate = newValue } else { kittyStackPrimary = newValue }
        }
    }

    /// `CSI > flags u`: push the current flags and set new ones; past
    /// ``Limits/kittyFlagsStackDepth`` entries the oldest goes, as in kitty.
    mutating func pushKittyFlags(_ flags: Int) {
        if kittyStack.count >= Limits.kittyFlagsStackDepth { kittyStack.removeFirst() }
        kittyStack.append(modes.kittyKeyboardFlags)
        modes.kittyKeyboardFlags = UInt8(flags & 0x1F)
    }

    /// `CSI < n u`: pop n entries (an emptied stack means flags 0).
    mutating func popKittyFlags(_ count: Int) {
        for _ in 0..<min(count, Limits.kittyFlagsStackDepth + 1) {
            modes.kittyKeyboardFlags = kittyStack.popLast() ?? 0
        }
    }

    /// `CSI = flags ; mode u`: 1 sets, 2 adds, 3 removes bits.
    mutating func setKittyFlags(_ flags: Int, mode: Int) {
        let bits = UInt8(flags & 0x1F)
        switch mode {
        case 2: modes.kittyKeyboardFlags |= bits
        case 3: modes.kittyKeyboardFlags &= ~bits
        default: modes.kittyKeyboardFlags = bits
        }
    }

    /// DECCOLM (?3): 132 or 80 columns, only while mode 40 allows it; the
    /// screen is cleared, the margins reset and the cursor homed (VT510 manual).
    mutating func setColumnMode(wide: Bool) {
        guard modes.allowColumnSwitch else { return }
        resize(columns: wide ? 132 : 80, rows: rows)
        let fill = eraseFill
        for row in 0..<rows { active.clearRow(ScreenRow(row), with: fill) }
        scrollTop = 0
        scrollBottom = rows - 1
        marginLeft = 0
        marginRight = columns - 1
        modes.leftRightMargins = false
        setPosition(row: 0, col: 0)
    }

    /// Swaps the active grid. The cursor position carries over (xterm); the
    /// alternate screen is cleared on entry when `clearAlternate` (1047, 1049).
    mutating func switchScreen(toAlternate: Bool, clearAlternate: Bool) {
        guard toAlternate != isAlternateScreen else { return }
        swap(&active, &inactive)
        unbindPen()  // the pen's ids were those of the other grid's page
        swap(&modes.kittyKeyboardFlags, &inactiveKittyFlags)  // kitty keeps flags per screen
        isAlternateScreen = toAlternate
        // Cleared on entry, the alternate screen's lines are new ones
        // (Navigation/LineNumbering.swift).
        if toAlternate && clearAlternate { active.evictedCount &+= rows }
        if toAlternate && clearAlternate {
            let fill = eraseFill
            for row in 0..<rows { active.clearRow(ScreenRow(row), with: fill) }
        }
    }

    /// DECSTR, soft terminal reset (VT510 manual; xterm ctlseqs "CSI ! p"):
    /// modes, margins, rendition, charsets and the saved cursor go back to
    /// their defaults; the screen and the cursor position stay. Beyond the
    /// VT510's list (DECTCEM, IRM, DECOM, DECAWM, KAM, DECCKM, DECNKM,
    /// margins), xterm's soft reset also turns off DECLRMM with its margins
    /// and reverse wraparound (45). Protection goes off as at power-on, the
    /// mode too (xterm's `ReallyReset`, before it tells DECSTR from RIS,
    /// clears `PROTECTED` and sets `protected_mode` to `OFF_PROTECT`): cells
    /// protected before are then erased by every erase, until a DECSCA or
    /// SPA sets a mode again.
    mutating func softReset() {
        modes.cursorVisible = true
        modes.insert = false
        modes.origin = false
        modes.autowrap = true
        modes.keyboardLocked = false
        modes.applicationCursorKeys = false
        modes.applicationKeypad = false
        modes.leftRightMargins = false
        modes.reverseWrap = false
        marginLeft = 0
        marginRight = columns - 1
        scrollTop = 0
        scrollBottom = rows - 1
        charsets = CharsetState()
        setPen(Style())
        protectedPen = false
        protectionMode = .off
        cursor.pendingWrap = false
        let home = SavedCursor(
            cursor: Cursor(), pen: Style(), charsets: CharsetState(), originMode: false, protected: false)
        if isAlternateScreen { savedAlternate = home } else { savedPrimary = home }
    }

    /// DECSCL (`CSI Pl ; Pc " p`): conformance level 61 (VT100) to 64
    /// (VT400, the highest this terminal has, and its power-on level; 65 is
    /// taken as 64). Changing it is a hard reset (VT510 manual, DECSCL),
    /// which keeps the scrollback, as xterm's (`VTReset` without `saved`).
    /// Pc (7- or 8-bit controls) is not kept: replies are always 7-bit.
    mutating func setConformanceLevel(_ level: Int) {
        guard (61...65).contains(level) else { return }
        fullReset(clearingScrollback: false)
        conformanceLevel = min(level - 60, 4)
    }

    /// RIS, full reset: the power-on state, the scrollback dropped too, as
    /// xterm's RIS does (`ReallyReset` with `saved` set clears its saved
    /// lines).
    mutating func fullReset(clearingScrollback: Bool = true) {
        if isAlternateScreen { switchScreen(toAlternate: false, clearAlternate: false) }
        if clearingScrollback {
            // Every line goes, the screens' too (Navigation/LineNumbering.swift).
            active.clearHistory()
            active.evictedCount &+= rows
            inactive.evictedCount &+= rows
        }
        conformanceLevel = 4
        modes = TerminalModes()
        inactiveKittyFlags = 0
        kittyStackPrimary = []
        kittyStackAlternate = []
        charsets = CharsetState()
        setPen(Style())
        protectedPen = false
        protectionMode = .off
        scrollTop = 0
        scrollBottom = rows - 1
        // DECLRMM is off again (`TerminalModes()`), and the margins it set go
        // with it: xterm's full reset sets them to the whole width, so that
        // turning DECLRMM on later starts without margins.
        marginLeft = 0
        marginRight = columns - 1
        tabStops = Self.defaultTabStops(columns: columns)
        savedPrimary = nil
        savedAlternate = nil
        title = nil
        iconName = nil
        lastGraphic = nil
        // The special colours (OSC 5) return to their resource values.
        palette.specialColors = Palette.xterm.specialColors
        let fill = eraseFill
        for row in 0..<rows { active.clearRow(ScreenRow(row), with: fill) }
        for row in 0..<rows { inactive.clearRow(ScreenRow(row), with: fill) }
        cursor = Cursor()
    }
}
