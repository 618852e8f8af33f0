/// WebSocket opcodes and close codes (RFC 6455 §5.2, §7.4.1).
enum WebSocketOpcode {
    static let continuation: UInt8 = 0x0
    static let text: UInt8 = 0x1
    static let binary: UInt8 = 0x2
    static let close: UInt8 = 0x8
    static let ping: UInt8 = 0x9
    static let pong: UInt8 = 0xA
}

/// Close codes this client sends (RFC 6455 §7.4.1).
public enum WebSocketCloseCode {
    /// 1000: the purpose is fulfilled (a detach).
    public static let normal: UInt16 = 1000
    /// 1001: going away.
    public static let goingAway: UInt16 = 1001
    /// 1002: the peer broke the protocol.
    public static let protocolError: UInt16 = 1002
    /// 1007: a text message was not UTF-8.
    public static let invalidPayload: UInt16 = 1007
    /// 1009: a message was larger than the limit.
    public static let messageTooBig: UInt16 = 1009
}

/// What the frame parser produced.
enum WebSocketEvent: Equatable {
    /// A whole message, fragments joined; text messages are valid UTF-8.
    case text([UInt8])
    case binary([UInt8])
    case ping([UInt8])
    case pong([UInt8])
    /// The peer's close frame: its code (nil when the frame had no body) and reason.
    case close(code: UInt16?, reason: String)
}

/// A protocol failure found by the parser: the close code to send and the error.
struct WebSocketFailure: Error, Equatable {
    var closeCode: UInt16
    var error: AttachError
}

/// Turns the bytes a server sends into WebSocket messages (RFC 6455 §5):
/// frame headers, 7/16/64-bit lengths, fragmentation, control frames
/// interleaved with fragments, the message size limit and UTF-8 validation.
///
/// Push-based and free of I/O, so any split of the input gives the same events.
struct WebSocketFrameParser {
    /// Control frames carry at most 125 bytes (§5.5).
    static let maxControlPayload = 125

    /// The largest message accepted; a larger one fails with close code 1009
    /// as soon as its header announces it, before its payload is read.
    let messageLimit: Int

    private var header: [UInt8] = []
    private var remaining = 0
    private var frameOpcode: UInt8 = 0
    private var frameIsFinal = false
    private var inPayload = false
    private var message: [UInt8] = []
    private var messageOpcode: UInt8?
    private var control: [UInt8] = []
    /// Bytes written into message buffers: payload appended, plus bytes moved
    /// when a buffer was reallocated. For tests of linear reassembly.
    private(set) var reassemblyBytesCopied = 0

    init(messageLimit: Int) {
        self.messageLimit = messageLimit
        header.reserveCapacity(14)
    }

