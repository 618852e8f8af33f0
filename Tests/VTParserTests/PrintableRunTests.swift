import TestSupport
import Testing

@testable import VTParser

@Suite("Parser: printable runs")
struct PrintableRunTests {
    /// The definition the word-at-a-time scan must agree with: bytes
    /// 0x20–0x7E, up to the first other byte.
    static func expectedRunEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, (0x20...0x7E).contains(bytes[index]) { index += 1 }
        return index
    }

    @Test("Every byte value ends a run where it should") func everyByteValueEndsARunWhereItShould() {
        // Each of the 256 values at each offset of a 19-byte printable line
        // (inside a word, at a word's edges, in the byte-by-byte tail).
        for value in 0...255 {
            for position in 0..<19 {
                var bytes = [UInt8](repeating: UInt8(ascii: "~"), count: 19)
                bytes[position] = UInt8(value)
                for start in 0...position {
                    let end = bytes.withUnsafeBufferPointer {
                        VTParser.printableRunEnd($0.baseAddress!, from: start, to: $0.count)
                    }
                    let expected = Self.expectedRunEnd(bytes, from: start)
                    #expect(end == expected, "value \(value) at \(position) from \(start)")
                }
            }
        }
    }

    @Test("Random buffers agree with the definition") func randomBuffersAgreeWithTheDefinition() {
        // Mostly printable with controls, DEL and high bytes mixed in, so
        // several offenders share a word (borrows and carries between them).
        var generator = SplitMix64(seed: 7)
        let pool: [UInt8] = Array(0x20...0x7E) + [0x00, 0x1B, 0x0A, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]
        for _ in 0..<2_000 {
            let count = Int(generator.next() % 40)
            let bytes = (0..<count).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }
            for start in 0...count {
                let end = bytes.withUnsafeBufferPointer { buffer in
                    buffer.baseAddress.map { VTParser.printableRunEnd($0, from: start, to: count) } ?? 0
                }
                #expect(end == Self.expectedRunEnd(bytes, from: start))
            }
        }
    }
}

@Suite("Parser: long parameters")
struct LongParameterTests {
    @Test("Long parameters saturate at 65535") func longParametersSaturateAt65535() {
        // Nine and more digits, and leading zeros: values cap at 65,535 as
        // xterm's do.
        #expect(parse("\u{1B}[123456789012;77;00000000001H") == ["csi 65535;77;1H"])
        #expect(parse("\u{1B}[65536;65535;99999m") == ["csi 65535;65535;65535m"])
    }

    @Test("Parameters that wrap 32 bits still saturate wherever the feed splits")
    func parametersThatWrap32BitsStillSaturateWhereverTheFeedSplits() {
        // 4294967296 is 2^32 and 4294967301 is 2^32 + 5: accumulated in 32
        // bits they come to 0 and 5 at their last digit. Twenty-five digits
        // wrap several times; leading zeros before a small value do not
        // saturate. Fed whole and split into chunks of every size, so that
        // each parameter also resumes in the middle.
        let input = Array("\u{1B}[4294967296;4294967301;1234567890123456789012345;0000000000000000000000007H".utf8)
        let expected = ["csi 65535;65535;65535;7H"]
        #expect(parse(input) == expected)
        for chunk in 1..<input.count {
            #expect(parse(input, chunk: chunk) == expected, "chunk \(chunk)")
        }
    }
}
