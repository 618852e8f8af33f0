/// Interns grapheme clusters (a base character followed by combining marks,
/// joiners or variation selectors) so that a cell can refer to one by id.
///
/// Clusters are rare, so they live out of line as Ghostty and libvterm keep
/// them; the same cluster printed many times is stored once. The scalars of
/// all the table's clusters are one array, each cluster a range of it: a
/// page takes its clusters again at each era and each new page (780 of
/// them for decomposed Latin text, every 128 rows at 200 columns), and an
/// array per cluster was an allocation each, with its header, and a free
/// when the era ended (callgrind, 2 MiB of unicode_combining at 200×50:
/// 100K new clusters, about 775 instructions each).
struct ClusterTable {
    // MARK: Pairs held in the id

    /// Bit 20 of an id: the cluster is one of two common pairs, held in the
    /// id itself rather than in a table:
    /// - bit 19 clear: a letter below U+1000 (Latin, Greek, Cyrillic,
    ///   Armenian, Hebrew, Arabic, the Indic scripts, Thai) in bits 0–11 and
    ///   a combining diacritical mark, U+0300–U+036F, as its offset from
    ///   U+0300 in bits 12–18. Decomposed (NFD) text is nearly all such pairs.
    /// - bit 19 set: a character below U+20000 in bits 0–16 and, in bits
    ///   17–18, the scalar that follows it (``pairFollowers``): a variation
    ///   selector (VS16 for emoji presentation, VS15 for text) or a zero
    ///   width joiner, as emoji sequences begin (a ZWJ sequence printed a
    ///   scalar at a time is its first emoji and the joiner in one cell).
    ///
    /// In a table each pair was 12 bytes of scalars and ends plus its slot
    /// in the index, in every page and era (unicode_combining at 80×24: 828
    /// KB of tables, 1.03 bytes a cell). Table ids stay below
    /// ``Limits/clustersPerPage``, under this bit.
    static let pairFlag: UInt32 = Cell.clusterPairFlag
    /// Bit 19 of a pair's id: a character and a ``pairFollowers`` scalar,
    /// not a letter and a diacritic.
    static let followerFlag: UInt32 = 1 << 19
    /// The first mark a letter's pair holds: U+0300, the start of the
    /// Combining Diacritical Marks block.
    static let pairMarkBase: UInt32 = 0x300
    /// The marks a letter's pair holds: U+0300–U+036F, the whole block
    /// (U+0370 on are Greek letters).
    static let pairMarks: UInt32 = 0x70
    /// Letters below U+1000: 12 bits of the id.
    static let pairLetterLimit: UInt32 = 0x1000
    /// Where the mark's offset from ``pairMarkBase`` sits in the id.
    static let pairMarkShift: UInt32 = 12
    /// The scalars that follow a character in a pair of the second kind, by
    /// their number in bits 17–18: VS16, VS15, ZWJ.
    static let pairFollowers: (UInt32, UInt32, UInt32) = (0xFE0F, 0xFE0E, 0x200D)
    /// Characters below U+20000 (every emoji): 17 bits of the id.
    static let pairCharacterLimit: UInt32 = 0x2_0000
    /// Where the follower's number sits in the id.
    static let pairFollowerShift: UInt32 = 17

    /// The id of the cluster `base` + `mark` held in the id itself, or nil
    /// when the pair is not one an id holds.
    @inline(__always)
    static func pairID(base: UInt32, mark: UInt32) -> UInt32? {
        let offset = mark &- pairMarkBase
        if offset < pairMarks {
            return base < pairLetterLimit ? pairFlag | offset << pairMarkShift | base : nil
        }
        guard base < pairCharacterLimit else { return nil }
        let follower: UInt32
        switch mark {
        case pairFollowers.0: follower = 0
        case pairFollowers.1: follower = 1
        case pairFollowers.2: follower = 2
        default: return nil
        }
        return pairFlag | followerFlag | follower << pairFollowerShift | base
    }

    /// The two scalars of a pair's id (``pairID(base:mark:)``).
    @inline(__always)
    static func pairScalars(_ id: UInt32) -> (base: UInt32, mark: UInt32) {
        if id & followerFlag == 0 {
            return (id & (pairLetterLimit - 1), pairMarkBase + (id & ~pairFlag) >> pairMarkShift)
        }
        let follower: UInt32
        switch id >> pairFollowerShift & 3 {
        case 0: follower = pairFollowers.0
        case 1: follower = pairFollowers.1
        default: follower = pairFollowers.2
        }
        return (id & (pairCharacterLimit - 1), follower)
    }

