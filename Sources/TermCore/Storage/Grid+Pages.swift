// Pages: the grid's row slots in groups of a power of two, each group with
// the tables its cells name (PageTables). A cell's ids are local to the page
// of the slot it is stored in; a region scroll rotates the ring, which moves
// no cell, so only a copy from one slot to another (DECCRA, a scroll between
// left and right margins, a resize) can cross pages, and translates
// (`translated(_:from:sourcePage:toPage:)`).
//
// Eras: each page has two sets of tables, and each of its slots names one of
// them, its era. When a line goes into the scrollback, the slot that becomes
// the new bottom row held the line the full scrollback dropped (or none): it
// joins its page's current era. When the other era has no slot left, every
// line that named its entries is gone, and its tables are reset at once
// (`renewEra(slot:)`), visiting no cell and no line: emptied in place, their
// arrays kept for the next era (so that it allocates nothing) and their index
// zeroed, one `memset`. The next slot of the page to
// be reused then starts a new era in those empty tables. So the tables of a
// page that scrolling output passes through are freed a page of lines after
// its last line left the N-line window, without visiting a cell; only a page
// whose old era a line still holds (a screen row the output never scrolled
// off) falls back on compaction, O(cells of the page). Only grids with a
// scrollback have eras: other clears of a row (a region's scroll, the
// alternate screen's) renew nothing, so that a full-screen program's rows,
// moved about by its scrolls, are not split between two sets of tables,
// where the pen would be bound again at every move between them (vim at
// 80×24 took 2% more instructions so).

extension Grid {
    /// The most rows a page of `columns`-wide rows holds: the largest power of
    /// two whose cells fit ``Limits/cellsPerPage`` (512 at 80 columns, 128
    /// at 200, 32 at 1,000), at least one.
    static func rowsPerPage(columns: Int) -> Int {
        var rows = 1
        while rows * 2 * columns <= Limits.cellsPerPage { rows *= 2 }
        return rows
    }

    /// The tables slot `slot`'s cells name, as an index of `pages`: its page
    /// and its era (`page << 1 | era`). Everything but the eras themselves
    /// calls this the slot's page.
    @inline(__always)
    func page(ofSlot slot: Int) -> Int { Int(storage.tableSets[slot]) }

    /// The page screen row `row` is stored in.
    @inline(__always)
    func page(ofScreenRow row: ScreenRow) -> Int { page(ofSlot: screenSlot(row)) }

    /// The page scrollback line `line` is stored in.
    func page(ofHistoryLine line: ScrollbackLine) -> Int { page(ofSlot: historySlot(line)) }

    /// The tables screen row `row`'s cells name.
    func tables(ofScreenRow row: ScreenRow) -> PageTables { pages[page(ofScreenRow: row)] }

    /// The tables scrollback line `line`'s cells name.
    func tables(ofHistoryLine line: ScrollbackLine) -> PageTables { pages[page(ofHistoryLine: line)] }

    // MARK: Eras

    /// The line in `slot` is being replaced whole, so its cells will name no
    /// entry of its era: the slot joins its page's current era, starting a
    /// new one when it is there already and the other era has no slot. An
    /// era left with no slot has its tables reset, visiting no cell.
    @inline(__always)
    mutating func renewEra(slot: Int) {
        let tables = Int(storage.tableSets[slot])
        let page = tables &>> 1
        if tables & 1 != Int(storage.currentEras[page]) {
            // From the old era to the current one.
            storage.tableSets[slot] = UInt16(truncatingIfNeeded: tables ^ 1)
            storage.oldEraSlots[page] &-= 1
            if storage.oldEraSlots[page] == 0 { resetTables(tables) }
        } else if storage.oldEraSlots[page] == 0 {
            // The old era is empty (and its tables were reset when it
            // emptied, or never held anything): this slot starts a new era
            // in them, and the rest of the page becomes the old one.
            storage.tableSets[slot] = UInt16(truncatingIfNeeded: tables ^ 1)
            storage.currentEras[page] ^= 1
            storage.oldEraSlots[page] = storage.pageSlots[page] &- 1
            if storage.oldEraSlots[page] == 0 { resetTables(tables) }
        }
    }

