#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Per-row metadata.
struct RowFlags: OptionSet {
    let rawValue: UInt8
    /// The row's text continues on the next row (it was soft-wrapped by
    /// autowrap), so text extraction and reflow join them.
    static let wrapped = RowFlags(rawValue: 1 << 0)
    /// DECDWL: each character is shown twice as wide; only the left half of
    /// the columns can hold characters.
    static let doubleWidth = RowFlags(rawValue: 1 << 1)
    /// DECDHL top half (also double width).
    static let doubleHeightTop = RowFlags(rawValue: 1 << 2)
    /// DECDHL bottom half (also double width).
    static let doubleHeightBottom = RowFlags(rawValue: 1 << 3)
    /// Any of the double-size attributes.
    static let doubleSize: RowFlags = [.doubleWidth, .doubleHeightTop, .doubleHeightBottom]
}

/// The memory behind a grid: one allocation of cells for every row slot, the
/// row flags, and the ring that maps line positions to slots.
///
/// An all-zero cell is the empty cell, so cells start zeroed: on Linux, a grid
/// of ``mappingThreshold`` bytes or more gets a mapping of its own (see
/// ``mapCells(byteCount:)``), where slots never written (most of a fresh
/// scrollback) are zero pages the kernel has not yet backed with memory;
/// other grids come from `calloc`.
final class GridStorage {
    let columns: Int
    let slotCount: Int
    let cells: UnsafeMutablePointer<Cell>
    let flags: UnsafeMutablePointer<RowFlags>
    /// Line position → slot. Scrolling a region permutes this, never the cells.
    let ring: UnsafeMutablePointer<Int32>
    /// Per slot: the grid's change counter when the row was last written, so
    /// a snapshot can reuse its copy of a row nobody touched.
    let generations: UnsafeMutablePointer<UInt32>
    /// Per slot: the OSC 133 shell-integration mark of the row, packed in a
    /// word (``SemanticMark/packed``; 0 = none).
    let marks: UnsafeMutablePointer<UInt64>
    /// Per slot: the cells from this column on are empty, but may still
    /// hold what an older line left there; `columns` when no cell is stale.
    /// Plain scrolling leaves rows so (`Grid.writeLinesAtBottom`): it stores
    /// a line's cells and moves on, and the grid zeroes the stale cells only
    /// when it hands the row out (`Grid.row(_:)`, `rowAndFlags(_:)`,
    /// `readRow(_:)`, `historyRow(_:)`), which most lines of a long replay
    /// never are before their slot is reused.
    let staleFrom: UnsafeMutablePointer<UInt16>
    /// Per slot: the tables its cells name, as an index of `Grid.pages`: its
    /// page × 2 + its era, 0 or 1 (Grid+Pages.swift, "Eras"). Kept whole, not
    /// as the era's bit, so that a write finds its tables with one load.
    let tableSets: UnsafeMutablePointer<UInt16>
    /// Per page: the era a slot of the page joins when its line is replaced.
    let currentEras: UnsafeMutablePointer<UInt8>
    /// Per page: its slots still in the other era, the old one.
    let oldEraSlots: UnsafeMutablePointer<Int32>
    /// Per page: its slots (all but the last page's are `1 << pageShift`).
    let pageSlots: UnsafeMutablePointer<Int32>

    /// The length of the cells' own mapping (Linux, grids of
    /// ``mappingThreshold`` bytes or more), 0 when they came from `calloc`.
    let mappedLength: Int

    /// Storage for `slotCount` rows of `columns` cells, in pages of
    /// `1 << pageShift` slots, every slot in era 0.
    init(columns: Int, slotCount: Int, pageShift: Int) {
        self.columns = columns
        self.slotCount = slotCount
        let byteCount = columns * slotCount * MemoryLayout<Cell>.stride
        var mapping: (start: UnsafeMutableRawPointer, length: Int)?
        #if os(Linux)
            if byteCount >= Self.mappingThreshold { mapping = Self.mapCells(byteCount: byteCount) }
        #endif
        guard let cellMemory = mapping?.start ?? calloc(columns * slotCount, MemoryLayout<Cell>.stride),
            let flagMemory = calloc(slotCount, MemoryLayout<RowFlags>.stride)
        else { fatalError("TermEngine: out of memory allocating a \(columns)×\(slotCount) grid") }
        mappedLength = mapping?.length ?? 0
        cells = cellMemory.bindMemory(to: Cell.self, capacity: columns * slotCount)
        flags = flagMemory.bindMemory(to: RowFlags.self, capacity: slotCount)
        ring = .allocate(capacity: slotCount)
        for slot in 0..<slotCount { ring[slot] = Int32(slot) }
        generations = .allocate(capacity: slotCount)
        generations.initialize(repeating: 0, count: slotCount)
        marks = .allocate(capacity: slotCount)
        marks.initialize(repeating: 0, count: slotCount)
        // `Terminal` keeps columns within 1…1000.
        staleFrom = .allocate(capacity: slotCount)
        staleFrom.initialize(repeating: UInt16(columns), count: slotCount)
        let pageCount = (slotCount + (1 << pageShift) - 1) >> pageShift
        precondition(2 * pageCount <= Int(UInt16.max) + 1, "\(pageCount) pages of tables: more than 16-bit indexes")
        tableSets = .allocate(capacity: slotCount)
        currentEras = .allocate(capacity: pageCount)
        currentEras.initialize(repeating: 0, count: pageCount)
        oldEraSlots = .allocate(capacity: pageCount)
        oldEraSlots.initialize(repeating: 0, count: pageCount)
        pageSlots = .allocate(capacity: pageCount)
        for page in 0..<pageCount {
            let first = page << pageShift
            let count = min(slotCount - first, 1 << pageShift)
            pageSlots[page] = Int32(count)
            (tableSets + first).initialize(repeating: UInt16(truncatingIfNeeded: page << 1), count: count)
        }
    }

