/// The cursor: where the next character goes.
struct Cursor: Equatable {
    var row = 0
    var col = 0
    /// Set when a character was printed in the last column with autowrap on:
    /// the cursor stays in that column and the next printable character wraps
    /// first (the VT100's "last column flag", xterm's do_wrap).
    var pendingWrap = false

    /// Moves the cursor onto a screen of `rows` × `columns` if it lies
    /// outside, as DECRC does with a position saved on a larger screen; a
    /// column moved in loses its pending wrap.
    mutating func clamp(rows: Int, columns: Int) {
        row = max(0, min(row, rows - 1))
        if col >= columns {
            col = columns - 1
            pendingWrap = false
        }
        col = max(0, col)
    }

    /// `clamp`, for a saved cursor when the screen is resized: a pending
    /// wrap waits at the right edge, and the margins a resize leaves are the
    /// whole width, so one saved anywhere but the new last column (at 1
    /// column, column 0 was the edge) no longer waits.
    mutating func clampAfterResize(rows: Int, columns: Int) {
        clamp(rows: rows, columns: columns)
        if col != columns - 1 { pendingWrap = false }
    }

    /// The cursor clamped onto a screen of `rows` × `columns`.
    func clamped(rows: Int, columns: Int) -> Cursor {
        var cursor = self
        cursor.clamp(rows: rows, columns: columns)
        return cursor
    }
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

/// The terminal's whole mutable state, and the handler the parser drives.
///
/// Split by concern into `TerminalState+Print.swift`, `+Cursor`, `+Edit`,
/// `+Modes`, `+SGR` and `+Dispatch`. It has exactly one owner, ``Terminal``.
struct TerminalState {
    var columns: Int
    var rows: Int
    /// The grid being drawn on, and the other one (primary or alternate).
    var active: Grid
    var inactive: Grid
    /// True while the alternate screen is the active one.
    var isAlternateScreen = false

    var cursor = Cursor()
    var pen = Style()
    /// `eraseFill` as last made, current while `eraseFillIsCurrent`: made
    /// when first needed after the pen's background changed, as
    /// colour-dense output changes the background far more often than it
    /// scrolls or erases (`setPen(_:key:)` clears the flag, a store of one
    /// byte).
    var cachedEraseFill = BlankFill.empty
    var eraseFillIsCurrent = true
    /// Style key of `pen` in the page it is bound to, `active.penPage`
    /// (TerminalState+Tables.swift, `bindPen(toRow:)`).
    var penKey = StyleKey.default { didSet { penCellBits = Cell(content: 0, style: penKey, linkID: penLink).bits } }
    /// Style key of the blank an erase leaves (`pen.erased`) in the bound
    /// page, or nil when the background or the page changed since it was
    /// last needed (see `eraseKey`).
    var cachedEraseKey: StyleKey? = .default
    /// DECSCA or SPA: characters printed now are protected (from which
    /// erases, `protectionMode` says).
    var protectedPen = false
    /// Which erases keep protected cells: the last of DECSCA and SPA decides.
    var protectionMode = ProtectionMode.off
    var charsets = CharsetState()
    var modes = TerminalModes()
    /// Scroll region (DECSTBM), inclusive screen rows.
    var scrollTop = 0
    var scrollBottom: Int
    var tabStops: [Bool]
    /// DECSCL's conformance level, 1 (VT100) to 4 (VT400): below 3 DECRQM
    /// goes unanswered, below 4 DECSLRM, the rectangle operations and
    /// DECRQCRA are ignored.
    var conformanceLevel = 4
    /// XTSAVE's saved DEC private modes, by number (at most one entry per
    /// mode `decModeState` knows).
    var savedDECModes: [Int: Bool] = [:]
    /// DECSC slots, one per screen as in xterm.
    var savedPrimary: SavedCursor?
    var savedAlternate: SavedCursor?

