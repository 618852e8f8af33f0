#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An OSC 8 hyperlink: the URI and the optional `id=` parameter that ties
/// separate runs into one link.
public struct Hyperlink: Hashable, Sendable {
    /// The link's target, as the program wrote it (at most 4 KiB: an OSC 8
    /// with a longer one links nothing and is counted).
    public var uri: String
    /// The `id=` parameter, or nil: cells with the same URI and id are one
    /// link even when other text comes between them. At most 250 bytes: a
    /// longer one is ignored and counted, and the link kept without it.
    public var id: String?
    /// A link to `uri`, tied to others by `id` when given.
    public init(uri: String, id: String? = nil) {
        self.uri = uri
        self.id = id
    }
}

/// Interns hyperlinks so that a cell refers to one by a 16-bit id (0 = none).
///
/// Looked up by the bytes of the OSC 8 command, so a link seen before costs
/// a hash and a comparison and no allocation: compilers and agents print the
/// same few links over and over, and steady-state printing allocates nothing.
/// The bytes of every link are kept end to end in one buffer, so a new link
/// costs no allocation of its own either (output that makes a link per line
/// made three before: its URI, its id and its key); a ``Hyperlink`` is made
/// from them when one is read.
struct HyperlinkTable {
    /// The length in bytes of `bytes` as stored: decoded as UTF-8 with each
    /// invalid sequence replaced by U+FFFD. Valid UTF-8 (every real link) is
    /// its own length, found without decoding.
    static func storedLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        if bytes.allSatisfy({ $0 < 0x80 }) { return bytes.count }
        return String(decoding: bytes, as: UTF8.self).utf8.count
    }

    /// Where a link's key lies in `bytes`, and its hash.
    struct Entry {
        var start: UInt32
        var count: UInt32
        var hash: UInt64
    }

    /// The keys of the links (``key(uri:linkID:)``'s layout), end to end.
    private var bytes: [UInt8] = []
    /// Each link's key and hash; entry 0 is "no link".
    private(set) var entries = [Entry(start: 0, count: 0, hash: 0)]
    /// Open addressing: slots hold a link id (0 = empty); at most half full.
    private(set) var slots = [UInt16](repeating: 0, count: 64)
    /// The most entries (links and entry 0) the table holds before its page
    /// compacts it.
    let limit: Int
    /// The bytes of keys past which a new link makes the page compact the
    /// table first: `baseByteLimit`, or twice the bytes the last compaction
    /// kept when that is more (`compact(markUsed:renumber:)`).
    private(set) var byteLimit: Int
    /// The bytes of links a table holds before its first compaction
    /// (``Limits/linkBytes(cells:)`` of its page's cells).
    let baseByteLimit: Int

    /// An empty table that holds up to `limit` entries, entry 0 ("no link")
    /// among them (``Limits/tableEntries(cells:)`` of its page's cells), and
    /// is compacted when its links pass `byteLimit` bytes
    /// (``Limits/linkBytes(cells:)``).
    init(limit: Int = Limits.linksPerPage, byteLimit: Int = Limits.linkBytes(cells: Limits.cellsPerPage)) {
        precondition(limit > 1 && limit <= Limits.linksPerPage, "a link table's limit is 2…65,535")
        precondition(
            byteLimit >= Limits.linkBytesAtLeast, "a link table holds at least \(Limits.linkBytesAtLeast) bytes")
        self.limit = limit
        self.byteLimit = byteLimit
        self.baseByteLimit = byteLimit
    }

    /// An empty table to put in a table's place while it is taken out (a
    /// copy of it shares its arrays: assigning it allocates nothing).
    static let placeholder = HyperlinkTable()

    /// The bytes of the key of `uri` and `linkID` (``key(uri:linkID:)``).
    static func keyCount(uri: UnsafeBufferPointer<UInt8>, linkID: UnsafeBufferPointer<UInt8>?) -> Int {
        3 &+ (linkID?.count ?? 0) &+ uri.count
    }

    var count: Int { entries.count }

    /// Empties the table, keeping the arrays' capacity (an era's reset: the
    /// next era fills them again without allocating). Zeroes the index.
    /// An empty table is left as it is: its arrays may be shared with every
    /// other page's (the grid makes its pages' tables as copies of one), and
    /// writing to them would copy them (style_churn's resets, whose pages
    /// have no link, allocated twice each so).
    mutating func removeAll() {
        guard entries.count > 1 else { return }
        byteLimit = baseByteLimit
        bytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        entries.append(Entry(start: 0, count: 0, hash: 0))
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// The link `id` names; nil for 0.
    subscript(id: UInt16) -> Hyperlink? {
        guard id != 0 else { return nil }
        return withKey(id) { key in
            let idCount = Int(key[1]) << 8 | Int(key[2])
            let uri = String(decoding: UnsafeBufferPointer(rebasing: key[(3 + idCount)...]), as: UTF8.self)
            guard key[0] == 1 else { return Hyperlink(uri: uri) }
            return Hyperlink(
                uri: uri, id: String(decoding: UnsafeBufferPointer(rebasing: key[3..<(3 + idCount)]), as: UTF8.self))
        }
    }

    /// Calls `body` with the bytes link `id` was made from (``key(uri:linkID:)``'s
    /// layout), to intern it in another page's table without a copy.
    func withKey<Result>(_ id: UInt16, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let entry = entries[Int(id)]
        return try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[Int(entry.start)..<Int(entry.start + entry.count)]))
        }
    }

    /// The bytes link `id` was made from, as an array of their own.
    func storedKey(_ id: UInt16) -> [UInt8] { withKey(id) { Array($0) } }

    /// The id of the link to `uri` with the `id=` parameter `linkID` (nil when
    /// absent), adding it if new; nil when the table is full (it holds
    /// `limit` entries, or the link would take its bytes past `byteLimit`;
    /// the page then compacts it).
    mutating func id(uri: UnsafeBufferPointer<UInt8>, linkID: UnsafeBufferPointer<UInt8>?) -> UInt16? {
        id(uri: uri, linkID: linkID, hash: Self.hash(uri: uri, linkID: linkID))
    }

    /// `id(uri:linkID:)` with the link's hash (``hash(uri:linkID:)``) known.
    /// With `growing` false, a new link whose key the keys' buffer has no
    /// room for is not added either (nil), so that the grid may first give
    /// the table a larger buffer another table has (`needsLargerKeyBuffer`).
    mutating func id(
        uri: UnsafeBufferPointer<UInt8>, linkID: UnsafeBufferPointer<UInt8>?, hash: UInt64, growing: Bool = true
    ) -> UInt16? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        let found: Int? = bytes.withUnsafeBufferPointer { all in
            while slots[slot] != 0 {
                let candidate = Int(slots[slot])
                let entry = entries[candidate]
                if entry.hash == hash {
                    let key = UnsafeBufferPointer(rebasing: all[Int(entry.start)..<Int(entry.start + entry.count)])
                    if Self.key(key, matches: uri, linkID) { return candidate }
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
        if let found { return UInt16(found) }
        let keyCount = Self.keyCount(uri: uri, linkID: linkID)
        guard hasRoom(forKey: keyCount) else { return nil }
        if bytes.count + keyCount > bytes.capacity {
            guard growing else { return nil }
            bytes.reserveCapacity(grownKeyCapacity(forKey: keyCount))
        }
        let newID = entries.count
        let start = bytes.count
        Self.appendKey(uri: uri, linkID: linkID, to: &bytes)
        entries.append(Entry(start: UInt32(start), count: UInt32(bytes.count - start), hash: hash))
        if entries.count * 2 > slots.count {
            rebuildIndex(capacity: slots.count * 2)
        } else {
            slots[slot] = UInt16(newID)
        }
        return UInt16(newID)
    }

    /// The capacity the keys' buffer grows to for a new key of `keyCount`
    /// bytes: doubling, as appending would, but never past the byte limit.
    func grownKeyCapacity(forKey keyCount: Int) -> Int {
        min(max(bytes.capacity * 2, bytes.count + keyCount), byteLimit)
    }

    /// True when a new link with a key of `keyCount` bytes is within the
    /// table's limits: its entries and its bytes of links.
    func hasRoom(forKey keyCount: Int) -> Bool {
        entries.count < limit && bytes.count + keyCount <= byteLimit
    }

    /// True when a new link with a key of `keyCount` bytes is within the
    /// table's limits but not within its keys' buffer, which must grow.
    func needsLargerKeyBuffer(forKey keyCount: Int) -> Bool {
        hasRoom(forKey: keyCount) && bytes.count + keyCount > bytes.capacity
    }

    /// The bytes of keys the table holds.
    var keyBytes: Int { bytes.count }

    /// The bytes the keys' buffer holds without growing.
    var keyBufferCapacity: Int { bytes.capacity }

    /// The largest buffer of keys a compaction leaves the table (a larger
    /// one it gives back, `compact(markUsed:renumber:)`).
    var keptKeyCapacity: Int { byteLimit + byteLimit / 8 }

    /// Trades keys' buffers with `other`: each table's keys move into the
    /// other's buffer, at the same offsets, so the entries stay as they
    /// are. Neither buffer grows, so nothing is allocated.
    /// - Precondition: each table's keys fit the other's buffer.
    mutating func tradeKeyBuffers(with other: inout HyperlinkTable) {
        let (mine, theirs) = (bytes.count, other.bytes.count)
        precondition(mine <= other.bytes.capacity && theirs <= bytes.capacity, "the keys must fit the other buffer")
        // Both as long as the longer, within both capacities, then their
        // bytes swapped: each buffer holds the other's keys.
        let common = max(mine, theirs)
        bytes.append(contentsOf: repeatElement(0, count: common - mine))
        other.bytes.append(contentsOf: repeatElement(0, count: common - theirs))
        bytes.withUnsafeMutableBufferPointer { first in
            other.bytes.withUnsafeMutableBufferPointer { second in
                for index in 0..<common { swap(&first[index], &second[index]) }
            }
        }
        swap(&bytes, &other.bytes)
        bytes.removeSubrange(mine...)
        other.bytes.removeSubrange(theirs...)
    }

    /// The id of the link whose bytes are `key` (from ``withKey(_:_:)``),
    /// adding it if new; nil when the table is full. `hash`, when given, is
    /// the key's (``withKeyAndHash(_:_:)``).
    mutating func id(storedKey key: UnsafeBufferPointer<UInt8>, hash: UInt64? = nil) -> UInt16? {
        let (uri, linkID) = Self.parts(ofKey: key)
        return id(uri: uri, linkID: linkID, hash: hash ?? Self.hash(uri: uri, linkID: linkID))
    }

    /// The URI and `id=` parameter a key (``key(uri:linkID:)``'s layout)
    /// was made from, as parts of its buffer.
    static func parts(
        ofKey key: UnsafeBufferPointer<UInt8>
    ) -> (uri: UnsafeBufferPointer<UInt8>, linkID: UnsafeBufferPointer<UInt8>?) {
        let hasID = key[0] == 1
        let idCount = Int(key[1]) << 8 | Int(key[2])
        let uri = UnsafeBufferPointer(rebasing: key[(3 + idCount)...])
        return (uri, hasID ? UnsafeBufferPointer(rebasing: key[3..<(3 + idCount)]) : nil)
    }

    /// Calls `body` with the bytes link `id` was made from and their hash
    /// (``hash(uri:linkID:)``, the same in every table), to intern it in
    /// another page's table without hashing its bytes again.
    func withKeyAndHash<Result>(_ id: UInt16, _ body: (UnsafeBufferPointer<UInt8>, UInt64) throws -> Result) rethrows
        -> Result
    {
        let hash = entries[Int(id)].hash
        return try withKey(id) { try body($0, hash) }
    }

    /// `id(storedKey:)` for a key held as an array (the pen's).
    mutating func id(storedKey key: [UInt8]) -> UInt16? {
        key.withUnsafeBufferPointer { id(storedKey: $0) }
    }

    /// A link's key: a marker byte for the presence of an id (0 or 1), the
    /// id's length in two bytes and its bytes, then the URI's bytes.
    /// - Precondition: the id is at most ``Limits/hyperlinkIDBytes`` long, so
    ///   its length fits the two bytes.
    static func key(uri: UnsafeBufferPointer<UInt8>, linkID: UnsafeBufferPointer<UInt8>?) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(3 + (linkID?.count ?? 0) + uri.count)
        appendKey(uri: uri, linkID: linkID, to: &key)
        return key
    }

    /// Appends the key of `uri` and `linkID` (``key(uri:linkID:)``) to `buffer`.
    static func appendKey(
        uri: UnsafeBufferPointer<UInt8>, linkID: UnsafeBufferPointer<UInt8>?, to buffer: inout [UInt8]
    ) {
        precondition(
            linkID.map(storedLength) ?? 0 <= Limits.hyperlinkIDBytes,
            "OSC 8 ids over \(Limits.hyperlinkIDBytes) bytes are dropped before this")
        let idBytes = linkID ?? UnsafeBufferPointer(start: nil, count: 0)
        buffer.append(linkID == nil ? 0 : 1)
        buffer.append(UInt8(truncatingIfNeeded: idBytes.count >> 8))
        buffer.append(UInt8(truncatingIfNeeded: idBytes.count))
        buffer.append(contentsOf: idBytes)
        buffer.append(contentsOf: uri)
    }

    /// True when `key` was made from `uri` and `linkID`.
    static func key(
        _ key: UnsafeBufferPointer<UInt8>, matches uri: UnsafeBufferPointer<UInt8>,
        _ linkID: UnsafeBufferPointer<UInt8>?
    ) -> Bool {
        let idCount = linkID?.count ?? 0
        guard key.count == 3 + idCount + uri.count, key[0] == (linkID == nil ? 0 : 1),
            Int(key[1]) << 8 | Int(key[2]) == idCount, let start = key.baseAddress
        else { return false }
        // `memcmp`: the C library compares many bytes a step (a byte a step
        // through `elementsEqual` was most of a lookup's cost).
        if let linkID, idCount > 0, memcmp(start + 3, linkID.baseAddress!, idCount) != 0 { return false }
        return uri.isEmpty || memcmp(start + 3 + idCount, uri.baseAddress!, uri.count) == 0
    }

    /// A hash of the id (or a marker for none) and the URI, eight bytes a
    /// step: each word is mixed in with a multiply and a shift, and the sum
    /// finished as MurmurHash3's `fmix64` does, so that the low bits, which
    /// index the slots, depend on every byte. (FNV-1a, a byte a step, cost
    /// about four instructions a byte: a third of a lookup of a 100-byte link
    /// the page has.)
    static func hash(uri: UnsafeBufferPointer<UInt8>, linkID: UnsafeBufferPointer<UInt8>?) -> UInt64 {
        var hash: UInt64 = linkID == nil ? 0x243F_6A88_85A3_08D3 : 0x1319_8A2E_0370_7344
        if let linkID { hash = mix(linkID, into: hash) }
        hash = mix(uri, into: hash)
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash &*= 0xC4CE_B9FE_1A85_EC53
        return hash ^ hash >> 33
    }

    /// `hash` with `bytes` mixed in, and their count (so that an id and a
    /// URI cannot trade bytes).
    @inline(__always)
    static func mix(_ bytes: UnsafeBufferPointer<UInt8>, into hash: UInt64) -> UInt64 {
        var hash = hash
        let count = bytes.count
        guard let base = bytes.baseAddress else { return (hash ^ 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9 }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset &+ 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset &+= 8
        }
        var tail = UInt64(truncatingIfNeeded: count) << 56
        var shift: UInt64 = 0
        while offset < count {
            tail |= UInt64(raw.load(fromByteOffset: offset, as: UInt8.self)) << shift
            shift &+= 8
            offset &+= 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        return hash ^ hash >> 29
    }

    private mutating func rebuildIndex(capacity: Int) {
        // At its size the index is zeroed where it is: a compaction in the
        // middle of a feed allocates nothing.
        if capacity == slots.count {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        } else {
            slots = [UInt16](repeating: 0, count: capacity)
        }
        let mask = capacity - 1
        for id in 1..<entries.count {
            var slot = Int(truncatingIfNeeded: entries[id].hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt16(id)
        }
    }

    /// Keeps only the links in use, renumbered in their order. `markUsed`
    /// is called with a function to report each id in use; `renumber` then
    /// gets the map from old id to new one (0 for a link dropped). The
    /// index's slots (at least twice as many as there are entries) hold that
    /// map, the kept keys move down in the buffer they are in, and the
    /// index is made anew at its size, so a compaction in the middle of a
    /// feed allocates nothing (link_churn at 200×50 allocated 9 times each
    /// time its ring of scrollback went round, its compactions' new arrays
    /// and their growing back), unless the keys' buffer is far larger than
    /// the table may fill before its next compaction.
    mutating func compact(
        markUsed: ((UInt16) -> Void) -> Void, renumber: (UnsafeBufferPointer<UInt16>) -> Void
    ) {
        let count = entries.count
        var kept = 1
        var keptBytes = 0
        slots.withUnsafeMutableBufferPointer { map in
            map.update(repeating: 0)
            markUsed { map[Int($0)] = 1 }
            map[0] = 0  // "no link" keeps id 0
            bytes.withUnsafeMutableBufferPointer { bytes in
                entries.withUnsafeMutableBufferPointer { entries in
                    for id in 1..<count where map[id] != 0 {
                        map[id] = UInt16(truncatingIfNeeded: kept)
                        let entry = entries[id]
                        // Keys lie end to end in the order of their ids, so
                        // a kept key moves down, never onto one still to
                        // move (the copy may overlap its own old place).
                        if Int(entry.start) != keptBytes, let base = bytes.baseAddress {
                            UnsafeMutableRawPointer(base + keptBytes).copyMemory(
                                from: base + Int(entry.start), byteCount: Int(entry.count))
                        }
                        entries[kept] = Entry(start: UInt32(keptBytes), count: entry.count, hash: entry.hash)
                        keptBytes += Int(entry.count)
                        kept += 1
                    }
                }
            }
            renumber(UnsafeBufferPointer(map))
        }
        entries.removeSubrange(kept...)
        bytes.removeSubrange(keptBytes...)
        // The index keeps its size: the table filled it once and will again.
        rebuildIndex(capacity: slots.count)
        // Room for at least as many bytes of new links as the links kept,
        // and half the base: the next compaction, O(cells of the page),
        // comes after at least half the base (32 bytes a cell) of new links,
        // the link that made this one fits (a key is at most 4,349 bytes, a
        // base at least 64 KiB), and the table holds at most twice the
        // links its cells named at its last compaction, or the base.
        byteLimit = max(baseByteLimit, 2 * bytes.count)
        // A buffer grown for more than that (links that were all named, now
        // mostly gone) is given back: the table holds at most `byteLimit`
        // bytes before its next compaction, and a buffer within an eighth of
        // it, which is what the table's growth reaches, is kept.
        if bytes.capacity > keptKeyCapacity {
            var smaller: [UInt8] = []
            smaller.reserveCapacity(bytes.count)
            smaller.append(contentsOf: bytes)
            bytes = smaller
        }
    }
}

extension HyperlinkTable: HeapCounted {
    /// The heap bytes the table holds (the links' bytes, the entries and the
    /// index, by capacity) in buffers not in `counted`, which it adds there.
    func heapBytes(counted: inout Set<UnsafeRawPointer>) -> Int {
        HeapEstimate.array(bytes, of: UInt8.self, counted: &counted)
            + HeapEstimate.array(entries, of: Entry.self, counted: &counted)
            + HeapEstimate.array(slots, of: UInt16.self, counted: &counted)
    }
}