    /// The size of a transparent huge page on x86-64 and arm64 Linux with
    /// 4 KiB base pages.
    static let hugePageSize: UInt = 2 << 20

    /// Grids of at least this many bytes of cells get a mapping of their own
    /// on Linux (two huge pages: 10,000 lines of scrollback at 80 columns are
    /// 6.4 MB).
    static let mappingThreshold = 2 * Int(hugePageSize)

    #if os(Linux)
        /// Maps `byteCount` bytes of cells, zeroed by the kernel and backed
        /// only as rows are first written, starting on a huge-page boundary,
        /// and advises every whole huge page but the first `MADV_HUGEPAGE`.
        /// Returns nil when the kernel refuses (the caller falls back to
        /// `calloc`).
        ///
        /// Why a mapping rather than `calloc`: glibc maps a large block
        /// afresh only until freeing one raises its threshold; after that it
        /// serves grids from its heap and clears them, so a new terminal with
        /// 10,000 lines of scrollback was resident in full (6.4 MB at 80
        /// columns) before it printed anything, and the freed grid's memory
        /// stayed with the process. A grid's own mapping is always backed
        /// lazily and returned whole by `munmap`.
        ///
        /// Why huge pages, past the first: the kernel backs each with one
        /// fault and one zeroed 2 MiB page instead of 512 faults of 4 KiB. A
        /// fresh terminal filling 10,000 lines of scrollback at 80 columns
        /// otherwise takes about 1,600 page faults inside its first feed;
        /// advising the whole huge pages inside a `calloc` block took the 16 MiB
        /// scrolling corpus from 688 to 739 MiB/s as `termbench run` measures
        /// it (a fresh grid, a warm-up and a timed feed per process; median of
        /// 8 processes alternating with the build before), ls_lR from 715 to
        /// 797, scrolling at 200×50 from 710 to 760. The first huge page stays
        /// in 4 KiB pages so that a terminal holds no huge page before it has
        /// written 2 MiB of rows (3,276 at 80 columns): the screen of an idle
        /// session costs kilobytes, not 2 MiB. After that a grid may hold up
        /// to 2 MiB more resident memory than the rows it has written, and with
        /// `defrag` at `madvise` (the kernel's default) such a fault may
        /// compact memory first, a latency spike where memory is fragmented.
        static func mapCells(byteCount: Int) -> (start: UnsafeMutableRawPointer, length: Int)? {
            let page = sysconf(Int32(_SC_PAGESIZE))
            guard page > 0, byteCount > 0 else { return nil }
            let length = (byteCount + page - 1) / page * page
            let slack = Int(hugePageSize)
            // Over-map by a huge page, then give back what lies before the
            // first boundary and after the cells.
            guard let raw = mmap(nil, length + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                raw != UnsafeMutableRawPointer(bitPattern: -1)
            else { return nil }
            let start = (UInt(bitPattern: raw) + hugePageSize - 1) & ~(hugePageSize - 1)
            let head = Int(start - UInt(bitPattern: raw))
            if head > 0 { munmap(raw, head) }
            if slack - head > 0 { munmap(UnsafeMutableRawPointer(bitPattern: start + UInt(length)), slack - head) }
            if let range = hugePageRange(start: start + hugePageSize, byteCount: length - slack) {
                // Advice only: without transparent huge pages (compiled out,
                // or `enabled` set to `never`) nothing changes.
                _ = madvise(UnsafeMutableRawPointer(bitPattern: range.lowerBound), Int(range.count), MADV_HUGEPAGE)
            }
            guard let cells = UnsafeMutableRawPointer(bitPattern: start) else { return nil }
            return (cells, length)
        }
    #endif

    /// The addresses from `start` to `start + byteCount` that whole huge pages
    /// cover, nil when none does.
    static func hugePageRange(start: UInt, byteCount: Int) -> Range<UInt>? {
        let mask = hugePageSize - 1
        let first = (start + mask) & ~mask
        let end = (start + UInt(byteCount)) & ~mask
        return end > first ? first..<end : nil
    }

    deinit {
        if mappedLength > 0 { munmap(cells, mappedLength) } else { free(cells) }
        free(flags)
        ring.deallocate()
        generations.deallocate()
        marks.deallocate()
        staleFrom.deallocate()
        tableSets.deallocate()
        currentEras.deallocate()
        oldEraSlots.deallocate()
        pageSlots.deallocate()
    }
}

/// A screen's rows plus its scrollback, stored as one ring of row slots.
///
/// Line positions run from the oldest scrollback line to the bottom screen
/// row. Scrolling the whole screen up advances `zero` (alacritty's
/// `grid/storage.rs` rotation): the top row becomes the newest scrollback line
/// and the oldest line's slot, once the scrollback is full, is reused as the
/// new bottom row, so no row is ever copied. Scrolling a sub-region rotates the
/// region's entries of the ring: O(rows) integer moves, never O(cells).
struct Grid {
    private(set) var storage: GridStorage
    let columns: Int
    let rows: Int
    /// The most scrollback lines kept; 0 for the alternate screen.
    let scrollbackLimit: Int
    /// Ring position of the oldest stored line.
    private(set) var zero = 0
    /// Lines currently in the scrollback.
    private(set) var historyCount = 0
    /// Lines that left this grid for good: dropped from a full scrollback
    /// (or scrolled off a grid that keeps none) and cleared with it (ED 3).
    /// `evictedCount + buffer line` numbers a line for as long as it exists
    /// (Navigation/LineNumbering.swift); the terminal sets it when it
    /// replaces a grid (a resize, a reset).
    var evictedCount = 0
    /// Counts changes: stamped on every row written (see `GridStorage.generations`).
    private(set) var generation: UInt32 = 1
    /// The screen row `rowAndFlags(_:)` handed out last and its slot, -1 for
    /// none: while the row shows the same line, with no stale cell and
    /// stamped in this generation, asking for it again needs neither the
    /// ring nor the stale mark. Text between SGRs, or in short runs between
    /// other scripts, asks for the cursor's row once a run: perf put a fifth
    /// of `printASCII`'s samples of unicode_mixed on those two loads, one
    /// waiting on the other. Forgotten by everything that moves lines
    /// between rows, leaves cells stale or starts a generation
    /// (`forgetHandedOutRow()`); debug builds check each use.
    private var handedOutRow = (row: -1, slot: 0)
    /// False until a row of this grid is made double width or height (rare:
    /// DECDWL, DECDHL): until then every row's last column is the screen's,
    /// with no lookup of the row's flags.
    private(set) var mayHoldDoubleSizeRows = false
    /// Slot `s` belongs to page `s >> pageShift` (Grid+Pages.swift).
    let pageShift: Int
    /// The tables cells' ids name: two per page, one per era, at
    /// `page << 1 | era` (the index `page(ofSlot:)` gives, and what the rest
    /// of the grid calls a page's tables). All start as one shared empty set
    /// of tables, copied for a page's era when it first interns.
    var pages: [PageTables]
    /// Compactions of any page's tables so far, and of each kind of table.
    var compactionCount = 0
    /// The page whose ids the terminal's pen names (its style, link and
    /// erase keys), or -1: set by the terminal when it binds the pen
    /// (`TerminalState.rebindPen(toPage:)`), cleared by every compaction,
    /// which may renumber them. Kept here so that a write checks its binding
    /// with one comparison.
    var penPage = -1
    var styleCompactions = 0
    var linkCompactions = 0
    var clusterCompactions = 0
    /// Eras whose tables were reset when their last slot left (`renewEra(slot:)`).
    var tableResets = 0
    /// Link tables emptied by those resets: until one is, no table has a
    /// buffer of link bytes it does not need (`lendKeyBuffer`).
    var linkTablesEmptied = 0
    /// The table after the last one `lendKeyBuffer` looked at: its searches
    /// take turns over the tables.
    var lenderSearchStart = 0
    /// Cells compactions have visited: the work they did (tests check it
    /// stays linear in the input).
    var compactionCellVisits = 0
    /// The last blank `blank(_:page:)` interned, with its page and the
    /// compactions then.
    var lastBlank: (style: Style, page: Int, compactions: Int, cell: Cell)?
    /// The ids the links of one page were given in another by the copies
    /// between them (`translatedLink`).
    var linkTranslation = LinkTranslation()
    /// Links a copy between pages looked up by their bytes (tests check
    /// that each is looked up once, not once a copy).
    var linkTranslationLookups = 0

