import VTParser

// SM/RM and DECSET/DECRST (xterm ctlseqs "CSI Pm h", "CSI ? Pm h"),
// the alternate screen, and the resets RIS and DECSTR.

extension TerminalState {
    /// ANSI modes (SM/RM without a prefix).
    mutating func setANSIMode(_ mode: Int, _ on: Bool) {
        switch mode {
        case 4: modes.insert = on  // IRM
        case 20: modes.newline = on  // LNM
        default: counters.unknownModes += 1
        }
    }

    /// DEC private modes (SM/RM with `?`).
    mutating func setDECMode(_ mode: Int, _ on: Bool) {
        switch mode {
        case 1: modes.applicationCursorKeys = on
        case 5: modes.reverseVideo = on
        case 6:
            modes.origin = on
            setPosition(row: 0, col: 0)  // DECOM homes the cursor
        case 7:
            modes.autowrap = on
            if !on { cursor.pendingWrap = false }
        case 12: modes.cursorBlink = on
        case 25: modes.cursorVisible = on
        case 47: switchScreen(toAlternate: on, clearAlternate: false)
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
        default: counters.unknownModes += 1
        }
    }

    /// Swaps the active grid. The cursor position carries over (xterm); the
    /// alternate screen is cleared on entry when `clearAlternate` (1047, 1049).
    mutating func switchScreen(toAlternate: Bool, clearAlternate: Bool) {
        guard toAlternate != isAlternateScreen else { return }
        swap(&active, &inactive)
        isAlternateScreen = toAlternate
        if toAlternate && clearAlternate {
            for row in 0..<rows { active.clearRow(row, with: eraseCell) }
        }
    }

    /// DECSTR, soft terminal reset (VT510 manual; xterm ctlseqs "CSI ! p"):
    /// modes, margins, rendition, charsets and the saved cursor go back to
    /// their defaults; the screen and the cursor position stay.
    mutating func softReset() {
        modes.cursorVisible = true
        modes.insert = false
        modes.origin = false
        modes.autowrap = true
        modes.applicationCursorKeys = false
        modes.applicationKeypad = false
        scrollTop = 0
        scrollBottom = rows - 1
        charsets = CharsetState()
        setPen(Style())
        protectedPen = false
        cursor.pendingWrap = false
        let home = SavedCursor(cursor: Cursor(), pen: Style(), charsets: CharsetState(), originMode: false, protected: false)
        if isAlternateScreen { savedAlternate = home } else { savedPrimary = home }
    }

    /// RIS, full reset: the power-on state. The scrollback survives, as in
    /// xterm (only its "clear saved lines" menu action drops it).
    mutating func fullReset() {
        if isAlternateScreen { switchScreen(toAlternate: false, clearAlternate: false) }
        modes = Modes()
        charsets = CharsetState()
        setPen(Style())
        protectedPen = false
        scrollTop = 0
        scrollBottom = rows - 1
        tabStops = Self.defaultTabStops(columns: columns)
        savedPrimary = nil
        savedAlternate = nil
        title = nil
        iconName = nil
        lastGraphic = nil
        for row in 0..<rows { active.clearRow(row, with: eraseCell) }
        for row in 0..<rows { inactive.clearRow(row, with: eraseCell) }
        cursor = Cursor()
    }
}
