/// Display widths of Unicode scalars, the one place the engine asks Unicode
/// questions on the hot path.
///
/// Widths are utf8proc's (East Asian Width, emoji presentation, general
/// category: 0 for combining marks and format characters, 2 for wide and
/// fullwidth characters, 1 otherwise), precomputed into `UnicodeWidthTable`
/// (generated, committed, checked against utf8proc for every code point by a
/// test) and unpacked once into one table: a lookup is one or two loads and
/// never a call into C.
///
/// The table is one allocation made once and never freed or written again,
/// reached through a plain pointer: a copy of the struct is a pointer copy
/// (no retain), and a printing loop keeps the pointer in a register with no
/// bounds checks (each offset is in range by construction, see
/// `width(of:)`). With arrays, each lookup reloaded both arrays from the
/// terminal and checked both indices: 15 instructions a character, against
/// 11 (callgrind, unicode corpus). Immutable after `init`, hence `Sendable`.
///
/// Its three parts, all addressed from the one base:
/// - **Flat**, a byte for each code point below U+3000 (`flatCount`): the
///   alphabets (Latin, Greek, Cyrillic, Hebrew, Arabic, the Indic scripts),
///   their combining marks, punctuation, arrows, box drawing and block
///   elements, most of what a terminal prints beyond ASCII, in one load.
/// - **Stage 1**, for each block of 256 code points, a 32-bit offset: from
///   the table's start to the block's widths in stage 2, less the block's
///   first code point, so that the width's offset is the entry plus the
///   scalar (no register for the scalar's low byte, no shift of a block
///   number; the printing loops are short of registers, and the block-number
///   form cost them moves in and out of spare ones).
/// - **Stage 2**, the blocks of 256 widths, one byte each; CJK, kana and
///   emoji (from U+3000) take the two stages, where all wide ideographs share
///   a handful of blocks that a flat part of their range would spread over
///   tens of KiB.
///
/// callgrind, `termengine replay` of 2 MiB at 80×24, against the two stages
/// of block numbers alone: unicode_letters 86.60M → 82.07M instructions,
/// unicode_combining 141.53M → 134.10M, unicode_mixed 106.42M → 105.27M;
/// unicode_cjk 67.12M → 68.54M and unicode_emoji 67.21M → 67.60M (the flat
/// part's test on every character). A flat part alone (stage 1 of block
/// numbers) gained as much below U+3000 but cost CJK 5%: its two stages'
/// extra register made the wide path's loop spill.
struct UnicodeWidth: @unchecked Sendable {
    /// The unpacked table, shared; a terminal keeps a copy of the reference
    /// (`TerminalState.widths`) so lookups skip the lazy global's check.
    static let shared = UnicodeWidth()

    /// The flat part, stage 1 and stage 2 (see the type's comment).
    let table: UnsafeRawPointer
    /// Code points below this have a byte each at the start of `table`.
    static let flatCount = 0x3000
    /// Blocks of 256 code points up to U+10FFFF.
    static let stage1Count = 0x110000 >> 8
    /// Where stage 1's offsets start in `table`.
    static let stage1Offset = flatCount
    /// Where stage 2's blocks start in `table`.
    static let stage2Offset = stage1Offset + stage1Count * MemoryLayout<Int32>.size

    private init() {
        let stages = TwoStageTable.unpack(
            stage1Hex: UnicodeWidthTable.stage1Hex, stage2Digits: UnicodeWidthTable.stage2Digits)
        precondition(Self.stage1Count == TwoStageTable.stage1Count)
        let stage2Count = UnicodeWidthTable.stage2Digits.utf8CodeUnitCount
        let table = UnsafeMutableRawPointer.allocate(
            byteCount: Self.stage2Offset + stage2Count, alignment: MemoryLayout<Int32>.alignment)
        for block in 0..<Self.stage1Count {
            let offset = Self.stage2Offset + (Int(stages[block]) << 8) - (block << 8)
            table.storeBytes(of: Int32(offset), toByteOffset: Self.stage1Offset + block * 4, as: Int32.self)
        }
        (table + Self.stage2Offset).copyMemory(from: stages + Self.stage1Count, byteCount: stage2Count)
        stages.deallocate()
        self.table = UnsafeRawPointer(table)
        for scalar in 0..<UInt32(Self.flatCount) {
            table.storeBytes(of: UInt8(twoStageWidth(of: scalar)), toByteOffset: Int(scalar), as: UInt8.self)
        }
    }

    /// 0, 1 or 2 columns for a printable scalar (1 past U+10FFFF).
    @inline(__always)
    func width(of scalar: UInt32) -> Int {
        if scalar < Self.flatCount { return Int(table.load(fromByteOffset: Int(scalar), as: UInt8.self)) }
        return twoStageWidth(of: scalar)
    }

    /// The width from stages 1 and 2 (for any scalar; the flat part is
    /// filled from it).
    @inline(__always)
    func twoStageWidth(of scalar: UInt32) -> Int {
        // Below U+110000 the block index is below `stage1Count`, and every
        // stage-1 entry names a whole stage-2 block (checked by
        // `TwoStageTable.unpack`): the entry plus the scalar is one of the
        // block's 256 bytes.
        guard scalar < 0x110000 else { return 1 }
        let offset = table.load(
            fromByteOffset: Self.stage1Offset &+ Int(truncatingIfNeeded: scalar &>> 8) &* 4, as: Int32.self)
        return Int(table.load(fromByteOffset: Int(offset) &+ Int(truncatingIfNeeded: scalar), as: UInt8.self))
    }

    /// The shared table's answer (for code off the hot path).
    static func width(of scalar: UInt32) -> Int { shared.width(of: scalar) }
}
