/// A terminal emulator: feed it the bytes a program writes and read back the
/// screen, the scrollback and the state a front end draws.
///
/// `Terminal` owns all of its mutable state and is not `Sendable`: give it one
/// owner (an actor, a serial queue, a lock) and read it through that owner.
///
/// ```swift
/// let terminal = Terminal(columns: 80, rows: 24)
/// terminal.feed(Array("hello\r\n".utf8))
/// terminal.screenLine(0)  // "hello"
/// ```
public final class Terminal {
    /// Bounds on what a terminal may be configured to (each with its reason,
    /// with the engine's other bounds, in `Limits.swift`).
    public enum Limits {
        /// Columns and rows may each be 1…1000.
        public static let dimensions = TermCore.Limits.dimensions
        /// The default scrollback, in lines.
        public static let defaultScrollback = TermCore.Limits.defaultScrollback
        /// The largest scrollback accepted, in lines.
        public static let maxScrollback = TermCore.Limits.maxScrollback
        /// The largest cell size accepted, in pixels (``setCellPixelSize(width:height:)``).
        public static let maxCellPixels = TermCore.Limits.maxCellPixels
    }

    /// Counters of input the terminal dropped or ignored, for diagnostics.
    public struct Counters: Equatable, Sendable {
        /// Escape, control and OSC sequences the terminal does not implement.
        public var unknownSequences = 0
        /// Mode numbers in SM/RM/DECSET/DECRST the terminal does not implement.
        public var unknownModes = 0
        /// Zero-width scalars with no character before them, or past a cluster's
        /// length limit.
        public var droppedCombiningMarks = 0
        /// BEL controls received.
        public var bells = 0
        /// Times a page's style table was full and compacted (its cells only).
        public var styleCompactions = 0
        /// Times a page's cluster table was full and compacted.
        public var clusterCompactions = 0
        /// Times a page's hyperlink table was full and compacted.
        public var hyperlinkCompactions = 0
        /// Times the tables of a page's era were emptied at once, in O(1), because
        /// every line that named their entries had been replaced.
        public var tableResets = 0
        /// Replies dropped because one feed asked for more than 64 KiB of them.
        public var droppedReplies = 0
        /// Events dropped because one feed produced more than 1,024.
        public var droppedEvents = 0
        /// Replies not queued because the queue already held 64 KiB not yet
        /// drained (``Terminal/queuesReplies``).
        public var droppedQueuedReplies = 0
        /// Events not queued because the queue already held 1,024 not yet
        /// drained (``Terminal/queuesEvents``).
        public var droppedQueuedEvents = 0
        /// OSC 8 links ignored for a URI over 4 KiB.
        public var droppedHyperlinks = 0
        /// OSC 8 `id=` parameters over 250 bytes, ignored (the link is kept
        /// without its id).
        public var droppedHyperlinkIDs = 0
        /// OSC 52 clipboard reads refused (``Terminal/allowsClipboardRead`` off).
        public var refusedClipboardReads = 0
        /// Title-stack pushes that dropped the oldest entry.
        public var droppedTitles = 0
        /// Wide characters with no room for two cells where they were printed
        /// (a 1-column screen, a 2-column double-width row).
        public var droppedWideCharacters = 0
    }

    /// The parser the output goes through (Dispatch/OutputParser.swift).
    var parser = OutputParser()
    var state: TerminalState
    /// Rows copied for earlier snapshots, by grid slot, reused while the
    /// slot's change stamp is the same; one cache per screen.
    var primaryRowCache: [(row: SnapshotRow, generation: UInt32)?] = []
    var alternateRowCache: [(row: SnapshotRow, generation: UInt32)?] = []
    /// The last snapshot, returned as is when nothing changed since.
    var lastSnapshot: Snapshot?
    var changedSinceSnapshot = true

