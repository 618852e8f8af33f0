/// Why a frame was refused by the codec. Frames are never thrown past the
/// codec's callers: ``ServerFrameDecoder`` counts and drops them.
public struct WireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of problem it was.
    public enum Kind: Equatable, Sendable {
        /// Not JSON, or JSON of the wrong shape.
        case malformed
        /// Well-formed, but a `type` this client does not know (a newer server).
        case unknownType
        /// An outgoing frame with a value the protocol does not allow.
        case invalidValue
    }

    /// The kind of problem.
    public var kind: Kind
    /// What was wrong, naming the field.
    public var description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// Encodes client frames and decodes, validating, server frames
/// (PROTOCOL.md "Frames"). Pure functions; no state.
public enum WireCodec {
    // MARK: Encoding

    /// The JSON text of a client frame, as UTF-8.
    /// - Throws: ``WireError`` (`invalidValue`) for a resize outside 1…1000 or
    ///   a `cwd` that is not absolute; nothing invalid goes on the wire.
    public static func encode(_ frame: ClientFrame) throws(WireError) -> [UInt8] {
        var out: [UInt8] = []
        switch frame {
        case .attach(let sessionID, let cwd):
            out += Array(#"{"type":"attach","sessionId":"#.utf8)
            if let sessionID { appendJSONString(sessionID.text, to: &out) } else { out += Array("null".utf8) }
            if let cwd {
                guard isAbsolutePath(cwd) else {
                    throw WireError(.invalidValue, "cwd must be an absolute path, got '\(cwd)'")
                }
                out += Array(#","cwd":"#.utf8)
                appendJSONString(cwd, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .input(let data):
            out.reserveCapacity(data.utf8.count + 32)
            out += Array(#"{"type":"input","data":"#.utf8)
            appendJSONString(data, to: &out)
            out.append(UInt8(ascii: "}"))
        case .resize(let columns, let rows):
            guard WireLimits.dimensions.contains(columns), WireLimits.dimensions.contains(rows) else {
                throw WireError(.invalidValue, "resize must be 1…1000 × 1…1000, got \(columns)×\(rows)")
            }
            out += Array(#"{"type":"resize","cols":\#(columns),"rows":\#(rows)}"#.utf8)
        case .approve(let mode):
            if let mode {
                out += Array(#"{"type":"approve","mode":"\#(mode.rawValue)"}"#.utf8)
            } else {
                out += Array(#"{"type":"approve"}"#.utf8)
            }
        case .reject:
            out += Array(#"{"type":"reject"}"#.utf8)
        }
        return out
    }

    /// True for a path the server accepts as `cwd`: it begins with "/".
    public static func isAbsolutePath(_ path: String) -> Bool { path.utf8.first == UInt8(ascii: "/") }

    /// Appends `text` as a JSON string literal (RFC 8259 §7): quote, backslash
    /// and C0 controls escaped, everything else as UTF-8.
    static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                out += Array(#"\u00"#.utf8)
                out += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    // MARK: Decoding

    /// Decodes and validates one server frame. The `output` data is unescaped
    /// in place in `message` and returned as a slice of it: no second copy.
    ///
    /// - Complexity: O(n) in the message length, one pass.
    public static func decodeServerFrame(_ message: consuming [UInt8]) -> Result<ServerFrame, WireError> {
        var bytes = message
        let parsed: Result<Parsed, WireError> = bytes.withUnsafeMutableBufferPointer { buffer in
            do throws(WireError) {
                return .success(try interpretServer(buffer))
            } catch {
                return .failure(error)
            }
        }
        switch parsed {
        case .success(.frame(let frame)): return .success(frame)
        case .success(.output(let range)): return .success(.output(bytes[range]))
        case .failure(let error): return .failure(error)
        }
    }

    /// Decodes and validates one client frame (used by test servers and fakes).
    public static func decodeClientFrame(_ message: consuming [UInt8]) -> Result<ClientFrame, WireError> {
        var bytes = message
        return bytes.withUnsafeMutableBufferPointer { buffer in
            do throws(WireError) {
                return .success(try interpretClient(buffer))
            } catch {
                return .failure(error)
            }
        }
    }

    private enum Parsed {
        case frame(ServerFrame)
        case output(Range<Int>)
    }

    private static func object(_ buffer: UnsafeMutableBufferPointer<UInt8>, maxStringBytes: Int? = nil)
        throws(WireError) -> Fields
    {
        let value: JSONValue
        do {
            value = try JSONReader.read(buffer)
        } catch {
            throw WireError(.malformed, "not JSON: \(error)")
        }
        guard case .object(let members) = value else { throw WireError(.malformed, "not a JSON object") }
        return Fields(members: members, buffer: UnsafeBufferPointer(buffer), maxStringBytes: maxStringBytes)
    }

    private static func interpretServer(_ buffer: UnsafeMutableBufferPointer<UInt8>) throws(WireError) -> Parsed {
        let fields = try object(buffer, maxStringBytes: WireLimits.maxFieldBytes)
        let type = try fields.requiredString("type")
        switch type {
        case "attached":
            let text = try fields.requiredString("sessionId")
            guard let id = SessionID(text) else { throw WireError(.malformed, "attached: sessionId is not a UUID v4") }
            return .frame(.attached(id))
        case "output":
            guard case .string(let range)? = fields["data"] else {
                throw WireError(.malformed, "output: data must be a string")
            }
            return .output(range)
        case "exit":
            let code = try fields.requiredInteger("code")
            return .frame(.exit(code: code, reason: try fields.optionalString("reason")))
        case "status":
            let name = try fields.requiredString("status")
            guard let state = ActivityState(rawValue: name) else {
                throw WireError(.malformed, "status: unknown status '\(name.prefix(40))'")
            }
            var gate: GateKind?
            if let gateName = try fields.optionalString("gate") {
                guard let kind = GateKind(rawValue: gateName) else {
                    throw WireError(.malformed, "status: unknown gate '\(gateName.prefix(40))'")
                }
                gate = kind
            }
            let status = SessionStatus(
                state: state, detail: try fields.optionalString("detail"),
                pending: try fields.optionalBool("pending") ?? false, gate: gate)
            return .frame(.status(status))
        case "telemetry":
            let telemetry = Telemetry(
                at: try fields.requiredInteger("at"), costUsd: try fields.optionalNumber("costUsd"),
                contextUsedPct: try fields.optionalNumber("contextUsedPct"),
                linesAdded: try fields.optionalInteger("linesAdded"),
                linesRemoved: try fields.optionalInteger("linesRemoved"), model: try fields.optionalString("model"),
                effort: try fields.optionalString("effort"))
            return .frame(.telemetry(telemetry))
        default:
            throw WireError(.unknownType, "unknown frame type '\(type.prefix(40))'")
        }
    }

    private static func interpretClient(_ buffer: UnsafeMutableBufferPointer<UInt8>) throws(WireError) -> ClientFrame {
        let fields = try object(buffer)
        let type = try fields.requiredString("type")
        switch type {
        case "attach":
            guard let idValue = fields["sessionId"] else {
                throw WireError(.malformed, "attach: the sessionId key must be present (null for a new session)")
            }
            var id: SessionID?
            switch idValue {
            case .null: id = nil
            case .string(let range):
                guard let parsed = SessionID(fields.string(range)) else {
                    throw WireError(.malformed, "attach: sessionId is not a UUID v4")
                }
                id = parsed
            default: throw WireError(.malformed, "attach: sessionId must be a string or null")
            }
            let cwd = try fields.optionalString("cwd")
            if let cwd, !isAbsolutePath(cwd) { throw WireError(.malformed, "attach: cwd must be absolute") }
            return .attach(sessionID: id, cwd: cwd)
        case "input":
            return .input(try fields.requiredString("data"))
        case "resize":
            let columns = try fields.requiredInteger("cols")
            let rows = try fields.requiredInteger("rows")
            guard WireLimits.dimensions.contains(columns), WireLimits.dimensions.contains(rows) else {
                throw WireError(.malformed, "resize: cols and rows must be 1…1000")
            }
            return .resize(columns: columns, rows: rows)
        case "approve":
            guard let name = try fields.optionalString("mode") else { return .approve(mode: nil) }
            guard let mode = ApproveMode(rawValue: name) else {
                throw WireError(.malformed, "approve: unknown mode '\(name.prefix(40))'")
            }
            return .approve(mode: mode)
        case "reject":
            return .reject
        default:
            throw WireError(.unknownType, "unknown frame type '\(type.prefix(40))'")
        }
    }
}

/// Typed access to the members of a decoded object.
private struct Fields {
    let members: [JSONMember]
    let buffer: UnsafeBufferPointer<UInt8>
    /// Strings read through ``requiredString(_:)``/``optionalString(_:)``
    /// longer than this make the frame malformed (nil: no limit, for the
    /// client's own frames, whose input may be a long paste).
    let maxStringBytes: Int?

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }

    /// The value of the first member named `key` (keys are compared as bytes).
    subscript(key: StaticString) -> JSONValue? {
        let count = key.utf8CodeUnitCount
        let pointer = key.utf8Start
        outer: for member in members where member.key.count == count {
            for index in 0..<count where buffer[member.key.lowerBound + index] != pointer[index] { continue outer }
            return member.value
        }
        return nil
    }

    func requiredString(_ key: StaticString) throws(WireError) -> String {
        guard case .string(let range)? = self[key] else { throw WireError(.malformed, "\(key) must be a string") }
        return try bounded(range, key)
    }

    private func bounded(_ range: Range<Int>, _ key: StaticString) throws(WireError) -> String {
        if let maxStringBytes, range.count > maxStringBytes {
            throw WireError(.malformed, "\(key) is longer than \(maxStringBytes) bytes")
        }
        return string(range)
    }

    func optionalString(_ key: StaticString) throws(WireError) -> String? {
        switch self[key] {
        case nil, .null?: return nil
        case .string(let range)?: return try bounded(range, key)
        default: throw WireError(.malformed, "\(key) must be a string")
        }
    }

    func optionalBool(_ key: StaticString) throws(WireError) -> Bool? {
        switch self[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw WireError(.malformed, "\(key) must be true or false")
        }
    }

    func optionalNumber(_ key: StaticString) throws(WireError) -> Double? {
        switch self[key] {
        case nil, .null?: return nil
        case .number(let value)?: return value
        default: throw WireError(.malformed, "\(key) must be a number")
        }
    }

    func optionalInteger(_ key: StaticString) throws(WireError) -> Int? {
        guard let value = try optionalNumber(key) else { return nil }
        // Integers beyond 2^53 are not exact in JSON's doubles: refused.
        guard value == value.rounded(), abs(value) <= 9_007_199_254_740_992 else {
            throw WireError(.malformed, "\(key) must be an integer")
        }
        return Int(value)
    }

    func requiredInteger(_ key: StaticString) throws(WireError) -> Int {
        guard let value = try optionalInteger(key) else { throw WireError(.malformed, "\(key) is missing") }
        return value
    }
}

/// Decodes server frames, dropping and counting the malformed ones.
///
/// Keep one per connection (or per session) and read ``statistics`` for
/// diagnostics; nothing it refuses is ever thrown.
public struct ServerFrameDecoder: Sendable {
    /// What the decoder has seen.
    public struct Statistics: Equatable, Sendable {
        /// Frames decoded and returned.
        public var decoded = 0
        /// Frames dropped because they were not valid JSON or had the wrong shape.
        public var malformed = 0
        /// Frames dropped because their `type` is unknown.
        public var unknownType = 0
        /// The last reason a frame was dropped, for a diagnostic line.
        public var lastProblem: String?
        /// Binary WebSocket messages, which the protocol never uses, dropped.
        public var binaryMessages = 0

        /// All counts 0, no problem seen.
        public init() {}
    }

    /// What it decoded and dropped so far.
    public private(set) var statistics = Statistics()

    /// A decoder that has seen nothing.
    public init() {}

    /// The frame, or nil when it was dropped (and counted).
    public mutating func decode(_ message: consuming [UInt8]) -> ServerFrame? {
        switch WireCodec.decodeServerFrame(message) {
        case .success(let frame):
            statistics.decoded += 1
            return frame
        case .failure(let error):
            if error.kind == .unknownType { statistics.unknownType += 1 } else { statistics.malformed += 1 }
            statistics.lastProblem = error.description
            return nil
        }
    }

    /// Counts a binary message, which the protocol does not use.
    public mutating func dropBinary() {
        statistics.binaryMessages += 1
        statistics.lastProblem = "binary message dropped"
    }
}