    /// Whether `renewEra(slot:)` may change anything for a slot naming
    /// `tables`, given that `currentEra` is some page's current era (`page
    /// << 1 | era`): not for a slot already in that era while the page's old
    /// era still has slots, the case of every recycled row once a page's
    /// rows have all moved over. For a loop that handles the move from the
    /// same page's old era itself and calls `renewEra` only when this holds.
    @inline(__always)
    func renewsEra(tables: Int, currentEra: Int) -> Bool {
        tables != currentEra || storage.oldEraSlots[currentEra &>> 1] == 0
    }

    /// Takes `moves` rows that joined `tables`, their page's current era,
    /// from its old era off the old era's count (`writeLinesAtBottom` counts
    /// them in a local), resetting the old era's tables if none is left.
    @inline(__always)
    mutating func settleEraMoves(_ moves: Int32, into tables: Int, oldEraSlots: UnsafeMutablePointer<Int32>) {
        let page = tables &>> 1
        oldEraSlots[page] &-= moves
        if oldEraSlots[page] == 0 { resetTables(tables ^ 1) }
    }

    /// Empties the tables of `page` (an era no slot names any more). Ids
    /// taken from them before are stale, as after a compaction of that
    /// page; those of other pages stand, so only what is bound to this one
    /// is forgotten: the pen (and with its binding the SGR transitions,
    /// kept by the page's compactions), the last blank, and the cluster
    /// cache through `tablesGeneration`. (Counted as a compaction of every
    /// page, a reset retired the SGR transitions of all: vim at 80×24,
    /// whose 24-row page begins an era every 24 scrolled rows, took 4%
    /// more instructions.)
    @inline(never)
    mutating func resetTables(_ page: Int) {
        guard pages[page].styles.count > 1 || pages[page].links.count > 1 || pages[page].clusters.count > 0
        else { return }  // nothing to free: ids taken from it stand
        // Emptied in place: the next era of the page fills the same arrays
        // without allocating (fresh tables made every era allocate as its
        // tables grew again: gcc_diag allocated 1,916 times in the second
        // half of a 16 MiB feed, none before).
        pages[page].styles.removeAll()
        if pages[page].links.count > 1 { linkTablesEmptied &+= 1 }
        pages[page].links.removeAll()
        pages[page].clusters.removeAll()
        pages[page].compactions &+= 1
        tableResets &+= 1
        if penPage == page { penPage = -1 }
        if lastBlank?.page == page { lastBlank = nil }
    }

    /// Changes whenever some page's ids go stale (a compaction or a reset):
    /// for caches of ids of several pages (the cluster extensions).
    var tablesGeneration: Int { compactionCount &+ tableResets }

    // MARK: Interning

    /// The key of `style` in page `page`. A full table is compacted first, so
    /// a key is always found (``PageTables``).
    mutating func styleKey(for style: Style, page: Int) -> StyleKey {
        if let key = StyleKey(inline: style) { return key }  // the same in every page
        if let key = pages[page].styles.tableKey(for: style) { return key }
        compactStyles(page: page)
        return pages[page].styles.tableKey(for: style) ?? .default
    }

    /// The id of the link to `uri` with the `id=` parameter `linkID` in page
    /// `page`, from the bytes of the OSC 8 command (a link the page has is
    /// found without allocating); 0 only when a compaction leaves no room.
    mutating func linkID(uri: UnsafeBufferPointer<UInt8>, linkID: UnsafeBufferPointer<UInt8>?, page: Int) -> UInt16 {
        self.linkID(uri: uri, linkID: linkID, hash: HyperlinkTable.hash(uri: uri, linkID: linkID), page: page)
    }

    /// The id in page `page` of the link whose stored bytes are `key` (the
    /// pen's, or a cell's of another page, whose `hash` its table knows).
    mutating func linkID(storedKey key: UnsafeBufferPointer<UInt8>, hash: UInt64? = nil, page: Int) -> UInt16 {
        let (uri, linkID) = HyperlinkTable.parts(ofKey: key)
        return self.linkID(
            uri: uri, linkID: linkID, hash: hash ?? HyperlinkTable.hash(uri: uri, linkID: linkID), page: page)
    }