    /// A number that grows with every call that can change what a snapshot
    /// shows (a feed, a resize, a reset, a palette set), and stays the same
    /// otherwise: cheaper than a snapshot to tell whether to take one. It
    /// may grow without a visible change (a feed that only asked a
    /// question); it never stays the same across one. Each snapshot carries
    /// the value it was taken at (``Snapshot/generation``).
    public internal(set) var generation: UInt64 = 0

    /// Called once after each feed, never more often (not per byte, not per
    /// sequence), when there may be something new to draw: a front end's
    /// cue to schedule a frame. Replies and events are delivered before it.
    /// Resizes, resets and palette changes are the embedder's own calls and
    /// do not call it.
    public var onChange: (() -> Void)?

    /// How long a synchronized update (mode 2026) may hold the frame, in
    /// seconds: 1 by default, as Ghostty's watchdog (`sync_reset_ms` in
    /// `src/termio/Thread.zig`). A program that dies inside an update, or
    /// never ends one, then freezes the view for this long at most
    /// (``isHoldingFrame``). Clamped to 0…60.
    public var synchronizedOutputTimeout: Double = TermCore.Limits.defaultSynchronizedOutputTimeout {
        didSet {
            synchronizedOutputTimeout = min(
                max(synchronizedOutputTimeout, 0), TermCore.Limits.maxSynchronizedOutputTimeout)
        }
    }
    /// When the synchronized update in progress began (`clock`), or nil.
    var synchronizedOutputStart: UInt64?
    /// Nanoseconds of a monotonic clock; tests set their own.
    var clock: () -> UInt64 = MonotonicClock.nanoseconds
    /// `state.gridEpoch` when the caches were filled: a resize from inside a
    /// feed (DECCOLM) replaces the grids, whose slots and change stamps then
    /// start afresh. (A compaction renumbers ids in a page's cells, but a
    /// cached row keeps the tables it was copied with, which still name the
    /// same styles, links and clusters.)
    var cachedGridEpoch = 0

    /// A terminal with a blank screen.
    ///
    /// Sizes outside ``Limits`` are clamped to them, never a trap: a view
    /// laid out at zero gets a 1 × 1 terminal, one wider than 1,000 columns
    /// gets 1,000 (``Limits/dimensions``), and the scrollback is kept within
    /// 0…``Limits/maxScrollback``.
    /// - Parameters:
    ///   - columns: 1…1000.
    ///   - rows: 1…1000.
    ///   - scrollback: lines of history kept for the primary screen.
    public init(columns: Int = 80, rows: Int = 24, scrollback: Int = Limits.defaultScrollback) {
        state = TerminalState(
            columns: Self.clamped(columns), rows: Self.clamped(rows),
            scrollback: min(max(scrollback, 0), Limits.maxScrollback))
    }

    /// A terminal whose grids keep `rowsPerPage` rows per page (a power of
    /// two): for tests that put page boundaries between every few rows.
    init(columns: Int, rows: Int, scrollback: Int, rowsPerPage: Int) {
        state = TerminalState(columns: columns, rows: rows, scrollback: scrollback, rowsPerPage: rowsPerPage)
    }

    // MARK: Feeding

