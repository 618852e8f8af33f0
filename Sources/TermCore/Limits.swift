// Every bound TermCore puts on what input can make it hold or do (STYLE.md
// rule 12, as Ghostty's size.zig): each with its value and the reason for
// it, here and nowhere else. docs/SECURITY.md lists them all with what
// happens past each.
//
// The public ones are defined from the constants here: the sizes an
// embedder may configure, ``Terminal/Limits`` (`dimensions`,
// `defaultScrollback`, `maxScrollback`), with `workingDirectory`
// (Terminal+Inspection.swift), and ``TitleSanitizer/defaultLimit``.
// The parser's own bounds stay in VTParser, which depends on nothing:
// `VTParser.Limits` (the OSC string, 1 MiB, and the OSC buffer kept between
// strings, 4 KiB), `ControlSequence.maxParams` (32 parameters, each
// saturating at 65,535, which bounds every count: REP, ICH, SU…) and
// `Intermediates` (2 bytes).

/// The bounds of TermCore, each with its reason.
@usableFromInline
enum Limits {
    // MARK: Screen and scrollback (public as ``Terminal/Limits``)

    /// Columns and rows may each be 1…1000: the web-terminal server's rule
    /// for a session's size (`WireLimits.dimensions`), and far past any real
    /// window. A row's stale mark holds a column in 16 bits
    /// (`GridStorage.staleFrom`), which this keeps far from overflowing.
    static let dimensions = 1...1000
    /// The default scrollback, in lines (the CLI's `--scrollback` default
    /// too): 6.1 MiB of cells at 80 columns (10,000 × 80 × 8 bytes).
    static let defaultScrollback = 10_000
    /// The largest scrollback accepted, in lines: memory is columns × lines ×
    /// 8 bytes (610 MiB at 80 columns, 7.5 GiB at 1,000), and ring entries
    /// and page numbers are 32 bits (`GridStorage.ring`), far above it.
    static let maxScrollback = 1_000_000
    /// The largest cell an embedder may report, in pixels, each way: far
    /// past any screen's cell, and small enough that the window's size
    /// (XTWINOPS 14: the cell's times 1,000 cells) cannot overflow.
    static let maxCellPixels = 10_000

    // MARK: Pages and their tables (Tables/PageTables.swift)

    /// The most cells a page of rows holds (``Grid/rowsPerPage(columns:)``):
    /// three quarters of the 65,536 ids of a style table (and of the 65,535
    /// of a link table), so that a page's table, when full, is at most four
    /// fifths in use (``tableEntries(cells:)``; smaller pages have smaller
    /// tables) and a compaction frees at least a fifth of its ids
    /// (``PageTables``); few enough pages that their tables cost little
    /// (20 for 10,000 lines at 80 columns, each 512 rows); and small enough
    /// that a compaction, O(cells of the page), stays short (384 KiB).
    static let cellsPerPage = 49_152
    /// The most distinct styles a page's table holds before it is compacted
    /// over the page's cells (``StyleTable``): a cell's style bits are 16,
    /// and id 0 is the default style.
    static let stylesPerPage = Int(UInt16.max) + 1
    /// The entries a style or link table of a page of `cells` cells holds
    /// before it is compacted: the smallest power of two that is at least
    /// 5/4 of the cells and ``tableEntriesBeyondCells`` more than them, and
    /// at most ``stylesPerPage`` (a link table's
    /// ``linksPerPage`` still applies). A full table then has at most four
    /// fifths of its entries still named by a cell (and the pen's and the
    /// erase blank's), so a compaction, O(cells), frees at least a fifth of
    /// them. Below ``stylesPerPage`` for pages of up to 26,214 cells (128
    /// rows of 200 columns: 32,768): output that makes nearly every cell a
    /// new style or link (truecolor gradients, images drawn in half blocks,
    /// a link a word) filled each of those pages' tables, in both eras, to
    /// 65,536 entries before a compaction: 214 MB of style tables at 200×50
    /// with 10,000 lines of scrollback after 256 MiB of truecolor_dense,
    /// for 2 million cells (124.5 MB with this limit).
    static func tableEntries(cells: Int) -> Int {
        var limit = tableEntriesBeyondCells
        while limit < stylesPerPage && (limit * 4 < cells * 5 || limit < cells + tableEntriesBeyondCells) {
            limit *= 2
        }
        return limit
    }

