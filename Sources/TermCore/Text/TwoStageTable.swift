/// The unpacking shared by the generated per-code-point tables
/// (`UnicodeWidthTable`, `GraphemeBreakTable`): both come as text (stage 1,
/// two hex digits per block of 256 code points naming its stage-2 block;
/// stage 2, one base-36 digit per code point), which compiles instantly and
/// unpacks in microseconds.
enum TwoStageTable {
    /// Blocks of 256 code points up to U+10FFFF.
    static let stage1Count = 0x110000 >> 8

    /// Unpacks a table into one allocation, never freed or written again:
    /// `stage1Count` bytes of stage 1, then the stage-2 blocks. Every block
    /// stage 1 names is whole in stage 2 (checked here), so for a scalar below
    /// U+110000 both loads of a lookup are in bounds.
    /// - Complexity: O(table size), once per table per process.
    static func unpack(stage1Hex: StaticString, stage2Digits: StaticString) -> UnsafePointer<UInt8> {
        // Straight into the one allocation (no intermediate arrays: process
        // start-up is part of every benchmark run).
        precondition(stage1Hex.utf8CodeUnitCount == 2 * stage1Count)
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: stage1Count + stage2Digits.utf8CodeUnitCount)
        // 0-9, then a-z (hex digits are the first 16).
        func digitValue(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit &- 0x30 : digit &- 0x61 &+ 10 }
        var blocks: UInt8 = 0
        stage1Hex.withUTF8Buffer { hex in
            for block in 0..<stage1Count {
                let value = digitValue(hex[2 * block]) << 4 | digitValue(hex[2 * block + 1])
                table[block] = value
                blocks = max(blocks, value)
            }
        }
        stage2Digits.withUTF8Buffer { digits in
            for (offset, digit) in digits.enumerated() { table[stage1Count + offset] = digitValue(digit) }
        }
        precondition((Int(blocks) + 1) << 8 <= stage2Digits.utf8CodeUnitCount)
        return UnsafePointer(table)
    }
}
