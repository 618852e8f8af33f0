/// The ids the links of one page were given in another by the copies
/// between them (DECCRA, a scroll between left and right margins), kept
/// while neither page's ids change: a link is looked up by its bytes (up to
/// 4 KiB) once, not at every copy. Two pairs of pages at a time: a screen of
/// at most a page's rows (24 of 512 at 80 columns) spans at most two pages,
/// so its copies, one way or the other, find every link they copied before.
/// Copies among more pages (a screen taller than a page: 32 rows at 1,000
/// columns) look up again what the pairs no longer hold, by the link's
/// stored hash (`HyperlinkTable.withKeyAndHash`), comparing its bytes.
struct LinkTranslation {
    /// The ids of one source page in one destination page.
    struct Pair {
        /// The pages, and their `PageTables.compactions` (which a compaction
        /// and an era's reset change), the ids are valid for.
        var sourcePage = -1
        var sourceEpoch = 0
        var page = -1
        var epoch = 0
        /// Counts the pairs kept here, so that starting a new one voids
        /// every entry without visiting them.
        var generation: UInt64 = 0
        /// For each id of the source page: `generation << 16 | id` in the
        /// destination page.
        var ids: [UInt64] = []

        func holds(sourcePage: Int, sourceEpoch: Int, page: Int, epoch: Int) -> Bool {
            sourcePage == self.sourcePage && sourceEpoch == self.sourceEpoch && page == self.page
                && epoch == self.epoch
        }
    }

    private(set) var pairs = [Pair(), Pair()]
    /// The pair not used last, which a new pair replaces.
    private var older = 0

    /// The id in `page` kept for link `id` of `sourcePage`, if both pages'
    /// ids are the same as when it was kept.
    mutating func id(_ id: UInt16, sourcePage: Int, sourceEpoch: Int, page: Int, epoch: Int) -> UInt16? {
        for index in pairs.indices
        where pairs[index].holds(sourcePage: sourcePage, sourceEpoch: sourceEpoch, page: page, epoch: epoch) {
            older = 1 - index
            guard Int(id) < pairs[index].ids.count else { return nil }
            let entry = pairs[index].ids[Int(id)]
            return entry >> 16 == pairs[index].generation ? UInt16(truncatingIfNeeded: entry) : nil
        }
        return nil
    }

    /// Keeps `translated` as the id in `page` of link `id` of `sourcePage`,
    /// whose table holds `sourceCount` entries; a pair of pages (or of
    /// their epochs) not kept replaces the pair used less recently.
    mutating func keep(
        _ translated: UInt16, for id: UInt16, sourcePage: Int, sourceEpoch: Int, page: Int, epoch: Int,
        sourceCount: Int
    ) {
        var index = pairs.firstIndex {
            $0.holds(sourcePage: sourcePage, sourceEpoch: sourceEpoch, page: page, epoch: epoch)
        }
        if index == nil {
            index = older
            pairs[older].sourcePage = sourcePage
            pairs[older].sourceEpoch = sourceEpoch
            pairs[older].page = page
            pairs[older].epoch = epoch
            pairs[older].generation &+= 1
        }
        let pair = index!
        older = 1 - pair
        if pairs[pair].ids.count < sourceCount {
            pairs[pair].ids.append(contentsOf: repeatElement(0, count: sourceCount - pairs[pair].ids.count))
        }
        pairs[pair].ids[Int(id)] = pairs[pair].generation << 16 | UInt64(translated)
    }

    /// The heap bytes of the ids kept.
    var heapBytes: Int { pairs.reduce(0) { $0 + HeapEstimate.array($1.ids, of: UInt64.self) } }
}