    /// The id in page `page` of a link whose hash is known. A new link
    /// whose key its table's buffer has no room for first takes a larger
    /// buffer another table has (`lendKeyBuffer`); a full table is
    /// compacted.
    mutating func linkID(
        uri: UnsafeBufferPointer<UInt8>, linkID: UnsafeBufferPointer<UInt8>?, hash: UInt64, page: Int
    ) -> UInt16 {
        if let id = pages[page].links.id(uri: uri, linkID: linkID, hash: hash, growing: false) { return id }
        let keyCount = HyperlinkTable.keyCount(uri: uri, linkID: linkID)
        if pages[page].links.needsLargerKeyBuffer(forKey: keyCount) {
            lendKeyBuffer(toLinksOf: page, capacity: pages[page].links.grownKeyCapacity(forKey: keyCount))
            if let id = pages[page].links.id(uri: uri, linkID: linkID, hash: hash) { return id }
        }
        compactLinks(page: page)
        return pages[page].links.id(uri: uri, linkID: linkID, hash: hash) ?? 0
    }

    /// The most tables one search for a lender looks at. A grid's tables
    /// are made for its whole scrollback (62,502 at 1,000 columns and a
    /// million lines), and a search of all of them at each growth of a
    /// buffer made the first fill of such a scrollback with links 17 times
    /// slower (a review's measurement). 512 covers every table of 10,000
    /// lines up to 500 columns (pages of 64 rows there).
    static let lenderSearchWidth = 512

    /// The smallest buffer of link bytes a search for a lender is made for;
    /// a smaller one grows. A buffer grows when it is full, so a search
    /// (``lenderSearchWidth`` tables) comes after at least 2 KiB of new
    /// links in that table: at most a table's look for 4 bytes of links.
    static let leastLentCapacity = 4 << 10

    /// Gives the link table of `page` the smallest buffer of link bytes of
    /// at least `capacity` bytes that another table has and does not need:
    /// its keys fit the buffer of `page`'s table, and the buffer is no
    /// larger than that table keeps through a compaction. The two trade
    /// buffers. A table's buffer grows only when it needs more than it ever
    /// held, and which table fills most in an era varies, so each table grew
    /// on its own long after the ring of scrollback had gone round
    /// (link_churn at 200×50: 9 allocations in the 5th pass of 16 MiB, 2 in
    /// the 13th, each a table's first 64 KiB); traded, the buffers grown so
    /// far serve whichever tables fill them. Looks at
    /// ``lenderSearchWidth`` tables at most, from where the last search
    /// stopped; at none for a buffer under ``leastLentCapacity``, or before
    /// an era's links were emptied (until then every buffer is in use: the
    /// first fill of the scrollback). Does nothing when no table has one:
    /// the buffer then grows. A buffer that a snapshot's rows share is
    /// copied by the trade, as by any write.
    mutating func lendKeyBuffer(toLinksOf page: Int, capacity: Int) {
        guard linkTablesEmptied > 0 && capacity >= Self.leastLentCapacity else { return }
        let room = pages[page].links.keyBufferCapacity
        let largest = pages[page].links.keptKeyCapacity
        var donor = -1
        var donorCapacity = Int.max
        var other = lenderSearchStart
        for _ in 0..<min(Self.lenderSearchWidth, pages.count) {
            if other >= pages.count { other = 0 }
            let otherCapacity = pages[other].links.keyBufferCapacity
            if other != page && otherCapacity >= capacity && otherCapacity < donorCapacity
                && otherCapacity <= largest && pages[other].links.keyBytes <= room
            {
                donor = other
                donorCapacity = otherCapacity
            }
            other &+= 1
        }
        lenderSearchStart = other
        guard donor >= 0 else { return }
        // Out of the array while it trades, so that neither buffer is
        // referenced twice (a write would copy it).
        var links = pages[page].links
        pages[page].links = HyperlinkTable.placeholder
        links.tradeKeyBuffers(with: &pages[donor].links)
        pages[page].links = links
    }

    /// Copies the bytes link `id` of page `page` was made from to the start
    /// of `buffer`, which grows if it is shorter; returns their count.
    mutating func copyLinkKey(_ id: UInt16, page: Int, to buffer: inout [UInt8]) -> Int {
        pages[page].links.withKey(id) { Self.copy($0, to: &buffer) }
    }

    /// Copies `bytes` to the start of `buffer`, which grows if it is
    /// shorter (and never shrinks); returns their count.
    static func copy(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) -> Int {
        if buffer.count < bytes.count { buffer.append(contentsOf: repeatElement(0, count: bytes.count - buffer.count)) }
        guard let source = bytes.baseAddress else { return 0 }
        buffer.withUnsafeMutableBufferPointer {
            $0.baseAddress.unsafelyUnwrapped.update(from: source, count: bytes.count)
        }
        return bytes.count
    }

