import Foundation
import Testing

@testable import TermAttach

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HostileTests {
    /// Review of the hardening change, finding 1: chunked framing, the
    /// exchange's deadline and the bytes on the wire.
    @Suite("Review 1: chunked bodies are bounded in time and in wire bytes")
    struct ChunkedFraming {
        @Test("sessions against chunk size -1 repeated unpaced exits 2 with one line, at once and bounded")
        func negativeChunkCLI() async throws {
            let peer = try TestPeer.hostile("negative-chunk", ["--body-limit", "\(8 << 30)"])
            defer { peer.stop() }
            let run = try await MeasuredRun.termengine(["sessions", peer.baseURL], deadline: 40)
            #expect(!run.timedOut)
            #expect(run.status == 2, "\(run.errors)")
            #expect(
                run.errors
                    == "termengine sessions: unexpected answer from the server: GET /live-sessions: a bad chunk size\n")
            // The request's deadline is 15 s; the refusal needs none of it.
            HostileTests.expectResources(run, seconds: 15 + 5, "sessions against negative-chunk")
        }

        @Test("sessions against 1-byte chunks padded with 1000-byte extensions is refused by its wire bytes")
        func extensionPaddingCLI() async throws {
            let peer = try TestPeer.hostile("ext-padding", ["--body-limit", "\(32 << 30)"])
            defer { peer.stop() }
            let run = try await MeasuredRun.termengine(["sessions", peer.baseURL], deadline: 40)
            #expect(!run.timedOut)
            #expect(run.status == 2, "\(run.errors)")
            #expect(
                run.errors
                    == "termengine sessions: unexpected answer from the server: GET /live-sessions: more bytes on the "
                    + "wire than its body limit allows for (chunk framing or padding): refused\n")
            // 17 MiB read, not the 15 s deadline and not 16 GiB.
            HostileTests.expectResources(run, seconds: 15 + 5, "sessions against ext-padding")
        }

        @Test("the client reads at most the body limit, a head and 1 MiB of padded chunk framing")
        func extensionPaddingWireBytes() throws {
            let stream = ScriptedStream(
                head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
                pattern: "1;" + String(repeating: "p", count: 1000) + "\r\n \r\n")
            let exchange = Exchange.listing(limit: 1 << 20)
            #expect(throws: AttachError.self) { _ = try exchange.run(over: stream) }
            #expect(stream.bytesServed <= exchange.wireBudget + 1)
            #expect(exchange.wireBudget == (1 << 20) + StreamingHTTPTransport.maxHead + (1 << 20))
        }

        @Test("a chunk size is 1 to 15 hex digits, then only white space or extensions (RFC 9112 §7.1)")
        func chunkSizeSyntax() {
            func size(_ text: String) -> Int? { Exchange.chunkSize(Array(text.utf8)) }
            #expect(size("1a") == 26)
            #expect(size("1A;name=value") == 26)
            #expect(size("0") == 0)
            #expect(size("5 ;ext") == 5)
            #expect(size(String(repeating: "f", count: 15)) == (1 << 60) - 1)
            for bad in ["-1", "+1", " 1", "1 2", "0x1", "", ";x", "1\u{0}", String(repeating: "0", count: 16), "g"] {
                #expect(size(bad) == nil, "\(bad.debugDescription)")
            }
        }

        @Test("a server that keeps data flowing ends at the exchange's deadline")
        func deadlineWhileDataFlows() throws {
            // A valid chunk every read, never a read that would block.
            let stream = ScriptedStream(
                head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", pattern: "1\r\n \r\n",
                pause: .microseconds(200), endAfter: .seconds(8))
            let exchange = Exchange.listing(seconds: 1)
            let started = ContinuousClock.now
            #expect(throws: AttachError.timeout(what: "the HTTP request GET /live-sessions", seconds: 1)) {
                _ = try exchange.run(over: stream)
            }
            #expect(started.duration(to: .now) < .seconds(3))
        }

        @Test("a chunk-size line over 1 KiB is refused even when its CR LF came in the same read")
        func longLineInOneRead() throws {
            let stream = ScriptedStream(
                head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "e", count: 2000)
                    + "\r\nx\r\n0\r\n\r\n")
            #expect(throws: AttachError.badResponse("GET /live-sessions: a line over 1024 bytes")) {
                _ = try Exchange.listing().run(over: stream)
            }
        }

        @Test("a well-formed chunked body with extensions and a trailer is read whole")
        func chunkedStillWorks() throws {
            let stream = ScriptedStream(
                head:
                    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;a=b\r\n[1\r\n1 \r\n]\r\n0\r\nX-T: y\r\n\r\n"
            )
            let (body, response) = try Exchange.listing().run(over: stream)
            #expect(String(decoding: body, as: UTF8.self) == "[1]")
            #expect(response.statusCode == 200)
        }
    }
}

extension HostileTests {
    /// Review finding 7: the status line and the framing headers.
    @Suite("Review 7: the response head is read strictly")
    struct ResponseHead {
        @Test("a status code with a sign (HTTP/1.1 +20) is not a response (RFC 9112 §4: 3DIGIT)")
        func signedStatus() {
            for status in ["+20", "-20", " 20"] {
                let stream = ScriptedStream(head: "HTTP/1.1 \(status) OK\r\nContent-Length: 2\r\n\r\n[]")
                #expect(throws: AttachError.badResponse("GET /live-sessions: not an HTTP/1.1 response")) {
                    _ = try Exchange.listing().run(over: stream)
                }
            }
        }

        @Test("a folded header line (obs-fold) refuses the response (RFC 9112 §5.2)")
        func obsFold() {
            let stream = ScriptedStream(
                head: "HTTP/1.1 200 OK\r\nX-A: one\r\n two\r\nContent-Length: 2\r\n\r\n[]")
            #expect(throws: AttachError.badResponse("GET /live-sessions: a folded header line (obs-fold)")) {
                _ = try Exchange.listing().run(over: stream)
            }
        }

        @Test("identical duplicate Content-Length values are one length; differing ones are refused (RFC 9110 §8.6)")
        func duplicateLength() throws {
            let same = ScriptedStream(
                head: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n[]")
            #expect(String(decoding: try Exchange.listing().run(over: same).0, as: UTF8.self) == "[]")
            let listed = ScriptedStream(head: "HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\n[]")
            #expect(String(decoding: try Exchange.listing().run(over: listed).0, as: UTF8.self) == "[]")
            for value in ["2, 3", "2,", "+2", ""] {
                let stream = ScriptedStream(head: "HTTP/1.1 200 OK\r\nContent-Length: \(value)\r\n\r\n[]")
                #expect(throws: AttachError.badResponse("GET /live-sessions: a bad Content-Length"), "\(value)") {
                    _ = try Exchange.listing().run(over: stream)
                }
            }
        }
    }
}
