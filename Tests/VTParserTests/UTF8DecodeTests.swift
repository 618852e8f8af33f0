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
}
