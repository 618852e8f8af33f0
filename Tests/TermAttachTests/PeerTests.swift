import Foundation
import TermCore
import Testing

@testable import TermAttach

/// End to end against TestPeer/peer.py: a real WebSocket server, a real PTY
/// and a real shell. Waits are real network waits, each bounded.
@Suite("Against the test peer", .serialized, .timeLimit(.minutes(2)))
struct PeerTests {
    /// Bound on waiting for something on the screen.
    static let screenTimeout: Duration = .seconds(10)

    func configuration(
        _ peer: TestPeer, id: SessionID? = nil, columns: Int = 80, rows: Int = 24,
        connect: ConnectOptions = ConnectOptions()
    )
        -> AttachSession.Configuration
    {
        AttachSession.Configuration(
            endpoint: peer.endpoint, sessionID: id, columns: columns, rows: rows, connect: connect)
    }

    /// Every line of the terminal: scrollback, then screen (trailing blank rows dropped).
    static func lines(_ session: AttachSession) async -> [String] {
        var lines = await session.withTerminal { terminal in
            (0..<terminal.scrollbackCount).map { terminal.scrollbackLine(.init($0)) }
                + (0..<terminal.rows).map { terminal.screenLine($0) }
        }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Waits until a line of the screen satisfies `predicate`.
    static func waitForLine(_ session: AttachSession, _ predicate: @escaping @Sendable (String) -> Bool) async throws {
        let deadline = ContinuousClock.now.advanced(by: screenTimeout)
        while ContinuousClock.now < deadline {
            if await lines(session).contains(where: predicate) { return }
            // A bounded poll for the shell's real output, not a timing assumption.
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure(
            "no line matched within \(screenTimeout); screen:\n\(await lines(session).joined(separator: "\n"))")
    }

    static func waitFor(
        _ iterator: inout AsyncStream<AttachSession.Event>.Iterator, _ predicate: (AttachSession.Event) -> Bool
    ) async throws -> AttachSession.Event {
        var seen: [AttachSession.Event] = []
        while let event = await iterator.next() {
            if predicate(event) { return event }
            seen.append(event)
        }
        throw TestFailure("the event stream ended without the event; saw \(seen)")
    }

    /// Waits for the `attached` event and returns its session id.
    static func waitForAttach(_ iterator: inout AsyncStream<AttachSession.Event>.Iterator) async throws -> SessionID {
        let event = try await waitFor(&iterator) { if case .attached = $0 { true } else { false } }
        guard case .attached(let id) = event else { throw TestFailure("expected attached, got \(event)") }
        return id
    }

    @Test("new session, echo hi, output seen; resize reaches the PTY")
    func newSessionEchoHiOutputSeenResizeReachesThePTY() async throws {
        let peer = try TestPeer()
        let session = AttachSession(configuration: configuration(peer))
        var events = session.events.makeAsyncIterator()
        await session.start()
        _ = try await Self.waitFor(&events) { if case .attached = $0 { true } else { false } }
        try await session.send(input: "echo h\"\"i\r")
        try await Self.waitForLine(session) { $0.hasSuffix(" hi") || $0 == "hi" }
        try await session.resize(columns: 100, rows: 30)
        try await session.send(input: "stty size\r")
        try await Self.waitForLine(session) { $0.hasSuffix("30 100") }
        await session.close()
        peer.stop()
    }

    @Test("re-attach by id gives the same screen and scrollback as a fresh replay, no duplicates")
    func reAttachByIdGivesTheSameScreenAndScrollbackAsAFreshReplayNoDuplicates() async throws {
        let peer = try TestPeer()
        let first = AttachSession(configuration: configuration(peer, columns: 40, rows: 5))
        var events = first.events.makeAsyncIterator()
        await first.start()
        let id = try await Self.waitForAttach(&events)
        try await first.send(input: "for i in 1 2 3 4 5 6 7 8 9 10; do echo line$i; done\r")
        try await Self.waitForLine(first) { $0 == "line10" }
        await first.close()

        // Attach twice by id: each replay replaces the screen.
        let second = AttachSession(configuration: configuration(peer, id: id, columns: 40, rows: 5))
        var secondEvents = second.events.makeAsyncIterator()
        await second.start()
        _ = try await Self.waitFor(&secondEvents) { if case .replayed = $0 { true } else { false } }
        let fresh = AttachSession(configuration: configuration(peer, id: id, columns: 40, rows: 5))
        var freshEvents = fresh.events.makeAsyncIterator()
        await fresh.start()
        _ = try await Self.waitFor(&freshEvents) { if case .replayed = $0 { true } else { false } }
        let secondLines = await Self.lines(second)
        #expect(secondLines == (await Self.lines(fresh)))
        #expect(secondLines.filter { $0 == "line10" }.count == 1)
        #expect(await second.sessionID == id)
        await second.close()
        await fresh.close()
        peer.stop()
    }

    @Test("a reset in the middle of the replay reconnects and ends with the same screen")
    func aResetInTheMiddleOfTheReplayReconnectsAndEndsWithTheSameScreen() async throws {
        let peer = try TestPeer()
        let writer = AttachSession(configuration: configuration(peer, columns: 40, rows: 5))
        var events = writer.events.makeAsyncIterator()
        await writer.start()
        let id = try await Self.waitForAttach(&events)
        try await writer.send(input: "i=0; while [ $i -lt 300 ]; do echo row$i; i=$((i+1)); done\r")
        try await Self.waitForLine(writer) { $0 == "row299" }
        let expected = await Self.lines(writer)

        try await peer.control("arm?fault=reset-replay")
        let reader = AttachSession(configuration: configuration(peer, id: id, columns: 40, rows: 5))
        var readerEvents = reader.events.makeAsyncIterator()
        await reader.start()
        let disconnected = try await Self.waitFor(&readerEvents) { if case .disconnected = $0 { true } else { false } }
        guard case .disconnected(let error, let delay) = disconnected else { throw TestFailure("got \(disconnected)") }
        #expect(error.isRetryable)
        #expect(delay == .seconds(1))
        await reader.retryNow()
        _ = try await Self.waitFor(&readerEvents) { if case .replayed = $0 { true } else { false } }
        let lines = await Self.lines(reader)
        #expect(lines.suffix(5) == expected.suffix(5))
        #expect(lines.filter { $0 == "row299" }.count == 1)
        await writer.close()
        await reader.close()
        peer.stop()
    }

    @Test("an 8 MiB replay is accepted; over the limit it is replayTooLarge without a retry loop")
    func an8MiBReplayIsAcceptedOverTheLimitItIsReplayTooLargeWithoutARetryLoop() async throws {
        let peer = try TestPeer(["--ring", "\(9 << 20)", "--prefill", "\(8 << 20)"])
        let session = AttachSession(configuration: configuration(peer))
        var events = session.events.makeAsyncIterator()
        await session.start()
        guard
            case .replayed(let count) = try await Self.waitFor(
                &events, { if case .replayed = $0 { true } else { false } })
        else {
            throw TestFailure("the awaited event did not match")
        }
        #expect(count >= 8 << 20)
        await session.close()

        let limited = AttachSession(configuration: configuration(peer, connect: ConnectOptions(messageLimit: 4 << 20)))
        var limitedEvents = limited.events.makeAsyncIterator()
        await limited.start()
        let stopped = try await Self.waitFor(&limitedEvents) { if case .stopped = $0 { true } else { false } }
        #expect(stopped == .stopped(.replayTooLarge(limit: 4 << 20)))
        #expect(await limited.state == .stopped(.replayTooLarge(limit: 4 << 20)))
        peer.stop()
    }

    @Test("a wrong Origin gets the actionable message and no retry")
    func aWrongOriginGetsTheActionableMessageAndNoRetry() async throws {
        let peer = try TestPeer()
        let session = AttachSession(
            configuration: configuration(peer, connect: ConnectOptions(origin: "http://evil.example:1234")))
        var events = session.events.makeAsyncIterator()
        await session.start()
        let stopped = try await Self.waitFor(&events) { if case .stopped = $0 { true } else { false } }
        #expect(stopped == .stopped(.originRejected(origin: "http://evil.example:1234")))
        if case .stopped(let error?) = stopped {
            #expect(error.description.contains("the server's ALLOWED_ORIGINS must contain http://evil.example:1234"))
        }
        // The HTTP guard: DELETE with a wrong Origin is refused with 403.
        let http = AttachHTTPClient(endpoint: peer.endpoint, origin: "http://evil.example:1234")
        await #expect(throws: AttachError.self) { try await http.kill(id: SessionID.random().text) }
        peer.stop()
    }

    @Test("kill via DELETE closes the attached client's socket") func killViaDELETEClosesTheAttachedClientsSocket()
        async throws
    {
        let peer = try TestPeer()
        let session = AttachSession(configuration: configuration(peer))
        var events = session.events.makeAsyncIterator()
        await session.start()
        let id = try await Self.waitForAttach(&events)
        let http = AttachHTTPClient(endpoint: peer.endpoint)
        #expect(try await http.liveSessions().map(\.id) == [id.text])
        try await http.kill(id: id.text)
        let event = try await Self.waitFor(&events) { if case .disconnected = $0 { true } else { false } }
        #expect(event == .disconnected(.closedByServer(code: 1000, reason: "session killed"), retryIn: .seconds(1)))
        #expect(try await http.liveSessions().map(\.id).contains(id.text) == false)
        await session.close()
        peer.stop()
    }

    @Test("malformed frames are counted and ignored; lone surrogates become U+FFFD")
    func malformedFramesAreCountedAndIgnoredLoneSurrogatesBecomeUFFFD() async throws {
        let peer = try TestPeer(["--lone-surrogates"])
        let session = AttachSession(configuration: configuration(peer))
        var events = session.events.makeAsyncIterator()
        await session.start()
        let id = try await Self.waitForAttach(&events)
        try await peer.control("malformed?id=\(id.text)")
        try await Self.waitForLine(session) { $0.contains("after-malformed") }
        let statistics = await session.frameStatistics
        #expect(statistics.malformed == 6)
        #expect(statistics.unknownType == 2)  // "bogus", and "resize", a client frame
        #expect(statistics.binaryMessages == 1)
        try await session.send(input: "echo ok\r")
        try await Self.waitForLine(session) { $0.hasSuffix("ok") && !$0.contains("echo") }
        // The peer cuts every chunk inside a surrogate pair: U+FFFD, frames kept.
        #expect(await Self.lines(session).joined().contains("\u{FFFD}"))
        #expect(await session.frameStatistics.malformed == 6)
        await session.close()
        peer.stop()
    }

    @Test("status, gates and telemetry arrive as events") func statusGatesAndTelemetryArriveAsEvents() async throws {
        let peer = try TestPeer()
        let session = AttachSession(configuration: configuration(peer))
        var events = session.events.makeAsyncIterator()
        await session.start()
        let id = try await Self.waitForAttach(&events)
        try await peer.control("status?id=\(id.text)&status=waiting&pending=1&gate=plan")
        guard
            case .gate(let gate?) = try await Self.waitFor(&events, { if case .gate(_?) = $0 { true } else { false } })
        else {
            throw TestFailure("the awaited event did not match")
        }
        #expect(gate.kind == .plan)
        #expect(try await session.approve(mode: .acceptEdits, epoch: gate.epoch))
        try await peer.control("telemetry?id=\(id.text)&costUsd=1.5&contextUsedPct=42")
        guard
            case .telemetry(let telemetry) = try await Self.waitFor(
                &events, { if case .telemetry = $0 { true } else { false } })
        else { throw TestFailure("the awaited event did not match") }
        #expect(telemetry.costUsd == 1.5)
        let http = AttachHTTPClient(endpoint: peer.endpoint)
        try await peer.control("event?id=\(id.text)&class=tool&toolName=Bash&label=ls")
        try await peer.control("event?id=\(id.text)&class=from-the-future&label=x")
        let timeline = try await http.events(id: id.text)
        #expect(timeline.map(\.kind) == [.tool])  // the approve entry and the unknown class are skipped
        let listed = try await http.liveSessions()
        #expect(listed.first?.pending == true)
        #expect(listed.first?.gate == .plan)
        #expect(listed.first?.telemetry?.costUsd == 1.5)
        let preview = try await http.preview(id: id.text)
        #expect(preview.columns == 80)
        await session.close()
        peer.stop()
    }

    @Test("a session whose program cannot start stops with the reason")
    func aSessionWhoseProgramCannotStartStopsWithTheReason() async throws {
        let peer = try TestPeer()
        var configuration = configuration(peer)
        configuration.cwd = "/nonexistent/dir"
        let session = AttachSession(configuration: configuration)
        var events = session.events.makeAsyncIterator()
        await session.start()
        let stopped = try await Self.waitFor(&events) { if case .stopped = $0 { true } else { false } }
        guard case .stopped(.spawnFailed(let reason)?) = stopped else {
            Issue.record("got \(stopped)")
            return
        }
        #expect(reason?.contains("no such directory") == true)
        peer.stop()
    }

    @Test("a child that exits at once ends the session without reconnecting")
    func aChildThatExitsAtOnceEndsTheSessionWithoutReconnecting() async throws {
        let peer = try TestPeer(["--command", "/bin/sh -c exit\\ 3"])
        let session = AttachSession(configuration: configuration(peer))
        var events = session.events.makeAsyncIterator()
        await session.start()
        let exited = try await Self.waitFor(&events) { if case .exited = $0 { true } else { false } }
        guard case .exited(let code, _) = exited else { throw TestFailure("got \(exited)") }
        #expect(code != -1)
        #expect(try await Self.waitFor(&events) { if case .stopped = $0 { true } else { false } } == .stopped(nil))
        peer.stop()
    }

    @Test("a server close code is reported and retried") func aServerCloseCodeIsReportedAndRetried() async throws {
        let peer = try TestPeer()
        let session = AttachSession(configuration: configuration(peer))
        var events = session.events.makeAsyncIterator()
        await session.start()
        let id = try await Self.waitForAttach(&events)
        try await peer.control("close?id=\(id.text)&code=4001&reason=maintenance")
        let event = try await Self.waitFor(&events) { if case .disconnected = $0 { true } else { false } }
        #expect(event == .disconnected(.closedByServer(code: 4001, reason: "maintenance"), retryIn: .seconds(1)))
        await session.retryNow()
        let again = try await Self.waitForAttach(&events)
        #expect(again == id)
        await session.close()
        peer.stop()
    }

    @Test("a tiny ring replays a tail that starts inside a sequence")
    func aTinyRingReplaysATailThatStartsInsideASequence() async throws {
        let peer = try TestPeer(["--ring", "40"])
        let writer = AttachSession(configuration: configuration(peer, columns: 40, rows: 5))
        var events = writer.events.makeAsyncIterator()
        await writer.start()
        let id = try await Self.waitForAttach(&events)
        try await writer.send(input: "printf '\\033[1;31mAAAA\\033[0m\\033[32mtail-marker\\033[0m\\n'\r")
        try await Self.waitForLine(writer) { $0.hasSuffix("AAAAtail-marker") }
        await writer.close()
        let reader = AttachSession(configuration: configuration(peer, id: id, columns: 40, rows: 5))
        var readerEvents = reader.events.makeAsyncIterator()
        await reader.start()
        guard
            case .replayed(let count) = try await Self.waitFor(
                &readerEvents, { if case .replayed = $0 { true } else { false } })
        else { throw TestFailure("the awaited event did not match") }
        #expect(count <= 4 + 40 * 3)  // ESC[0m and at most 40 characters of the ring
        #expect(await Self.lines(reader).count <= 5)
        #expect(await reader.frameStatistics.malformed == 0)
        await reader.close()
        peer.stop()
    }

    @Test("refused connections say so") func refusedConnectionsSaySo() async throws {
        let transport = WebSocketTransport()
        let endpoint = try AttachEndpoint("http://127.0.0.1:1")
        await #expect(throws: AttachError.connectionRefused(host: "127.0.0.1", port: 1)) {
            _ = try await transport.connect(to: endpoint, options: ConnectOptions())
        }
    }
}