    /// The entries a page's style or link table has beyond its cells, at
    /// least: entry 0, the pen's, the erase blank's, and room that a
    /// compaction frees. A table of a page of a few cells (pages made small
    /// by the grid's `rowsPerPage:`, as tests make them; a terminal's own
    /// pages hold at least 24,576 cells) held only 5/4 of them, which those
    /// three can fill: every compaction then freed nothing, and binding the
    /// pen and interning the blank compacted it in turn without end.
    static let tableEntriesBeyondCells = 64
    /// The most distinct links a page's table holds before it is compacted
    /// (``HyperlinkTable``): a cell's link id is 16 bits, and 0 means none.
    static let linksPerPage = Int(UInt16.max)
    /// The bytes of links (their URIs and ids) a page's link table holds
    /// before it is compacted, for a page of `cells` cells:
    /// ``linkBytesPerCell`` a cell, and at least ``linkBytesAtLeast``; after
    /// a compaction, twice what it kept when that is more, so that links
    /// its cells still name are never dropped (``HyperlinkTable``). Its
    /// entries alone did not bound them: a page could hold 65,535 links of
    /// 4 KiB, nearly all named by no cell (64 MiB of OSC 8 links, each new,
    /// over one cell made a table of 130 MB for a screen showing one linked
    /// character). 2.5 MiB at 80 columns (40,960 cells), 1.6 MB at 200.
    static func linkBytes(cells: Int) -> Int { max(cells * linkBytesPerCell, linkBytesAtLeast) }
    /// A page's bytes of links for each of its cells: output that links its
    /// words (`ls --hyperlink`, compilers' file links) names a few bytes of
    /// link a cell (a `file://` URI of some 60 bytes for a name of 10 to 20
    /// cells), and a page whose every cell is its own short link (a key of
    /// 40 bytes) still needs no compaction.
    static let linkBytesPerCell = 64
    /// The least bytes of links a page's table holds, whatever its cells:
    /// room for 15 links of the longest URI and id (``hyperlinkURIBytes``,
    /// ``hyperlinkIDBytes``) on a page of a few cells.
    static let linkBytesAtLeast = 64 << 10
    /// The most distinct clusters a page keeps before it compacts its table
    /// (``ClusterTable``): 65,536, more than the cells a page holds
    /// (``cellsPerPage``), so a full table is at most three quarters in use,
    /// and what a hostile stream can make a page hold (up to
    /// ``clusterScalars`` scalars each) stays bounded.
    static let clustersPerPage = 1 << 16

    // MARK: Cells

    /// The most scalars one cell keeps (base included). Marks past it are
    /// dropped and counted: no legitimate cluster comes close (the longest
    /// emoji ZWJ sequences have 10 scalars), and the cap bounds what
    /// "e" + 10,000 combining accents can cost.
    static let clusterScalars = 32

    // MARK: OSC (Dispatch/TerminalState+OSC.swift)

    /// The largest OSC command number read ("Ps" of `OSC Ps ; Pt`): six
    /// digits, more than any command in use has (xterm's have up to three,
    /// iTerm2's 1337 and kitty's 5522 four), so that the number read from a
    /// string of digits (up to the parser's 1 MiB) never overflows. A longer
    /// number is an unknown sequence.
    static let oscCommandNumber = 999_999
    /// The cap on a window title and icon name (OSC 0/1/2) and a
    /// notification's title (OSC 777), in Unicode scalars, cut at a
    /// grapheme-cluster boundary: PROTOCOL.md's title rule
    /// (``TitleSanitizer/defaultLimit``).
    static let titleScalars = 256
    /// The most titles the title stack keeps (XTWINOPS 22); pushing more
    /// drops the oldest. Programs push one or two (vim pushes one on entry).
    static let titleStackDepth = 10
    /// The longest working-directory URL kept (OSC 7), in scalars: Linux's
    /// PATH_MAX, in bytes, is 4,096 (public as
    /// `Terminal.Limits.workingDirectory`).
    static let workingDirectoryScalars = 4096
    /// The longest notification body kept (OSC 9, OSC 777), in scalars, cut
    /// as titles are: a notification is a line or two for the desktop, and
    /// the cap bounds each of the events a feed may collect.
    static let notificationBodyScalars = 1024
    /// The longest URI kept (bytes). Longer links are ignored, as the OSC 8
    /// convention allows terminals to do; 2083 is the longest URL browsers
    /// have historically accepted, rounded up.
    static let hyperlinkURIBytes = 4096
    /// The longest `id=` parameter kept (bytes), as VTE
    /// (`VTE_HYPERLINK_ID_LENGTH_MAX`): ids are short tokens a program makes
    /// up to tie runs together. A longer id is ignored, the link kept (300
    /// links with 1 MiB ids held 946 MB before); the bound also keeps an
    /// id's length within the two bytes of a link's key
    /// (``HyperlinkTable/key(uri:linkID:)``).
    static let hyperlinkIDBytes = 250

