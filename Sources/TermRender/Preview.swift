import TermCore

/// A web-terminal server's session preview (`GET /live-sessions/:id/preview`,
/// PROTOCOL.md): `{"id", "cols", "rows", "data"}`, where `data` is the last
/// ~24 KB of the session's output as a JSON string. The cut can fall inside
/// an escape sequence, a UTF-8 sequence or a UTF-16 surrogate pair.
public struct Preview: Equatable, Sendable {
    /// The session's id as the server wrote it (not validated here), or ""
    /// when the preview had none.
    public var id: String
    /// The session's width in cells (`cols`), 1…1000: the size of the
    /// terminal to feed ``data`` into.
    public var columns: Int
    /// The session's height in cells, 1…1000.
    public var rows: Int
    /// The output bytes (UTF-8), as sent.
    public var data: [UInt8]

    /// Why a preview could not be read: invalid JSON, or a field missing or
    /// out of range.
    public struct Failure: Error, CustomStringConvertible {
        /// What was wrong and, for a JSON error, at which byte.
        public let description: String
    }

    /// Decodes the JSON. Lone surrogate escapes (`"\ud800"`, written when a
    /// string is cut by UTF-16 index) become U+FFFD instead of failing.
    public init(json: some Collection<UInt8>) throws {
        var reader = JSONObjectReader(bytes: Array(json))
        let fields = try reader.readObject()
        guard case .string(let data)? = fields["data"] else {
            throw Failure(description: "preview has no \"data\" string")
        }
        guard case .number(let columns)? = fields["cols"], case .number(let rows)? = fields["rows"],
            Terminal.Limits.dimensions.contains(columns), Terminal.Limits.dimensions.contains(rows)
        else { throw Failure(description: "preview needs \"cols\" and \"rows\" in 1…1000") }
        if case .string(let id)? = fields["id"] { self.id = id } else { self.id = "" }
        self.columns = columns
        self.rows = rows
        self.data = Array(data.utf8)
    }

    /// `data` from its first clean starting point: a cut inside an escape
    /// sequence (its parameters would print as text: `5;1H`, `0m`) or a
    /// character leaves junk before the next line start or ESC, within the
    /// first 512 bytes; that junk is dropped. Data that starts with ESC is
    /// kept whole.
    public var cleanData: ArraySlice<UInt8> {
        var start = 0
        while start < data.count && data[start] != 0x1B {
            // U+FFFD from a broken character at the cut.
            if data.count - start >= 3 && data[start] == 0xEF && data[start + 1] == 0xBF && data[start + 2] == 0xBD {
                start += 3
                continue
            }
            break
        }
        guard start < data.count, data[start] != 0x1B else { return data[start...] }
        let window = data[start..<min(data.count, start + 512)]
        if let boundary = window.firstIndex(where: { $0 == 0x1B || $0 == 0x0A || $0 == 0x07 }) {
            return data[(data[boundary] == 0x1B ? boundary : boundary + 1)...]
        }
        return data[start...]
    }

    /// A terminal of the preview's size fed with the clean data.
    public func terminal() -> Terminal {
        let terminal = Terminal(columns: columns, rows: rows, scrollback: 0)
        terminal.feed(cleanData)
        return terminal
    }
}

/// Reads one flat JSON object (RFC 8259) of strings, numbers and other
/// values (skipped), tolerant of lone surrogate escapes.
struct JSONObjectReader {
    enum Value: Equatable {
        case string(String)
        case number(Int)
        case other
    }

    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func failure(_ what: String) -> Preview.Failure { Preview.Failure(description: "JSON: \(what) at byte \(offset)") }

    mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    mutating func expect(_ byte: UInt8) throws {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == byte else { throw failure("expected '\(UnicodeScalar(byte))'") }
        offset += 1
    }

    mutating func readObject() throws -> [String: Value] {
        try expect(UInt8(ascii: "{"))
        var fields: [String: Value] = [:]
        skipSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return fields
        }
        while true {
            skipSpace()
            let key = try readString()
            try expect(UInt8(ascii: ":"))
            fields[key] = try readValue()
            skipSpace()
            guard offset < bytes.count else { throw failure("unterminated object") }
            if bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return fields
            }
            try expect(UInt8(ascii: ","))
        }
    }

    mutating func readValue() throws -> Value {
        skipSpace()
        guard offset < bytes.count else { throw failure("missing value") }
        switch bytes[offset] {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = offset
            offset += 1
            while offset < bytes.count, "0123456789.eE+-".utf8.contains(bytes[offset]) { offset += 1 }
            let text = String(decoding: bytes[start..<offset], as: UTF8.self)
            if let integer = Int(text) { return .number(integer) }
            guard let value = Double(text) else { return .other }
            // Int(value) traps past Int's range (1e400 is infinite; 2^63 is
            // one too many), and a size that large is an attack or a bug: an
            // integer literal that Int cannot hold, or a double of magnitude
            // 2^63 or more, of either sign, makes the preview malformed.
            let isIntegerLiteral = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
            guard !isIntegerLiteral, value.magnitude < 9_223_372_036_854_775_808.0 else {
                offset = start
                throw failure("number out of range")
            }
            // 80.0 is a size; 80.5 is not (skipped like any other value).
            return Int(exactly: value).map(Value.number) ?? .other
        default:
            // true, false, null, or a nested value: skip to the next , or }
            // at this depth.
            var depth = 0
            var inString = false
            while offset < bytes.count {
                let byte = bytes[offset]
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        offset += 1
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    if depth == 0 { break }
                    depth -= 1
                } else if byte == UInt8(ascii: ",") && depth == 0 {
                    break
                }
                offset += 1
            }
            return .other
        }
    }

    mutating func readHex4() throws -> UInt32 {
        guard offset + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16)
        else { throw failure("bad \\u escape") }
        offset += 4
        return value
    }

    mutating func readString() throws -> String {
        try expect(UInt8(ascii: "\""))
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flushRaw() {
            if !raw.isEmpty {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll(keepingCapacity: true)
            }
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            if byte == UInt8(ascii: "\"") {
                flushRaw()
                return String(scalars)
            }
            guard byte == UInt8(ascii: "\\") else {
                raw.append(byte)
                continue
            }
            flushRaw()
            guard offset < bytes.count else { break }
            let escape = bytes[offset]
            offset += 1
            switch escape {
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "u"):
                let unit = try readHex4()
                if (0xD800...0xDBFF).contains(unit), offset + 6 <= bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                    bytes[offset + 1] == UInt8(ascii: "u")
                {
                    let saved = offset
                    offset += 2
                    let low = try readHex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        scalars.append(UnicodeScalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                        continue
                    }
                    offset = saved
                }
                scalars.append(UnicodeScalar(unit) ?? "\u{FFFD}")
            default: scalars.append(UnicodeScalar(escape))
            }
        }
        throw failure("unterminated string")
    }
}
