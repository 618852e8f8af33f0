import Testing

@testable import TermCore

/// The cache of cluster extensions (`ClusterExtensionCache`): a key's set
/// holds two entries, so two extensions that hash to the same set are both
/// kept (direct-mapped, each evicted the other, and one mark in ten of
/// decomposed Latin text missed).
@Suite("Cluster extension cache")
struct ClusterCacheTests {
    /// Keys as the printing path makes them (a letter's scalar << 32 | a
    /// mark) whose set is the same as `key`'s, in order.
    static func keys(sharingSetWith key: UInt64, count: Int) -> [UInt64] {
        var found: [UInt64] = []
        var letter: UInt64 = 0x41
        while found.count < count {
            for mark: UInt64 in 0x300...0x36F {
                let candidate = letter << 32 | mark
                if candidate != key && ClusterExtensionCache.set(candidate) == ClusterExtensionCache.set(key) {
                    found.append(candidate)
                    if found.count == count { break }
                }
            }
            letter += 1
        }
        return found
    }

    @Test("two keys of one set are both found; a third drops the older; other pages' ids are not found")
    func twoKeysOfASetAreKept() {
        let first: UInt64 = 0x65 << 32 | 0x301  // e + U+0301
        let others = Self.keys(sharingSetWith: first, count: 2)
        var cache = ClusterExtensionCache()
        #expect(cache.id(for: first, page: 0) == nil)
        cache.insert(7, for: first, page: 0)
        cache.insert(8, for: others[0], page: 0)
        #expect(cache.id(for: first, page: 0) == 7)
        #expect(cache.id(for: others[0], page: 0) == 8)
        // The same key in another page names another page's id: not found.
        #expect(cache.id(for: first, page: 2) == nil)
        // A third key of the set: the newest two stay.
        cache.insert(9, for: others[1], page: 0)
        #expect(cache.id(for: first, page: 0) == nil)
        #expect(cache.id(for: others[0], page: 0) == 8)
        #expect(cache.id(for: others[1], page: 0) == 9)
        cache.removeAll()
        #expect(cache.id(for: others[1], page: 0) == nil)
    }

    /// Letters with two marks each, all distinct: more than a page's table
    /// holds (``Limits/clustersPerPage``), so the table is compacted while
    /// a run of them prints, renumbering the ids the cache and the run's
    /// cells name. Fed whole (runs) and a byte at a time (one scalar each),
    /// the screens agree, and a compaction happened.
    @Test("Marks that fill a page's cluster table compact it in the middle of a run, as one scalar at a time does")
    func aCompactionInTheMiddleOfARun() {
        var text = ""
        var cells = 0
        // Letters of Latin Extended Additional: the pair of a letter and
        // its first mark is in the table too (no id holds it).
        for base in 0x1E00...0x1EBF {
            for first in 0x300...0x36F {
                for second in [0x316, 0x317, 0x318] {
                    text.unicodeScalars.append(Unicode.Scalar(base)!)
                    text.unicodeScalars.append(Unicode.Scalar(first)!)
                    text.unicodeScalars.append(Unicode.Scalar(second)!)
                    cells += 1
                }
            }
        }
        // Each cell interns its letter with both marks, and each (letter,
        // first mark) pair its letter with the first: past the limit.
        #expect(cells + cells / 3 > Limits.clustersPerPage)
        let (whole, oneByOne) = fedWholeAndByteByByte(20, 5, text, then: "\u{1B}[2b", scrollback: 0)
        #expect(whole.state.active.compactionCount > 0)
        #expect(oneByOne.state.active.compactionCount > 0)
        #expect(CellGrid(whole) == CellGrid(oneByOne))
        #expect(whole.screenLines == oneByOne.screenLines)
    }
}
