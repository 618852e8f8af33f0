/// Interns grapheme clusters (a base character followed by combining marks,
/// joiners or variation selectors) so that a cell can refer to one by id.
///
/// Clusters are rare, so they live out of line as Ghostty and libvterm keep
/// them; the same cluster printed many times is stored once.
struct ClusterTable {
    private(set) var clusters: [[UInt32]] = []
    private var ids: [[UInt32]: UInt32] = [:]

    var count: Int { clusters.count }
    /// A page keeps ``Limits/clustersPerPage`` clusters at most, each of at
    /// most ``Limits/clusterScalars`` scalars, then compacts its table.
    var isFull: Bool { clusters.count >= Limits.clustersPerPage }

    subscript(id: UInt32) -> [UInt32] { clusters[Int(id)] }

    /// The scalars of cluster `id`, or nil when the table has no such id.
    func scalars(_ id: UInt32) -> [UInt32]? { Int(id) < clusters.count ? clusters[Int(id)] : nil }

    /// The id of `scalars`, adding it if new; nil when the table is full.
    mutating func id(for scalars: [UInt32]) -> UInt32? {
        if let id = ids[scalars] { return id }
        guard !isFull else { return nil }
        let id = UInt32(clusters.count)
        clusters.append(scalars)
        ids[scalars] = id
        return id
    }

    /// Keeps only the clusters `isUsed` marks; returns the map old id → new id.
    mutating func compact(keeping isUsed: [Bool]) -> [UInt32] {
        var remap = [UInt32](repeating: 0, count: clusters.count)
        var kept: [[UInt32]] = []
        var keptIDs: [[UInt32]: UInt32] = [:]
        for id in clusters.indices where isUsed[id] {
            remap[id] = UInt32(kept.count)
            keptIDs[clusters[id]] = UInt32(kept.count)
            kept.append(clusters[id])
        }
        clusters = kept
        ids = keptIDs
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
    /// The heap bytes the table holds: the clusters' scalars (each array
    /// once: the index's keys share their storage) and the index.
    var heapBytes: Int {
        var bytes = HeapEstimate.array(clusters, of: [UInt32].self) + HeapEstimate.dictionary(ids)
        for cluster in clusters { bytes += HeapEstimate.array(cluster, of: UInt32.self) }
        return bytes
    }
}