    /// Processes output bytes from the program, then delivers the replies to
    /// ``writeBack`` and the events to ``onEvent`` (or queues them, see
    /// ``queuesReplies`` and ``queuesEvents``).
    /// - Complexity: O(n) in the number of bytes.
    public func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        // An empty feed changes nothing (it still delivers what is due).
        let changes = !bytes.isEmpty
        if changes { noteChange() }
        // What earlier feeds queued does not count against this feed's bounds.
        state.queuedReplyBytes = state.replies.count
        state.queuedEventCount = state.events.count
        let blocksBefore = state.synchronizedOutputBlocks
        parser.feed(bytes, into: &state)
        assert(state.invariantViolations().isEmpty, "after a feed: \(state.invariantViolations())")
        noteSynchronizedOutput(blocksBefore: blocksBefore)
        deliver()
        if changes { onChange?() }
    }

    /// Processes raw output bytes (a buffer from `read(2)`, `Data`'s
    /// `withUnsafeBytes`).
    public func feed(_ bytes: UnsafeRawBufferPointer) {
        bytes.withMemoryRebound(to: UInt8.self) { feed($0) }
    }

    /// Processes output bytes from any sequence: `[UInt8]`,
    /// `ArraySlice<UInt8>`, Foundation's `Data`… Contiguous storage is read in
    /// place; any other sequence is copied into an array first.
    public func feed(_ bytes: some Sequence<UInt8>) {
        // Through the buffer overload, whose parser loop is specialised here:
        // this generic entry point is not, when called from another module.
        let fed: Void? = bytes.withContiguousStorageIfAvailable { feed($0) }
        if fed == nil { Array(bytes).withUnsafeBufferPointer { feed($0) } }
    }

    // MARK: Side effects

    /// Receives the bytes the terminal answers queries with (DA, DSR, DECRQM,
    /// colour queries…), to be written to the program's input: once after
    /// each feed that produced any, with all of that feed's replies in order.
    /// With no receiver (and ``queuesReplies`` off), queries go unanswered
    /// and nothing is collected.
    public var writeBack: (([UInt8]) -> Void)? {
        didSet { updateListeners() }
    }

    /// Receives ``TerminalEvent``s (bell, title, notifications, clipboard…),
    /// one call per event, in order, after each feed.
    public var onEvent: ((TerminalEvent) -> Void)? {
        didSet { updateListeners() }
    }

    /// Keeps replies for ``drainReplies()`` instead of calling ``writeBack``:
    /// for an owner that must write them in order with its own input (an
    /// actor, which would otherwise hop out of a closure through a `Task` and
    /// could send a reply after a key typed later). Off by default.
    ///
    /// The drained bytes are those ``writeBack`` would have received, in the
    /// same order, its calls joined. Each feed keeps its bound
    /// (64 KiB of replies, `counters.droppedReplies`), and the queue holds at
    /// most what one feed may produce: past 64 KiB not yet drained, further
    /// replies are dropped whole and counted in `counters.droppedQueuedReplies`
    /// (the oldest are kept, as a program reads its answers in order). An
    /// owner that drains after every feed loses nothing a closure would get.
    /// Replies still queued when it is turned off go to ``writeBack`` after
    /// the next feed.
    public var queuesReplies = false {
        didSet { updateListeners() }
    }

    /// Keeps events for ``drainEvents()`` instead of calling ``onEvent``.
    /// Off by default. As with ``queuesReplies``: the same events in the
    /// same order, each feed bounded (1,024, `counters.droppedEvents`), and
    /// at most 1,024 waiting to be drained, later ones dropped and counted
    /// in `counters.droppedQueuedEvents` (the state they report, such as the
    /// title, can still be read from the terminal).
    public var queuesEvents = false {
        didSet { updateListeners() }
    }

    /// The replies queued since the last drain (``queuesReplies``), in order,
    /// and empties the queue: write them to the program. Empty when nothing
    /// is queued.
    /// - Complexity: O(1): the queue's storage is handed over.
    public func drainReplies() -> [UInt8] {
        var drained: [UInt8] = []
        swap(&drained, &state.replies)
        return drained
    }

    /// The events queued since the last drain (``queuesEvents``), in order,
    /// and empties the queue.
    /// - Complexity: O(1): the queue's storage is handed over.
    public func drainEvents() -> [TerminalEvent] {
        var drained: [TerminalEvent] = []
        swap(&drained, &state.events)
        return drained
    }

    /// Collect replies and events only when someone takes them.
    private func updateListeners() {
        state.wantsReplies = writeBack != nil || queuesReplies
        state.wantsEvents = onEvent != nil || queuesEvents
    }

    /// Whether OSC 52 clipboard reads are passed on as
    /// ``TerminalEvent/clipboardReadRequest(selection:)``. Off by default:
    /// reading the clipboard lets any program that can print (a `cat` of a
    /// hostile file) steal it.
    public var allowsClipboardRead: Bool {
        get { state.allowsClipboardRead }
        set { state.allowsClipboardRead = newValue }
    }

    /// Whether ``resize(columns:rows:)`` (and DECCOLM) reflows the primary
    /// screen. On, the default (as kitty, alacritty and Ghostty resize):
    /// soft-wrapped lines re-wrap at the new width and the cursor stays on its
    /// character. Off (as a terminal without reflow, such as libvterm without
    /// `vterm_screen_enable_reflow`): every row stays one row, cut at the new
    /// width or padded with blanks, and the cursor keeps its row with its
    /// column clamped to the screen. Either way lines go into the scrollback
    /// when rows shrink and come back when rows grow; the alternate screen is
    /// never reflowed. Kept across ``reset()``.
    public var reflowsOnResize: Bool {
        get { state.reflowsOnResize }
        set { state.reflowsOnResize = newValue }
    }

    /// Answers an OSC 52 read request with the clipboard's content: to
    /// ``writeBack`` at once, or, with ``queuesReplies``, after the replies
    /// already queued (the embedder's own answer, so not held to the queue's
    /// bound).
    public func answerClipboardRead(selection: String, data: [UInt8]) {
        guard writeBack != nil || queuesReplies else { return }
        let encoded = Base64.encode(data)
        let answer = Array("\u{1B}]52;\(selection);\(encoded)\u{1B}\\".utf8)
        if queuesReplies {
            state.replies += answer
        } else {
            writeBack?(answer)
        }
    }

    /// The colours indexed and default colours resolve to. Programs may change
    /// them (OSC 4/10/11/12); the embedder sets its theme here.
    public var palette: Palette {
        get { state.palette }
        set {
            state.palette = newValue
            configuredPalette = newValue
            noteChange()
        }
    }

    /// The palette the embedder last set (what ``reset()`` returns to).
    var configuredPalette = Palette.xterm

    /// The pixel size of a cell, reported by XTWINOPS 14 and 16. Clamped to
    /// 1…``Limits/maxCellPixels`` (the window's size in pixels, reported
    /// too, is the cell's times up to 1,000 cells).
    public func setCellPixelSize(width: Int, height: Int) {
        state.cellPixelWidth = min(max(1, width), Limits.maxCellPixels)
        state.cellPixelHeight = min(max(1, height), Limits.maxCellPixels)
    }

    private func deliver() {
        if !queuesReplies, !state.replies.isEmpty {
            let replies = state.replies
            state.replies.removeAll(keepingCapacity: true)
            writeBack?(replies)
        }
        if !queuesEvents, !state.events.isEmpty {
            let events = state.events
            state.events.removeAll(keepingCapacity: true)
            for event in events { onEvent?(event) }
        }
    }

    /// Processes the UTF-8 of a string (convenient in tests and examples).
    public func feed(_ text: String) {
        var text = text
        text.withUTF8 { feed($0) }
    }

    /// Returns to the power-on state: blank screens, empty scrollback,
    /// default modes, styles and charsets; the size is kept. This is how a
    /// replay replaces what was shown before.
    public func reset() {
        noteChange()
        synchronizedOutputStart = nil
        primaryRowCache = []
        alternateRowCache = []
        // What the embedder configured survives: who listens, the clipboard
        // policy, its palette and cell size.
        let previous = state
        state = TerminalState(columns: columns, rows: rows, scrollback: previous.primary.scrollbackLimit)
        state.wantsReplies = previous.wantsReplies
        state.wantsEvents = previous.wantsEvents
        // Queued replies and events were produced before the reset, as a
        // closure would already have received them: still to be drained.
        state.replies = previous.replies
        state.events = previous.events
        state.allowsClipboardRead = previous.allowsClipboardRead
        state.reflowsOnResize = previous.reflowsOnResize
        state.palette = configuredPalette
        state.cellPixelWidth = previous.cellPixelWidth
        state.cellPixelHeight = previous.cellPixelHeight
        state.gridEpoch = previous.gridEpoch &+ 1  // new grids: no cached row stands
        state.continueLineNumbers(from: previous)
        parser = OutputParser()
    }

    /// Changes the size. The primary screen reflows: soft-wrapped lines
    /// re-wrap at the new width (wide characters are never split), lines go
    /// into the scrollback when rows shrink and come back when rows grow, and
    /// the cursor stays on its character. With ``reflowsOnResize`` off, rows
    /// are cut or padded instead and the cursor column is clamped. The
    /// alternate screen is cut or padded, not reflowed. Margins reset to the
    /// full screen.
    /// Sizes outside 1…1000 are clamped to it, as in ``init(columns:rows:scrollback:)``.
    /// - Complexity: O(cells in the scrollback and on the screen).
    public func resize(columns: Int, rows: Int) {
        let (columns, rows) = (Self.clamped(columns), Self.clamped(rows))
        noteChange()
        primaryRowCache = []
        alternateRowCache = []
        state.resize(columns: columns, rows: rows)
    }

    // MARK: Snapshots

    /// A snapshot holding the scrollback lines `viewport` shows, computed
    /// from the scrollback as it is in this same call: draw it with
    /// `viewport.lines(of:)`. One call, so behind a lock
    /// (``LockedTerminal/snapshot(viewport:)``) no feed can come between
    /// reading the scrollback's length and copying the lines.
    public func snapshot(viewport: Viewport) -> Snapshot {
        snapshot(scrollback: viewport.scrollbackRange(rows: rows, scrollbackCount: scrollbackCount))
    }

    /// An immutable, `Sendable` picture of the screen for drawing on another
    /// thread, with the scrollback lines in `scrollback` (clamped to what
    /// exists) copied in as well.
    ///
    /// - Complexity: O(1) when nothing changed since the last snapshot with
    ///   the same scrollback range; otherwise O(rows) plus O(columns) for
    ///   each row that changed.
    public func snapshot(scrollback: Range<Int> = 0..<0) -> Snapshot {
        let history = state.primary.historyCount
        let range = min(scrollback.lowerBound, history)..<min(scrollback.upperBound, history)
        // The last one stands while nothing changed, unless a synchronized
        // update it was held by has timed out since.
        if !changedSinceSnapshot, let last = lastSnapshot, last.scrollbackRange == range,
            !last.isHoldingFrame || isHoldingFrame
        {
            return last
        }
        if cachedGridEpoch != state.gridEpoch {
            primaryRowCache = []
            alternateRowCache = []
            cachedGridEpoch = state.gridEpoch
        }
        let isAlternate = state.isAlternateScreen
        // Take the cache out (no copy-on-write copy), put it back below.
        var cache: [(row: SnapshotRow, generation: UInt32)?]
        if isAlternate {
            cache = alternateRowCache
            alternateRowCache = []
        } else {
            cache = primaryRowCache
            primaryRowCache = []
        }
        if cache.count != state.active.storage.slotCount {
            cache = [(row: SnapshotRow, generation: UInt32)?](repeating: nil, count: state.active.storage.slotCount)
        }
        // One copy of a page's tables for all the rows of it copied now.
        var pageTables: (page: Int, tables: SnapshotTables)?
        func tables(of grid: Grid, page: Int) -> SnapshotTables {
            if let (cachedPage, tables) = pageTables, cachedPage == page { return tables }
            let tables = SnapshotTables(grid.pages[page])
            pageTables = (page, tables)
            return tables
        }
        var screenRows: [SnapshotRow] = []
        screenRows.reserveCapacity(rows)
        for index in 0..<rows {
            let row = ScreenRow(index)
            let (slot, generation) = state.active.slotAndGeneration(row)
            if let cached = cache[slot], cached.generation == generation {
                screenRows.append(cached.row)
                continue
            }
            let copy = makeRow(
                state.active.readRow(row), flags: state.active.flags(row), mark: state.active.mark(row),
                tables: tables(of: state.active, page: state.active.page(ofSlot: slot)))
            cache[slot] = (copy, generation)
            screenRows.append(copy)
        }
        var scrollbackRows: [SnapshotRow] = []
        if !range.isEmpty {
            let primary = state.primary
            pageTables = nil
            scrollbackRows.reserveCapacity(range.count)
            for index in range {
                let line = ScrollbackLine(index)
                scrollbackRows.append(
                    makeRow(
                        UnsafePointer(primary.historyRow(line)), flags: primary.historyFlags(line),
                        mark: primary.historyMark(line),
                        tables: tables(of: primary, page: primary.page(ofHistoryLine: line))
                    ))
            }
        }
        // Writes after this point get a new stamp, so the cache sees them.
        state.active.advanceGeneration()
        if isAlternate { alternateRowCache = cache } else { primaryRowCache = cache }
        var snapshot = Snapshot(
            columns: columns, rows: rows, cursor: cursor, modes: state.modes, title: state.title,
            iconName: state.iconName, workingDirectory: state.workingDirectory, isAlternateScreen: isAlternate,
            palette: state.palette, scrollbackCount: history, scrollbackRange: range, generation: generation,
            isHoldingFrame: isHoldingFrame, screenRows: screenRows, scrollbackRows: scrollbackRows)
        snapshot.lineNumbers = lineNumbers
        lastSnapshot = snapshot
        changedSinceSnapshot = false
        return snapshot
    }

    /// A snapshot row of `columns` cells from a grid row: for snapshots and
    /// for ``screenLines(alternateScreen:)``.
    func makeRow(
        _ cells: UnsafePointer<Cell>, flags: RowFlags, mark: SemanticMark?, tables: SnapshotTables
    ) -> SnapshotRow {
        SnapshotRow(
            cells: Array(UnsafeBufferPointer(start: cells, count: columns)), isWrapped: flags.contains(.wrapped),
            size: LineSize(flags), mark: mark, tables: tables)
    }

    // MARK: Geometry and state

    /// Columns of the screen.
    public var columns: Int { state.columns }
    /// Rows of the screen.
    public var rows: Int { state.rows }
    /// True while the alternate screen (modes 47, 1047, 1049) is shown.
    public var isAlternateScreen: Bool { state.isAlternateScreen }
    /// The cursor in the active screen.
    public var cursor: CursorState {
        CursorState(
            position: ScreenPosition(row: state.cursor.row, column: state.cursor.col),
            pendingWrap: state.cursor.pendingWrap, isVisible: state.modes.cursorVisible)
    }
    /// DECSCNM (?5): the whole screen is shown with foreground and background
    /// swapped, on top of each cell's own inverse attribute.
    public var isReverseVideo: Bool { state.modes.reverseVideo }
    /// Every mode a front end needs: mouse reporting, keys, paste, cursor style…
    public var modes: TerminalModes { state.modes }
    /// The working directory the shell reported (OSC 7), sanitized, or nil.
    public var workingDirectory: String? { state.workingDirectory }
    /// The OSC 133 mark of a screen row, if any (nil outside the screen).
    public func semanticMark(row: Int) -> SemanticMark? {
        isOnScreen(row: row) ? state.active.mark(ScreenRow(row)) : nil
    }
    /// The OSC 133 mark of a scrollback line, if any (nil for a line that does not exist).
    public func semanticMark(line: ScrollbackLine) -> SemanticMark? {
        isInScrollback(line) ? state.primary.historyMark(line) : nil
    }
    /// The window title (OSC 0/2) as received, or nil when none was set.
    public var title: String? { state.title }
    /// The icon name (OSC 0/1), or nil.
    public var iconName: String? { state.iconName }
    /// Counters of ignored and dropped input in the terminal.
    public var counters: Counters {
        // Compactions happen in the grids' pages; those of grids a resize
        // replaced are in `state.counters` already.
        var counters = state.counters
        state.active.addCompactions(to: &counters)
        state.inactive.addCompactions(to: &counters)
        return counters
    }
    /// Lines in the primary screen's scrollback.
    public var scrollbackCount: Int { state.primary.historyCount }
    /// The style table entries the pages of both screens hold, besides each
    /// page's default style: a style used in several pages counts once in
    /// each (cells name styles by ids local to their page).
    /// - Complexity: O(pages).
    public var styleCount: Int {
        (state.active.pages + state.inactive.pages).reduce(0) { $0 + $1.styles.count - 1 }
    }

    // MARK: Cells

    /// The cell at a position of the active screen; a position outside the
    /// screen reads as an empty cell.
    public func cell(at position: ScreenPosition) -> CellContent {
        guard isOnScreen(row: position.row), (0..<columns).contains(position.column) else { return .empty }
        return content(
            of: state.active.readRow(ScreenRow(position.row))[position.column],
            tables: state.active.tables(ofScreenRow: ScreenRow(position.row)))
    }

    /// The cells of scrollback line `line`; a line or column that does not
    /// exist reads as an empty cell.
    public func scrollbackCell(line: ScrollbackLine, column: Int) -> CellContent {
        guard isInScrollback(line), (0..<columns).contains(column) else { return .empty }
        return content(
            of: state.primary.historyRow(line)[column], tables: state.primary.tables(ofHistoryLine: line))
    }

    /// What `cell` holds, with `tables` those of its page.
    func content(of cell: Cell, tables: PageTables) -> CellContent {
        CellContent(cell, style: tables.style(of: cell), hyperlink: tables.link(of: cell)) { tables.clusters[$0] }
    }

    // MARK: Text

    /// The text of a row of the active screen: one character per cell, a
    /// blank cell as a space, a wide character once, trailing spaces trimmed;
    /// "" for a row outside the screen.
    public func screenLine(_ row: Int) -> String {
        guard isOnScreen(row: row) else { return "" }
        let screenRow = ScreenRow(row)
        return text(of: state.active.readRow(screenRow), tables: state.active.tables(ofScreenRow: screenRow))
    }

    /// The text of scrollback line `line` (0 is the oldest), trimmed; "" for
    /// a line that does not exist.
    public func scrollbackLine(_ line: ScrollbackLine) -> String {
        guard isInScrollback(line) else { return "" }
        return text(
            of: UnsafePointer(state.primary.historyRow(line)), tables: state.primary.tables(ofHistoryLine: line))
    }

    /// The size attribute of a screen row (DECSWL, DECDWL, DECDHL);
    /// `.single` for a row outside the screen.
    public func lineSize(row: Int) -> LineSize {
        isOnScreen(row: row) ? LineSize(state.active.flags(ScreenRow(row))) : .single
    }

    /// True when screen row `row` continues on the next row (soft wrap);
    /// false for a row outside the screen.
    public func isWrapped(row: Int) -> Bool {
        isOnScreen(row: row) && state.active.flags(ScreenRow(row)).contains(.wrapped)
    }

    /// True when scrollback line `line` continues on the next line (soft
    /// wrap); false for a line that does not exist.
    public func isWrapped(line: ScrollbackLine) -> Bool {
        isInScrollback(line) && state.primary.historyFlags(line).contains(.wrapped)
    }

    // Positions an embedder passes are checked here, so that none reaches
    // the grid's unchecked storage: a position outside gives the documented
    // empty answer, never a trap (issue #19).

    /// `value` within ``Limits/dimensions``.
    static func clamped(_ value: Int) -> Int {
        min(max(value, Limits.dimensions.lowerBound), Limits.dimensions.upperBound)
    }

    func isOnScreen(row: Int) -> Bool { (0..<rows).contains(row) }

    func isInScrollback(_ line: ScrollbackLine) -> Bool { (0..<scrollbackCount).contains(line.index) }

    func text(of row: UnsafePointer<Cell>, tables: PageTables) -> String {
        var text = RowText(capacity: columns)
        for col in 0..<columns { appendText(of: row[col], tables: tables, to: &text) }
        return text.droppingTrailingSpaces()
    }
}