    /// Consumes `bytes`, appending every completed event to `events`.
    mutating func consume(_ bytes: UnsafeRawBufferPointer, into events: inout [WebSocketEvent]) throws(WebSocketFailure)
    {
        var offset = 0
        let count = bytes.count
        while offset < count {
            if !inPayload {
                offset += try readHeader(bytes, from: offset)
                if inPayload && remaining == 0 { try finishFrame(into: &events) }
                continue
            }
            let take = min(remaining, count - offset)
            let chunk = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)])
            if isControl(frameOpcode) {
                control.append(contentsOf: chunk)
            } else {
                message.append(contentsOf: chunk)
                reassemblyBytesCopied += take
            }
            remaining -= take
            offset += take
            if remaining == 0 { try finishFrame(into: &events) }
        }
    }

    private func isControl(_ opcode: UInt8) -> Bool { opcode & 0x8 != 0 }

    /// Reads header bytes from `offset`; returns how many it took.
    private mutating func readHeader(_ bytes: UnsafeRawBufferPointer, from offset: Int) throws(WebSocketFailure) -> Int
    {
        var taken = 0
        while offset + taken < bytes.count {
            header.append(bytes[offset + taken])
            taken += 1
            if header.count == 2 {
                try checkFirstTwo()
            }
            if header.count >= 2 && header.count == headerLength() {
                try startFrame()
                header.removeAll(keepingCapacity: true)
                return taken
            }
        }
        return taken
    }

    private func headerLength() -> Int {
        switch header[1] & 0x7F {
        case 126: return 4
        case 127: return 10
        default: return 2
        }
    }

    private func checkFirstTwo() throws(WebSocketFailure) {
        let first = header[0]
        let second = header[1]
        if first & 0x70 != 0 { throw violation("reserved bits set without an extension") }
        if second & 0x80 != 0 { throw violation("a frame from the server was masked") }
        let opcode = first & 0x0F
        switch opcode {
        case WebSocketOpcode.continuation, WebSocketOpcode.text, WebSocketOpcode.binary: break
        case WebSocketOpcode.close, WebSocketOpcode.ping, WebSocketOpcode.pong:
            if first & 0x80 == 0 { throw violation("a fragmented control frame") }
            if second & 0x7F > UInt8(Self.maxControlPayload) { throw violation("a control frame over 125 bytes") }
        default: throw violation("unknown opcode \(opcode)")
        }
    }

    private mutating func startFrame() throws(WebSocketFailure) {
        frameIsFinal = header[0] & 0x80 != 0
        frameOpcode = header[0] & 0x0F
        var length: UInt64
        switch header[1] & 0x7F {
        case 126: length = UInt64(header[2]) << 8 | UInt64(header[3])
        case 127:
            length = 0
            for index in 2..<10 { length = length << 8 | UInt64(header[index]) }
            if length >> 63 != 0 { throw violation("a 64-bit length with the top bit set") }
        case let short: length = UInt64(short)
        }
        if !isControl(frameOpcode) {
            if frameOpcode == WebSocketOpcode.continuation {
                if messageOpcode == nil { throw violation("a continuation frame without a message to continue") }
            } else {
                if messageOpcode != nil { throw violation("a new message began inside a fragmented one") }
                messageOpcode = frameOpcode
            }
            if length > UInt64(messageLimit) || message.count + Int(length) > messageLimit {
                throw WebSocketFailure(
                    closeCode: WebSocketCloseCode.messageTooBig, error: .messageTooLarge(limit: messageLimit))
            }
            let needed = message.count + Int(length)
            if needed > message.capacity {
                // Growing by exactly what each fragment needs moves the whole
                // message again for every fragment: quadratic (15 MiB in 1 KiB
                // fragments took 14 s). A message in one frame reserves its
                // length. A fragmented one grows geometrically, 4× at a time
                // from 64 KiB, capped at the limit: reserving the whole limit
                // on the first fragment took 16 MiB (up to 1 GiB with
                // --max-message) of address space for any fragmented message.
                // Each growth moves what is there; the moves add up to less
                // than 4/3 of the message (a geometric series), so the work
                // stays linear: 15 MiB in 1 KiB fragments moves 5.3 MiB.
                let capacity =
                    frameIsFinal && message.isEmpty
                    ? needed : min(messageLimit, max(needed, Self.firstReservation, 4 * message.capacity))
                reassemblyBytesCopied += message.count
                message.reserveCapacity(capacity)
            }
        }
        remaining = Int(length)
        inPayload = true
    }

    private mutating func finishFrame(into events: inout [WebSocketEvent]) throws(WebSocketFailure) {
        inPayload = false
        switch frameOpcode {
        case WebSocketOpcode.ping:
            events.append(.ping(control))
            control.removeAll(keepingCapacity: true)
        case WebSocketOpcode.pong:
            events.append(.pong(control))
            control.removeAll(keepingCapacity: true)
        case WebSocketOpcode.close:
            let body = control
            control.removeAll(keepingCapacity: true)
            if body.isEmpty {
                events.append(.close(code: nil, reason: ""))
                return
            }
            guard body.count >= 2 else { throw violation("a close frame with a one-byte body") }
            let code = UInt16(body[0]) << 8 | UInt16(body[1])
            guard Self.isValidReceivedCloseCode(code) else {
                throw violation("close code \(code) is not allowed (\(Self.closeCodeRule(code)))")
            }
            let reason = Array(body[2...])
            guard UTF8Validation.isValid(reason) else {
                throw WebSocketFailure(
                    closeCode: WebSocketCloseCode.invalidPayload,
                    error: .protocolViolation("a close reason that is not UTF-8"))
            }
            events.append(.close(code: code, reason: String(decoding: reason, as: UTF8.self)))
        default:
            guard frameIsFinal, let opcode = messageOpcode else { return }
            var complete = message
            message = []
            messageOpcode = nil
            if complete.capacity - complete.count > max(complete.count, Self.slackKept) {
                // A fragmented message that ended well under the limit: do not
                // keep the limit's address space reserved while it waits.
                complete = Self.exactCopy(complete)
                reassemblyBytesCopied += complete.count
            }
            if opcode == WebSocketOpcode.text {
                guard UTF8Validation.isValid(complete) else {
                    throw WebSocketFailure(
                        closeCode: WebSocketCloseCode.invalidPayload,
                        error: .protocolViolation("a text message that is not valid UTF-8"))
                }
                events.append(.text(complete))
            } else {
                events.append(.binary(complete))
            }
        }
    }

    /// The first reservation of a fragmented message: 64 KiB (then 4× at a
    /// time, capped at the limit).
    static let firstReservation = 64 * 1024

    /// Bytes reserved for the message being reassembled (for tests).
    var reservedBytes: Int { message.capacity }

    /// A reassembled message keeps at most this much unused capacity (or its
    /// own size, if larger) rather than being copied to its size: 64 KiB, so
    /// small fragmented messages do not each pin the limit's address space.
    static let slackKept = 64 * 1024

    /// `bytes` in a buffer of exactly their size (`Array(bytes)` would share
    /// the oversized buffer).
    private static func exactCopy(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, count in
            _ = buffer.initialize(from: bytes)
            count = bytes.count
        }
    }

    /// Codes a peer may send (§7.4.1, §7.4.2): 1000–1003, 1007–1014 and 3000–4999.
    static func isValidReceivedCloseCode(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }

    /// Why a received close code is invalid, with the RFC's section.
    static func closeCodeRule(_ code: UInt16) -> String {
        switch code {
        case 0...999: return "RFC 6455 §7.4.2: codes 0–999 are not used"
        case 1004...1006, 1015: return "RFC 6455 §7.4.1: reserved, never sent in a close frame"
        case 1016...2999: return "RFC 6455 §7.4.2: reserved for future versions of the protocol"
        default: return "RFC 6455 §7.4.2: not a defined close code"
        }
    }

    private func violation(_ detail: String) -> WebSocketFailure {
        WebSocketFailure(closeCode: WebSocketCloseCode.protocolError, error: .protocolViolation(detail))
    }
}