    /// True when `id` holds its cluster itself (``pairID(base:mark:)``) and
    /// names no entry of a table.
    @inline(__always)
    static func isPair(_ id: UInt32) -> Bool { id & pairFlag != 0 }

    // MARK: Clusters in the table

    /// The scalars of every cluster, in id order.
    private(set) var scalars: [UInt32] = []
    /// Where each cluster's scalars end in `scalars`, by id; a cluster
    /// starts where the one before it ends.
    private(set) var ends: [UInt32] = []
    /// Open addressing over the clusters' hashes (``hash(_:)``): slots hold
    /// an id + 1 (0 = empty) and are at most half full; none until the first
    /// cluster. Looked up by a buffer of scalars, so that finding a cluster
    /// the page has already allocates nothing (a `Dictionary` keyed by
    /// arrays needed an array for every lookup, and hashed it with SipHash).
    private(set) var slots: [UInt32] = []

    var count: Int { ends.count }

    /// Empties the table, keeping its arrays' capacity (an era's reset): the
    /// next era of the page takes its clusters without allocating. An empty
    /// table is left as it is (see `HyperlinkTable.removeAll()`).
    mutating func removeAll() {
        guard !ends.isEmpty else { return }
        scalars.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// A page keeps ``Limits/clustersPerPage`` clusters at most, each of at
    /// most ``Limits/clusterScalars`` scalars, then compacts its table.
    var isFull: Bool { ends.count >= Limits.clustersPerPage }

    /// The range of `scalars` cluster `id` takes.
    @inline(__always)
    private func range(_ id: Int) -> Range<Int> {
        (id == 0 ? 0 : Int(ends[id &- 1]))..<Int(ends[id])
    }

    /// The scalars of cluster `id`: a pair the id holds, or the table's.
    subscript(id: UInt32) -> ClusterScalars {
        Self.isPair(id) ? ClusterScalars(pair: id) : ClusterScalars(scalars[range(Int(id))])
    }

    /// The scalars of cluster `id`, or nil when the table has no such id.
    func scalars(_ id: UInt32) -> ClusterScalars? {
        Self.isPair(id) || Int(id) < count ? self[id] : nil
    }

    /// How many scalars cluster `id` has.
    func count(of id: UInt32) -> Int { Self.isPair(id) ? 2 : range(Int(id)).count }

    /// Copies cluster `id`'s scalars to the start of `buffer` (room for
    /// them at least), holding no reference to the table's storage after.
    func copy(_ id: UInt32, into buffer: UnsafeMutableBufferPointer<UInt32>) {
        if Self.isPair(id) {
            (buffer[0], buffer[1]) = Self.pairScalars(id)
            return
        }
        let range = range(Int(id))
        scalars.withUnsafeBufferPointer { scalars in
            _ = buffer.initialize(from: UnsafeBufferPointer(rebasing: scalars[range]))
        }
    }

    /// FNV-1a over the scalars, folded: clusters are a few scalars long.
    @inline(__always)
    static func hash(_ scalars: UnsafeBufferPointer<UInt32>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for scalar in scalars { hash = (hash ^ UInt64(scalar)) &* 0x0000_0100_0000_01B3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    /// The id of `scalars`, adding it if new; nil when the table is full.
    mutating func id<C: Collection<UInt32>>(for scalars: C) -> UInt32? {
        let found = scalars.withContiguousStorageIfAvailable { id(for: $0) }
        return found ?? Array(scalars).withUnsafeBufferPointer { id(for: $0) }
    }

    /// The id of `scalars`, adding it if new; nil when the table is full. A
    /// pair an id holds (``pairID(base:mark:)``) gets that id, always: two
    /// cells with the same cluster have the same content.
    mutating func id(for cluster: UnsafeBufferPointer<UInt32>) -> UInt32? {
        if cluster.count == 2, let id = Self.pairID(base: cluster[0], mark: cluster[1]) { return id }
        let hash = Self.hash(cluster)
        if !slots.isEmpty, let id = find(cluster, hash: hash) { return id }
        guard !isFull else { return nil }
        let id = UInt32(ends.count)
        // One at a time: a cluster is a few scalars, and the generic
        // `append(contentsOf:)` cost about 70 instructions a cluster.
        for scalar in cluster { scalars.append(scalar) }
        ends.append(UInt32(scalars.count))
        if ends.count * 2 > slots.count {
            rebuildIndex(capacity: max(16, slots.count * 2))
        } else {
            insertIntoIndex(id: id, hash: hash)
        }
        return id
    }

    /// The id of the cluster equal to `cluster` (whose hash is `hash`), by
    /// the index, or nil.
    private func find(_ cluster: UnsafeBufferPointer<UInt32>, hash: Int) -> UInt32? {
        slots.withUnsafeBufferPointer { slots in
            scalars.withUnsafeBufferPointer { scalars in
                let mask = slots.count &- 1
                var slot = hash & mask
                while slots[slot] != 0 {
                    let id = slots[slot] &- 1
                    let range = range(Int(id))
                    if range.count == cluster.count
                        && UnsafeBufferPointer(rebasing: scalars[range]).elementsEqual(cluster)
                    {
                        return id
                    }
                    slot = (slot &+ 1) & mask
                }
                return nil
            }
        }
    }

    private mutating func insertIntoIndex(id: UInt32, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = id + 1
    }

    /// Indexes every cluster again in `capacity` slots (a power of two),
    /// through the arrays' buffers: one uniqueness check for the index, not
    /// one and the bounds checks of three arrays a cluster (a page's table
    /// grows by doubling from 16 slots as its clusters come, each new page
    /// and era's again).
    private mutating func rebuildIndex(capacity: Int) {
        // At its size the index is zeroed where it is: a compaction in the
        // middle of a feed allocates nothing.
        if capacity == slots.count {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        } else {
            slots = [UInt32](repeating: 0, count: capacity)
        }
        let mask = capacity &- 1
        scalars.withUnsafeBufferPointer { scalars in
            ends.withUnsafeBufferPointer { ends in
                slots.withUnsafeMutableBufferPointer { slots in
                    var start = 0
                    for id in ends.indices {
                        let end = Int(ends[id])
                        var slot = Self.hash(UnsafeBufferPointer(rebasing: scalars[start..<end])) & mask
                        while slots[slot] != 0 { slot = (slot &+ 1) & mask }
                        slots[slot] = UInt32(truncatingIfNeeded: id &+ 1)
                        start = end
                    }
                }
            }
        }
    }

    /// Keeps only the clusters in use, renumbered in their order, as
    /// ``HyperlinkTable`` compacts its links. `markUsed` is called with a
    /// function to report each table id in use (pairs are in no table);
    /// `renumber` then gets the map from old id to new one (any value for a
    /// cluster dropped). The index's slots (at least twice as many as there
    /// are clusters) hold that map, the kept scalars and ends move down in
    /// their arrays, and the index is made anew at its size, so a compaction
    /// allocates nothing (it made three arrays and a map, and the table grew
    /// its arrays back as the page's clusters came again).
    mutating func compact(
        markUsed: ((UInt32) -> Void) -> Void, renumber: (UnsafeBufferPointer<UInt32>) -> Void
    ) {
        let count = count
        guard count > 0 else { return }
        var kept = 0
        var keptScalars = 0
        slots.withUnsafeMutableBufferPointer { map in
            map.update(repeating: 0)
            markUsed { map[Int($0)] = 1 }
            scalars.withUnsafeMutableBufferPointer { scalars in
                ends.withUnsafeMutableBufferPointer { ends in
                    var start = 0
                    for id in 0..<count {
                        let end = Int(ends[id])
                        defer { start = end }
                        guard map[id] != 0 else { continue }
                        map[id] = UInt32(truncatingIfNeeded: kept)
                        // Clusters lie end to end in the order of their ids,
                        // so a kept one moves down, never onto one still to
                        // move (the copy may overlap its own old place).
                        if start != keptScalars, let base = scalars.baseAddress {
                            (base + keptScalars).update(from: base + start, count: end - start)
                        }
                        keptScalars += end - start
                        ends[kept] = UInt32(truncatingIfNeeded: keptScalars)
                        kept += 1
                    }
                }
            }
            renumber(UnsafeBufferPointer(rebasing: map[..<count]))
        }
        scalars.removeSubrange(keptScalars...)
        ends.removeSubrange(kept...)
        // The index keeps its size: the table filled it once and will again.
        rebuildIndex(capacity: slots.count)
    }
}

/// The scalars of one cluster, as ``ClusterTable`` gives them: a range of
/// its array, or the two a pair's id holds (``ClusterTable/pairID(base:mark:)``).
struct ClusterScalars: RandomAccessCollection, Equatable, ExpressibleByArrayLiteral, Sendable {
    /// The table's scalars; empty for a pair.
    private let stored: ArraySlice<UInt32>
    /// The pair's id (``ClusterTable/pairFlag`` set), or 0.
    private let pair: UInt32

    init(_ stored: ArraySlice<UInt32>) {
        self.stored = stored
        self.pair = 0
    }

    init(arrayLiteral scalars: UInt32...) { self.init(scalars[...]) }

    init(pair id: UInt32) {
        self.stored = []
        self.pair = id
    }

    var startIndex: Int { 0 }
    var endIndex: Int { pair == 0 ? stored.count : 2 }

    subscript(position: Int) -> UInt32 {
        guard pair != 0 else { return stored[stored.startIndex + position] }
        precondition(position == 0 || position == 1, "index out of range")
        let (base, mark) = ClusterTable.pairScalars(pair)
        return position == 0 ? base : mark
    }

    static func == (lhs: ClusterScalars, rhs: ClusterScalars) -> Bool { lhs.elementsEqual(rhs) }

    /// Calls `body` with the scalars in contiguous memory (a pair's on the
    /// stack).
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        guard pair != 0 else { return try stored.withUnsafeBufferPointer(body) }
        let scalars = ClusterTable.pairScalars(pair)
        return try withUnsafeBytes(of: scalars) { try body($0.bindMemory(to: UInt32.self)) }
    }
}

/// Cluster extensions seen before: (cell content word << 32 | added scalar)
/// in a page → the id of the cluster they make there. Two-way set
/// associative: a key has a set of two entries, the newest first; a new key
/// takes the first entry and moves the one there to the second, dropping
/// the older. A miss only costs the full lookup. A `Dictionary` here spent
/// most of a combining mark's time in SipHash; direct-mapped (one entry a
/// key, 2,048 entries), the 780 letter-and-mark pairs of decomposed Latin
/// text shared entries often enough that one mark in ten missed (callgrind,
/// 2 MiB of unicode_combining at 80×24: 66K misses of 653K marks, each
/// about 500 instructions). Allocated on first use
/// (``Limits/clusterExtensionSlots`` entries of 16 bytes), so text without
/// marks pays nothing.
struct ClusterExtensionCache {
    /// One entry: its key (0 = empty: an added scalar is never 0), the page
    /// whose ids the key and the cluster are, and the cluster.
    struct Entry {
        var key: UInt64
        var page: Int32
        var id: UInt32
    }

    /// Sets of two entries, the newer first; empty until the first insert.
    private var entries: [Entry] = []

    /// The first entry of `key`'s set: multiplicative hash, whose top bits
    /// number the sets (11 for 2,048).
    @inline(__always)
    static func set(_ key: UInt64) -> Int {
        let setBits = (Limits.clusterExtensionSlots / 2).trailingZeroBitCount
        return Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - setBits)) &<< 1
    }