    // MARK: Modes (Dispatch/TerminalState+Modes.swift)

    /// The most entries a kitty keyboard flags stack keeps, per screen;
    /// pushing more drops the oldest, as kitty does. Programs push one per
    /// nested full-screen program.
    static let kittyFlagsStackDepth = 16

    // MARK: Replies and events (Dispatch/TerminalState+Reports.swift)

    /// The most bytes of a DECRQSS request kept (`DCS $ q Pt ST`): the names
    /// are at most two bytes (`"q`, ` q`); anything longer is not a valid
    /// request, so a few bytes bound what is kept.
    static let decrqssBytes = 16
    /// The most reply bytes collected in one feed. A program that floods
    /// queries (thousands of DSR in one write) gets its first 64 KiB of
    /// answers, not a reply buffer as large as its input; the rest are
    /// dropped and counted.
    static let replyBytesPerFeed = 64 << 10
    /// The most events collected in one feed: bells and titles by the
    /// thousand are a flood; later ones are dropped and counted.
    static let eventsPerFeed = 1024
    /// The most reply bytes queued for ``Terminal/drainReplies()`` and not
    /// yet drained: one feed's worth, so an embedder that never drains holds
    /// no more than one feed may make a closure receive, and one that drains
    /// after every feed loses nothing. Later replies are dropped whole and
    /// counted (the oldest kept: a program reads its answers in order).
    static let queuedReplyBytes = replyBytesPerFeed
    /// The most events queued for ``Terminal/drainEvents()`` and not yet
    /// drained: one feed's worth, for the same reasons; later ones are
    /// dropped and counted.
    static let queuedEvents = eventsPerFeed

    // MARK: Time

    /// How long a synchronized update (mode 2026) holds the frame, in
    /// seconds, unless the embedder says otherwise: Ghostty's watchdog
    /// (`sync_reset_ms = 1000`, `src/termio/Thread.zig`). A program that
    /// dies inside an update must not freeze the view.
    static let defaultSynchronizedOutputTimeout = 1.0
    /// The longest hold an embedder may set, in seconds: a frozen view for
    /// longer than a minute is a hang, whatever the embedder asked.
    static let maxSynchronizedOutputTimeout = 60.0

    // MARK: Caches (fixed size, allocated once)

    /// The longest SGR parameter list the transition cache keeps
    /// (``SGRTransitions``): seven values below 256 and the count fill one
    /// word (`38;2;r;g;b` and `1;38;5;n` fit).
    static let sgrTransitionParameters = 7
    /// The SGR transition cache's entries, direct-mapped: the slot is the top
    /// byte of a hash (`SGRTransitions.slot`), so exactly 256.
    static let sgrTransitionSlots = 256
    /// The cluster-extension cache's entries (``ClusterExtensionCache``), in
    /// sets of two (a power of two: the set is the top 11 bits of a hash):
    /// 64 KiB, allocated on the first combining mark.
    static let clusterExtensionSlots = 4096

    // MARK: Work

    /// The most matches ``Terminal/search(_:caseSensitive:limit:)`` returns
    /// by default: a search in 10,000 lines of a common letter must not
    /// build a million ranges.
    @usableFromInline static let searchMatches = 10_000
    /// The most rounds the search for a TekHVC colour's maximum chroma takes
    /// (``XcmsGamut``), as Xlib's (`MAXBISECTCOUNT` of `HVCMxC.c`).
    static let xcmsGamutRounds = 100
    /// The most rounds of the arithmetic-geometric mean behind arctan
    /// (``XcmsMath/arcTangent(_:)``), as Xlib's.
    static let xcmsArcTangentRounds = 10_000
    /// The largest angle (degrees, either sign) brought into range by whole
    /// turns one at a time, as Xlib's loops do (``XcmsColorSpaces``,
    /// ``XcmsGamut``): at most 1,000 turns. A larger one, which Xlib would
    /// turn for ever (1e300 + 360 is 1e300), is reduced at once with `fmod`.
    static let xcmsAngleTurnedByTurns = 360_000.0
}