    /// `linkID(storedKey:page:)` for a key held as the first `count` bytes
    /// of an array (the pen's).
    mutating func linkID(storedKey key: [UInt8], count: Int, page: Int) -> UInt16 {
        key.withUnsafeBufferPointer { linkID(storedKey: UnsafeBufferPointer(rebasing: $0[..<count]), page: page) }
    }

    /// The id of the cluster of `scalars` in page `page`.
    mutating func clusterID(for scalars: ClusterScalars, page: Int) -> UInt32? {
        scalars.withUnsafeBufferPointer { clusterID(for: $0, page: page) }
    }

    /// The id of the cluster of `scalars` in page `page`, from a buffer (a
    /// cluster the page has is found without allocating).
    mutating func clusterID(for scalars: UnsafeBufferPointer<UInt32>, page: Int) -> UInt32? {
        if let id = pages[page].clusters.id(for: scalars) { return id }
        compactClusters(page: page)
        return pages[page].clusters.id(for: scalars)
    }

    /// The blank `fill` in page `page`; the last one made is kept, as a
    /// scroll with a coloured background makes the same blank for row after
    /// row of a page.
    @inline(__always)
    mutating func blank(_ fill: BlankFill, page: Int) -> Cell {
        if let cell = fill.sharedCell { return cell }
        if let last = lastBlank, last.page == page, last.compactions == compactionCount, last.style == fill.style {
            return last.cell
        }
        let cell = Cell.blank(style: styleKey(for: fill.style, page: page))
        lastBlank = (fill.style, page, compactionCount, cell)
        return cell
    }

    // MARK: Copies between pages

    /// `cell`, read from a page whose tables were `source`, as stored in page
    /// `page`: the same cell when it names no table entry or the tables are
    /// the page's own, as they were (`sourcePage` and its compactions), else
    /// with its style, link and cluster interned in the page.
    mutating func translated(_ cell: Cell, from source: PageTables, sourcePage: Int, toPage page: Int) -> Cell {
        guard PageTables.namesEntries(cell),
            sourcePage != page || source.compactions != pages[page].compactions
        else { return cell }
        var copy = cell
        if cell.namesTableStyle {
            copy.styleKey = styleKey(for: source.style(of: cell), page: page)
        }
        if cell.linkID != 0 {
            copy.linkID = translatedLink(cell.linkID, from: source, sourcePage: sourcePage, toPage: page)
        }
        if cell.namesTableCluster {
            if let id = clusterID(for: source.clusters[cell.value], page: page) {
                copy.setCluster(id)
            } else {
                let base = source.clusters[cell.value].first ?? 0
                copy.content = copy.content & ~(Cell.valueMask | Cell.clusterFlag) | base
            }
        }
        return copy
    }

    /// The id in page `page` of link `id` of a page whose tables were
    /// `source`: looked up by its bytes, with the hash the source's table
    /// keeps, once while neither page's ids change (`linkTranslation`), not
    /// at every copy. A link's bytes are up to 4 KiB: a DECCRA of 22 bytes
    /// between rows of two pages whose 960 cells each named a link of 4 KiB
    /// took 1.1 ms, each copy hashing them all again (`termengine replay`
    /// of those links and 200 such copies at 80×24: 0.236 s, 0.022 s since,
    /// 0.014 s for the links alone). `sourcePage` is -1 for tables that are
    /// no page of this grid (a resize's old grid), whose links are looked
    /// up each time.
    mutating func translatedLink(_ id: UInt16, from source: PageTables, sourcePage: Int, toPage page: Int) -> UInt16 {
        func lookUp() -> UInt16 { source.links.withKeyAndHash(id) { linkID(storedKey: $0, hash: $1, page: page) } }
        guard sourcePage >= 0 else { return lookUp() }
        if let known = linkTranslation.id(
            id, sourcePage: sourcePage, sourceEpoch: source.compactions, page: page, epoch: pages[page].compactions)
        {
            return known
        }
        linkTranslationLookups += 1
        let translated = lookUp()
        // A compaction of the page to make room renumbered its ids: what
        // was kept for it before is void, and this id is kept from now on.
        linkTranslation.keep(
            translated, for: id, sourcePage: sourcePage, sourceEpoch: source.compactions, page: page,
            epoch: pages[page].compactions, sourceCount: source.links.count)
        return translated
    }

