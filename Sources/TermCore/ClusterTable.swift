/// Interns grapheme clusters (a base character followed by combining marks,
/// joiners or variation selectors) so that a cell can refer to one by id.
///
/// Clusters are rare, so they live out of line as Ghostty and libvterm keep
/// them; the same cluster printed many times is stored once.
struct ClusterTable {
    /// The most scalars one cell keeps (base included). Marks past it are
    /// dropped and counted: no legitimate cluster comes close (the longest
    /// emoji ZWJ sequences have 10 scalars), and the cap bounds what
    /// "e" + 10,000 combining accents can cost.
    static let maxScalars = 32
    /// The most distinct clusters kept before the terminal compacts the table.
    static let capacity = 1 << 20

    private(set) var clusters: [[UInt32]] = []
    private var ids: [[UInt32]: UInt32] = [:]

    var count: Int { clusters.count }
    var isFull: Bool { clusters.count >= Self.capacity }

    subscript(id: UInt32) -> [UInt32] { clusters[Int(id)] }

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