    @inline(__always)
    func id(for key: UInt64, page: Int) -> UInt32? {
        guard !entries.isEmpty else { return nil }
        let first = Self.set(key)
        let page = Int32(truncatingIfNeeded: page)
        return entries.withUnsafeBufferPointer { entries in
            let newer = entries[first]
            if newer.key == key && newer.page == page { return newer.id }
            let older = entries[first &+ 1]
            return older.key == key && older.page == page ? older.id : nil
        }
    }

    mutating func insert(_ id: UInt32, for key: UInt64, page: Int) {
        if entries.isEmpty {
            entries = [Entry](repeating: Entry(key: 0, page: 0, id: 0), count: Limits.clusterExtensionSlots)
        }
        let first = Self.set(key)
        // Through the buffer: one uniqueness check, no bounds checks (the
        // set's two entries are within the slots by `set(_:)`).
        entries.withUnsafeMutableBufferPointer { entries in
            entries[first &+ 1] = entries[first]
            entries[first] = Entry(key: key, page: Int32(truncatingIfNeeded: page), id: id)
        }
    }

    mutating func removeAll() {
        guard !entries.isEmpty else { return }
        entries.withUnsafeMutableBufferPointer { $0.update(repeating: Entry(key: 0, page: 0, id: 0)) }
    }
}

extension ClusterTable: HeapCounted {
    /// The heap bytes the table holds (the clusters' scalars, their ends and
    /// the index) in buffers not in `counted`, which it adds there.
    func heapBytes(counted: inout Set<UnsafeRawPointer>) -> Int {
        HeapEstimate.array(scalars, of: UInt32.self, counted: &counted)
            + HeapEstimate.array(ends, of: UInt32.self, counted: &counted)
            + HeapEstimate.array(slots, of: UInt32.self, counted: &counted)
    }
}
