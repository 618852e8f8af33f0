/// Makes attacker-controlled text (window titles, icon names, working
/// directories) safe to show: one pure function, applied before anything is
/// stored.
///
/// The rules, in order (PROTOCOL.md, "Titles"):
/// 1. decode UTF-8, invalid sequences becoming U+FFFD;
/// 2. remove C0 and C1 controls and DEL, the bidi marks, overrides and
///    isolates U+200E, U+200F, U+202A–U+202E and U+2066–U+2069 (they can
///    reorder what follows: "RLO spoofing"), and the invisible spacers
///    U+200B, U+2060 and U+FEFF; keep the joiners ZWNJ and ZWJ (U+200C,
///    U+200D) only between two visible characters, where emoji ZWJ
///    sequences and Indic or Persian shaping need them, and remove them
///    elsewhere (invisible padding);
/// 3. trim white space at both ends;
/// 4. keep at most `limit` scalars, cutting only at a grapheme-cluster
///    boundary, so the result may be shorter, and trim white space again.
///
/// The result is a fixed point: sanitizing it again with the same limit
/// gives it back.
public enum TitleSanitizer {
    /// The default cap, in Unicode scalars: 256, PROTOCOL.md's title rule
    /// (the engine's bounds are listed in `Limits.swift`).
    public static let defaultLimit = Limits.titleScalars

    /// The sanitized text of `bytes`.
    /// - Complexity: O(n) in the input, with O(limit) memory whatever its size.
    public static func sanitize<Bytes: Collection>(_ bytes: Bytes, limit: Int = defaultLimit) -> String
    where Bytes.Element == UInt8 {
        // Keep a little more than the cap, so the last cluster can be completed
        // before deciding where to cut.
        let keepAtMost = limit + Limits.clusterScalars
        var kept: [Unicode.Scalar] = []
        kept.reserveCapacity(min(keepAtMost, bytes.count))
        var count = 0
        var lastNonSpace = -1
        var started = false
        /// A joiner seen after a visible character, kept only if another
        /// visible character follows it.
        var pendingJoiner: Unicode.Scalar?
        var previousIsVisible = false
        func keep(_ scalar: Unicode.Scalar, isSpace: Bool) {
            if !isSpace { lastNonSpace = count }
            if count < keepAtMost { kept.append(scalar) }
            count += 1
        }
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
            if isJoiner(scalar) {
                // Of joiners in a row only the last can stand between two
                // visible characters.
                pendingJoiner = previousIsVisible ? scalar : nil
                continue
            }
            let isSpace = scalar.properties.isWhitespace
            if !started {
                if isSpace { continue }  // leading white space
                started = true
            }
            if let joiner = pendingJoiner, !isSpace { keep(joiner, isSpace: false) }
            pendingJoiner = nil
            keep(scalar, isSpace: isSpace)
            previousIsVisible = !isSpace
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
        // The cut may fall after white space inside the text, or between a
        // joiner (which extends the cluster before it) and the character it
        // joined: such last clusters go whole, so that the result ends as
        // rules 2 and 3 say, is still the text's first whole clusters, and
        // sanitizing it once more changes nothing.
        while let last = result.unicodeScalars.last, last.properties.isWhitespace || isJoiner(last) {
            result.removeLast()
        }
        return result
    }

    /// True for ZWNJ and ZWJ, which rule 2 keeps only between two visible
    /// characters.
    public static func isJoiner(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x200C || scalar.value == 0x200D
    }

    /// True for the scalars rule 2 always removes (joiners: ``isJoiner(_:)``).
    public static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1
        case 0x200B, 0x200E, 0x200F, 0x2060, 0xFEFF: return true  // spacers, bidi marks
        case 0x202A...0x202E, 0x2066...0x2069: return true  // bidi overrides and isolates
        default: return false
        }
    }
}
