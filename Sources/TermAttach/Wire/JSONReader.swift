/// A JSON value (RFC 8259) whose strings are byte ranges of the buffer it was
/// read from, already unescaped in place.
///
/// Unescaping never makes a string longer (`\u001b` is 6 bytes in and 1 out;
/// a surrogate pair is 12 in and 4 out), so a string can be decoded over its
/// own escaped form. That is what lets a 16 MiB `output` frame yield its
/// terminal bytes without a second full copy.
enum JSONValue {
    case null
    case bool(Bool)
    case number(Double)
    case string(Range<Int>)
    case array([JSONValue])
    case object([JSONMember])
}

/// One `"key": value` pair of an object; the key is a range like a string's.
struct JSONMember {
    var key: Range<Int>
    var value: JSONValue
}

/// Why a JSON text was refused.
struct JSONError: Error, CustomStringConvertible, Equatable {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A strict, bounded, single-pass JSON reader over a mutable byte buffer.
///
/// Strings are unescaped in place; `\uXXXX` escapes become UTF-8, surrogate
/// pairs are joined, and a lone surrogate (Node writes them when it cuts a
/// string at a UTF-16 index) becomes U+FFFD (EF BF BD) instead of failing.
struct JSONReader {
    /// Nesting deeper than this is refused: frames are at most three levels
    /// deep, and a bound keeps recursion off attacker-controlled depth.
    static let maxDepth = 16
    /// Members of one object beyond this are refused: 4096 (the largest
    /// frame has about a dozen keys). An array's elements are bounded by
    /// ``maxValues`` only: PROTOCOL.md bounds neither a listing nor an
    /// events answer, and a long session's timeline has tens of thousands.
    static let maxContainerCount = 4096
    /// Values in one document beyond this are refused: 131,072. Depth and
    /// container bounds alone let 16 MiB of `[0,0,…]` hold 8M values, and the
    /// tree of them (24–40 bytes each, more once JSONTree owns strings)
    /// would need hundreds of MiB; a frame has a dozen values, and a listing
    /// of 1,000 sessions of 30 fields or 20,000 timeline events fits.
    static let maxValues = 1 << 17

    private let base: UnsafeMutablePointer<UInt8>
    private let end: Int
    private var position = 0
    private var depth = 0
    private var values = 0

    private init(base: UnsafeMutablePointer<UInt8>, count: Int) {
        self.base = base
        end = count
    }

    /// Reads one JSON document that fills `buffer` (surrounding whitespace
    /// allowed), unescaping its strings in place.
    static func read(_ buffer: UnsafeMutableBufferPointer<UInt8>) throws(JSONError) -> JSONValue {
        guard let base = buffer.baseAddress, buffer.count > 0 else { throw JSONError("empty message") }
        var reader = JSONReader(base: base, count: buffer.count)
        reader.skipWhitespace()
        let value = try reader.readValue()
        reader.skipWhitespace()
        guard reader.position == reader.end else { throw JSONError("trailing bytes after the JSON value") }
        return value
    }

