import CUTF8Proc

/// Display widths of Unicode scalars, the one place the engine asks Unicode
/// questions on the hot path.
///
/// Widths are utf8proc's (East Asian Width, emoji presentation, general
/// category: 0 for combining marks and format characters, 2 for wide and
/// fullwidth characters, 1 otherwise), precomputed into `UnicodeWidthTable`
/// (generated, committed, checked against utf8proc for every code point by a
/// test) and unpacked once into a two-stage table: a lookup is two loads and
/// never a call into C.
struct UnicodeWidth {
    /// The unpacked table, shared; a terminal keeps a copy of the reference
    /// (`TerminalState.widths`) so lookups skip the lazy global's check.
    static let shared = UnicodeWidth()

    let stage1: [UInt8]
    let stage2: [UInt8]

    private init() {
        (stage1, stage2) = Self.unpack()
    }

    private static func unpack() -> (stage1: [UInt8], stage2: [UInt8]) {
        func hexValue(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit - 0x30 : digit - 0x61 + 10 }
        var stage1: [UInt8] = []
        UnicodeWidthTable.stage1Hex.withUTF8Buffer { hex in
            stage1.reserveCapacity(hex.count / 2)
            for index in stride(from: 0, to: hex.count, by: 2) {
                stage1.append(hexValue(hex[index]) << 4 | hexValue(hex[index + 1]))
            }
        }
        var stage2: [UInt8] = []
        UnicodeWidthTable.stage2Digits.withUTF8Buffer { digits in
            stage2 = digits.map { $0 - 0x30 }
        }
        return (stage1, stage2)
    }

    /// 0, 1 or 2 columns for a printable scalar.
    @inline(__always)
    func width(of scalar: UInt32) -> Int {
        guard scalar < 0x110000 else { return 1 }
        let block = Int(stage1[Int(scalar >> 8)])
        return Int(stage2[block << 8 | Int(scalar & 0xFF)])
    }

    /// The shared table's answer (for code off the hot path).
    static func width(of scalar: UInt32) -> Int { shared.width(of: scalar) }
}

/// Grapheme-cluster boundaries (UAX #29, extended clusters) from utf8proc,
/// for mode 2027. Only consulted for scalars that are not ASCII.
enum GraphemeBreak {
    /// True when a cluster boundary lies between `previous` and `next`;
    /// `state` carries what the rules need across calls (regional-indicator
    /// parity, emoji ZWJ sequences) and starts at 0 for a new sequence.
    static func isBoundary(between previous: UInt32, and next: UInt32, state: inout Int32) -> Bool {
        utf8proc_grapheme_break_stateful(Int32(bitPattern: previous), Int32(bitPattern: next), &state)
    }

    /// The columns a whole cluster takes with mode 2027 (the rules Ghostty,
    /// WezTerm and kitty share): a text-presentation selector (VS15, U+FE0E)
    /// makes it narrow, an emoji-presentation selector (VS16, U+FE0F) wide, a
    /// pair of regional indicators (a flag) wide; otherwise the width of its
    /// first scalar that has one (emoji ZWJ sequences and skin-tone modifiers
    /// take their base's two columns).
    static func width(of scalars: [UInt32]) -> Int {
        if scalars.contains(0xFE0E) { return 1 }
        if scalars.contains(0xFE0F) { return 2 }
        if scalars.count >= 2, isRegionalIndicator(scalars[0]), isRegionalIndicator(scalars[1]) { return 2 }
        for scalar in scalars {
            let width = scalar < 0x80 ? 1 : UnicodeWidth.width(of: scalar)
            if width > 0 { return width }
        }
        return 1
    }

    static func isRegionalIndicator(_ scalar: UInt32) -> Bool { (0x1F1E6...0x1F1FF).contains(scalar) }
}