/// A position on the active screen (0-based), as opposed to a scrollback line.
public struct ScreenPosition: Hashable, Sendable {
    /// The row, 0 at the top of the screen.
    public var row: Int
    /// The column, 0 at the left edge.
    public var column: Int
    /// The cell at `row` and `column`, both counted from 0.
    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }
}

/// A line of the scrollback, 0 being the oldest kept.
public struct ScrollbackLine: Hashable, Sendable {
    /// The line's place in the scrollback, 0 for the oldest kept and
    /// `scrollbackCount - 1` for the newest. Once the scrollback is full, each
    /// new line drops the oldest and every index then names the next line: for
    /// a position that stays with its text, see ``StablePoint``.
    public var index: Int
    /// The scrollback line at `index` (0 is the oldest kept).
    public init(_ index: Int) { self.index = index }
}

/// How a row is drawn (DEC line attributes).
public enum LineSize: Equatable, Sendable {
    /// Normal size (DECSWL).
    case single
    /// Double width (DECDWL): each cell twice as wide, half the columns usable.
    case doubleWidth
    /// The top half of double-height, double-width text (DECDHL).
    case doubleHeightTop
    /// The bottom half of double-height, double-width text (DECDHL).
    case doubleHeightBottom

    /// The size a row's flags give it: the one place that reads the size
    /// bits (for ``Terminal/lineSize(row:)`` and snapshot rows). DECDHL's
    /// halves win over DECDWL if a row had both.
    init(_ flags: RowFlags) {
        if flags.contains(.doubleHeightTop) {
            self = .doubleHeightTop
        } else if flags.contains(.doubleHeightBottom) {
            self = .doubleHeightBottom
        } else if flags.contains(.doubleWidth) {
            self = .doubleWidth
        } else {
            self = .single
        }
    }
}