    /// A grid of `rows` screen rows and up to `scrollbackLimit` lines of
    /// scrollback, in pages of `rowsPerPage` slots (a power of two; by
    /// default ``rowsPerPage(columns:)``, which tests lower to put page
    /// boundaries everywhere).
    init(columns: Int, rows: Int, scrollbackLimit: Int, rowsPerPage: Int? = nil) {
        self.columns = columns
        self.rows = rows
        self.scrollbackLimit = scrollbackLimit
        let slotCount = rows + scrollbackLimit
        let perPage = rowsPerPage ?? Self.rowsPerPage(columns: columns)
        precondition(perPage > 0 && perPage & (perPage - 1) == 0, "rows per page must be a power of two")
        pageShift = perPage.trailingZeroBitCount
        storage = GridStorage(columns: columns, slotCount: slotCount, pageShift: pageShift)
        pages = Array(
            repeating: PageTables(cells: perPage * columns), count: 2 * ((slotCount + perPage - 1) >> pageShift))
    }

    // Positions, slots and slot × columns are bounded by the grid's size
    // (`GridStorage` allocated slot × columns cells), so the arithmetic on
    // them below cannot overflow: wrapping operators skip the checks on the
    // paths every printed run takes.

    //
    // Every position comes from a screen row in 0..<rows or a scrollback
    // line in 0..<historyCount (the terminal keeps its cursors, margins and
    // regions on the screen: `TerminalState.invariantViolations()`); debug
    // builds check both here, where an unchecked pointer would follow.
    @inline(__always)
    private func slot(atPosition position: Int) -> Int {
        assert(position >= 0 && position < 2 * storage.slotCount, "ring position \(position) out of range")
        let wrapped = position >= storage.slotCount ? position &- storage.slotCount : position
        return Int(storage.ring[wrapped])
    }

    @inline(__always)
    private func ringIndex(screenRow row: Int) -> Int {
        let position = zero &+ historyCount &+ row
        return position >= storage.slotCount ? position &- storage.slotCount : position
    }

    /// Zeroes the stale cells of `slot`, if any (see `GridStorage.staleFrom`):
    /// every accessor of a row's cells calls it first, a read that may
    /// write, which the terminal's single owner makes safe.
    @inline(__always)
    func clearStaleCells(slot: Int) {
        let staleFrom = Int(storage.staleFrom[slot])
        guard staleFrom != columns else { return }
        memset(storage.cells + (slot &* columns &+ staleFrom), 0, (columns &- staleFrom) &* MemoryLayout<Cell>.stride)
        storage.staleFrom[slot] = UInt16(truncatingIfNeeded: columns)
    }

    /// The slot of scrollback line `line`. Scrollback lines and screen rows
    /// are counted apart (lines from the oldest, rows from the top), so the
    /// scrollback's functions take a ``ScrollbackLine``, never a bare `Int`:
    /// one cannot be passed for the other.
    func historySlot(_ line: ScrollbackLine) -> Int {
        assert(line.index >= 0 && line.index < historyCount, "scrollback line \(line.index) of \(historyCount)")
        return slot(atPosition: zero + line.index)
    }

    /// The cells of screen row `row` (0 = top), `columns` long, for writing:
    /// the row is stamped as changed, its stale cells zeroed first.
    @inline(__always)
    func row(_ row: ScreenRow) -> UnsafeMutablePointer<Cell> {
        let slot = screenSlot(row)
        clearStaleCells(slot: slot)
        storage.generations[slot] = generation
        return storage.cells + slot &* columns
    }