    private mutating func skipWhitespace() {
        while position < end {
            switch base[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func readValue() throws(JSONError) -> JSONValue {
        guard position < end else { throw JSONError("truncated JSON") }
        values += 1
        if values > Self.maxValues { throw JSONError("more than \(Self.maxValues) values") }
        switch base[position] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default: throw JSONError("unexpected byte 0x\(String(base[position], radix: 16)) at \(position)")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        guard end - position >= count else { throw JSONError("truncated JSON") }
        let pointer = literal.utf8Start
        for index in 0..<count where base[position + index] != pointer[index] {
            throw JSONError("bad literal at \(position)")
        }
        position += count
    }

    private mutating func enter() throws(JSONError) {
        depth += 1
        if depth > Self.maxDepth { throw JSONError("nested deeper than \(Self.maxDepth)") }
    }

    private mutating func readObject() throws(JSONError) -> JSONValue {
        try enter()
        position += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if position < end && base[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < end, base[position] == UInt8(ascii: "\"") else { throw JSONError("expected a key") }
            let key = try readString()
            skipWhitespace()
            guard position < end, base[position] == UInt8(ascii: ":") else { throw JSONError("expected ':'") }
            position += 1
            skipWhitespace()
            members.append(JSONMember(key: key, value: try readValue()))
            if members.count > Self.maxContainerCount { throw JSONError("more than \(Self.maxContainerCount) members") }
            skipWhitespace()
            guard position < end else { throw JSONError("truncated JSON") }
            if base[position] == UInt8(ascii: ",") {
                position += 1
            } else if base[position] == UInt8(ascii: "}") {
                position += 1
                depth -= 1
                return .object(members)
            } else {
                throw JSONError("expected ',' or '}' at \(position)")
            }
        }
    }

    private mutating func readArray() throws(JSONError) -> JSONValue {
        try enter()
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < end && base[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue())
            skipWhitespace()
            guard position < end else { throw JSONError("truncated JSON") }
            if base[position] == UInt8(ascii: ",") {
                position += 1
            } else if base[position] == UInt8(ascii: "]") {
                position += 1
                depth -= 1
                return .array(elements)
            } else {
                throw JSONError("expected ',' or ']' at \(position)")
            }
        }
    }

    private mutating func readNumber() throws(JSONError) -> Double {
        let start = position
        if base[position] == UInt8(ascii: "-") { position += 1 }
        // RFC 8259 §6: int = zero / ( digit1-9 *DIGIT ); frac and exp optional.
        guard position < end, isDigit(base[position]) else { throw JSONError("bad number at \(start)") }
        if base[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < end && isDigit(base[position]) { position += 1 }
        }
        var isInteger = true
        if position < end && base[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < end, isDigit(base[position]) else { throw JSONError("bad number at \(start)") }
            while position < end && isDigit(base[position]) { position += 1 }
        }
        if position < end && (base[position] | 0x20) == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if position < end && (base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-")) {
                position += 1
            }
            guard position < end, isDigit(base[position]) else { throw JSONError("bad number at \(start)") }
            while position < end && isDigit(base[position]) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
        // Numbers outside Int's range, of either sign, are refused: no field
        // of the protocol comes near (milliseconds since 1970 are ~2^41), a
        // caller converting one to Int would trap, and a double cannot tell
        // 2^63 + 1 from 2^63. An integer literal must parse as an Int; a
        // fraction or exponent form must be finite (1e400 is not) and under
        // 2^63 in magnitude.
        guard let value = Double(text), isInteger ? Int(text) != nil : value.magnitude < Self.intRangeMagnitude
        else { throw JSONError("number out of range at \(start) (JSON numbers must fit in a 64-bit Int)") }
        return value
    }

    /// 2^63: doubles at or beyond it in magnitude are outside Int's range.
    static let intRangeMagnitude = 9_223_372_036_854_775_808.0

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Reads the string that starts at the quote under the cursor and returns
    /// the range of its unescaped UTF-8, which begins where its escaped form did.
    ///
    /// - Complexity: O(n); runs without specials move eight bytes at a time.
    private mutating func readString() throws(JSONError) -> Range<Int> {
        var read = position + 1
        var write = read
        let start = read
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while true {
            // Eight bytes at a time while none is '"', '\' or a control (< 0x20):
            // the usual SWAR "has zero byte" and "has byte less than" tests.
            while end - read >= 8 {
                let word = UnsafeRawPointer(base + read).loadUnaligned(as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let special =
                    ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
                if special & highs != 0 { break }
                if write != read { UnsafeMutableRawPointer(base + write).storeBytes(of: word, as: UInt64.self) }
                read += 8
                write += 8
            }
            guard read < end else { throw JSONError("unterminated string") }
            let byte = base[read]
            if byte == UInt8(ascii: "\"") {
                position = read + 1
                return start..<write
            } else if byte == UInt8(ascii: "\\") {
                guard read + 1 < end else { throw JSONError("unterminated string") }
                let escape = base[read + 1]
                read += 2
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                    base[write] = escape
                    write += 1
                case UInt8(ascii: "b"):
                    base[write] = 0x08
                    write += 1
                case UInt8(ascii: "f"):
                    base[write] = 0x0C
                    write += 1
                case UInt8(ascii: "n"):
                    base[write] = 0x0A
                    write += 1
                case UInt8(ascii: "r"):
                    base[write] = 0x0D
                    write += 1
                case UInt8(ascii: "t"):
                    base[write] = 0x09
                    write += 1
                case UInt8(ascii: "u"):
                    // The usual escape in terminal output is \u00XX for a C0
                    // control (ESC is \u001b): one byte out, no scalar decoding.
                    if end - read >= 4 && base[read] == UInt8(ascii: "0") && base[read + 1] == UInt8(ascii: "0") {
                        let high = hexValue(base[read + 2])
                        let low = hexValue(base[read + 3])
                        if high < 8 && low < 16 {
                            base[write] = high << 4 | low
                            write += 1
                            read += 4
                            continue
                        }
                    }
                    let unit = try hex4(at: read)
                    read += 4
                    var scalar = UInt32(unit)
                    if (0xD800...0xDBFF).contains(unit) {
                        // A high surrogate joins a following low one; alone it is U+FFFD.
                        if end - read >= 6 && base[read] == UInt8(ascii: "\\") && base[read + 1] == UInt8(ascii: "u"),
                            let low = try? hex4(at: read + 2), (0xDC00...0xDFFF).contains(low)
                        {
                            scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                            read += 6
                        } else {
                            scalar = 0xFFFD
                        }
                    } else if (0xDC00...0xDFFF).contains(unit) {
                        scalar = 0xFFFD
                    }
                    write += encodeUTF8(scalar, at: base + write)
                default:
                    throw JSONError("bad escape \\\(Character(Unicode.Scalar(escape))) at \(read - 2)")
                }
            } else if byte < 0x20 {
                throw JSONError("control byte 0x\(String(byte, radix: 16)) inside a string at \(read)")
            } else {
                base[write] = byte
                read += 1
                write += 1
            }
        }
    }

    /// The value of a hex digit, or 0xFF.
    @inline(__always)
    private func hexValue(_ byte: UInt8) -> UInt8 {
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 { return digit }
        let letter = (byte | 0x20) &- UInt8(ascii: "a")
        return letter < 6 ? letter + 10 : 0xFF
    }

    private func hex4(at index: Int) throws(JSONError) -> UInt16 {
        guard end - index >= 4 else { throw JSONError("truncated \\u escape") }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = base[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONError("bad \\u escape at \(index)")
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}

/// Writes `scalar` as UTF-8 at `pointer` and returns the byte count (1…4).
@inline(__always)
func encodeUTF8(_ scalar: UInt32, at pointer: UnsafeMutablePointer<UInt8>) -> Int {
    switch scalar {
    case 0..<0x80:
        pointer[0] = UInt8(scalar)
        return 1
    case 0x80..<0x800:
        pointer[0] = UInt8(0xC0 | (scalar >> 6))
        pointer[1] = UInt8(0x80 | (scalar & 0x3F))
        return 2
    case 0x800..<0x10000:
        pointer[0] = UInt8(0xE0 | (scalar >> 12))
        pointer[1] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
        pointer[2] = UInt8(0x80 | (scalar & 0x3F))
        return 3
    default:
        pointer[0] = UInt8(0xF0 | (scalar >> 18))
        pointer[1] = UInt8(0x80 | ((scalar >> 12) & 0x3F))
        pointer[2] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
        pointer[3] = UInt8(0x80 | (scalar & 0x3F))
        return 4
    }
}
