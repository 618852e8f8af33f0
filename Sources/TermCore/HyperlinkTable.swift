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
struct HyperlinkTable {
    /// The longest URI kept (bytes). Longer links are ignored, as the OSC 8
    /// convention allows terminals to do; 2083 is the longest URL browsers
    /// have historically accepted, rounded up.
    static let maxURIBytes = 4096
    /// Distinct links kept before the terminal compacts the table.
    static let capacity = Int(UInt16.max)

    private(set) var links: [Hyperlink?] = [nil]
    private var ids: [Hyperlink: UInt16] = [:]

    var count: Int { links.count }
    subscript(id: UInt16) -> Hyperlink? { links[Int(id)] }

    mutating func id(for link: Hyperlink) -> UInt16? {
        if let id = ids[link] { return id }
        guard links.count < Self.capacity else { return nil }
        let id = UInt16(links.count)
        links.append(link)
        ids[link] = id
        return id
    }

    mutating func compact(keeping isUsed: [Bool]) -> [UInt16] {
        var remap = [UInt16](repeating: 0, count: links.count)
        var kept: [Hyperlink?] = [nil]
        var keptIDs: [Hyperlink: UInt16] = [:]
        for id in 1..<links.count where isUsed[id] {
            guard let link = links[id] else { continue }
            remap[id] = UInt16(kept.count)
            keptIDs[link] = UInt16(kept.count)
            kept.append(link)
        }
        links = kept
        ids = keptIDs
        return remap
    }
}