    /// The cells of screen row `row` for writing (stamped as changed), its
    /// flags and its page, with one ring lookup: what printing needs per run.
    /// The flags and the page are read afresh each time: only the slot is
    /// remembered (`handedOutRow`).
    @inline(__always)
    mutating func rowAndFlags(_ row: ScreenRow) -> (cells: UnsafeMutablePointer<Cell>, flags: RowFlags, page: Int) {
        let slot: Int
        if handedOutRow.row == row.index {
            slot = handedOutRow.slot
            assert(handedOutRowIsCurrent, "screen row \(row.index) handed out again after it changed")
        } else {
            slot = screenSlot(row)
            clearStaleCells(slot: slot)
            storage.generations[slot] = generation
            handedOutRow = (row.index, slot)
        }
        return (storage.cells + slot &* columns, storage.flags[slot], page(ofSlot: slot))
    }

    /// True unless the row `rowAndFlags(_:)` remembers no longer shows the
    /// line it did, has stale cells or was stamped in an older generation:
    /// what the terminal's invariants check after every feed in debug builds.
    var handedOutRowIsCurrent: Bool {
        let (row, slot) = handedOutRow
        guard row >= 0 else { return true }
        return row < rows && slot == screenSlot(ScreenRow(row)) && Int(storage.staleFrom[slot]) == columns
            && storage.generations[slot] == generation
    }

    /// Forgets the row `rowAndFlags(_:)` handed out last: lines moved between
    /// rows (a scroll, a rotation, the scrollback's start moved), cells left
    /// stale, or a new generation.
    @inline(__always)
    mutating func forgetHandedOutRow() { handedOutRow.row = -1 }

    /// The cells of screen row `row`, for reading only (its stale cells
    /// zeroed first, `clearStaleCells(slot:)`).
    @inline(__always)
    func readRow(_ row: ScreenRow) -> UnsafePointer<Cell> {
        let slot = screenSlot(row)
        clearStaleCells(slot: slot)
        return UnsafePointer(storage.cells + slot &* columns)
    }

    /// The slot behind screen row `row`.
    @inline(__always)
    func screenSlot(_ row: ScreenRow) -> Int {
        assert(row.index >= 0 && row.index < rows, "screen row \(row.index) of \(rows)")
        return slot(atPosition: zero &+ historyCount &+ row.index)
    }

    /// The slot behind screen row `row` and its change stamp.
    func slotAndGeneration(_ row: ScreenRow) -> (slot: Int, generation: UInt32) {
        let slot = screenSlot(row)
        return (slot, storage.generations[slot])
    }

    /// Starts a new change epoch (after a snapshot copied the rows).
    mutating func advanceGeneration() {
        generation &+= 1
        forgetHandedOutRow()
    }

    /// The OSC 133 mark of screen row `row`.
    func mark(_ row: ScreenRow) -> SemanticMark? { SemanticMark(packed: storage.marks[screenSlot(row)]) }

    func setMark(_ row: ScreenRow, _ mark: SemanticMark?) {
        let slot = screenSlot(row)
        storage.marks[slot] = mark?.packed ?? 0
        storage.generations[slot] = generation
    }

    /// The OSC 133 mark of scrollback line `line`.
    func historyMark(_ line: ScrollbackLine) -> SemanticMark? { SemanticMark(packed: storage.marks[historySlot(line)]) }

    /// The cells of scrollback line `line` (0 = oldest), for reading and
    /// table compaction, with any stale cells zeroed first: a read that
    /// writes, which the terminal's single owner makes safe.
    func historyRow(_ line: ScrollbackLine) -> UnsafeMutablePointer<Cell> {
        let slot = historySlot(line)
        clearStaleCells(slot: slot)
        return storage.cells + slot * columns
    }

    /// The flags of screen row `row`.
    @inline(__always)
    func flags(_ row: ScreenRow) -> RowFlags { storage.flags[screenSlot(row)] }

    @inline(__always)
    mutating func setFlags(_ row: ScreenRow, _ flags: RowFlags) {
        if !flags.isDisjoint(with: .doubleSize) { mayHoldDoubleSizeRows = true }
        let slot = screenSlot(row)
        storage.flags[slot] = flags
        storage.generations[slot] = generation
    }

    /// Removes `flags` from screen row `row`'s.
    @inline(__always)
    mutating func removeFlags(_ flags: RowFlags, from row: ScreenRow) {
        setFlags(row, self.flags(row).subtracting(flags))
    }

    /// Adds `flags` to screen row `row`'s.
    @inline(__always)
    mutating func insertFlags(_ flags: RowFlags, into row: ScreenRow) {
        setFlags(row, self.flags(row).union(flags))
    }

    /// The flags of scrollback line `line`.
    func historyFlags(_ line: ScrollbackLine) -> RowFlags { storage.flags[historySlot(line)] }

    /// Fills screen row `row` with `fill` and clears its flags.
    @inline(__always)
    mutating func clearRow(_ row: ScreenRow, with fill: BlankFill) {
        let slot = screenSlot(row)
        // Taken first: a mutating call in the arguments of a call on the
        // grid copies the grid (`lineFeed()`).
        let cell = blank(fill, page: page(ofSlot: slot))
        clearSlot(slot, with: cell)
    }

    /// Fills screen row `row` with `cell`, which names no table entry (a
    /// `BlankFill`'s shared cell), and clears its flags.
    @inline(__always)
    mutating func clearRow(_ row: ScreenRow, withShared cell: Cell) {
        clearSlot(screenSlot(row), with: cell)
    }

    @inline(__always)
    private mutating func clearSlot(_ slot: Int, with cell: Cell) {
        Self.fill(storage.cells + slot * columns, with: cell, count: columns)
        storage.staleFrom[slot] = UInt16(truncatingIfNeeded: columns)
        resetRowMetadata(slot: slot)
    }

