import FuzzSupport

// The frame parser and the handshake are internal and reached only through
// a socket in the public API; -enable-testing (scripts/fuzz.sh) lets this
// target call them directly, without any I/O.
@testable import TermAttach

// The WebSocket client's input side (Sources/TermAttach/WebSocket/).
//
// Byte 0 picks the mode (even: frames, odd: the handshake response); the
// rest of the input:
// - frames: byte 1 the message limit (125 B, 1 KiB, 64 KiB or 16 MiB),
//   byte 2 the number of cuts (0…8), two bytes per cut, then the bytes a
//   server sends. WebSocketFrameParser is push-based, so the events and the
//   failure must not depend on where the reads cut the stream; every text
//   message is valid UTF-8 and within the limit.
// - handshake: the server's response, handled as WebSocketConnection.open
//   handles what it reads: find the end of the head, then validate it for a
//   fixed key. A head that passes must have said 101 and the right accept.
// In both modes, UTF8Validation.isValid must agree with the standard
// library's UTF-8 decoder on the same bytes.

/// RFC 6455 §1.3's sample key and the accept value it gives.
let sampleKey = "dGhlIHNhbXBsZSBub25jZQ=="
let sampleAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
let endpoint = try! AttachEndpoint("http://127.0.0.1:3000")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocket(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let mode = input.byte()
    if mode & 1 == 0 {
        fuzzFrames(&input)
    } else {
        fuzzHandshake(Array(input.rest()))
    }
    let bytes = Array(input.bytes)
    let expected = String(validating: bytes, as: UTF8.self) != nil
    fuzzCheck(
        UTF8Validation.isValid(bytes) == expected,
        "UTF8Validation.isValid says \(!expected) for '\(escaped(bytes))', the standard library \(expected)")
    return 0
}

struct Outcome: Equatable {
    var events: [WebSocketEvent] = []
    var failure: WebSocketFailure?
}

func fuzzFrames(_ input: inout FuzzInput) {
    let limits = [125, 1024, 64 * 1024, 16 * 1024 * 1024]
    let limit = limits[Int(input.byte() % 4)]
    let cutCount = Int(input.byte() % 9)
    var cuts = (0..<cutCount).map { _ in input.uint16() }
    let stream = input.rest()
    cuts = cuts.map { $0 % (stream.count + 1) }.sorted()

    let whole = consume(stream, cuts: [], limit: limit)
    let pieces = consume(stream, cuts: cuts, limit: limit)
    fuzzCheck(
        whole == pieces,
        "frames cut at \(cuts) gave \(pieces.events.count) events, failure \(String(describing: pieces.failure)); "
            + "whole: \(whole.events.count) events, failure \(String(describing: whole.failure))")

    for event in whole.events {
        switch event {
        case .text(let bytes):
            fuzzCheck(bytes.count <= limit, "a \(bytes.count)-byte text message over the limit \(limit)")
            fuzzCheck(String(validating: bytes, as: UTF8.self) != nil, "a text message that is not UTF-8")
        case .binary(let bytes):
            fuzzCheck(bytes.count <= limit, "a \(bytes.count)-byte binary message over the limit \(limit)")
        case .ping(let bytes), .pong(let bytes):
            fuzzCheck(bytes.count <= WebSocketFrameParser.maxControlPayload, "a \(bytes.count)-byte control frame")
        case .close(let code, _):
            if let code { fuzzCheck(WebSocketFrameParser.isValidReceivedCloseCode(code), "close code \(code)") }
        }
    }
}

/// What the parser makes of `stream` read in the pieces between `cuts`;
/// like the connection, it stops at the first failure.
func consume(_ stream: UnsafeBufferPointer<UInt8>, cuts: [Int], limit: Int) -> Outcome {
    var parser = WebSocketFrameParser(messageLimit: limit)
    var outcome = Outcome()
    var start = 0
    for end in cuts + [stream.count] {
        let piece = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: stream[start..<end]))
        start = end
        do throws(WebSocketFailure) {
            try parser.consume(piece, into: &outcome.events)
        } catch {
            outcome.failure = error
            return outcome
        }
    }
    return outcome
}

func fuzzHandshake(_ received: [UInt8]) {
    let handshake = WebSocketHandshake(endpoint: endpoint, origin: "http://127.0.0.1:3000", key: sampleKey)
    _ = handshake.request
    guard let end = WebSocketHandshake.endOfHead(received) else { return }
    fuzzCheck(
        end >= 4 && end <= received.count && Array(received[(end - 4)..<end]) == [0x0D, 0x0A, 0x0D, 0x0A],
        "endOfHead \(end) is not just past a blank line")
    let head = Array(received[..<end])
    do throws(AttachError) {
        try handshake.validate(head: head, body: Array(received[end...]))
    } catch {
        _ = error.description
        return
    }
    let text = String(decoding: head, as: UTF8.self)
    // The status line is "HTTP/1.x 101 ..." with exactly three digits (RFC
    // 9112 §4; crashes/websocket has the inputs that once passed).
    let statusLine = text.components(separatedBy: "\r\n").first { !$0.isEmpty } ?? ""
    let parts = statusLine.split(separator: " ", maxSplits: 2)
    let strict = parts.count >= 2 && (parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0") && parts[1] == "101"
    fuzzCheck(strict, "accepted a head without status 101: '\(escaped(head))'")
    fuzzCheck(text.contains(sampleAccept), "accepted a head without the accept value: '\(escaped(head))'")
}
