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

    /// Decodes the JSON with the wire frames' reader (`JSONReader`), which
    /// turns lone surrogate escapes (`"\ud800"`, written when a string is cut
    /// by UTF-16 index) into U+FFFD instead of failing. Of a key given twice,
    /// the last counts; fields other than the four are skipped.
    public init(json: some Collection<UInt8>) throws {
        let fields = try Self.fields(of: Array(json))
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

    /// A top-level field as the preview reads it.
    private enum Field {
        case string(String)
        case number(Int)
        case other
    }

    /// The top-level fields of the JSON object in `bytes`.
    private static func fields(of bytes: [UInt8]) throws(Failure) -> [String: Field] {
        var bytes = bytes
        let value: JSONValue
        do {
            value = try bytes.withUnsafeMutableBufferPointer { try JSONReader.read($0) }
        } catch {
            throw Failure(description: "JSON: \(error)")
        }
        guard case .object(let members) = value else { throw Failure(description: "JSON: expected an object") }
        // The reader unescapes strings in place: their ranges index `bytes`
        // as the read left it.
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        var fields: [String: Field] = [:]
        for member in members {
            switch member.value {
            case .string(let range): fields[text(member.key)] = .string(text(range))
            // 80.0 is a size; 80.5 is not (nor is any other value).
            case .number(let number): fields[text(member.key)] = Int(exactly: number).map(Field.number) ?? .other
            default: fields[text(member.key)] = .other
            }
        }
        return fields
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
