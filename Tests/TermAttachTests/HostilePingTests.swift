import Foundation
import TermCore
import TermRender
import Testing

@testable import TermAttach

extension HostileTests {
    @Suite("Finding 2: a ping flood")
    struct PingFlood {
        @Test("a ping flood before the attach reply: attach --dump --timeout 10 exits by 11 s, under 100 MiB")
        func pingFloodBeforeAttach() throws {
            let peer = try TestPeer.hostile("ping-flood-before", ["--pings", "3000000"])
            defer { peer.stop() }
            let run = try MeasuredRun.termengine(
                ["attach", peer.baseURL, "--new", "--dump", "--timeout", "10"], deadline: 30)
            #expect(!run.timedOut)
            #expect(run.seconds < 11, "took \(run.seconds) s")
            #expect(run.status == 2)
            #expect(run.errors == "termengine attach: timed out after 10 s waiting for the replay and quiet output\n")
            #expect(run.peakResidentBytes < HostileTests.residentLimit, "peak \(run.peakResidentBytes) bytes")
        }

        @Test("a ping flood after the attach reply: attach --dump --timeout 10 exits by 11 s, under 100 MiB")
        func pingFloodAfterAttach() throws {
            let peer = try TestPeer.hostile("ping-flood-after", ["--pings", "3000000"])
            defer { peer.stop() }
            let run = try MeasuredRun.termengine(
                ["attach", peer.baseURL, "--new", "--dump", "--timeout", "10"], deadline: 30)
            #expect(!run.timedOut)
            #expect(run.seconds < 11, "took \(run.seconds) s")
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.contains("hostile replay"))
            #expect(run.peakResidentBytes < HostileTests.residentLimit, "peak \(run.peakResidentBytes) bytes")
        }

        @Test("a ping flood after the attach reply: attach --until NEVER --timeout 10 fails by 11 s, under 100 MiB")
        func pingFloodAfterAttachUntil() throws {
            let peer = try TestPeer.hostile("ping-flood-after", ["--pings", "3000000"])
            defer { peer.stop() }
            let run = try MeasuredRun.termengine(
                ["attach", peer.baseURL, "--new", "--until", "NEVER", "--timeout", "10"], deadline: 30)
            #expect(!run.timedOut)
            #expect(run.seconds < 11, "took \(run.seconds) s")
            #expect(run.status == 2)
            #expect(
                run.errors == "termengine attach: timed out after 10 s waiting for a screen line matching /NEVER/\n")
            #expect(run.peakResidentBytes < HostileTests.residentLimit, "peak \(run.peakResidentBytes) bytes")
        }

        @Test("under a ping flood at most one pong is pending, and it answers the latest ping (RFC 6455 §5.5.3)")
        func onePendingPong() async throws {
            let peer = try TestPeer.hostile("ping-flood-after", ["--pings", "400000"])
            defer { peer.stop() }
            let channel = try await WebSocketTransport().connect(to: peer.endpoint, options: ConnectOptions())
            let connection = try #require(channel as? WebSocketConnection)
            try await channel.send(text: WireCodec.encode(.attach(sessionID: nil, cwd: nil)))
            // hostile.py sends pings in batches of 4096 with payloads 0…4095.
            let total = (400_000 + 4095) / 4096 * 4096
            let deadline = ContinuousClock.now.advanced(by: .seconds(60))
            while connection.pongStatistics.pingsReceived < total && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            // The last pong goes out once the writer is free.
            while connection.pongStatistics.pending > 0 || connection.pongStatistics.writing,
                ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(20))
            }
            let statistics = connection.pongStatistics
            #expect(statistics.pingsReceived == total)
            #expect(statistics.peakPending <= 1)
            #expect(statistics.pongsSent >= 1)
            #expect(statistics.pongsSent + statistics.pongsSuperseded == total)
            #expect(statistics.lastPongPayload == [0, 0, 0x0F, 0xFF])
            await channel.close(code: WebSocketCloseCode.normal, reason: "")
        }
    }
}
