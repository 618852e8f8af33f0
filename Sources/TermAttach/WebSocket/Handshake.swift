import Foundation

/// The client side of the WebSocket opening handshake (RFC 6455 §4.1, §4.2.2).
struct WebSocketHandshake {
    /// The fixed GUID of §1.3 appended to the key before hashing.
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The largest response head (status line and headers) read: 16 KiB.
    static let maxResponseHead = 16 * 1024

    let key: String
    let endpoint: AttachEndpoint
    let origin: String

    /// A handshake with a fresh random 16-byte key.
    init(endpoint: AttachEndpoint, origin: String) {
        var generator = SystemRandomNumberGenerator()
        let nonce = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        self.init(endpoint: endpoint, origin: origin, key: Data(nonce).base64EncodedString())
    }

    init(endpoint: AttachEndpoint, origin: String, key: String) {
        self.endpoint = endpoint
        self.origin = origin
        self.key = key
    }

    /// The upgrade request.
    var request: [UInt8] {
        let lines = [
            "GET \(WireLimits.webSocketPath) HTTP/1.1",
            "Host: \(endpoint.authority)",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)",
            "Sec-WebSocket-Version: 13",
            "Origin: \(origin)",
            "User-Agent: termengine-attach",
        ]
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The `Sec-WebSocket-Accept` the server must answer: base64(SHA-1(key + GUID)).
    static func expectedAccept(forKey key: String) -> String {
        Data(SHA1.hash(Array((key + acceptGUID).utf8))).base64EncodedString()
    }

    /// The index just past the blank line that ends the response head, if
    /// `bytes` contains it, looking from `from` on (the caller passes where
    /// the previous search stopped, less 3 bytes, so that a head sent a byte
    /// at a time is scanned once, not once per byte).
    static func endOfHead(_ bytes: [UInt8], from: Int = 0) -> Int? {
        let first = max(3, from + 3)
        guard first < bytes.count else { return nil }
        for index in first..<bytes.count
        where bytes[index] == 0x0A && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D {
            return index + 1
        }
        return nil
    }

    /// Checks the response head (without the blank line's trailing bytes).
    /// `body` is whatever followed the head, shown in rejection messages.
    func validate(head: [UInt8], body: [UInt8]) throws(AttachError) {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw AttachError.handshakeInvalid("an empty response") }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2).map(String.init)
        // RFC 6455 §4.1: the answer to the upgrade is HTTP/1.1; RFC 9112 §4:
        // the status code is exactly 3 digits (`Int` alone took "0101" and
        // "+101" as 101, and a prefix check "HTTP/1.1garbage").
        guard parts.count >= 2, parts[0] == "HTTP/1.1", parts[1].utf8.count == 3,
            parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }), let status = Int(parts[1])
        else {
            throw AttachError.handshakeInvalid("not an HTTP response: '\(statusLine.prefix(80))'")
        }
        if status == 401 { throw AttachError.originRejected(origin: origin) }
        guard status == 101 else {
            let reason = parts.count > 2 ? parts[2] : ""
            let detail = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            throw AttachError.handshakeRejected(
                status: status, reason: detail.isEmpty ? reason : "\(reason) (\(detail))")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        guard headers["upgrade"]?.lowercased() == "websocket" else {
            throw AttachError.handshakeInvalid("the Upgrade header is not 'websocket'")
        }
        let connectionTokens = (headers["connection"] ?? "").lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard connectionTokens.contains("upgrade") else {
            throw AttachError.handshakeInvalid("the Connection header does not contain 'Upgrade'")
        }
        guard headers["sec-websocket-accept"] == Self.expectedAccept(forKey: key) else {
            throw AttachError.handshakeInvalid("Sec-WebSocket-Accept does not match the key sent")
        }
        if let extensions = headers["sec-websocket-extensions"], !extensions.isEmpty {
            throw AttachError.handshakeInvalid("the server chose an extension that was not offered (\(extensions))")
        }
        if let subprotocol = headers["sec-websocket-protocol"], !subprotocol.isEmpty {
            throw AttachError.handshakeInvalid("the server chose a subprotocol that was not offered (\(subprotocol))")
        }
    }
}
