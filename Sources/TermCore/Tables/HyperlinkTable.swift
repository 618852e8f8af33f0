/// An OSC 8 hyperlink: the URI and the optional `id=` parameter that ties
/// separate runs into one link.
public struct Hyperlink: Hashable, Sendable {
    public var uri: String
    public var id: String?
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
struct HyperlinkTable {
    /// The length in bytes of `bytes` as stored: decoded as UTF-8 with each
    /// invalid sequence replaced by U+FFFD. Valid UTF-8 (every real link) is
    /// its own length, found without decoding.
    static func storedLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        if bytes.allSatisfy({ $0 < 0x80 }) { return bytes.count }
        return String(decoding: bytes, as: UTF8.self).utf8.count
    }

    private(set) var links: [Hyperlink?] = [nil]
    /// The bytes each link was made from (its `id` parameter, then the URI,
    /// as `key(uri:id:)` lays them out) and their hash, parallel to `links`.
    private var keys: [[UInt8]] = [[]]
    private var hashes: [UInt64] = [0]
    /// Open addressing: slots hold a link id (0 = empty); at most half full.
    private var slots = [UInt16](repeating: 0, count: 64)

    var count: Int { links.count }
    subscript(id: UInt16) -> Hyperlink? { links[Int(id)] }

    /// The id of the link to `uri` with the `id=` parameter `linkID` (nil when
    /// absent), adding it if new; nil when the table is full (it holds
    /// ``Limits/linksPerPage`` links, and the page then compacts it).
    mutating func id(uri: UnsafeBufferPointer<UInt8>, linkID: UnsafeBufferPointer<UInt8>?) -> UInt16? {
        let hash = Self.hash(uri: uri, linkID: linkID)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let candidate = Int(slots[slot])
            if hashes[candidate] == hash && Self.key(keys[candidate], matches: uri, linkID) {
                return UInt16(candidate)
            }
            slot = (slot + 1) & mask
        }
        guard links.count < Limits.linksPerPage else { return nil }
        let newID = links.count
        links.append(
            Hyperlink(
                uri: String(decoding: uri, as: UTF8.self), id: linkID.map { String(decoding: $0, as: UTF8.self) }))
        keys.append(Self.key(uri: uri, linkID: linkID))
        hashes.append(hash)
        if links.count * 2 > slots.count {
            rebuildIndex(capacity: slots.count * 2)
        } else {
            slots[slot] = UInt16(newID)
        }
        return UInt16(newID)
    }

    /// The bytes link `id` was made from (``key(uri:id:)``'s layout), for
    /// interning it in another page's table.
    func storedKey(_ id: UInt16) -> [UInt8] { keys[Int(id)] }

    /// The id of the link whose bytes are `key` (from ``storedKey(_:)``),
    /// adding it if new; nil when the table is full.
    mutating func id(storedKey key: [UInt8]) -> UInt16? {
        let hasID = key[0] == 1
        let idCount = Int(key[1]) << 8 | Int(key[2])
        return key.withUnsafeBufferPointer { bytes in
            let uri = UnsafeBufferPointer(rebasing: bytes[(3 + idCount)...])
            let linkID = hasID ? UnsafeBufferPointer(rebasing: bytes[3..<(3 + idCount)]) : nil
            return id(uri: uri, linkID: linkID)
        }
    }

    /// A link's key: a marker byte for the presence of an id (0 or 1), the
    /// id's length in two bytes and its bytes, then the URI's bytes.
    /// - Precondition: the id is at most ``Limits/hyperlinkIDBytes`` long, so
    ///   its length fits the two bytes.
    static func key(uri: UnsafeBufferPointer<UInt8>, linkID: UnsafeBufferPointer<UInt8>?) -> [UInt8] {
        precondition(
            linkID.map(storedLength) ?? 0 <= Limits.hyperlinkIDBytes,
            "OSC 8 ids over \(Limits.hyperlinkIDBytes) bytes are dropped before this")
        var key: [UInt8] = []
        key.reserveCapacity(3 + (linkID?.count ?? 0) + uri.count)
        let idBytes = linkID ?? UnsafeBufferPointer(start: nil, count: 0)
        key.append(linkID == nil ? 0 : 1)
        key.append(UInt8(truncatingIfNeeded: idBytes.count >> 8))
        key.append(UInt8(truncatingIfNeeded: idBytes.count))
        key.append(contentsOf: idBytes)
        key.append(contentsOf: uri)
        return key
    }

    /// True when `key` was made from `uri` and `linkID`.
    static func key(_ key: [UInt8], matches uri: UnsafeBufferPointer<UInt8>, _ linkID: UnsafeBufferPointer<UInt8>?)
        -> Bool
    {
        let idCount = linkID?.count ?? 0
        guard key.count == 3 + idCount + uri.count, key[0] == (linkID == nil ? 0 : 1),
            Int(key[1]) << 8 | Int(key[2]) == idCount
        else { return false }
        return key.withUnsafeBufferPointer { stored in
            if let linkID, !stored[3..<(3 + idCount)].elementsEqual(linkID) { return false }
            return stored[(3 + idCount)...].elementsEqual(uri)
        }
    }

    /// FNV-1a over the id (or a marker for none) and the URI.
    static func hash(uri: UnsafeBufferPointer<UInt8>, linkID: UnsafeBufferPointer<UInt8>?) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        if let linkID {
            for byte in linkID { mix(byte) }
            mix(0xFF)  // never in UTF-8: the id ends here
        } else {
            mix(0xFE)
        }
        for byte in uri { mix(byte) }
        return hash
    }

    private mutating func rebuildIndex(capacity: Int) {
        slots = [UInt16](repeating: 0, count: capacity)
        let mask = capacity - 1
        for id in 1..<links.count {
            var slot = Int(truncatingIfNeeded: hashes[id]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt16(id)
        }
    }

    mutating func compact(keeping isUsed: [Bool]) -> [UInt16] {
        var remap = [UInt16](repeating: 0, count: links.count)
        var keptLinks: [Hyperlink?] = [nil]
        var keptKeys: [[UInt8]] = [[]]
        var keptHashes: [UInt64] = [0]
        for id in 1..<links.count where isUsed[id] {
            remap[id] = UInt16(keptLinks.count)
            keptLinks.append(links[id])
            keptKeys.append(keys[id])
            keptHashes.append(hashes[id])
        }
        links = keptLinks
        keys = keptKeys
        hashes = keptHashes
        var capacity = 64
        while capacity < links.count * 2 { capacity *= 2 }
        rebuildIndex(capacity: capacity)
        return remap
    }
}

extension HyperlinkTable {
    /// The heap bytes the table holds: the links with their strings, the
    /// bytes each was made from, the hashes and the index, by capacity.
    var heapBytes: Int {
        var bytes = HeapEstimate.array(links, of: Hyperlink?.self) + HeapEstimate.array(keys, of: [UInt8].self)
        bytes += HeapEstimate.array(hashes, of: UInt64.self) + HeapEstimate.array(slots, of: UInt16.self)
        for link in links {
            guard let link else { continue }
            bytes += HeapEstimate.string(link.uri) + (link.id.map(HeapEstimate.string) ?? 0)
        }
        for key in keys { bytes += HeapEstimate.array(key, of: UInt8.self) }
        return bytes
    }
}
