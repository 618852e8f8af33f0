/// Interns grapheme clusters (a base character followed by combining marks,
/// joiners or variation selectors) so that a cell can refer to one by id.
///
/// Clusters are rare, so they live out of line as Ghostty and libvterm keep
/// them; the same cluster printed many times is stored once.
struct ClusterTable {
    private(set) var clusters: [[UInt32]] = []
    /// Open addressing over the clusters' hashes (``hash(_:)``): slots hold
    /// an id + 1 (0 = empty) and are at most half full; none until the first
    /// cluster. Looked up by a buffer of scalars, so that finding a cluster
    /// the page has already allocates nothing (a `Dictionary` keyed by
    /// arrays needed an array for every lookup, and hashed it with SipHash).
    private var slots: [UInt32] = []
    /// The arrays of the clusters an era's reset removed, emptied with their
    /// capacity, for the next clusters: a page whose era ends interns its
    /// clusters again in the next, and a new array for each made every era
    /// of text with marks allocate (unicode corpus, 16 MiB at 80×24: 408
    /// allocations in the second half of the feed). At most
    /// ``Limits/clustersPerPage``, as the table.
    private var spare: [[UInt32]] = []

    var count: Int { clusters.count }

    /// Empties the table, keeping the arrays' capacity (an era's reset):
    /// the clusters' arrays go to `spare`, the index is zeroed.
    mutating func removeAll() {
        while var cluster = clusters.popLast() {
            cluster.removeAll(keepingCapacity: true)
            spare.append(cluster)
        }
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }
    /// A page keeps ``Limits/clustersPerPage`` clusters at most, each of at
    /// most ``Limits/clusterScalars`` scalars, then compacts its table.
    var isFull: Bool { clusters.count >= Limits.clustersPerPage }

    subscript(id: UInt32) -> [UInt32] { clusters[Int(id)] }

    /// The scalars of cluster `id`, or nil when the table has no such id.
    func scalars(_ id: UInt32) -> [UInt32]? { Int(id) < clusters.count ? clusters[Int(id)] : nil }

    /// FNV-1a over the scalars, folded: clusters are a few scalars long.
    @inline(__always)
    static func hash(_ scalars: UnsafeBufferPointer<UInt32>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for scalar in scalars { hash = (hash ^ UInt64(scalar)) &* 0x0000_0100_0000_01B3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    /// The id of `scalars`, adding it if new; nil when the table is full.
    mutating func id(for scalars: [UInt32]) -> UInt32? {
        scalars.withUnsafeBufferPointer { id(for: $0) }
    }

    /// The id of `scalars`, adding it if new (into a spare array when there
    /// is one, else a new one: the only allocation); nil when the table is
    /// full.
    mutating func id(for scalars: UnsafeBufferPointer<UInt32>) -> UInt32? {
        let hash = Self.hash(scalars)
        if !slots.isEmpty {
            let mask = slots.count - 1
            var slot = hash & mask
            while slots[slot] != 0 {
                let id = slots[slot] - 1
                if clusters[Int(id)].elementsEqual(scalars) { return id }
                slot = (slot + 1) & mask
            }
        }
        guard !isFull else { return nil }
        let id = UInt32(clusters.count)
        if var cluster = spare.popLast() {
            cluster.append(contentsOf: scalars)
            clusters.append(cluster)
        } else {
            clusters.append(Array(scalars))
        }
        if clusters.count * 2 > slots.count {
            rebuildIndex(capacity: max(16, slots.count * 2))
        } else {
            insertIntoIndex(id: id, hash: hash)
        }
        return id
    }

    private mutating func insertIntoIndex(id: UInt32, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = id + 1
    }

    /// Indexes every cluster again in `capacity` slots (a power of two).
    private mutating func rebuildIndex(capacity: Int) {
        slots = [UInt32](repeating: 0, count: capacity)
        for id in clusters.indices {
            let hash = clusters[id].withUnsafeBufferPointer { Self.hash($0) }
            insertIntoIndex(id: UInt32(id), hash: hash)
        }
    }

    /// Keeps only the clusters `isUsed` marks; returns the map old id → new id.
    mutating func compact(keeping isUsed: [Bool]) -> [UInt32] {
        var remap = [UInt32](repeating: 0, count: clusters.count)
        var kept: [[UInt32]] = []
        for id in clusters.indices where isUsed[id] {
            remap[id] = UInt32(kept.count)
            kept.append(clusters[id])
        }
        clusters = kept
        var capacity = 16
        while clusters.count * 2 > capacity { capacity *= 2 }
        rebuildIndex(capacity: capacity)
        return remap
    }
}

/// Cluster extensions seen before: (cell content word << 32 | added scalar)
/// in a page → the id of the cluster they make there. Direct-mapped: a key
/// has one slot, a newer key in it replaces the older, and a miss only costs
/// the full lookup. A `Dictionary` here spent most of a combining mark's
/// time in SipHash. Allocated on first use (32 KiB), so text without marks
/// pays nothing.
struct ClusterExtensionCache {
    /// Keys by slot (0 = empty: an added scalar is never 0), the page whose
    /// ids the key and the cluster are, and the cluster.
    private var keys: [UInt64] = []
    private var pages: [Int32] = []
    private var ids: [UInt32] = []

    @inline(__always)
    static func slot(_ key: UInt64) -> Int {
        // Multiplicative hash; the top bits index the slots (11 for 2,048).
        Int(
            truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15)
                >> UInt64(64 - Limits.clusterExtensionSlots.trailingZeroBitCount))
    }

    @inline(__always)
    func id(for key: UInt64, page: Int) -> UInt32? {
        guard !keys.isEmpty else { return nil }
        let slot = Self.slot(key)
        return keys[slot] == key && pages[slot] == Int32(truncatingIfNeeded: page) ? ids[slot] : nil
    }

    mutating func insert(_ id: UInt32, for key: UInt64, page: Int) {
        if keys.isEmpty {
            keys = [UInt64](repeating: 0, count: Limits.clusterExtensionSlots)
            pages = [Int32](repeating: 0, count: Limits.clusterExtensionSlots)
            ids = [UInt32](repeating: 0, count: Limits.clusterExtensionSlots)
        }
        let slot = Self.slot(key)
        keys[slot] = key
        pages[slot] = Int32(truncatingIfNeeded: page)
        ids[slot] = id
    }

    mutating func removeAll() {
        guard !keys.isEmpty else { return }
        keys.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }
}

extension ClusterTable {
    /// The heap bytes the table holds: the clusters' scalars, the spare
    /// arrays and the index.
    var heapBytes: Int {
        var bytes = HeapEstimate.array(clusters, of: [UInt32].self) + HeapEstimate.array(slots, of: UInt32.self)
        bytes += HeapEstimate.array(spare, of: [UInt32].self)
        for cluster in clusters { bytes += HeapEstimate.array(cluster, of: UInt32.self) }
        for cluster in spare { bytes += HeapEstimate.array(cluster, of: UInt32.self) }
        return bytes
    }
}
