import Foundation
import TermCore
import TermRender
import Testing

@testable import TermAttach

extension HostileTests {
    @Suite("Finding 6: server strings are sanitized before output")
    struct ServerStrings {
        @Test("ServerText.sanitized removes C0, C1, DEL and bidi controls and keeps the visible text")
        func sanitizer() {
            let evil = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31mred\u{202E}evil\u{2066}\u{9B}31m\u{7F}"
            let clean = ServerText.sanitized(evil)
            #expect(HostileTests.isClean(clean + "\n"))
            #expect(clean == "]0;owned[2J[31mredevil31m")
            #expect(ServerText.sanitized("café 日本 ✓ e\u{301} 🇫🇷") == "café 日本 ✓ e\u{301} 🇫🇷")
            #expect(ServerText.sanitized("a\nb\tc") == "abc")
            let long = String(repeating: "x", count: 10_000)
            #expect(ServerText.sanitized(long).count == ServerText.maxScalars)
        }

        @Test("an HTTP error body with escapes reaches standard error sanitized")
        func hostileHTTPText() throws {
            let peer = try TestPeer.hostile("hostile-text")
            defer { peer.stop() }
            let run = try MeasuredRun.termengine(["sessions", peer.baseURL])
            #expect(run.status == 2)
            #expect(run.errors.hasPrefix("termengine sessions: GET /live-sessions answered HTTP 500: internal error"))
            #expect(HostileTests.isClean(run.errors), "\(Array(run.errors.unicodeScalars))")
            #expect(run.errors.filter { $0 == "\n" }.count == 1)
        }

        @Test("a close reason with escapes reaches standard error sanitized")
        func hostileCloseReason() throws {
            let peer = try TestPeer.hostile("hostile-text")
            defer { peer.stop() }
            let run = try MeasuredRun.termengine(["attach", peer.baseURL, "--new", "--dump", "--timeout", "10"])
            #expect(run.status == 2)
            #expect(run.errors.hasPrefix("termengine attach: the server closed the connection with code 4000: bye"))
            #expect(HostileTests.isClean(run.errors), "\(Array(run.errors.unicodeScalars))")
        }

        @Test("every server string in an error description is sanitized")
        func errorDescriptions() {
            let evil = "\u{1B}[2J\u{9B}1m\u{202E}x"
            let errors: [AttachError] = [
                .closedByServer(code: 4000, reason: evil), .handshakeRejected(status: 403, reason: evil),
                .httpStatus(code: 500, method: "GET", path: "/live-sessions", body: evil), .spawnFailed(reason: evil),
                .badResponse(evil), .connectionLost(evil), .protocolViolation(evil), .handshakeInvalid(evil),
                .tlsFailure(evil), .hostNotFound(host: evil, detail: evil), .invalidArgument(evil),
            ]
            for error in errors {
                #expect(HostileTests.isClean(error.description + "\n"), "\(error)")
                #expect(error.description.contains("[2J1mx"), "\(error)")
            }
        }
    }
}
