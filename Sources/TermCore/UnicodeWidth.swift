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