    /// Copies `count` cells to `destination`, stored in page `page`, from
    /// `source`, stored in page `sourcePage` whose tables are `tables`.
    mutating func copyCells(
        _ source: UnsafePointer<Cell>, tables: PageTables, sourcePage: Int, to destination: UnsafeMutablePointer<Cell>,
        page: Int, count: Int
    ) {
        if sourcePage == page && tables.compactions == pages[page].compactions {
            destination.update(from: source, count: count)
            return
        }
        for index in 0..<count {
            destination[index] = translated(source[index], from: tables, sourcePage: sourcePage, toPage: page)
        }
    }

    // MARK: Compaction

    /// Adds this grid's compactions of each kind to `counters`.
    func addCompactions(to counters: inout Terminal.Counters) {
        counters.styleCompactions += styleCompactions
        counters.hyperlinkCompactions += linkCompactions
        counters.clusterCompactions += clusterCompactions
        counters.tableResets += tableResets
    }

    /// Calls `body` with every cell of page `page`, stale cells zeroed first
    /// (they name entries of lines long gone, as a read of the line would
    /// find).
    private mutating func forEachCell(page: Int, _ body: (inout Cell) -> Void) {
        let first = (page >> 1) << pageShift
        let slots = first..<min(storage.slotCount, first + (1 << pageShift))
        let columns = columns
        for slot in slots where Int(storage.tableSets[slot]) == page {
            compactionCellVisits &+= columns
            clearStaleCells(slot: slot)
            let row = storage.cells + slot * columns
            for col in 0..<columns { body(&row[col]) }
        }
    }

    /// After a compaction of page `page`: ids taken before are stale.
    private mutating func noteCompaction(page: Int) {
        pages[page].compactions += 1
        compactionCount &+= 1
        penPage = -1  // the pen's ids may have been renumbered
    }

    /// Keeps only the styles the cells of page `page` name, renumbered:
    /// O(cells of the page), never more. Links and clusters keep their ids.
    mutating func compactStyles(page: Int) {
        // The cells are visited twice; the table is taken out for that, so
        // that the grid is not mutated while it is read. What stands in for
        // it meanwhile is a shared empty table: a new one allocated its
        // index, the one allocation truecolor_dense's steady state made.
        var styles = pages[page].styles
        pages[page].styles = StyleTable.placeholder
        styles.compact(
            markUsed: { markUsed in
                forEachCell(page: page) { cell in if cell.namesTableStyle { markUsed(cell.styleBits) } }
            },
            renumber: { map in
                forEachCell(page: page) { cell in
                    if cell.namesTableStyle {
                        cell.styleBits = UInt16(truncatingIfNeeded: map[Int(cell.styleBits)])
                    }
                }
            })
        pages[page].styles = styles
        styleCompactions += 1
        noteCompaction(page: page)
    }

    /// Keeps only the links the cells of page `page` name, renumbered.
    mutating func compactLinks(page: Int) {
        // The table is taken out while the cells are visited, as in
        // `compactStyles`, with the shared empty one in its place.
        var links = pages[page].links
        pages[page].links = HyperlinkTable.placeholder
        links.compact(
            markUsed: { markUsed in forEachCell(page: page) { cell in markUsed(cell.linkID) } },
            renumber: { map in forEachCell(page: page) { cell in cell.linkID = map[Int(cell.linkID)] } })
        pages[page].links = links
        linkCompactions += 1
        noteCompaction(page: page)
    }

    /// Keeps only the clusters the cells of page `page` name, renumbered.
    mutating func compactClusters(page: Int) {
        // The table is taken out while the cells are visited, as in
        // `compactLinks`, so that its arrays change in place.
        var clusters = pages[page].clusters
        pages[page].clusters = ClusterTable()
        clusters.compact(
            markUsed: { markUsed in
                forEachCell(page: page) { cell in if cell.namesTableCluster { markUsed(cell.value) } }
            },
            renumber: { map in
                forEachCell(page: page) { cell in if cell.namesTableCluster { cell.setCluster(map[Int(cell.value)]) } }
            })
        pages[page].clusters = clusters
        clusterCompactions += 1
        noteCompaction(page: page)
    }
}