/// Builds the frames this client sends: always final, always masked (§5.3).
enum WebSocketFrameWriter {
    /// One masked frame carrying `payload`, masked with `key`.
    static func frame(opcode: UInt8, payload: UnsafeRawBufferPointer, key: UInt32) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + 14)
        out.append(0x80 | opcode)
        let count = payload.count
        if count < 126 {
            out.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            out += [0x80 | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            out.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: count >> shift)) }
        }
        let mask = [
            UInt8(key >> 24), UInt8(truncatingIfNeeded: key >> 16), UInt8(truncatingIfNeeded: key >> 8),
            UInt8(truncatingIfNeeded: key),
        ]
        out += mask
        for (index, byte) in payload.enumerated() { out.append(byte ^ mask[index & 3]) }
        return out
    }

    static func frame(opcode: UInt8, payload: [UInt8], key: UInt32) -> [UInt8] {
        payload.withUnsafeBytes { frame(opcode: opcode, payload: $0, key: key) }
    }

    /// A close frame with `code` and a reason cut to fit the 125-byte limit.
    static func closeFrame(code: UInt16, reason: String, key: UInt32) -> [UInt8] {
        var body = [UInt8(code >> 8), UInt8(code & 0xFF)]
        var reasonBytes = Array(reason.utf8.prefix(WebSocketFrameParser.maxControlPayload - 2))
        while !UTF8Validation.isValid(reasonBytes) { reasonBytes.removeLast() }
        body += reasonBytes
        return frame(opcode: WebSocketOpcode.close, payload: body, key: key)
    }
}
