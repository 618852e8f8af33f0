/// Base64 (RFC 4648 §4: the `+` `/` alphabet, `=` padding) for OSC 52, in
/// plain Swift so that TermCore needs no Foundation.
///
/// Decoding accepts exactly what Foundation's `Data(base64Encoded:)` (no
/// options) accepts on Linux, which OSC 52 used before (Base64Tests pin it
/// and compare the two on random input):
/// - no whitespace or line breaks, no URL-safe `-` `_`, nothing outside the
///   alphabet and `=`;
/// - a run of `=` at the end is set aside; what is left, rounded up to whole
///   groups of four, must fit in the input (so `Zg==` and `Zm8=` decode and
///   `Zg`, `Zg=` and `Zm8` do not), and `=` beyond that is ignored
///   (`Zm9v=` is `foo`);
/// - every group but the last is four alphabet characters; the last has two,
///   then each of its third and fourth is a character (one more byte each)
///   or `=` (`Zg=a` gives two bytes, 0x66 and 0x1A);
/// - the bits past the last byte are not checked (`Zh==` is `f`);
/// - input of four or more `=` and nothing else decodes to one zero byte.
enum Base64 {
    static let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    static let padding = UInt8(ascii: "=")

    /// The encoding of `bytes`, padded, on one line.
    /// - Complexity: O(bytes).
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        alphabet.withUTF8Buffer { alphabet in
            var iterator = bytes.makeIterator()
            while let first = iterator.next() {
                let second = iterator.next()
                let third = second == nil ? nil : iterator.next()
                let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
                output.append(alphabet[Int(group >> 18)])
                output.append(alphabet[Int(group >> 12 & 0x3F)])
                output.append(second == nil ? padding : alphabet[Int(group >> 6 & 0x3F)])
                output.append(third == nil ? padding : alphabet[Int(group & 0x3F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil when it is not base64 (the rules
    /// above).
    /// - Complexity: O(text).
    static func decode(_ text: Substring) -> [UInt8]? {
        if let result = text.utf8.withContiguousStorageIfAvailable(decode(bytes:)) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(decode(bytes:))
    }

    /// The value of one alphabet character, or nil (`=` included).
    static func value(of character: UInt8) -> UInt32? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(character &- UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(character &- UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(character &- UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }

    static func decode(bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard !bytes.isEmpty else { return [] }
        guard let lastData = bytes.lastIndex(where: { $0 != padding }) else {
            return bytes.count >= 4 ? [0] : nil
        }
        let groups = (lastData + 1 + 3) / 4
        guard groups * 4 <= bytes.count else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(groups * 3)
        for group in 0..<groups {
            let start = group * 4
            let isLast = group == groups - 1
            guard let first = value(of: bytes[start]), let second = value(of: bytes[start + 1]) else { return nil }
            var third: UInt32?
            var fourth: UInt32?
            if !isLast || bytes[start + 2] != padding {
                guard let value = value(of: bytes[start + 2]) else { return nil }
                third = value
            }
            if !isLast || bytes[start + 3] != padding {
                guard let value = value(of: bytes[start + 3]) else { return nil }
                fourth = value
            }
            let bits = first << 18 | second << 12 | (third ?? 0) << 6 | (fourth ?? 0)
            output.append(UInt8(truncatingIfNeeded: bits >> 16))
            if third != nil { output.append(UInt8(truncatingIfNeeded: bits >> 8)) }
            if fourth != nil { output.append(UInt8(truncatingIfNeeded: bits)) }
        }
        return output
    }
}
