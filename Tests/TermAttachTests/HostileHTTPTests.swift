import Foundation
import TermCore
import TermRender
import Testing

@testable import TermAttach

extension HostileTests {
    @Suite("Finding 1: the HTTP body is counted while it streams")
    struct HTTPBodyLimit {
        @Test("sessions against an endless body stops at 16 MiB: one line, exit 2, under 100 MiB resident")
        func endlessBodyCLI() async throws {
            let peer = try TestPeer.hostile("endless-body", ["--body-limit", "\(512 << 20)"])
            defer { peer.stop() }
            let run = try await MeasuredRun.termengine(["sessions", peer.baseURL], deadline: 60)
            #expect(!run.timedOut)
            #expect(run.status == 2, "\(run.errors)")
            #expect(
                run.errors
                    == "termengine sessions: GET /live-sessions answered more than the limit of 16 MiB: refused "
                    + "(a web-terminal server's answers are a few KiB: is this the right server?)\n")
            HostileTests.expectResources(run)
        }

        /// Lists the sessions of a server sending an endless body (`fault`),
        /// expects the refusal at the limit, and returns what the transport kept.
        static func refusedEndlessListing(fault: String, bodyLimit: Int) async throws
            -> HTTPTransportStatistics
        {
            let peer = try TestPeer.hostile(fault, ["--body-limit", "\(bodyLimit)"])
            defer { peer.stop() }
            let transport = StreamingHTTPTransport()
            let client = AttachHTTPClient(endpoint: peer.endpoint, transport: transport)
            await #expect(
                throws: AttachError.responseTooLarge(
                    request: "GET /live-sessions", limit: AttachHTTPClient.maxResponseBytes)
            ) {
                _ = try await client.liveSessions()
            }
            return transport.statistics
        }

        @Test("the HTTP client counts the body while it streams and never keeps more than the limit")
        func endlessBodyLibrary() async throws {
            let statistics = try await Self.refusedEndlessListing(fault: "endless-body", bodyLimit: 512 << 20)
            #expect(statistics.largestBodyKept <= AttachHTTPClient.maxResponseBytes)
            #expect(statistics.largestBodyKept > AttachHTTPClient.maxResponseBytes / 2)
            #expect(statistics.refusedOverLimit == 1)
        }

        @Test("a chunked listing (small chunks, extensions, a trailer) is read whole")
        func chunkedListing() async throws {
            let peer = try TestPeer.hostile("chunked")
            defer { peer.stop() }
            let sessions = try await AttachHTTPClient(endpoint: peer.endpoint).liveSessions()
            #expect(sessions.map(\.id) == [HostileTests.validID])
            #expect(sessions.first?.columns == 80)
        }

        @Test("an endless chunked body is refused at the limit, keeping no more than it")
        func endlessChunked() async throws {
            let statistics = try await Self.refusedEndlessListing(fault: "endless-chunked", bodyLimit: 256 << 20)
            #expect(statistics.largestBodyKept <= AttachHTTPClient.maxResponseBytes)
        }

        @Test("a Content-Length over the limit is refused before any body is read")
        func hugeLength() async throws {
            let peer = try TestPeer.hostile("huge-length")
            defer { peer.stop() }
            let transport = StreamingHTTPTransport()
            let client = AttachHTTPClient(endpoint: peer.endpoint, transport: transport)
            await #expect(
                throws: AttachError.responseTooLarge(
                    request: "GET /live-sessions", limit: AttachHTTPClient.maxResponseBytes)
            ) {
                _ = try await client.liveSessions()
            }
            #expect(transport.statistics.largestBodyKept == 0)
        }

        @Test("a body trickled a byte at a time ends at the request's deadline, not never")
        func trickledBody() async throws {
            let peer = try TestPeer.hostile("trickle-body", ["--hold", "30"])
            defer { peer.stop() }
            let client = AttachHTTPClient(endpoint: peer.endpoint, transport: StreamingHTTPTransport(timeout: 1))
            let started = ContinuousClock.now
            await #expect(throws: AttachError.timeout(what: "the HTTP request GET /live-sessions", seconds: 1)) {
                _ = try await client.liveSessions()
            }
            #expect(started.duration(to: .now) < .seconds(5))
        }

        @Test("the HTTP client reaches an IPv6 literal ([::1]) and answers with the listing")
        func ipv6Literal() async throws {
            let peer = try TestPeer.hostile("none", ["--host", "::1"])
            defer { peer.stop() }
            let endpoint = try AttachEndpoint("http://[::1]:\(peer.port)")
            let sessions = try await AttachHTTPClient(endpoint: endpoint).liveSessions()
            #expect(sessions.map(\.id) == [HostileTests.validID])
        }

        @Test("over https the streaming transport verifies the server against the CA file, and refuses it without")
        func httpsListing() async throws {
            let certificates = try TestCertificates()
            defer { certificates.remove() }
            let peer = try TestPeer(["--tls-cert", certificates.certificate, "--tls-key", certificates.key], tls: true)
            defer { peer.stop() }
            let endpoint = try AttachEndpoint("https://localhost:\(peer.port)")
            let trusted = AttachHTTPClient(
                endpoint: endpoint, transport: StreamingHTTPTransport(caFile: certificates.caFile))
            #expect(try await trusted.liveSessions().isEmpty)
            let untrusted = AttachHTTPClient(endpoint: endpoint, transport: StreamingHTTPTransport())
            do {
                _ = try await untrusted.liveSessions()
                Issue.record("an untrusted certificate was accepted")
            } catch {
                guard case .tlsFailure(let detail) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(
                    detail.contains("certificate verify failed") || detail.contains("verification failed"), "\(detail)")
            }
        }
    }
}
