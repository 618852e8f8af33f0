import Foundation
import TermCore
import TermRender
import Testing

@testable import TermAttach

extension HostileTests {
    @Suite("Finding 7: invalid close codes are protocol errors")
    struct CloseCodes {
        @Test(
            "a close frame with code 0 right after the replay: the replay is shown, then a protocol error naming code 0"
        )
        func closeCodeZero() async throws {
            let peer = try TestPeer.hostile("close-code-0")
            defer { peer.stop() }
            let session = AttachSession(configuration: .init(endpoint: peer.endpoint, pingInterval: nil))
            var events = session.events.makeAsyncIterator()
            await session.start()
            var seen: [AttachSession.Event] = []
            var failure: AttachError?
            while let event = await events.next() {
                seen.append(event)
                if case .disconnected(let error, _) = event {
                    failure = error
                    break
                }
            }
            #expect(seen.contains(.replayed(byteCount: "\u{1B}[0mhostile replay\r\n".utf8.count)), "\(seen)")
            #expect(
                failure
                    == .protocolViolation(
                        "close code 0 is not allowed (RFC 6455 §7.4.2: codes 0–999 are not used)"))
            #expect(failure?.description.contains("closed by this client") == false)
            await session.close()
        }

        @Test(
            "close codes RFC 6455 §7.4 does not allow are protocol errors naming the code; a whole message before one is kept"
        )
        func invalidCloseCodes() {
            let text: [UInt8] = [0x81, 2, UInt8(ascii: "h"), UInt8(ascii: "i")]
            for code: UInt16 in [0, 1, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535] {
                var parser = WebSocketFrameParser(messageLimit: 1024)
                var events: [WebSocketEvent] = []
                let wire = text + [0x88, 2, UInt8(code >> 8), UInt8(code & 0xFF)]
                do throws(WebSocketFailure) {
                    try wire.withBytes { bytes throws(WebSocketFailure) in try parser.consume(bytes, into: &events) }
                    Issue.record("close code \(code) was accepted")
                } catch {
                    #expect(error.closeCode == WebSocketCloseCode.protocolError)
                    guard case .protocolViolation(let detail) = error.error else {
                        Issue.record("\(error.error)")
                        continue
                    }
                    #expect(detail.hasPrefix("close code \(code) is not allowed (RFC 6455 §7.4"), "\(detail)")
                }
                #expect(events == [.text(Array("hi".utf8))], "\(code)")
            }
            for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1011, 1014, 3000, 4000, 4999] {
                var parser = WebSocketFrameParser(messageLimit: 1024)
                var events: [WebSocketEvent] = []
                let wire: [UInt8] = [0x88, 2, UInt8(code >> 8), UInt8(code & 0xFF)]
                #expect(throws: Never.self) { try wire.withUnsafeBytes { try parser.consume($0, into: &events) } }
                #expect(events == [.close(code: code, reason: "")])
            }
        }
    }
}