    /// The row in `slot` as clearing leaves it, but for its cells: no flags,
    /// no mark, stamped as changed.
    @inline(__always)
    private func resetRowMetadata(slot: Int) {
        storage.flags[slot] = []
        storage.marks[slot] = 0
        storage.generations[slot] = generation
    }

    /// Fills cells: `memset` for the empty cell (all zero bits), else
    /// 64-bit stores.
    @inline(__always)
    static func fill(_ cells: UnsafeMutablePointer<Cell>, with cell: Cell, count: Int) {
        if cell == .empty {
            memset(cells, 0, count * MemoryLayout<Cell>.stride)
        } else {
            let word = unsafeBitCast(cell, to: UInt64.self)
            let raw = UnsafeMutableRawPointer(cells)
            for index in 0..<count { raw.storeBytes(of: word, toByteOffset: index * 8, as: UInt64.self) }
        }
    }

    /// Scrolls rows `top...bottom` up by `count`; blank rows (`fill`) enter at
    /// the bottom. With `intoHistory`, when the region starts at the top row,
    /// the rows leaving it become scrollback lines (dropped at once when the
    /// grid keeps none), as xterm does for a region with top margin 1.
    mutating func scrollUp(top: Int, bottom: Int, count: Int, fill: BlankFill, intoHistory: Bool) {
        let height = bottom - top + 1
        let count = min(count, height)
        guard count > 0 else { return }
        if intoHistory && top == 0 {
            for _ in 0..<count {
                scrollWholeScreenUpOneLine(fill: fill)
                // A region that ends above the last row: the rows below it
                // moved up with the rest and go back down, and the blank row
                // takes the region's bottom.
                if bottom < rows - 1 { rotate(top: bottom, bottom: rows - 1, by: rows - 1 - bottom) }
            }
            return
        }
        rotate(top: top, bottom: bottom, by: count)
        for row in (bottom - count + 1)...bottom { clearRow(ScreenRow(row), with: fill) }
        // The whole screen of a grid with no scrollback (the alternate one):
        // the top lines left it for good, as `pushTopLine` counts them.
        if top == 0 && bottom == rows - 1 && scrollbackLimit == 0 { evictedCount &+= count }
    }

    /// The common case of `scrollUp`: the whole screen up one line into the
    /// scrollback (a line feed at the bottom with no margins set).
    @inline(__always)
    mutating func scrollWholeScreenUpOneLine(fill: BlankFill) {
        forgetHandedOutRow()
        Self.pushTopLine(
            zero: &zero, historyCount: &historyCount, evicted: &evictedCount, limit: scrollbackLimit,
            slotCount: storage.slotCount)
        renewBottomRow()
        clearRow(ScreenRow(rows - 1), with: fill)
    }

    /// `scrollWholeScreenUpOneLine(fill:)` with a fill's shared cell.
    @inline(__always)
    mutating func scrollWholeScreenUpOneLine(sharedFill cell: Cell) {
        forgetHandedOutRow()
        Self.pushTopLine(
            zero: &zero, historyCount: &historyCount, evicted: &evictedCount, limit: scrollbackLimit,
            slotCount: storage.slotCount)
        // `renewBottomRow()` and `clearRow(_:withShared:)` with the slot
        // found once.
        let slot = screenSlot(ScreenRow(rows &- 1))
        if scrollbackLimit > 0 { renewEra(slot: slot) }
        clearSlot(slot, with: cell)
    }

    /// After a line went into the scrollback: the new bottom row's slot held
    /// the line the scrollback dropped (or none), so it joins its page's
    /// current era (Grid+Pages.swift, "Eras"); a grid with no scrollback
    /// has no eras.
    @inline(__always)
    private mutating func renewBottomRow() {
        if scrollbackLimit > 0 { renewEra(slot: screenSlot(ScreenRow(rows &- 1))) }
    }

    /// The top row becomes the newest scrollback line, dropping the oldest
    /// once the scrollback holds `limit` (counted in `evicted`): either way
    /// every screen row's position moves one ring entry on.
    @inline(__always)
    static func pushTopLine(zero: inout Int, historyCount: inout Int, evicted: inout Int, limit: Int, slotCount: Int) {
        if historyCount < limit {
            historyCount &+= 1
        } else {
            zero = zero &+ 1 == slotCount ? 0 : zero &+ 1
            evicted &+= 1
        }
    }

    /// `pushTopLine` `count` times.
    @inline(__always)
    static func pushTopLines(
        _ count: Int, zero: inout Int, historyCount: inout Int, evicted: inout Int, limit: Int, slotCount: Int
    ) {
        let kept = min(count, limit &- historyCount)
        historyCount &+= kept
        let dropped = count &- kept
        guard dropped > 0 else { return }
        // A run stops at each page's rows, so it drops fewer lines than the
        // ring has slots unless there is a single page: one compare, not a
        // division (some 30 cycles, once per run of plain lines).
        let moved = zero &+ dropped
        zero = moved < slotCount ? moved : dropped < slotCount ? moved &- slotCount : moved % slotCount
        evicted &+= dropped
    }