    var sgrTransitions = SGRTransitions()
    /// Cluster extensions seen before, so a repeated "e" + U+0301 costs no
    /// array or hash of arrays: keyed by page (and screen), with the ids of
    /// each grid as they were after `clusterCacheCompactions[screen]` of its
    /// compactions (all cleared when the shown grid has had more).
    var clusterExtensions = ClusterExtensionCache()
    var clusterCacheCompactions = [0, 0]
    /// Display widths (a reference to the shared table).
    let widths = UnicodeWidth.shared
    /// The bytes of the OSC 8 link printed characters get
    /// (``HyperlinkTable/key(uri:linkID:)``), while `penHasLink`. The
    /// buffer is kept from link to link, so that a new link costs no
    /// allocation and no reference counting (`setPenLink(uri:linkID:)`).
    /// Only its first `penLinkCount` bytes are the link's: the array only
    /// grows, so that a new link is copied into it in place (emptying and
    /// appending to it, instead, cost about 400 instructions a link in
    /// `replaceSubrange` and `append(contentsOf:)`).
    var penLinkBytes: [UInt8] = []
    var penLinkCount = 0
    /// True while printed characters get the link of `penLinkBytes`.
    var penHasLink = false
    /// The pen's link by its bytes, or nil for none, sharing the pen's buffer.
    var penLinkKey: ArraySlice<UInt8>? { penHasLink ? penLinkBytes[..<penLinkCount] : nil }
    /// The pen's link by its bytes, as an array of their own.
    var penTarget: [UInt8]? { penLinkKey.map { Array($0) } }
    /// The id of `penTarget` in the bound page (0 = none).
    var penLink: UInt16 = 0 { didSet { penCellBits = Cell(content: 0, style: penKey, linkID: penLink).bits } }
    /// A cell of the pen's style and link with no content, as a word: a
    /// printed ASCII character's cell is this with the byte in the low bits.
    private(set) var penCellBits: UInt64 = 0
    /// The OSC 7 working directory.
    var workingDirectory: String?
    var allowsClipboardRead = false
    /// Whether a resize re-wraps the primary screen's soft-wrapped lines
    /// (``Terminal/reflowsOnResize``).
    var reflowsOnResize = true

    /// The last OSC 0/2 title and OSC 0/1 icon name, as received.
    var title: String?
    var iconName: String?

    /// The last graphic character printed, for REP: its content word and width.
    /// Any other action clears it.
    var lastGraphic: (content: UInt32, width: Int)?

    var counters = Terminal.Counters()
    /// Counts replacements of the grids (resizes, DECCOLM): slots and change
    /// stamps start afresh in a new grid, so copies of rows made before
    /// (snapshot caches) are stale.
    var gridEpoch = 0
    /// Names the page the pen's keys are ids of, with the grid's compactions
    /// then (`rebindPen(toPage:)`), or -1 while they are not bound: SGR
    /// transitions are stored and found under it.
    var tablesEpoch = -1

    /// Bytes to write back to the program (replies to queries), and events for
    /// the embedder, both collected during a feed and delivered after it.
    /// Nothing is collected while nobody listens.
    /// With ``Terminal/queuesReplies`` and ``Terminal/queuesEvents`` they
    /// stay here across feeds until drained; `queuedReplyBytes` and
    /// `queuedEventCount` are what earlier feeds left, so that each feed's
    /// own bound counts only what it adds.
    var replies: [UInt8] = []
    var wantsReplies = false
    var events: [TerminalEvent] = []
    var wantsEvents = false
    /// Synchronized updates (mode 2026) begun so far (`Terminal.isHoldingFrame`).
    var synchronizedOutputBlocks = 0
    var queuedReplyBytes = 0
    var queuedEventCount = 0

