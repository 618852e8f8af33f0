// The pen's ids in the page being written (issue #17). Cells name styles,
// links and clusters by ids local to their page (PageTables), so the pen's
// style and link, held as values, are interned in the page of each row
// written before its cells are stored: `bindPen(toRow:)`, a compare when the
// page is the one bound already (every row of a run, and 512 rows of
// scrolling output at 80 columns before the next page).

extension TerminalState {
    /// Makes `penKey`, `penLink` and the erase key name the pen in the page of
    /// active screen row `row`.
    @inline(__always)
    mutating func bindPen(toRow row: Int) {
        bindPen(toPage: active.page(ofScreenRow: ScreenRow(row)))
    }

    /// `bindPen(toRow:)` when the row's page is at hand.
    @inline(__always)
    mutating func bindPen(toPage page: Int) {
        if page != active.penPage { rebindPen(toPage: page) }
    }

    /// Interns the pen's style and link in page `page` of the active grid.
    @inline(never)
    mutating func rebindPen(toPage page: Int) {
        var compactions: Int
        repeat {
            // A compaction while interning the link renumbers what was
            // interned before it: once more then (a compaction leaves at
            // least `Limits.tableEntriesBeyondCells` - 3 ids free, so the
            // second pass compacts nothing).
            compactions = active.compactionCount
            penKey = active.styleKey(for: pen, page: page)
            penLink = penHasLink ? active.linkID(storedKey: penLinkBytes, count: penLinkCount, page: page) : 0
        } while active.compactionCount != compactions
        active.penPage = page
        cachedEraseKey = nil
        // SGR transitions are kept by the page whose keys they are, so that
        // output moving between pages (a screen spanning two, the alternate
        // screen and back) finds them again while the ids stand.
        // The grid (its resizes), the page's compactions and resets, the
        // page and the screen: 23, 20, 20 and 1 bits; 2^20 compactions free
        // at least 2^35 ids. The page's own count, so that a compaction or
        // a reset of another page leaves this one's transitions standing.
        let grid = gridEpoch & 0x7F_FFFF
        let pageCompactions = active.pages[page].compactions & 0xF_FFFF
        tablesEpoch = grid << 41 | pageCompactions << 21 | page << 1 | (isAlternateScreen ? 1 : 0)
    }

    /// Forgets the binding (the active grid was swapped or replaced).
    mutating func unbindPen() {
        active.penPage = -1
        inactive.penPage = -1
        cachedEraseKey = nil
        tablesEpoch = -1  // no transition is looked up before a binding
    }

    /// The key of `style` in the page the pen is bound to (the cursor row's
    /// when none is): what SGR makes the pen.
    mutating func styleKey(for style: Style) -> StyleKey {
        if active.penPage < 0 { bindPen(toRow: cursor.row) }
        let compactions = active.compactionCount
        let key = active.styleKey(for: style, page: active.penPage)
        if active.compactionCount != compactions {
            // The page was compacted to make room: the bound keys are stale
            // (the grid has unbound the pen) and so are the transitions.
            tablesEpoch = -1
        }
        return key
    }

    /// The id of the cluster of `scalars` in the page of active screen row
    /// `row`, nil past the page's capacity (which a compaction makes room
    /// under, so only a full page of distinct live clusters reaches it).
    mutating func clusterID(for scalars: ClusterScalars, row: Int) -> UInt32? {
        active.clusterID(for: scalars, page: active.page(ofScreenRow: ScreenRow(row)))
    }

    /// The scalars of cluster `id` of the page of active screen row `row`.
    func clusterScalars(_ id: UInt32, row: Int) -> ClusterScalars {
        active.tables(ofScreenRow: ScreenRow(row)).clusters[id]
    }
}

extension TerminalState {
    /// Makes the link to `uri` with the `id=` parameter `linkID` the pen's
    /// link, interned at once in the page the pen is bound to (the cursor
    /// row's when it is bound to none). The pen then holds the bytes that
    /// page's table keeps: a link the page has (compilers and agents print
    /// the same few over and over) costs a lookup and no allocation, and each
    /// other page the pen writes in interns it from those bytes.
    mutating func setPenLink(uri: UnsafeBufferPointer<UInt8>, linkID: UnsafeBufferPointer<UInt8>?) {
        if active.penPage < 0 { bindPen(toRow: cursor.row) }
        let page = active.penPage
        let compactions = active.compactionCount
        let id = active.linkID(uri: uri, linkID: linkID, page: page)
        guard id != 0 else {
            // No room even after compacting (never with a page's capacity):
            // the pen keeps the bytes, and the next binding tries again.
            setPenTarget(HyperlinkTable.key(uri: uri, linkID: linkID))
            return
        }
        let compacted = active.compactionCount != compactions
        if penLink == id && penHasLink && !compacted { return }  // the link it has
        // The pen's bytes are copied into the buffer it keeps, so that a new
        // link costs no allocation.
        penLinkCount = active.copyLinkKey(id, page: page, to: &penLinkBytes)
        penHasLink = true
        penLink = id
        // Compacting the links renumbered the page's ids: the grid has
        // unbound the pen, and every binding is taken again at the next write.
    }

    /// Makes `target` (a link's bytes, or nil for none) the pen's link; its
    /// id in a page is taken when the pen is bound there next.
    mutating func setPenTarget(_ target: [UInt8]?) {
        guard let target else {
            if penHasLink {
                penHasLink = false
                penLink = 0
            }
            return
        }
        if penHasLink && penLinkBytes[..<penLinkCount].elementsEqual(target) { return }
        target.withUnsafeBufferPointer { penLinkCount = Grid.copy($0, to: &penLinkBytes) }
        penHasLink = true
        active.penPage = -1  // rebinds at the next write
    }
}
