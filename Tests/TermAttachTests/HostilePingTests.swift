import Foundation
import TermCore
import TermRender
import Testing

@testable import TermAttach

extension HostileTests {
    @Suite("Finding 2: a ping flood")
    struct PingFlood {
        @Test("a ping flood before the attach reply: attach --dump --timeout 10 exits by 11 s, under 100 MiB")
        func pingFloodBeforeAttach() async throws {
            let peer = try TestPeer.hostile("ping-flood-before", ["--pings", "3000000"])
            defer { peer.stop() }
            let run = try await MeasuredRun.termengine(
                ["attach", peer.baseURL, "--new", "--dump", "--timeout", "10"], deadline: 30)
            #expect(!run.timedOut)
            #expect(run.status == 2)
            #expect(run.errors == "termengine attach: timed out after 10 s waiting for the replay and quiet output\n")
            HostileTests.expectResources(run, seconds: 11)
        }

        @Test("a ping flood after the attach reply: attach --dump --timeout 10 exits by 11 s, under 100 MiB")
        func pingFloodAfterAttach() async throws {
            let peer = try TestPeer.hostile("ping-flood-after", ["--pings", "3000000"])
            defer { peer.stop() }
            let run = try await MeasuredRun.termengine(
                ["attach", peer.baseURL, "--new", "--dump", "--timeout", "10"], deadline: 30)
            #expect(!run.timedOut)
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.contains("hostile replay"))
            HostileTests.expectResources(run, seconds: 11)
        }

        @Test("a ping flood after the attach reply: attach --until NEVER --timeout 10 fails by 11 s, under 100 MiB")
        func pingFloodAfterAttachUntil() async throws {
            let peer = try TestPeer.hostile("ping-flood-after", ["--pings", "3000000"])
            defer { peer.stop() }
            let run = try await MeasuredRun.termengine(
                ["attach", peer.baseURL, "--new", "--until", "NEVER", "--timeout", "10"], deadline: 30)
            #expect(!run.timedOut)
            #expect(run.status == 2)
            #expect(
                run.errors == "termengine attach: timed out after 10 s waiting for a screen line matching /NEVER/\n")
            HostileTests.expectResources(run, seconds: 11)
        }

        @Test(
            "under a ping flood at most one pong write is queued, and the server receives the pongs sent, the last answering the latest ping (RFC 6455 §5.5.3)"
        )
        func onePendingPong() async throws {
            let report = temporaryPath("pongs")
            defer { try? FileManager.default.removeItem(at: report) }
            let peer = try TestPeer.hostile("ping-flood-after", ["--pings", "400000", "--report", report.path])
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
            // After the flood hostile.py reads what the client sent: wait
            // until it has received every pong the client wrote.
            var received: (pongs: Int, last: String) = (0, "")
            while ContinuousClock.now < deadline {
                let statistics = connection.pongStatistics
                if let data = try? Data(contentsOf: report),
                    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let pongs = object["pongs"] as? Int, let last = object["last"] as? String
                {
                    received = (pongs, last)
                }
                if !statistics.writing && statistics.queuedWrites == 0 && received.pongs == statistics.pongsSent
                    && received.pongs > 0
                {
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            let statistics = connection.pongStatistics
            #expect(statistics.pingsReceived == total)
            #expect(statistics.peakQueuedWrites == 1, "pong writes queued at once")
            // What the server saw: every pong written arrived, the last one
            // answering the last ping, and far fewer pongs than pings.
            #expect(received.pongs == statistics.pongsSent)
            #expect(received.pongs >= 1)
            #expect(received.pongs < total)
            #expect(received.last == "00000fff")
            #expect(statistics.pongsSent + statistics.pongsSuperseded == total)
            await channel.close(code: WebSocketCloseCode.normal, reason: "")
        }

        @Test("a pong that cannot be written ends the connection with the write's error, not 'without a close frame'")
        func failedPongWrite() async throws {
            // A ping from the server, then silence until the client shuts the stream.
            let stream = FailingWriteStream(incoming: [0x89, 0x04, 0, 0, 0, 1])
            let connection = WebSocketConnection(stream: stream, leftover: [], messageLimit: 1 << 20)
            await #expect(throws: AttachError.connectionLost("Broken pipe")) { _ = try await connection.receive() }
            #expect(connection.pongStatistics.pongsSent == 0)
            #expect(connection.pongStatistics.pingsReceived == 1)
        }
    }
}

/// A stream whose writes all fail (the server has gone) and whose reads
/// give `incoming`, then wait until the stream is shut down.
final class FailingWriteStream: ByteStream {
    private let incoming: [UInt8]
    private let delivered = Locked(false)
    private let ended = DispatchSemaphore(value: 0)

    init(incoming: [UInt8]) { self.incoming = incoming }

    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant?) throws(AttachError) -> Int
    {
        if !delivered.testAndSet() {
            for (index, byte) in incoming.enumerated() { buffer[index] = byte }
            return incoming.count
        }
        // Bounded so a test that goes wrong cannot hang: 10 s.
        _ = ended.wait(timeout: .now() + 10)
        return 0
    }

    func write(_ bytes: UnsafeRawBufferPointer, deadline: ContinuousClock.Instant) throws(AttachError) {
        throw AttachError.connectionLost("Broken pipe")
    }

    func shutdown() { ended.signal() }
}
