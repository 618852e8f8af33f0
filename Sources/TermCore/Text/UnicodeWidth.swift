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

    /// A bit for each code point below U+0800 (32 words): set when it is a
    /// narrow printable character (width 1, not a C0 or C1 control, not
    /// DEL), for a loop over text of one- and two-byte UTF-8 that tests a
    /// character with one load (`TerminalState.placeNarrowText`).
    let narrowBelow0800: UnsafePointer<UInt64>

    private init() {
        table = TwoStageTable.unpack(
            stage1Hex: UnicodeWidthTable.stage1Hex, stage2Digits: UnicodeWidthTable.stage2Digits)
        precondition(Self.stage1Count == TwoStageTable.stage1Count)
        let narrow = UnsafeMutablePointer<UInt64>.allocate(capacity: 0x800 >> 6)
        narrow.initialize(repeating: 0, count: 0x800 >> 6)
        let table = table
        for scalar in UInt32(0x20)..<0x800 where scalar != 0x7F && !(0x80..<0xA0).contains(scalar) {
            let block = Int(table[Int(scalar >> 8)])
            if table[Self.stage1Count + (block << 8 | Int(scalar & 0xFF))] == 1 {
                narrow[Int(scalar >> 6)] |= 1 << UInt64(scalar & 63)
            }
        }
        narrowBelow0800 = UnsafePointer(narrow)
    }

    /// True when `scalar` (below U+0800) is a narrow printable character
    /// (``narrowBelow0800``).
    @inline(__always)
    func isNarrow(below0800 scalar: UInt32) -> Bool {
        narrowBelow0800[Int(truncatingIfNeeded: scalar &>> 6)] &>> UInt64(scalar & 63) & 1 != 0
    }

    /// 0, 1 or 2 columns for a printable scalar.
    @inline(__always)
    func width(of scalar: UInt32) -> Int {
        // Below U+110000 the block index is below `stage1Count`, and every
        // stage-1 entry names a whole stage-2 block (checked by
        // `TwoStageTable.unpack`): both loads are in bounds.
        guard scalar < 0x110000 else { return 1 }
        let block = Int(table[Int(truncatingIfNeeded: scalar &>> 8)])
        return Int(table[Self.stage1Count &+ (block &<< 8 | Int(truncatingIfNeeded: scalar & 0xFF))])
    }

    /// The shared table's answer (for code off the hot path).
    static func width(of scalar: UInt32) -> Int { shared.width(of: scalar) }
}
