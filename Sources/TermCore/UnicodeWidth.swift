import CUTF8Proc

/// Display widths of Unicode scalars, the one place the engine asks Unicode
/// questions on the hot path.
///
/// Widths come from utf8proc (East Asian Width, emoji presentation, general
/// category: 0 for combining marks and format characters, 2 for wide and
/// fullwidth characters, 1 otherwise), read once into a two-stage table so
/// that a lookup is two loads and never a call into C.
enum UnicodeWidth {
    /// Stage 1: one entry per 256-scalar block, the index of its stage-2 block.
    /// Stage 2: the widths, deduplicated blocks of 256.
    private static let table: (stage1: [UInt16], stage2: [UInt8]) = {
        var stage1 = [UInt16](repeating: 0, count: 0x110000 >> 8)
        var stage2: [UInt8] = []
        var blocks: [[UInt8]: UInt16] = [:]
        var block = [UInt8](repeating: 0, count: 256)
        for blockIndex in 0..<stage1.count {
            for offset in 0..<256 {
                let scalar = Int32(blockIndex << 8 | offset)
                block[offset] = UInt8(clamping: max(0, Int(utf8proc_charwidth(scalar))))
            }
            if let existing = blocks[block] {
                stage1[blockIndex] = existing
            } else {
                let id = UInt16(stage2.count >> 8)
                blocks[block] = id
                stage2 += block
                stage1[blockIndex] = id
            }
        }
        return (stage1, stage2)
    }()

    /// 0, 1 or 2 columns for a printable scalar.
    @inline(__always)
    static func width(of scalar: UInt32) -> Int {
        guard scalar < 0x110000 else { return 1 }
        let block = Int(table.stage1[Int(scalar >> 8)])
        return Int(table.stage2[block << 8 | Int(scalar & 0xFF)])
    }
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