    /// The 256-colour palette and the special colours, for OSC 4/10/11/12.
    var palette = Palette()
    /// Title stack (XTWINOPS 22/23).
    var titleStack: [(title: String?, iconName: String?)] = []
    /// The kitty keyboard flags stacks, one per screen (the active one is used).
    var kittyStackPrimary: [UInt8] = []
    var kittyStackAlternate: [UInt8] = []
    /// The kitty flags of the screen not shown (each screen has its own).
    var inactiveKittyFlags: UInt8 = 0
    /// DECSLRM margins, inclusive columns (in effect only with DECLRMM).
    var marginLeft = 0
    var marginRight: Int
    /// Pixel size of one cell, for XTWINOPS 14/16 reports.
    var cellPixelWidth = 10
    var cellPixelHeight = 20
    /// An open DCS whose data the terminal collects (DECRQSS), bounded.
    var dcsRequest: DCSRequest?

    /// Rows per page of the grids (Grid+Pages.swift), nil for the default;
    /// tests set a small one to put page boundaries everywhere.
    let rowsPerPage: Int?

    init(columns: Int, rows: Int, scrollback: Int, rowsPerPage: Int? = nil) {
        self.columns = columns
        self.rows = rows
        self.rowsPerPage = rowsPerPage
        active = Grid(columns: columns, rows: rows, scrollbackLimit: scrollback, rowsPerPage: rowsPerPage)
        inactive = Grid(columns: columns, rows: rows, scrollbackLimit: 0, rowsPerPage: rowsPerPage)
        scrollBottom = rows - 1
        marginRight = columns - 1
        tabStops = Self.defaultTabStops(columns: columns)
    }

    /// A tab stop every 8 columns (VT100 power-on default).
    static func defaultTabStops(columns: Int) -> [Bool] {
        (0..<columns).map { $0 % 8 == 0 && $0 != 0 }
    }

    /// The primary screen's grid, whichever is active.
    var primary: Grid { isAlternateScreen ? inactive : active }

    /// The style key of a blank as erase leaves it in page `page`, interned
    /// on first use after a background change: colour-heavy output changes
    /// the background far more often than it erases, and each interned style
    /// costs memory. Binds the pen to the page.
    @inline(__always)
    mutating func eraseKey(page: Int) -> StyleKey {
        bindPen(toPage: page)
        if let key = cachedEraseKey { return key }
        return internEraseKey(page: page)
    }

    /// `eraseKey(page:)` when the key is not cached: the pen is bound there.
    @inline(never)
    mutating func internEraseKey(page: Int) -> StyleKey {
        var rounds = 0
        while true {
            let compactions = active.compactionCount
            let key = active.styleKey(for: pen.erased, page: page)
            if active.compactionCount == compactions {
                cachedEraseKey = key
                return key
            }
            // Compacted to make room: the pen's keys were renumbered. Bound
            // again, and the blank interned again: a compaction leaves at
            // least `Limits.tableEntriesBeyondCells` - 3 ids free, so the
            // next round compacts nothing.
            rebindPen(toPage: page)
            rounds += 1
            assert(rounds <= 2, "a compaction left no room for the pen and the erase blank")
        }
    }

    /// A blank cell as erase leaves it in active screen row `row`.
    mutating func eraseCell(row: Int) -> Cell {
        Cell.blank(style: eraseKey(page: active.page(ofScreenRow: ScreenRow(row))))
    }

    /// A written blank (`Cell.writtenBlankFlag`) as an erase inside a line
    /// leaves it in active screen row `row`.
    mutating func writtenBlank(row: Int) -> Cell {
        Cell.writtenBlank(style: eraseKey(page: active.page(ofScreenRow: ScreenRow(row))))
    }

    /// The blank erases and scrolls leave (`pen`'s background), for
    /// operations on many rows (each in its page); every line feed that
    /// scrolls needs it. Take it before a call on a grid: read in that
    /// call's arguments it would overlap the call's access.
    var eraseFill: BlankFill {
        mutating get {
            if eraseFillIsCurrent { return cachedEraseFill }
            let fill = BlankFill(erasing: pen)
            cachedEraseFill = fill
            eraseFillIsCurrent = true
            return fill
        }
    }
}