    /// Plain scrolling output, a line at a time: calls `writeLine` with the
    /// bottom row's cells; after each call that takes a line (returns the
    /// number of cells it wrote from the row's start) stamps the row as
    /// changed and scrolls the whole screen up one line as
    /// `scrollWholeScreenUpOneLine(fill:)` does, until a call returns nil.
    /// Returns why it stopped.
    ///
    /// The recycled row that becomes the bottom one is not cleared when the
    /// screen scrolls. With the empty cell to clear with (no background
    /// colour), once its line is written the cells past it are only marked
    /// stale (`GridStorage.staleFrom`), on the screen as in the scrollback:
    /// the grid zeroes them when the row is asked for, which most lines of
    /// a replay never are before their slot is reused. The `memset` after
    /// each line was a fifth of the time of plain scrolling: without it, 46
    /// fewer instructions a line (callgrind, plain scrolling at 80×24) and
    /// +20% MiB/s at 80×24, +35% at 200×50. Rows still on the screen were
    /// cleared when a run ended, up to `rows - 1` of them: output in 4 KiB
    /// reads (a PTY's) ends a run at each read, and plain scrolling in 4 KiB
    /// calls ran 14% faster without those clears (`termbench feed`, 16 MiB
    /// at 80×24, 1,384 -> 1,575 MiB/s). A run is one call, or several when
    /// the loop stops at another page's rows. With another cell than the
    /// empty one, the cells past the line are filled at once. When no line
    /// comes, the whole row is cleared before returning, as a scroll leaves
    /// it.
    ///
    /// `writeLine` is told which rows are recycled: it may leave anything in
    /// such a row past the count it returns, or anywhere in it when it
    /// returns nil. The first row is the cursor's, whose cells must stay as
    /// they are when no line is taken, and past the line.
    ///
    /// The ring's position, the scrollback count and the storage's pointers
    /// live in locals for the loop: as fields they would be reloaded after
    /// every line, since the row's stores could alias them.
    ///
    /// The rows lie in any page, and the cells written name the ids of one:
    /// `tables`, the page (and era) whose ids `cellBits` (the pen's cell
    /// word) and `fill` are. The loop stops before a row of other tables
    /// (`.otherTables`: once per page of rows) and before a recycled row
    /// when `fill` is nil (`.needsFill`: the fill is interned in a page only
    /// once a recycled row needs it, as a scroll would); the caller binds the
    /// pen and the fill for the bottom row's page and calls again with
    /// `bottomIsRecycled`, until a call returns `.noLine`. The recycled row
    /// it stopped at reads as empty meanwhile (all its cells stale), so that
    /// a compaction the binding makes finds none of its old line's ids (of
    /// the era the row has just left). The binding stays out of the loop,
    /// whose set-up is most of a call's cost when output alternates plain
    /// lines with coloured ones (callgrind, `ls -lR` at 80×24).
    @inline(__always)
    mutating func writeLinesAtBottom(
        tables boundTables: Int, cellBits: UInt64, fill: Cell?, bottomIsRecycled: Bool,
        _ writeLine: (_ bottomRow: UnsafeMutablePointer<Cell>, _ isRecycled: Bool) -> Int?
    ) -> BottomLinesStop {
        forgetHandedOutRow()
        let ring = storage.ring
        let slotCount = storage.slotCount
        let cells = storage.cells
        let flags = storage.flags
        let marks = storage.marks
        let generations = storage.generations
        let staleFrom = storage.staleFrom
        let tableSets = storage.tableSets
        let columns = self.columns
        let limit = scrollbackLimit
        let stamp = generation
        let fillCell = fill ?? .empty
        let fillIsEmpty = fill == .empty
        var bottom = ringIndex(screenRow: rows &- 1)
        // The bottom row's slot and tables, carried from the renewal of the
        // row that came up: the loop reads neither back from the storage.
        var slot = Int(ring[bottom])
        var slotTables = Int(tableSets[slot])
        var lines = 0
        var isRecycled = bottomIsRecycled
        var stop = BottomLinesStop.noLine
        // The cursor's row keeps its cells past the line: stale ones must be
        // zeroed before the line may cover some of them.
        if !isRecycled { clearStaleCells(slot: slot) }
        // The current era's tables of the bound page (the bound tables
        // themselves but for a row not renewed since its era ended), and the
        // rows moved there from the page's old era, not yet taken off
        // `oldEraSlots`: the next recycled rows are in the same page, 512
        // at 80 columns, one compare each.
        let eraTables = boundTables & ~1 | Int(storage.currentEras[boundTables &>> 1])
        var eraMoves: Int32 = 0
        while true {
            if slotTables != boundTables {
                stop = .otherTables
                break
            }
            if isRecycled && fill == nil {
                stop = .needsFill
                break
            }
            let row = cells + slot &* columns
            guard let written = writeLine(row, isRecycled) else {
                if isRecycled {
                    Self.settleRow(row, slot: slot, after: 0, fill: fillCell, columns: columns, staleFrom: staleFrom)
                }
                break
            }
            if !isRecycled {
                // A recycled row was stamped when it was reset, below.
                generations[slot] = stamp
            } else {
                Self.settleRow(
                    row, slot: slot, after: written, fill: fillCell, leavingStale: fillIsEmpty,
                    columns: columns, staleFrom: staleFrom)
            }
            lines &+= 1
            bottom = bottom &+ 1 == slotCount ? 0 : bottom &+ 1
            // `resetRowMetadata` for the row coming up, with the locals; its
            // line is gone, so it joins its page's current era
            // (`renewEra(slot:)`, written out for the case of every line
            // once the scrollback is full: a row of the old era of the bound
            // page).
            slot = Int(ring[bottom])
            flags[slot] = []
            marks[slot] = 0
            generations[slot] = stamp
            // Its old line is gone: all stale until a line is written (the
            // loop may stop here; see above).
            staleFrom[slot] = 0
            slotTables = Int(tableSets[slot])
            if limit != 0 {
                if slotTables ^ 1 == eraTables {
                    tableSets[slot] = UInt16(truncatingIfNeeded: eraTables)
                    slotTables = eraTables
                    eraMoves &+= 1
                } else if renewsEra(tables: slotTables, currentEra: eraTables) {
                    renewEra(slot: slot)
                    slotTables = Int(tableSets[slot])
                }
            }
            isRecycled = true
        }
        if eraMoves != 0 { settleEraMoves(eraMoves, into: eraTables, oldEraSlots: storage.oldEraSlots) }
        // The lines taken went into the scrollback, as `pushTopLine` counts
        // them one by one: counted once here, the loop carries none of the
        // three counts.
        Self.pushTopLines(
            lines, zero: &zero, historyCount: &historyCount, evicted: &evictedCount, limit: limit,
            slotCount: slotCount)
        return stop
    }

