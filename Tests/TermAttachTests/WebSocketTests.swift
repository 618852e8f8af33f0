import Foundation
import Testing

@testable import TermAttach

@Suite("Endpoint")
struct EndpointTests {
    @Test("origin and WebSocket URL derive from the base URL, default ports left out")
    func originAndWebSocketURLDeriveFromTheBaseURLDefaultPortsLeftOut() throws {
        let plain = try AttachEndpoint("http://192.168.1.5:3000")
        #expect(plain.origin == "http://192.168.1.5:3000")
        #expect(plain.webSocketURL.absoluteString == "ws://192.168.1.5:3000/term")
        let secure = try AttachEndpoint("https://Example.COM:443/")
        #expect(secure.origin == "https://example.com")
        #expect(secure.webSocketURL.absoluteString == "wss://example.com/term")
        #expect(secure.port == 443)
        #expect(try AttachEndpoint("http://host:80").origin == "http://host")
        #expect(try AttachEndpoint("https://host:8443").origin == "https://host:8443")
        #expect(try AttachEndpoint("http://host").port == 80)
        #expect(try AttachEndpoint("http://[::1]:3000").origin == "http://[::1]:3000")
        #expect(try AttachEndpoint("http://[::1]:3000").host == "::1")
    }

    @Test("bad base URLs are refused with a reason") func badBaseURLsAreRefusedWithAReason() {
        for text in ["ftp://host", "host:3000", "http://", "http://host/path", "http://u:p@host", "http://host?x=1"] {
            #expect(throws: AttachEndpoint.InvalidURL.self, "\(text)") { try AttachEndpoint(text) }
        }
    }
}