/// The cursor as a front end sees it.
public struct CursorState: Equatable, Sendable {
    /// Where the next character goes.
    public var position: ScreenPosition
    /// True when the last character went into the last column and the next
    /// one will wrap first; `position.column` is then the last column.
    public var pendingWrap: Bool
    /// DECTCEM.
    public var isVisible: Bool
}

/// What a cell holds, resolved from the side tables.
public struct CellContent: Equatable, Sendable {
    /// The character's scalars: empty for a blank or the right half of a wide
    /// character; a base and its combining marks for a cluster.
    public var scalars: [Unicode.Scalar]
    /// The cell's role in wide-character layout.
    public var width: Cell.Width
    /// The cell's rendition.
    public var style: Style
    /// Protection (DECSCA, SPA/EPA).
    public var isProtected: Bool
    /// The OSC 8 link the cell belongs to, if any.
    public var hyperlink: Hyperlink?

    /// The character as a string ("" for a blank).
    public var text: String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}

extension CellContent {
    /// What `cell` holds, given its `style` and `hyperlink` and, for a
    /// cluster, its page's `cluster` lookup: the one place a stored cell
    /// becomes content, for the terminal's pages and for snapshot rows
    /// (whose tables are copies). Inlined, with its `cluster` closure, and
    /// built by the memberwise initializer: out of line it cost about 90
    /// more instructions a cell read from a snapshot, and assigning the
    /// fields one by one a copy and a destroy of the content (callgrind,
    /// `termengine thumbnail` at 80×24, the 1,920 cells: 0.34M, then
    /// 0.24M, now 0.19M instructions; 0.17M before this init).
    @inline(__always)
    init(_ cell: Cell, style: Style, hyperlink: Hyperlink?, cluster: (UInt32) -> ClusterScalars) {
        let scalars: [Unicode.Scalar]
        if cell.isCluster {
            scalars = cluster(cell.value).compactMap(Unicode.Scalar.init)
        } else if !cell.isBlank, let scalar = Unicode.Scalar(cell.value) {
            scalars = [scalar]
        } else {
            scalars = []
        }
        self.init(
            scalars: scalars, width: cell.width, style: style, isProtected: cell.isProtected, hyperlink: hyperlink)
    }
}