    /// `writeLinesAtBottom` for a scroll region whose scrolls keep no line:
    /// rows `top...bottom`, full width (no left and right margins), of the
    /// alternate screen (any top and bottom margins) or of a region below
    /// the top row (`scrollUp` with no scrollback to feed). Calls `writeLine` with the region's bottom row,
    /// and after each line taken scrolls the region up one line as
    /// `scrollUp(top:bottom:count:fill:intoHistory:)` does: the top line is
    /// dropped and its slot, reset, becomes the bottom row.
    ///
    /// The ring is not rotated for each line. The region's ring entries are
    /// walked as a circle instead, the bottom row one entry further on after
    /// each line, and rotated once when the call returns, the region's rows
    /// stamped as changed then: one rotation and one stamp of the region
    /// per call rather than per line (callgrind, 2 MiB of a 23-row region at
    /// 80×24: the rotation's `memmove` and the stamp loop were 227
    /// instructions a line, the row's clear 53 more). As in
    /// `writeLinesAtBottom`, with the empty cell to fill with, the cells past
    /// a line are only marked stale, and zeroed when the row is asked for.
    /// The stops, the fill and `writeLine`'s contract are
    /// `writeLinesAtBottom`'s.
    @inline(__always)
    mutating func writeLinesAtRegionBottom(
        top: Int, bottom: Int, tables boundTables: Int, fill: Cell?, bottomIsRecycled: Bool,
        _ writeLine: (_ bottomRow: UnsafeMutablePointer<Cell>, _ isRecycled: Bool) -> Int?
    ) -> BottomLinesStop {
        forgetHandedOutRow()
        let height = bottom &- top &+ 1
        let ring = storage.ring
        let slotCount = storage.slotCount
        let cells = storage.cells
        let flags = storage.flags
        let marks = storage.marks
        let staleFrom = storage.staleFrom
        let tableSets = storage.tableSets
        let columns = self.columns
        let first = ringIndex(screenRow: top)
        let fillCell = fill ?? .empty
        let fillIsEmpty = fill == .empty
        @inline(__always) func regionSlot(_ offset: Int) -> Int {
            let position = first &+ offset
            return Int(ring[position >= slotCount ? position &- slotCount : position])
        }
        // The bottom row's entry, counted from the region's first: after
        // `lines` scrolls, region row `r` is the entry `(r + lines) % height`.
        var offset = height &- 1
        var slot = regionSlot(offset)
        var lines = 0
        var isRecycled = bottomIsRecycled
        var stop = BottomLinesStop.noLine
        if !isRecycled { clearStaleCells(slot: slot) }  // as in `writeLinesAtBottom`
        while true {
            if Int(tableSets[slot]) != boundTables {
                stop = .otherTables
                break
            }
            if isRecycled && fill == nil {
                stop = .needsFill
                break
            }
            let row = cells + slot &* columns
            guard let written = writeLine(row, isRecycled) else {
                if isRecycled {
                    Self.settleRow(row, slot: slot, after: 0, fill: fillCell, columns: columns, staleFrom: staleFrom)
                }
                break
            }
            if isRecycled {
                Self.settleRow(
                    row, slot: slot, after: written, fill: fillCell, leavingStale: fillIsEmpty,
                    columns: columns, staleFrom: staleFrom)
            }
            lines &+= 1
            // The region scrolls: its top line's slot comes up as the
            // bottom row, with the metadata a cleared row has (its stamp
            // comes with the region's, below).
            offset = offset &+ 1 == height ? 0 : offset &+ 1
            slot = regionSlot(offset)
            flags[slot] = []
            marks[slot] = 0
            staleFrom[slot] = 0  // its line is gone, as in `writeLinesAtBottom`
            isRecycled = true
        }
        if lines > 0 {
            // Once per call: the rotation the lines' scrolls add up to (a
            // division), which stamps every row of the region as changed.
            let shift = lines % height
            if shift != 0 {
                rotate(top: top, bottom: bottom, by: shift)
            } else {
                stampRows(fromRingIndex: first, count: height)
            }
            // The whole screen of a grid with no scrollback: the top lines
            // left it for good, as `scrollUp` counts them.
            if top == 0 && bottom == rows &- 1 && scrollbackLimit == 0 { evictedCount &+= lines }
        }
        return stop
    }

    /// A recycled row of the plain-lines loops once `written` cells of a
    /// line are stored from its start (0: no line came): the cells past them
    /// are marked stale when `leavingStale` (the fill is the empty cell, see
    /// `writeLinesAtBottom`), and filled with `fill` otherwise. Static, with
    /// the loops' locals: the grid's fields would be reloaded after the
    /// row's stores.
    @inline(__always)
    private static func settleRow(
        _ row: UnsafeMutablePointer<Cell>, slot: Int, after written: Int, fill: Cell, leavingStale: Bool = false,
        columns: Int, staleFrom: UnsafeMutablePointer<UInt16>
    ) {
        if leavingStale {
            staleFrom[slot] = UInt16(truncatingIfNeeded: written)
        } else {
            Grid.fill(row + written, with: fill, count: columns &- written)
            staleFrom[slot] = UInt16(truncatingIfNeeded: columns)
        }
    }

    /// Scrolls rows `top...bottom` down by `count`; blank rows enter at the top.
    /// Nothing comes back from the scrollback.
    mutating func scrollDown(top: Int, bottom: Int, count: Int, fill: BlankFill) {
        let height = bottom - top + 1
        let count = min(count, height)
        guard count > 0 else { return }
        rotate(top: top, bottom: bottom, by: height - count)
        for row in top..<(top + count) { clearRow(ScreenRow(row), with: fill) }
    }

