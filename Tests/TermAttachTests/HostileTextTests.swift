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

        @Test(
            "ServerText.sanitized also removes U+061C, every bidi control, U+2028/2029 and default-ignorables, keeping joiners between visible characters and variation selectors after a base"
        )
        func ignorables() {
            #expect(ServerText.sanitized("a\u{061C}b") == "ab")
            #expect(ServerText.sanitized("x\u{2028}y\u{2029}z") == "xyz")
            #expect(ServerText.sanitized("\u{00AD}soft\u{00AD}") == "soft")
            #expect(ServerText.sanitized("a\u{3164}\u{115F}\u{180E}b") == "ab")
            #expect(ServerText.sanitized("tag\u{E0001}\u{E0041}") == "tag")
            #expect(ServerText.sanitized("\u{FE0F}a \u{FE0F}b") == "a b")
            #expect(ServerText.sanitized("\u{2764}\u{FE0F}") == "\u{2764}\u{FE0F}")
            #expect(ServerText.sanitized("\u{2764}\u{FE0F}\u{FE0F}") == "\u{2764}\u{FE0F}")
            #expect(ServerText.sanitized("\u{1F468}\u{200D}\u{1F469}") == "\u{1F468}\u{200D}\u{1F469}")
            #expect(ServerText.sanitized("\u{200C}a\u{200D}") == "a")
            #expect(ServerText.sanitized("\u{0645}\u{200C}\u{06CC}") == "\u{0645}\u{200C}\u{06CC}")
            // Every bidi control Unicode knows is gone.
            let bidi = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter(\.properties.isBidiControl)
            #expect(bidi.count >= 12)
            var text = String.UnicodeScalarView()
            for scalar in bidi {
                text.append("x")
                text.append(scalar)
            }
            #expect(ServerText.sanitized(String(text)) == String(repeating: "x", count: bidi.count))
            // Still bounded: a megabyte of ignorables and then text.
            let padded = String(repeating: "\u{00AD}", count: 1 << 20) + "end"
            #expect(ServerText.sanitized(padded) == "end")
            let long = String(repeating: "y\u{00AD}", count: 10_000)
            #expect(ServerText.sanitized(long).unicodeScalars.count == ServerText.maxScalars)
        }

        @Test("an HTTP error body with escapes reaches standard error sanitized")
        func hostileHTTPText() async throws {
            let peer = try TestPeer.hostile("hostile-text")
            defer { peer.stop() }
            let run = try await MeasuredRun.termengine(["sessions", peer.baseURL])
            #expect(run.status == 2)
            #expect(run.errors.hasPrefix("termengine sessions: GET /live-sessions answered HTTP 500: internal error"))
            #expect(HostileTests.isClean(run.errors), "\(Array(run.errors.unicodeScalars))")
            #expect(run.errors.filter { $0 == "\n" }.count == 1)
        }

        @Test("a close reason with escapes reaches standard error sanitized")
        func hostileCloseReason() async throws {
            let peer = try TestPeer.hostile("hostile-text")
            defer { peer.stop() }
            let run = try await MeasuredRun.termengine(["attach", peer.baseURL, "--new", "--dump", "--timeout", "10"])
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
