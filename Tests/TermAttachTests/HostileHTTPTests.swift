import Foundation
import TermCore
import TermRender
import Testing

@testable import TermAttach

extension HostileTests {
    @Suite("Finding 1: the HTTP body is counted while it streams")
    struct HTTPBodyLimit {
        @Test("sessions against an endless body stops at 16 MiB: one line, exit 2, under 100 MiB resident")
        func endlessBodyCLI() throws {
            let peer = try TestPeer.hostile("endless-body", ["--body-limit", "\(512 << 20)"])
            defer { peer.stop() }
            let run = try MeasuredRun.termengine(["sessions", peer.baseURL], deadline: 60)
            #expect(!run.timedOut)
            #expect(run.status == 2, "\(run.errors)")
            #expect(
                run.errors
                    == "termengine sessions: GET /live-sessions answered more than the limit of 16 MiB: refused "
                    + "(a web-terminal server's answers are a few KiB: is this the right server?)\n")
            #expect(run.peakResidentBytes < HostileTests.residentLimit, "peak \(run.peakResidentBytes) bytes")
        }

        @Test("the HTTP client counts the body while it streams and never keeps more than the limit")
        func endlessBodyLibrary() async throws {
            let peer = try TestPeer.hostile("endless-body", ["--body-limit", "\(512 << 20)"])
            defer { peer.stop() }
            let transport = URLSessionHTTPTransport()
            let client = AttachHTTPClient(endpoint: peer.endpoint, transport: transport)
            await #expect(
                throws: AttachError.responseTooLarge(
                    request: "GET /live-sessions", limit: AttachHTTPClient.maxResponseBytes)
            ) {
                _ = try await client.liveSessions()
            }
            let statistics = transport.statistics
            #expect(statistics.largestBodyKept <= AttachHTTPClient.maxResponseBytes)
            #expect(statistics.largestBodyKept > AttachHTTPClient.maxResponseBytes / 2)
            #expect(statistics.refusedOverLimit == 1)
        }
    }
}