@Suite("WebSocket frames")
struct WebSocketFrameTests {
    /// A server frame (unmasked).
    func serverFrame(_ opcode: UInt8, _ payload: [UInt8], final: Bool = true) -> [UInt8] {
        var out: [UInt8] = [(final ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            out.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            out += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            out.append(127)
            for shift in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: payload.count >> shift))
            }
        }
        return out + payload
    }

    func parse(_ bytes: [UInt8], limit: Int = 1 << 20, split: Int? = nil) throws(WebSocketFailure) -> [WebSocketEvent] {
        var parser = WebSocketFrameParser(messageLimit: limit)
        var events: [WebSocketEvent] = []
        let step = split ?? max(bytes.count, 1)
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + step, bytes.count)
            try Array(bytes[offset..<end]).withBytes { chunk throws(WebSocketFailure) in
                try parser.consume(chunk, into: &events)
            }
            offset = end
        }
        return events
    }

    @Test("messages of every length encoding parse, split at any byte")
    func messagesOfEveryLengthEncodingParseSplitAtAnyByte() throws {
        let payloads = [
            Array("hi".utf8), [UInt8](repeating: 0x61, count: 300), [UInt8](repeating: 0x62, count: 70_000),
        ]
        for payload in payloads {
            let bytes = serverFrame(WebSocketOpcode.text, payload)
            for split in [1, 2, 3, 7, 1000, bytes.count] {
                #expect(try parse(bytes, split: split) == [.text(payload)])
            }
        }
    }

    @Test("fragments join, with control frames between them") func fragmentsJoinWithControlFramesBetweenThem() throws {
        let bytes =
            serverFrame(WebSocketOpcode.text, Array("hel".utf8), final: false)
            + serverFrame(WebSocketOpcode.ping, [1, 2])
            + serverFrame(WebSocketOpcode.continuation, Array("lo".utf8), final: false)
            + serverFrame(WebSocketOpcode.continuation, [], final: true)
            + serverFrame(WebSocketOpcode.pong, [])
            + serverFrame(WebSocketOpcode.close, [0x03, 0xE8] + Array("bye".utf8))
        #expect(
            try parse(bytes, split: 1) == [
                .ping([1, 2]), .text(Array("hello".utf8)), .pong([]), .close(code: 1000, reason: "bye"),
            ])
    }

    func failure(_ bytes: [UInt8], limit: Int = 1 << 20) -> WebSocketFailure? {
        do throws(WebSocketFailure) {
            _ = try parse(bytes, limit: limit)
            return nil
        } catch {
            return error
        }
    }

    @Test("protocol violations fail with close code 1002") func protocolViolationsFailWithCloseCode1002() {
        let cases: [[UInt8]] = [
            [0x81, 0x82, 1, 2, 3, 4, 0, 0],  // masked server frame
            [0xC1, 0x00],  // RSV1 without an extension
            [0x83, 0x00],  // unknown opcode
            [0x09, 0x00],  // fragmented ping
            [0x89, 126, 0, 126] + [UInt8](repeating: 0, count: 126),  // control over 125 bytes
            [0x80, 0x00],  // continuation with nothing to continue
            serverFrame(WebSocketOpcode.text, [0x61], final: false) + serverFrame(WebSocketOpcode.text, [0x62]),
            serverFrame(WebSocketOpcode.close, [0x03]),  // one-byte close body
            serverFrame(WebSocketOpcode.close, [0x03, 0xED]),  // 1005 may not be sent
            [0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 0],  // 64-bit length with the top bit
        ]
        for bytes in cases {
            #expect(failure(bytes)?.closeCode == WebSocketCloseCode.protocolError, "\(bytes.prefix(12))")
        }
    }

    @Test("a message over the limit fails with 1009 before its payload arrives")
    func aMessageOverTheLimitFailsWith1009BeforeItsPayloadArrives() {
        let header: [UInt8] = [0x81, 127, 0, 0, 0, 0, 0x01, 0, 0, 1]  // 16 MiB + 1
        let failure = failure(header, limit: 16 << 20)
        #expect(failure?.closeCode == WebSocketCloseCode.messageTooBig)
        #expect(failure?.error == .messageTooLarge(limit: 16 << 20))
        let fragments =
            serverFrame(WebSocketOpcode.text, [UInt8](repeating: 0x61, count: 60), final: false)
            + serverFrame(WebSocketOpcode.continuation, [UInt8](repeating: 0x61, count: 60))
        #expect(self.failure(fragments, limit: 100)?.closeCode == WebSocketCloseCode.messageTooBig)
    }

    @Test("text that is not UTF-8 fails with 1007") func textThatIsNotUTF8FailsWith1007() {
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            #expect(failure(serverFrame(WebSocketOpcode.text, bad))?.closeCode == WebSocketCloseCode.invalidPayload)
        }
        #expect(UTF8Validation.isValid(Array("plain ascii and é€😀 mixed, long enough for words".utf8)))
    }

    @Test("client frames are masked and unmask to the payload") func clientFramesAreMaskedAndUnmaskToThePayload() {
        let payload = [UInt8](repeating: 0x41, count: 200)
        let frame = WebSocketFrameWriter.frame(opcode: WebSocketOpcode.text, payload: payload, key: 0x0102_0304)
        #expect(frame[0] == 0x81)
        #expect(frame[1] == 0x80 | 126)
        let mask = Array(frame[4..<8])
        #expect(mask == [1, 2, 3, 4])
        let unmasked = frame[8...].enumerated().map { $0.element ^ mask[$0.offset & 3] }
        #expect(unmasked == payload)
        let close = WebSocketFrameWriter.closeFrame(code: 1000, reason: String(repeating: "é", count: 100), key: 0)
        #expect(close.count <= 2 + 4 + 125)
    }

    @Test("the accept key is SHA-1 of the key and the GUID (RFC 6455 section 1.3)")
    func theAcceptKeyIsSHA1OfTheKeyAndTheGUIDRFC6455Section13() {
        #expect(WebSocketHandshake.expectedAccept(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(SHA1.hash([]).map { String(format: "%02x", $0) }.joined() == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test("the upgrade request carries Origin and the handshake checks the answer")
    func theUpgradeRequestCarriesOriginAndTheHandshakeChecksTheAnswer() throws {
        let endpoint = try AttachEndpoint("http://127.0.0.1:3000")
        let handshake = WebSocketHandshake(endpoint: endpoint, origin: endpoint.origin, key: "dGhlIHNhbXBsZSBub25jZQ==")
        let request = String(decoding: handshake.request, as: UTF8.self)
        #expect(request.hasPrefix("GET /term HTTP/1.1\r\n"))
        #expect(request.contains("\r\nOrigin: http://127.0.0.1:3000\r\n"))
        #expect(request.contains("\r\nHost: 127.0.0.1:3000\r\n"))
        let good =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
        try handshake.validate(head: Array(good.utf8), body: [])
        let wrongKey = good.replacingOccurrences(of: "s3pP", with: "AAAA")
        #expect(throws: AttachError.self) { try handshake.validate(head: Array(wrongKey.utf8), body: []) }
        #expect(throws: AttachError.originRejected(origin: "http://127.0.0.1:3000")) {
            try handshake.validate(head: Array("HTTP/1.1 401 Unauthorized\r\n\r\n".utf8), body: [])
        }
        #expect(
            AttachError.originRejected(origin: "http://127.0.0.1:3000").description
                .contains("the server's ALLOWED_ORIGINS must contain http://127.0.0.1:3000"))
    }

    @Test("a status line needs HTTP 1 dot digit and a 3-digit code (fuzz: 0101 and +101 passed as 101)")
    func aStatusLineNeedsHTTP1DotDigitAndA3DigitCodeFuzz0101And101PassedAs101() throws {
        let endpoint = try AttachEndpoint("http://127.0.0.1:3000")
        let handshake = WebSocketHandshake(endpoint: endpoint, origin: endpoint.origin, key: "dGhlIHNhbXBsZSBub25jZQ==")
        let rest =
            " Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
        try handshake.validate(head: Array(("HTTP/1.1 101" + rest).utf8), body: [])
        for status in ["HTTP/1.1 0101", "HTTP/1.1 +101", "HTTP/1.1Substring 101", "HTTP/1.10 101", "HTTP/1. 101"] {
            #expect(throws: AttachError.self, "\(status)") {
                try handshake.validate(head: Array((status + rest).utf8), body: [])
            }
        }
    }
}
