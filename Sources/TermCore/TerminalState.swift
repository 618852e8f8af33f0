import VTParser

/// The cursor: where the next character goes.
struct Cursor: Equatable {
    var row = 0
    var col = 0
    /// Set when a character was printed in the last column with autowrap on:
    /// the cursor stays in that column and the next printable character wraps
    /// first (the VT100's "last column flag", xterm's do_wrap).
    var pendingWrap = false
}

/// What DECSC saves and DECRC restores (VT510 manual, DECSC): position,
/// rendition, character sets, origin mode, the pending-wrap state and the
/// selective-erase attribute.
struct SavedCursor {
    var cursor: Cursor
    var pen: Style
    var charsets: CharsetState
    var originMode: Bool
    var protected: Bool
}

/// Modes that change how input is interpreted, with their power-on values.
struct Modes: Equatable {
    /// DECAWM (?7): print past the last column wraps to the next row.
    var autowrap = true
    /// DECOM (?6): cursor addressing relative to the scroll region.
    var origin = false
    /// IRM (4): printing inserts, shifting the rest of the row right.
    var insert = false
    /// LNM (20): LF, VT and FF also return the carriage.
    var newline = false
    /// DECTCEM (?25): the cursor is shown.
    var cursorVisible = true
    /// DECCKM (?1): cursor keys send application sequences.
    var applicationCursorKeys = false
    /// DECKPAM / DECKPNM: keypad sends application sequences.
    var applicationKeypad = false
    /// DECSCNM (?5): the whole screen is shown in reverse video.
    var reverseVideo = false
    /// Cursor blinking (?12, att610).
    var cursorBlink = false
    /// Bracketed paste (?2004).
    var bracketedPaste = false
}

/// The terminal's whole mutable state, and the handler the parser drives.
///
/// Split by concern into `TerminalState+Print.swift`, `+Cursor`, `+Edit`,
/// `+Modes`, `+SGR` and `+Dispatch`. It has exactly one owner, ``Terminal``.
struct TerminalState {
    private(set) var columns: Int
    private(set) var rows: Int
    /// The grid being drawn on, and the other one (primary or alternate).
    var active: Grid
    var inactive: Grid
    /// True while the alternate screen is the active one.
    var isAlternateScreen = false

    var cursor = Cursor()
    var pen = Style()
    /// Style id of `pen`, and of the blank an erase leaves (`pen.erased`).
    var penID: UInt16 = 0
    var eraseID: UInt16 = 0
    /// DECSCA: characters printed now are protected from selective erase.
    var protectedPen = false
    var charsets = CharsetState()
    var modes = Modes()
    /// Scroll region (DECSTBM), inclusive screen rows.
    var scrollTop = 0
    var scrollBottom: Int
    var tabStops: [Bool]
    /// DECSC slots, one per screen as in xterm.
    var savedPrimary: SavedCursor?
    var savedAlternate: SavedCursor?

    var styles = StyleTable()
    var clusters = ClusterTable()

    /// The last OSC 0/2 title and OSC 0/1 icon name, as received.
    var title: String?
    var iconName: String?

    /// The last graphic character printed, for REP: its content word and width.
    var lastGraphic: (content: UInt32, width: Int)?

    var counters = Terminal.Counters()

    init(columns: Int, rows: Int, scrollback: Int) {
        self.columns = columns
        self.rows = rows
        active = Grid(columns: columns, rows: rows, scrollbackLimit: scrollback)
        inactive = Grid(columns: columns, rows: rows, scrollbackLimit: 0)
        scrollBottom = rows - 1
        tabStops = Self.defaultTabStops(columns: columns)
    }

    /// A tab stop every 8 columns (VT100 power-on default).
    static func defaultTabStops(columns: Int) -> [Bool] {
        (0..<columns).map { $0 % 8 == 0 && $0 != 0 }
    }

    /// The primary screen's grid, whichever is active.
    var primary: Grid { isAlternateScreen ? inactive : active }

    /// A blank cell as erase leaves it.
    @inline(__always) var eraseCell: Cell { Cell.blank(styleID: eraseID) }
}