    /// Rotates the ring entries of screen rows `top...bottom` left by `count`
    /// (row `top + count` becomes row `top`), in place. Scrolling a region by
    /// a line or a few, where the region's entries are contiguous in the
    /// ring, is a `memmove` of the entries per line; anything else moves each
    /// entry once along the gcd(height, count) cycles of the rotation.
    /// (Three reversals, before, moved each entry twice through swaps: a
    /// fifth of less's time at 200×50, whose every line scrolls a 49-row region.)
    private mutating func rotate(top: Int, bottom: Int, by count: Int) {
        let height = bottom - top + 1
        guard count > 0 && count < height else { return }
        forgetHandedOutRow()
        // Locals: the stores below would otherwise make the compiler reload
        // the storage's fields for every index.
        let ring = storage.ring
        let slotCount = storage.slotCount
        let first = ringIndex(screenRow: top)
        @inline(__always) func index(_ offset: Int) -> Int {
            let position = first &+ offset
            return position >= slotCount ? position &- slotCount : position
        }
        if first + height <= slotCount && min(count, height - count) <= 4 {
            let entry = MemoryLayout<Int32>.stride
            let start = UnsafeMutableRawPointer(ring + first)
            if count <= height - count {
                for _ in 0..<count {
                    let saved = ring[first]
                    start.copyMemory(from: start + entry, byteCount: (height - 1) * entry)
                    ring[first + height - 1] = saved
                }
            } else {
                for _ in 0..<(height - count) {
                    let saved = ring[first + height - 1]
                    (start + entry).copyMemory(from: start, byteCount: (height - 1) * entry)
                    ring[first] = saved
                }
            }
        } else {
            var cycles = height
            var remainder = count
            while remainder != 0 { (cycles, remainder) = (remainder, cycles % remainder) }
            for start in 0..<cycles {
                let saved = ring[index(start)]
                var current = start
                while true {
                    let next = current &+ count < height ? current &+ count : current &+ count &- height
                    if next == start { break }
                    ring[index(current)] = ring[index(next)]
                    current = next
                }
                ring[index(current)] = saved
            }
        }
        // Every row of the region now shows another line: a change there.
        stampRows(fromRingIndex: first, count: height)
    }

    /// Stamps as changed the rows of `count` ring entries from ring index
    /// `first` (wrapping at the ring's end).
    private func stampRows(fromRingIndex first: Int, count: Int) {
        let ring = storage.ring
        let slotCount = storage.slotCount
        let generations = storage.generations
        let stamp = generation
        if first + count <= slotCount {
            for slot in UnsafeBufferPointer(start: ring + first, count: count) { generations[Int(slot)] = stamp }
        } else {
            for offset in 0..<count {
                let position = first &+ offset
                generations[Int(ring[position >= slotCount ? position &- slotCount : position])] = stamp
            }
        }
    }

    /// Makes the first `count` ring positions the scrollback (for a grid
    /// being filled after a resize): positions map to slots in order.
    mutating func setHistoryCount(_ count: Int) {
        precondition(count <= scrollbackLimit)
        forgetHandedOutRow()
        zero = 0
        historyCount = count
    }

    /// Sets the flags of scrollback line `line`.
    func setHistoryFlags(_ line: ScrollbackLine, _ flags: RowFlags) { storage.flags[historySlot(line)] = flags }

    /// Sets the mark of scrollback line `line`.
    func setHistoryMark(_ line: ScrollbackLine, _ mark: SemanticMark?) {
        storage.marks[historySlot(line)] = mark?.packed ?? 0
    }

    /// Line `index` of the whole buffer, scrollback lines first (0 = the
    /// oldest), then the screen rows: its cells for reading, flags, mark and
    /// page. For a walk over every line in order (a resize).
    func bufferLine(_ index: Int) -> (cells: UnsafePointer<Cell>, flags: RowFlags, mark: SemanticMark?, page: Int) {
        if index < historyCount {
            let line = ScrollbackLine(index)
            return (UnsafePointer(historyRow(line)), historyFlags(line), historyMark(line), page(ofHistoryLine: line))
        }
        let row = ScreenRow(index - historyCount)
        return (readRow(row), flags(row), mark(row), page(ofScreenRow: row))
    }

    /// Forgets every scrollback line (ED 3).
    mutating func clearHistory() {
        evictedCount &+= historyCount
        forgetHandedOutRow()
        zero = ringIndex(screenRow: 0)
        historyCount = 0
    }
}

extension SemanticMark {
    /// The mark as a row slot stores it: a word instead of the 16-byte
    /// optional enum (its `Int?` payload), so that a row's metadata is reset
    /// with one store. The low three bits are the kind (1 prompt, 2 input,
    /// 3 output, 4 command end without a status, 5 with one), the others the
    /// exit status. A status of 2^60 or more in magnitude, which no system
    /// reports (Windows' are 32-bit), is kept as a command end without one.
    var packed: UInt64 {
        switch self {
        case .prompt: return 1
        case .input: return 2
        case .output: return 3
        case .commandEnd(let status?) where status.magnitude < 1 << 60:
            return UInt64(bitPattern: Int64(status) << 3) | 5
        case .commandEnd: return 4
        }
    }

    /// The mark `packed` holds, nil for 0.
    init?(packed: UInt64) {
        switch packed & 7 {
        case 1: self = .prompt
        case 2: self = .input
        case 3: self = .output
        case 4: self = .commandEnd(exitStatus: nil)
        case 5: self = .commandEnd(exitStatus: Int(Int64(bitPattern: packed) >> 3))
        default: return nil
        }
    }
}

/// Why `Grid.writeLinesAtBottom` returned.
enum BottomLinesStop {
    /// No line came (the last row is as a scroll leaves it, or the cursor's
    /// row untouched when no line was taken).
    case noLine
    /// The bottom row is of other tables than the bound ones: bind there.
    case otherTables
    /// The bottom row is recycled and the fill is not bound yet.
    case needsFill
}
