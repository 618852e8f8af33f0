/// The modes that change how the terminal interprets output and how a front
/// end must encode input and draw, with their power-on values.
///
/// Names follow xterm's ctlseqs; the mode number is given for each.
public struct TerminalModes: Equatable, Sendable {
    /// Mouse reporting (DECSET 9, 1000, 1002, 1003).
    public enum MouseTracking: Equatable, Sendable {
        /// No reports.
        case none
        /// X10 compatibility (9): button presses only.
        case x10
        /// Normal tracking (1000): presses and releases.
        case normal
        /// Button-event tracking (1002): also motion while a button is held.
        case buttonEvent
        /// Any-event tracking (1003): all motion.
        case anyEvent
    }

    /// How mouse reports are encoded (DECSET 1005, 1006, 1015, 1016).
    public enum MouseEncoding: Equatable, Sendable {
        /// `CSI M Cb Cx Cy`, one byte each (coordinates up to 223).
        case legacy
        /// 1005: coordinates as UTF-8 (up to 2015).
        case utf8
        /// 1006: `CSI < b ; x ; y M/m`.
        case sgr
        /// 1015: `CSI b ; x ; y M` (urxvt).
        case urxvt
        /// 1016: as SGR, with pixel coordinates.
        case sgrPixels
    }

    /// Cursor shapes of DECSCUSR (`CSI Ps SP q`).
    public enum CursorShape: Equatable, Sendable {
        /// A full cell, a line under the cell, or a bar at its left edge (DECSCUSR
        /// 1–2, 3–4 and 5–6; 0 and the odd values blink, as ``cursorBlink`` reports).
        case block, underline, bar
    }

    /// DECAWM (?7): printing past the last column wraps to the next row.
    public var autowrap = true
    /// DECOM (?6): cursor addressing is relative to the margins.
    public var origin = false
    /// IRM (4): printing inserts, shifting the rest of the row right.
    public var insert = false
    /// LNM (20): LF, VT and FF also return the carriage.
    public var newline = false
    /// DECTCEM (?25): the cursor is shown.
    public var cursorVisible = true
    /// DECCKM (?1): cursor keys send application sequences (`SS3 A`).
    public var applicationCursorKeys = false
    /// DECKPAM / DECKPNM (`ESC =` / `ESC >`): keypad sends application sequences.
    public var applicationKeypad = false
    /// DECSCNM (?5): the whole screen is shown in reverse video.
    public var reverseVideo = false
    /// The cursor blinks (?12, or the blinking DECSCUSR shapes).
    public var cursorBlink = true
    /// DECSCUSR's shape.
    public var cursorShape = CursorShape.block
    /// Mouse reporting mode.
    public var mouseTracking = MouseTracking.none
    /// Mouse report encoding.
    public var mouseEncoding = MouseEncoding.legacy
    /// Focus in/out reports (?1004).
    public var focusEvents = false
    /// Bracketed paste (?2004).
    public var bracketedPaste = false
    /// Synchronized output (?2026): the program is mid-update; a front end
    /// should keep showing the previous frame until it ends.
    public var synchronizedOutput = false
    /// Reverse wraparound (?45): BS at the left margin goes to the end of the
    /// previous row.
    public var reverseWrap = false
    /// Allow 80 ⇄ 132 column switching (?40), which DECCOLM (?3) needs.
    public var allowColumnSwitch = false
    /// DECLRMM (?69): left and right margins (DECSLRM) are in effect.
    public var leftRightMargins = false
    /// Grapheme-cluster segmentation (?2027): clusters, not code points,
    /// decide cell widths.
    public var graphemeClustering = false
    /// Alternate scroll (?1007): the wheel sends cursor keys on the alternate screen.
    public var alternateScroll = false
    /// The kitty keyboard protocol's flags in force (progressive enhancement).
    public var kittyKeyboardFlags: UInt8 = 0
    /// KAM (2): the keyboard is locked; the input encoder sends nothing for
    /// keys while it is set (ECMA-48 §7.2.10).
    public var keyboardLocked = false
    /// SRM (12), set: the terminal does not echo what is typed (xterm's
    /// power-on state). A front end that echoes locally does so only when
    /// it is reset.
    public var sendReceive = true
    /// DECBKM (?67): the backarrow key sends BS; reset (the default), DEL.
    public var backarrowSendsBackspace = false
    /// DECSCLM (?4): smooth scrolling, a hint a front end may follow.
    public var smoothScroll = false
    /// DECPFF (?18): a form feed ends a print-screen; kept for reports only
    /// (no printer).
    public var printFormFeed = false
    /// DECPEX (?19): print-screen covers the whole screen rather than the
    /// scroll region; kept for reports only (no printer).
    public var printFullScreen = false

    /// Power-on modes.
    public init() {}
}
