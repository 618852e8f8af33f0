import Testing

@testable import TermCore

/// A page's tables are emptied at the end of each era and filled again by
/// the next (`Grid.renewEra`): what they hold must come back without
/// allocating, so that printing in a steady state allocates nothing once
/// the page has been through an era (the benchmark's steady-state count).
@Suite("Page tables reuse their storage from era to era")
struct TableReuseTests {
    /// The address of the storage of the table's scalars.
    static func storage(_ table: ClusterTable) -> UnsafeRawPointer? {
        table.scalars.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }

    @Test("An era's reset keeps the cluster table's storage, and the next era's clusters fill it again")
    func theNextErasClustersFillTheStorageTheResetKept() {
        var table = ClusterTable()
        for index in 0..<20 { _ = table.id(for: [0x61 + UInt32(index), 0x1DC1]) }
        let before = Self.storage(table)
        let bytes = table.heapBytes
        table.removeAll()
        #expect(table.count == 0)
        // The storage is kept, not freed: a freed block may come back from
        // the allocator at the same address, so the address alone would
        // not tell.
        #expect(table.heapBytes == bytes)
        // Other clusters of the same lengths: every one is found again by
        // its scalars, in the same storage, which did not grow.
        var ids: [UInt32] = []
        for index in 0..<20 { ids.append(table.id(for: [0x430 + UInt32(index), 0x1DC2])!) }
        for (index, id) in ids.enumerated() { #expect(table[id] == [0x430 + UInt32(index), 0x1DC2]) }
        for (index, id) in ids.enumerated() { #expect(table.id(for: [0x430 + UInt32(index), 0x1DC2]) == id) }
        #expect(Self.storage(table) == before)
        #expect(table.heapBytes == bytes)
        // Past it, the table grows as before.
        let extra = table.id(for: [0x41, 0x300, 0x301])!
        #expect(table[extra] == [0x41, 0x300, 0x301])
        #expect(table.count == 21)
    }

    @Test("A table takes room for 64 styles with its first, and keeps it through a reset")
    func aTableTakesRoomForItsFirstStylesAndKeepsIt() {
        var table = StyleTable()
        var keys: [StyleKey] = []
        // Direct colours with an attribute are not inline: each is an entry.
        for index in 0..<StyleTable.firstCapacity - 1 {
            let style = Style(foreground: .rgb(UInt8(index), 1, 2), flags: .italic)
            keys.append(table.key(for: style)!)
            if index == 0 { #expect(table.styles.capacity >= StyleTable.firstCapacity) }
        }
        let capacity = table.styles.capacity
        for (index, key) in keys.enumerated() {
            #expect(table[key] == Style(foreground: .rgb(UInt8(index), 1, 2), flags: .italic))
        }
        table.removeAll()
        #expect(table.count == 1)
        #expect(table.styles.capacity == capacity)
        let key = table.key(for: Style(foreground: .rgb(9, 9, 9), flags: .bold))!
        #expect(table[key] == Style(foreground: .rgb(9, 9, 9), flags: .bold))
        #expect(table.styles.capacity == capacity)
    }

    @Test("A link compaction keeps the table's storage, and the links after it fill it again")
    func aLinkCompactionKeepsTheTablesStorage() throws {
        var table = HyperlinkTable(limit: 1_024, byteLimit: 65_536)
        func add(_ index: Int) -> UInt16? {
            Array("https://example.org/\(index)/".utf8).withUnsafeBufferPointer { table.id(uri: $0, linkID: nil) }
        }
        for index in 0..<300 { _ = try #require(add(index)) }
        let (entries, slots) = (Self.address(table.entries), Self.address(table.slots))
        var counted = Set<UnsafeRawPointer>()
        let bytes = table.heapBytes(counted: &counted)
        // Every third link named: each found again by its bytes at its new
        // id, in order; the others dropped.
        let map = compact(&table, keeping: (0...300).map { $0 != 0 && $0 % 3 == 0 })
        #expect(table.count == 101)
        for index in 0..<300 {
            let old = index + 1
            #expect(map[old] == (old % 3 == 0 ? UInt16(old / 3) : 0), "link \(index)")
            if old % 3 == 0 { #expect(table[map[old]] == Hyperlink(uri: "https://example.org/\(index)/")) }
            if old % 3 == 0 { #expect(add(index) == map[old]) }
        }
        #expect(Self.address(table.entries) == entries && Self.address(table.slots) == slots)
        // As many new links again: the same storage, which did not grow.
        for index in 300..<500 { _ = try #require(add(index)) }
        #expect(Self.address(table.entries) == entries && Self.address(table.slots) == slots)
        counted = []
        #expect(table.heapBytes(counted: &counted) == bytes)
        #expect(add(2) == 1 && add(499) == 300)
    }

    @Test("A cluster compaction keeps the table's storage, and the clusters after it fill it again")
    func aClusterCompactionKeepsTheTablesStorage() {
        var table = ClusterTable()
        // Letters of Latin Extended Additional with a mark, or two: no pair
        // an id holds.
        func cluster(_ index: Int) -> [UInt32] {
            [0x1E00 + UInt32(index % 200), 0x300 + UInt32(index / 200)] + (index % 2 == 0 ? [0x301] : [])
        }
        func add(_ index: Int) -> UInt32? { table.id(for: cluster(index)) }
        let added = (0..<3_000).compactMap(add)
        #expect(added == (0..<3_000).map(UInt32.init))
        let storage = (Self.address(table.scalars), Self.address(table.ends), Self.address(table.slots))
        var counted = Set<UnsafeRawPointer>()
        let bytes = table.heapBytes(counted: &counted)
        // Every third named: each found again by its scalars at its new id,
        // in order; the others dropped.
        let map = compact(&table, keeping: (0..<3_000).map { $0 % 3 == 0 })
        #expect(table.count == 1_000)
        for index in stride(from: 0, to: 3_000, by: 3) {
            #expect(map[index] == UInt32(index / 3), "cluster \(index)")
            #expect(Array(table[map[index]]) == cluster(index))
            let found = add(index)
            #expect(found == map[index])
        }
        #expect(Self.address(table.scalars) == storage.0 && Self.address(table.ends) == storage.1)
        #expect(Self.address(table.slots) == storage.2)
        // As many new clusters again: the same storage, which did not grow.
        let more = (3_000..<5_000).compactMap(add)
        #expect(more == (1_000..<3_000).map(UInt32.init))
        #expect(Self.address(table.scalars) == storage.0 && Self.address(table.ends) == storage.1)
        #expect(Self.address(table.slots) == storage.2)
        counted = []
        #expect(table.heapBytes(counted: &counted) == bytes)
        let (dropped, last) = (add(1), add(4_999))
        #expect(dropped == 3_000 && last == 2_999)
    }

    /// The address of an array's storage.
    static func address<Element>(_ array: [Element]) -> UnsafeRawPointer? {
        array.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }

    @Test("An empty table's reset writes nothing: a copy's storage stays shared with it")
    func anEmptyTablesResetLeavesSharedStorageShared() {
        // A grid makes its pages' tables as copies of one, sharing their
        // arrays; a reset of an era whose page named no link (or no style
        // but the default) must not copy them: that was an allocation in
        // the steady state of output with styles and no links.
        var links = HyperlinkTable()
        let linksCopy = links
        links.removeAll()
        #expect(Self.address(links.entries) == Self.address(linksCopy.entries))
        #expect(Self.address(links.slots) == Self.address(linksCopy.slots))
        var styles = StyleTable()
        _ = styles.key(for: Style(foreground: .rgb(1, 2, 3), flags: .italic))
        styles.removeAll()
        let stylesCopy = styles
        styles.removeAll()
        #expect(Self.address(styles.styles) == Self.address(stylesCopy.styles))
        // Emptied, each still works as a fresh table does.
        let uri = Array("https://example.com".utf8)
        let id = uri.withUnsafeBufferPointer { links.id(uri: $0, linkID: nil) }
        #expect(id == 1)
        #expect(links[1] == Hyperlink(uri: "https://example.com"))
        #expect(linksCopy.count == 1)
        let key = styles.key(for: Style(foreground: .rgb(4, 5, 6), flags: .italic))!
        #expect(styles[key] == Style(foreground: .rgb(4, 5, 6), flags: .italic))
        #expect(stylesCopy.count == 1)
        var clusters = ClusterTable()
        _ = clusters.id(for: [0x65, 0x20D7])
        clusters.removeAll()
        let clustersCopy = clusters
        clusters.removeAll()
        #expect(Self.storage(clusters) == Self.storage(clustersCopy))
        let cluster = clusters.id(for: [0x65, 0x20D7])!
        #expect(clusters[cluster] == [0x65, 0x20D7])
        #expect(clustersCopy.count == 0)
    }

    @Test("A table with entries is still emptied by a reset")
    func aTableWithEntriesIsEmptied() {
        var links = HyperlinkTable()
        let uri = Array("https://example.com/a".utf8)
        _ = uri.withUnsafeBufferPointer { links.id(uri: $0, linkID: nil) }
        #expect(links.count == 2)
        links.removeAll()
        #expect(links.count == 1)
        // The link is gone: interning it again gives it the first id anew,
        // and another link the next.
        #expect(uri.withUnsafeBufferPointer { links.id(uri: $0, linkID: nil) } == 1)
        let other = Array("https://example.com/b".utf8)
        #expect(other.withUnsafeBufferPointer { links.id(uri: $0, linkID: nil) } == 2)
        var clusters = ClusterTable()
        _ = clusters.id(for: [0x61, 0x20D0])
        #expect(clusters.count == 1)
        clusters.removeAll()
        #expect(clusters.count == 0)
    }

    @Test("The title stack takes room for its whole depth with its first push")
    func theTitleStackTakesItsWholeDepthAtOnce() {
        let terminal = Terminal(columns: 10, rows: 2, scrollback: 0)
        #expect(terminal.state.titleStack.capacity < Limits.titleStackDepth)
        terminal.feed(Array("\u{1B}]2;one\u{07}\u{1B}[22;0t".utf8))
        let capacity = terminal.state.titleStack.capacity
        #expect(capacity >= Limits.titleStackDepth)
        // Pushes up to the depth, and past it (the oldest dropped), keep it.
        for index in 0..<(Limits.titleStackDepth + 3) {
            terminal.feed(Array("\u{1B}]2;t\(index)\u{07}\u{1B}[22;0t".utf8))
        }
        #expect(terminal.state.titleStack.count == Limits.titleStackDepth)
        #expect(terminal.state.titleStack.capacity == capacity)
        // The newest 10 of the 14 pushes ("one", t0…t12) are kept: the pops
        // give t12 down to t3.
        for index in stride(from: Limits.titleStackDepth + 2, through: 3, by: -1) {
            terminal.feed(Array("\u{1B}[23;0t".utf8))
            #expect(terminal.title == "t\(index)")
        }
        #expect(terminal.state.titleStack.isEmpty)
    }

    @Test("The storage estimate counts a table's storage once however many pages share it")
    func sharedTableStorageCountsOnce() throws {
        // One page to a row. A truecolor character on each of the first four
        // rows gives those pages a style table of their own; their link and
        // cluster tables stay the ones every page shares.
        func address<Element>(_ array: [Element]) -> UnsafeRawPointer? {
            array.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        }
        let terminal = Terminal(columns: 10, rows: 6, scrollback: 0, rowsPerPage: 1)
        var input: [UInt8] = []
        for row in 0..<4 { input += Array("\u{1B}[\(row + 1);1H\u{1B}[3;38;2;1;2;\(row)mx".utf8) }
        terminal.feed(input)
        let pages = terminal.state.primary.pages
        // The last page's rows were never written: its tables are the shared ones.
        let shared = try #require(pages.last)
        let styled = pages.filter { address($0.styles.styles) != address(shared.styles.styles) }
        try #require(styled.count == 4)
        for page in styled {
            try #require(address(page.links.entries) == address(shared.links.entries))
            try #require(address(page.clusters.scalars) == address(shared.clusters.scalars))
        }
        // The primary screen's tables: each buffer by its own estimate, the
        // shared ones once. (Array
        // capacities come from the allocator's block sizes, so the figure is
        // taken from these tables, not from another terminal's.)
        let expected =
            HeapEstimate.array(pages, of: PageTables.self)
            + shared.styles.heapBytes + shared.links.heapBytes + shared.clusters.heapBytes
            + styled.reduce(0) { $0 + $1.styles.heapBytes }
        var usage = Terminal.StorageUsage(cellBytes: 0, rowBytes: 0, tableBytes: 0, cells: 0)
        terminal.state.primary.addStorageUsage(to: &usage)
        #expect(usage.tableBytes == expected)
    }

    /// Adds the link `https://example.org/<name>/` to `table`.
    static func addLink(_ name: String, to table: inout HyperlinkTable) -> UInt16? {
        Array("https://example.org/\(name)/".utf8).withUnsafeBufferPointer { table.id(uri: $0, linkID: nil) }
    }

    @Test("Two link tables trade keys' buffers without allocating, and each finds its links as before")
    func linkTablesTradeKeyBuffers() throws {
        // A table that once held 400 links and now holds 3, and one of 40
        // whose buffer is full.
        var large = HyperlinkTable()
        for index in 0..<400 { _ = try #require(Self.addLink("old/\(index)", to: &large)) }
        large.removeAll()
        let largeIDs = try (0..<3).map { try #require(Self.addLink("large/\($0)", to: &large)) }
        var small = HyperlinkTable()
        let smallIDs = try (0..<40).map { try #require(Self.addLink("small/\($0)", to: &small)) }
        let (largeCapacity, smallCapacity) = (large.keyBufferCapacity, small.keyBufferCapacity)
        try #require(largeCapacity > 2 * smallCapacity)
        var counted = Set<UnsafeRawPointer>()
        let heapBytes = large.heapBytes(counted: &counted) + small.heapBytes(counted: &counted)

        small.tradeKeyBuffers(with: &large)
        #expect(small.keyBufferCapacity == largeCapacity && large.keyBufferCapacity == smallCapacity)
        counted = []
        #expect(large.heapBytes(counted: &counted) + small.heapBytes(counted: &counted) == heapBytes)
        for (index, id) in smallIDs.enumerated() {
            #expect(small[id] == Hyperlink(uri: "https://example.org/small/\(index)/"))
            #expect(Self.addLink("small/\(index)", to: &small) == id)
        }
        for (index, id) in largeIDs.enumerated() {
            #expect(large[id] == Hyperlink(uri: "https://example.org/large/\(index)/"))
            #expect(Self.addLink("large/\(index)", to: &large) == id)
        }
        // The small table's next links fit the larger buffer it took.
        for index in 40..<200 { _ = try #require(Self.addLink("small/\(index)", to: &small)) }
        #expect(small.keyBufferCapacity == largeCapacity)
    }

    @Test("A page's link table that outgrows its keys' buffer takes a larger one another table does not need")
    func aLinkTableTakesAnotherTablesLargerBuffer() throws {
        var grid = Grid(columns: 80, rows: 24, scrollbackLimit: 1_000)
        try #require(grid.pages.count >= 4)
        func add(_ name: String, page: Int) -> UInt16 {
            Array("https://example.org/\(name)/".utf8).withUnsafeBufferPointer {
                grid.linkID(uri: $0, linkID: nil, page: page)
            }
        }
        func capacities() -> [Int] { grid.pages.map(\.links.keyBufferCapacity) }
        // Table 2 fills the buffer it grew to for 150 links or more (past
        // `Grid.leastLentCapacity` when it grows)...
        var ids: [UInt16] = (0..<150).map { add("page/\($0)", page: 2) }
        var index = ids.count
        repeat {
            ids.append(add("page/\(index)", page: 2))
            index += 1
        } while grid.pages[2].links.keyBytes + 40 <= grid.pages[2].links.keyBufferCapacity
        // ...while table 0 held 2,000 links in an era now over: reset, its
        // buffer is empty.
        for index in 0..<2_000 { _ = add("era/\(index)", page: 0) }
        grid.resetTables(0)
        let before = capacities()
        try #require(before[0] > 2 * before[2] && 2 * before[2] >= Grid.leastLentCapacity)
        // ...and one more takes table 0's buffer, giving table 0 its own:
        // no buffer grew.
        for _ in 0..<4 {
            ids.append(add("page/\(index)", page: 2))
            index += 1
        }
        var after = before
        after.swapAt(0, 2)
        #expect(capacities() == after)
        for (index, id) in ids.enumerated() {
            #expect(grid.pages[2].links[id] == Hyperlink(uri: "https://example.org/page/\(index)/"))
        }
    }

    @Test("A table whose buffer a page's copy shares still lends it, and both read their links after the trade")
    func aSharedBufferLendsAndBothReadTheirLinks() throws {
        var grid = Grid(columns: 80, rows: 24, scrollbackLimit: 1_000)
        func add(_ name: String, page: Int) -> UInt16 {
            Array("https://example.org/\(name)/".utf8).withUnsafeBufferPointer {
                grid.linkID(uri: $0, linkID: nil, page: page)
            }
        }
        // Table 2 fills the buffer it grew to for 150 links or more; table 0
        // has a large buffer, kept through an era's reset, and three links,
        // which fit table 2's; a copy of its tables (what a snapshot keeps)
        // shares its arrays.
        var ids: [UInt16] = (0..<150).map { add("page/\($0)", page: 2) }
        repeat {
            ids.append(add("page/\(ids.count)", page: 2))
        } while grid.pages[2].links.keyBytes + 40 <= grid.pages[2].links.keyBufferCapacity
        for index in 0..<2_000 { _ = add("era/\(index)", page: 0) }
        grid.resetTables(0)
        let lenderIDs = (0..<3).map { add("lender/\($0)", page: 0) }
        let copy = grid.pages[0]
        let lenderCapacity = grid.pages[0].links.keyBufferCapacity
        try #require(lenderCapacity > 2 * grid.pages[2].links.keyBufferCapacity)
        try #require(grid.pages[0].links.keyBytes <= grid.pages[2].links.keyBufferCapacity)
        for _ in 0..<4 { ids.append(add("page/\(ids.count)", page: 2)) }
        // Table 0 traded: it holds table 2's smaller buffer now (the write
        // copied the one the copy shares, as any write to it would).
        #expect(grid.pages[0].links.keyBufferCapacity < lenderCapacity)
        for (index, id) in ids.enumerated() {
            #expect(grid.pages[2].links[id] == Hyperlink(uri: "https://example.org/page/\(index)/"))
        }
        for (index, id) in lenderIDs.enumerated() {
            let link = Hyperlink(uri: "https://example.org/lender/\(index)/")
            #expect(grid.pages[0].links[id] == link && copy.links[id] == link)
            #expect(add("lender/\(index)", page: 0) == id)
        }
        #expect(copy.links.count == 4 && grid.pages[0].links.count == 4)
    }

    @Test("A search for a lender looks at a bounded number of tables, and the next one goes on from there")
    func aSearchForALenderIsBounded() throws {
        // 1,000 columns and 100,000 lines: 3,126 pages of 32 rows, two
        // tables each, far more than one search looks at.
        var grid = Grid(columns: 1_000, rows: 24, scrollbackLimit: 100_000)
        try #require(grid.pages.count > 4 * Grid.lenderSearchWidth)
        func add(_ name: String, page: Int) {
            _ = Array("https://example.org/\(name)/".utf8).withUnsafeBufferPointer {
                grid.linkID(uri: $0, linkID: nil, page: page)
            }
        }
        // Before any era's links were emptied, nothing is searched.
        for index in 0..<1_000 { add("first/\(index)", page: 4) }
        #expect(grid.lenderSearchStart == 0)
        for index in 0..<10 { add("era/\(index)", page: 0) }
        grid.resetTables(0)
        // Table 2's buffer grows past 4 KiB, 8 KiB and 16 KiB: each growth
        // searches the next `lenderSearchWidth` tables, and finds no lender.
        let capacity = grid.pages[2].links.keyBufferCapacity
        for index in 0..<1_000 { add("page/\(index)", page: 2) }
        #expect(grid.pages[2].links.keyBufferCapacity > 4 * max(capacity, Grid.leastLentCapacity))
        let searched = grid.lenderSearchStart
        #expect(searched > 0 && searched % Grid.lenderSearchWidth == 0 && searched < grid.pages.count)
    }
}
