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
///
/// The two stages live in one allocation made once and never freed or
/// written again, reached through a plain pointer: a copy of the struct is a
/// pointer copy (no retain), and a printing loop keeps the pointer in a
/// register with no bounds checks (each index is in range by construction,
/// see `width(of:)`). With arrays, each lookup reloaded both arrays from the
/// terminal and checked both indices: 15 instructions a character, against
/// 11 (callgrind, unicode corpus). Immutable after `init`, hence `Sendable`.
struct UnicodeWidth: @unchecked Sendable {
    /// The unpacked table, shared; a terminal keeps a copy of the reference
    /// (`TerminalState.widths`) so lookups skip the lazy global's check.
    static let shared = UnicodeWidth()

    /// Stage 1 (`stage1Count` bytes: for each block of 256 code points, its
    /// stage-2 block), then stage 2 (blocks of 256 widths).
    let table: UnsafePointer<UInt8>
    /// Blocks of 256 code points up to U+10FFFF.
    static let stage1Count = 0x110000 >> 8

    private init() {
        // Unpacked straight into the one allocation (no intermediate arrays:
        // process start-up is part of every benchmark run).
        let stage1Hex = UnicodeWidthTable.stage1Hex
        let stage2Digits = UnicodeWidthTable.stage2Digits
        precondition(stage1Hex.utf8CodeUnitCount == 2 * Self.stage1Count)
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.stage1Count + stage2Digits.utf8CodeUnitCount)
        func hexValue(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit &- 0x30 : digit &- 0x61 &+ 10 }
        var blocks: UInt8 = 0
        stage1Hex.withUTF8Buffer { hex in
            for block in 0..<Self.stage1Count {
                let value = hexValue(hex[2 * block]) << 4 | hexValue(hex[2 * block + 1])
                table[block] = value
                blocks = max(blocks, value)
            }
        }
        stage2Digits.withUTF8Buffer { digits in
            for (offset, digit) in digits.enumerated() { table[Self.stage1Count + offset] = digit &- 0x30 }
        }
        // Every block stage 1 names is whole in stage 2: `width(of:)` relies
        // on it to skip bounds checks.
        precondition((Int(blocks) + 1) << 8 <= stage2Digits.utf8CodeUnitCount)
        self.table = UnsafePointer(table)
    }

    /// 0, 1 or 2 columns for a printable scalar.
    @inline(__always)
    func width(of scalar: UInt32) -> Int {
        // Below U+110000 the block index is below `stage1Count`, and every
        // stage-1 entry names a whole stage-2 block (checked in `init`): both
        // loads are in bounds.
        guard scalar < 0x110000 else { return 1 }
        let block = Int(table[Int(truncatingIfNeeded: scalar &>> 8)])
        return Int(table[Self.stage1Count &+ (block &<< 8 | Int(truncatingIfNeeded: scalar & 0xFF))])
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

    /// Whether `next` continues the cluster `scalars` (the scalars of one
    /// cell, in order): the state is rebuilt from the cell itself, so the
    /// answer depends on the screen alone.
    /// - Complexity: O(scalars).
    static func continues(_ scalars: some Collection<UInt32>, with next: UInt32) -> Bool {
        guard var last = scalars.first else { return false }
        var state: Int32 = 0
        for scalar in scalars.dropFirst() {
            _ = isBoundary(between: last, and: scalar, state: &state)
            last = scalar
        }
        return !isBoundary(between: last, and: next, state: &state)
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
