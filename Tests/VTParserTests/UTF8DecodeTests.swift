import Testing

@testable import VTParser

@Suite("Parser: whole UTF-8 sequences")
struct UTF8DecodeTests {
    /// What `decodeUTF8` must answer, from the standard library's decoder
    /// (Unicode §3.9 conformant): the length and value of a valid sequence
    /// that is whole within `end` bytes and printable (U+00A0 and above), or
    /// nil.
    static func expected(_ bytes: [UInt8], end: Int) -> (length: Int, scalar: UInt32)? {
        var iterator = bytes[0..<end].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator), scalar.value >= 0xA0 else { return nil }
        return (UTF8.width(scalar), scalar.value)
    }

    /// Every lead byte with every second byte, and third and fourth bytes
    /// at the edges of the ranges Table 3-7 allows, in buffers cut after
    /// each byte: the value-range checks must accept and reject exactly what
    /// the table does.
    @Test("Every lead and second byte agree with the standard library")
    func everyLeadAndSecondByteAgreeWithTheStandardLibrary() {
        let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xFF]
        var mismatches: [[UInt8]] = []
        for lead in 0x80...0xFF {
            for second in 0...0xFF {
                for third in edges {
                    for fourth in lead >= 0xF0 ? edges : [0x80] {
                        let bytes: [UInt8] = [UInt8(lead), UInt8(second), third, fourth]
                        for end in 1...4 {
                            var scalar: UInt32 = 0
                            let length = bytes.withUnsafeBufferPointer {
                                VTParser.decodeUTF8($0.baseAddress!, 0, end, &scalar)
                            }
                            let want = Self.expected(bytes, end: end)
                            let agrees = want.map { length == $0.length && scalar == $0.scalar } ?? (length == 0)
                            if !agrees { mismatches.append(Array(bytes[0..<end])) }
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "first: \(mismatches.prefix(5))")
    }

    /// `threeByteSequences` after a three-byte character (U+4E00): every lead
    /// with every second byte and the third at the ranges' edges, followed by
    /// a fourth byte so that the 4-byte load fits. It takes the sequence
    /// exactly when the standard library decodes a three-byte scalar there
    /// (Table 3-7: no overlong form, no surrogate) that is not U+4E00 again
    /// (a repeat is the caller's), and nothing otherwise.
    @Test("Three-byte sequences after a three-byte character: taken exactly when the standard library decodes one")
    func threeByteSequencesAgreeWithTheStandardLibrary() {
        let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xFF]
        var mismatches: [[UInt8]] = []
        for lead in 0x80...0xFF {
            for second in 0...0xFF {
                for third in edges {
                    let bytes: [UInt8] = [0xE4, 0xB8, 0x80, UInt8(lead), UInt8(second), third, 0x41]
                    var want: (count: Int, index: Int, scalar: UInt32?) = (1, 3, nil)
                    if let decoded = Self.expected(Array(bytes[3...]), end: 4), decoded.length == 3,
                        decoded.scalar != 0x4E00
                    {
                        want = (2, 6, decoded.scalar)
                    }
                    let run = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: VTParser.scalarRunCapacity)
                    defer { run.deallocate() }
                    run[0] = 0x4E00
                    let got = bytes.withUnsafeBufferPointer {
                        VTParser.threeByteSequences($0.baseAddress!, 3, bytes.count, into: run, count: 1)
                    }
                    let agrees =
                        got.count == want.count && got.index == want.index
                        && (want.scalar == nil || run[1] == want.scalar)
                    if !agrees { mismatches.append(Array(bytes[3..<6])) }
                }
            }
        }
        #expect(mismatches.isEmpty, "first: \(mismatches.prefix(5))")
    }

    @Test("A run of three-byte characters stops at the run's capacity, 4 bytes before the end, and at other text")
    func threeByteRunsStopWhereTheyMust() {
        // 100 distinct CJK ideographs, then ASCII.
        let text = String((0..<100).map { Character(Unicode.Scalar(0x4E01 + $0)!) }) + "ab"
        let bytes = Array(text.utf8)
        let run = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: VTParser.scalarRunCapacity)
        defer { run.deallocate() }
        run[0] = 0x4E00
        let full = bytes.withUnsafeBufferPointer {
            VTParser.threeByteSequences($0.baseAddress!, 0, bytes.count, into: run, count: 1)
        }
        #expect(full.count == VTParser.scalarRunCapacity && full.index == 3 * (VTParser.scalarRunCapacity - 1))
        #expect(Array(run[1..<full.count]) == (0..<UInt32(full.count - 1)).map { 0x4E01 + $0 })
        // From the 99th: it and the 100th, then "ab" ends it.
        let tail = bytes.withUnsafeBufferPointer {
            VTParser.threeByteSequences($0.baseAddress!, 3 * 98, bytes.count, into: run, count: 1)
        }
        #expect(tail.count == 3 && tail.index == 300 && run[1] == 0x4E01 + 98 && run[2] == 0x4E01 + 99)
        // The last character within 4 bytes of the end is left to the caller.
        let cut = bytes.withUnsafeBufferPointer {
            VTParser.threeByteSequences($0.baseAddress!, 3 * 98, 300, into: run, count: 1)
        }
        #expect(cut.count == 2 && cut.index == 3 * 99)
    }
}
