/// Strict UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing
/// past U+10FFFF), as RFC 6455 §8.1 requires of every text message.
public enum UTF8Validation {
    /// True when `bytes` is well-formed UTF-8.
    /// - Complexity: O(n); ASCII runs are checked eight bytes at a time.
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            while count - index >= 8,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
            }
            guard index < count else { return true }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upper = 0x9F  // no UTF-16 surrogates
            case 0xF0:
                length = 4
                lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upper = 0x8F  // nothing past U+10FFFF
            default: return false
            }
            guard count - index >= length else { return false }
            let second = base[index + 1]
            guard second >= lower && second <= upper else { return false }
            for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// True when `bytes` is well-formed UTF-8.
    public static func isValid(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { isValid($0) } }
}
