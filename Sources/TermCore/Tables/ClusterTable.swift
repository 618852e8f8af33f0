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
    /// The scalars of every cluster, in id order.
    private(set) var scalars: [UInt32] = []
    /// Where each cluster's scalars end in `scalars`, by id; a cluster
    /// starts where the one before it ends.
    private var ends: [UInt32] = []
    /// Open addressing over the clusters' hashes (``hash(_:)``): slots hold
    /// an id + 1 (0 = empty) and are at most half full; none until the first
    /// cluster. Looked up by a buffer of scalars, so that finding a cluster
    /// the page has already allocates nothing (a `Dictionary` keyed by
    /// arrays needed an array for every lookup, and hashed it with SipHash).
    private var slots: [UInt32] = []

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

    subscript(id: UInt32) -> ArraySlice<UInt32> { scalars[range(Int(id))] }

    /// The scalars of cluster `id`, or nil when the table has no such id.
    func scalars(_ id: UInt32) -> ArraySlice<UInt32>? { Int(id) < count ? self[id] : nil }

    /// How many scalars cluster `id` has.
    func count(of id: UInt32) -> Int { range(Int(id)).count }

    /// Copies cluster `id`'s scalars to the start of `buffer` (room for
    /// them at least), holding no reference to the table's storage after.
    func copy(_ id: UInt32, into buffer: UnsafeMutableBufferPointer<UInt32>) {
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

    /// The id of `scalars`, adding it if new; nil when the table is full.
    mutating func id(for cluster: UnsafeBufferPointer<UInt32>) -> UInt32? {
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
        slots = [UInt32](repeating: 0, count: capacity)
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

    /// Keeps only the clusters `isUsed` marks; returns the map old id → new id.
    mutating func compact(keeping isUsed: [Bool]) -> [UInt32] {
        var remap = [UInt32](repeating: 0, count: count)
        var keptScalars: [UInt32] = []
        var keptEnds: [UInt32] = []
        for id in 0..<count where isUsed[id] {
            remap[id] = UInt32(keptEnds.count)
            keptScalars.append(contentsOf: scalars[range(id)])
            keptEnds.append(UInt32(keptScalars.count))
        }
        scalars = keptScalars
        ends = keptEnds
        var capacity = 16
        while count * 2 > capacity { capacity *= 2 }
        rebuildIndex(capacity: capacity)
        return remap
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
