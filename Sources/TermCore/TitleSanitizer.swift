/// Makes attacker-controlled text (window titles, icon names, working
/// directories) safe to show: one pure function, applied before anything is
/// stored.
///
/// The rules, in order (PROTOCOL.md, "Titles"):
/// 1. decode UTF-8, invalid sequences becoming U+FFFD;
/// 2. remove C0 and C1 controls and DEL, the bidi overrides and isolates
///    U+202A–U+202E and U+2066–U+2069 (they can reorder what follows: "RLO
///    spoofing"), and the zero-width characters U+200B–U+200F, U+2060 and
///    U+FEFF (invisible padding);
/// 3. trim white space at both ends;
/// 4. keep at most `limit` scalars, cutting only at a grapheme-cluster
///    boundary, so the result may be shorter.
public enum TitleSanitizer {
    /// The default cap, in Unicode scalars.
    public static let defaultLimit = 256

    /// The sanitized text of `bytes`.
    /// - Complexity: O(n) in the input, with O(limit) memory whatever its size.
    public static func sanitize<Bytes: Collection>(_ bytes: Bytes, limit: Int = defaultLimit) -> String
    where Bytes.Element == UInt8 {
        // Keep a little more than the cap, so the last cluster can be completed
        // before deciding where to cut.
        let keepAtMost = limit + ClusterTable.maxScalars
        var kept: [Unicode.Scalar] = []
        kept.reserveCapacity(min(keepAtMost, bytes.count))
        var count = 0
        var lastNonSpace = -1
        var started = false
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        decoding: while true {
            let scalar: Unicode.Scalar
            switch decoder.decode(&iterator) {
            case .scalarValue(let value): scalar = value
            case .error: scalar = "\u{FFFD}"
            case .emptyInput: break decoding
            }
            guard !isRemoved(scalar) else { continue }
            let isSpace = scalar.properties.isWhitespace
            if !started {
                if isSpace { continue }  // leading white space
                started = true
            }
            if !isSpace { lastNonSpace = count }
            if count < keepAtMost { kept.append(scalar) }
            count += 1
        }
        // Trailing white space of the whole text goes.
        let end = min(lastNonSpace + 1, kept.count)
        var text = String.UnicodeScalarView()
        text.append(contentsOf: kept[..<end])
        let whole = String(text)
        guard end > limit else { return whole }
        var result = ""
        var used = 0
        for character in whole {
            let size = character.unicodeScalars.count
            if used + size > limit { break }
            result.append(character)
            used += size
        }
        return result
    }

    /// True for the scalars rule 2 removes.
    public static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1
        case 0x200B...0x200F, 0x2060, 0xFEFF: return true  // zero-width
        case 0x202A...0x202E, 0x2066...0x2069: return true  // bidi overrides and isolates
        default: return false
        }
    }
}
