import Testing

@testable import TermAttach

@Suite("Reconnect, ping and gates (pure state machines)")
struct MachineTests {
    @Test("backoff is 1, 2, 4, 8, 16, then 30 seconds") func backoffIs124816Then30Seconds() {
        var machine = ReconnectMachine()
        let result1 = machine.handle(.start)
        #expect(result1 == .connect)
        var waits: [Duration] = []
        for _ in 0..<8 {
            guard case .wait(let delay) = machine.handle(.disconnected(.connectionLost("x"))) else {
                Issue.record("no wait")
                return
            }
            waits.append(delay)
            let result2 = machine.handle(.timerFired)
            #expect(result2 == .connect)
        }
        #expect(waits == [1, 2, 4, 8, 16, 30, 30, 30].map { Duration.seconds($0) })
    }

    @Test("a successful attach resets the backoff") func aSuccessfulAttachResetsTheBackoff() {
        var machine = ReconnectMachine()
        _ = machine.handle(.start)
        _ = machine.handle(.disconnected(.connectionLost("x")))
        _ = machine.handle(.timerFired)
        _ = machine.handle(.disconnected(.connectionLost("x")))
        _ = machine.handle(.timerFired)
        let result3 = machine.handle(.attached)
        #expect(result3 == .none)
        #expect(machine.state == .attached)
        let result4 = machine.handle(.disconnected(.connectionLost("x")))
        #expect(result4 == .wait(.seconds(1)))
    }

    @Test("retry now skips the wait and a late timer is ignored") func retryNowSkipsTheWaitAndALateTimerIsIgnored() {
        var machine = ReconnectMachine()
        _ = machine.handle(.start)
        _ = machine.handle(.disconnected(.connectionRefused(host: "h", port: 1)))
        let result5 = machine.handle(.retryNow)
        #expect(result5 == .cancelWaitAndConnect)
        #expect(machine.state == .connecting(attempt: 2))
        let result6 = machine.handle(.timerFired)
        #expect(result6 == .none)
        let result7 = machine.handle(.retryNow)
        #expect(result7 == .none)
    }

    @Test(
        "errors that cannot heal stop instead of looping",
        arguments: [
            AttachError.replayTooLarge(limit: 16 << 20), .originRejected(origin: "http://x"), .tlsFailure("bad cert"),
            .spawnFailed(reason: "no shell"), .handshakeRejected(status: 404, reason: ""),
        ])
    func errorsThatCannotHealStopInsteadOfLooping(error: AttachError) {
        var machine = ReconnectMachine()
        _ = machine.handle(.start)
        let result8 = machine.handle(.disconnected(error))
        #expect(result8 == .stop(error))
        #expect(machine.state == .stopped(error))
        let result9 = machine.handle(.retryNow)
        #expect(result9 == .none)
        let result10 = machine.handle(.timerFired)
        #expect(result10 == .none)
    }

    @Test("two missed pongs mean disconnected") func twoMissedPongsMeanDisconnected() {
        var monitor = PingMonitor()
        let result11 = monitor.tick()
        #expect(result11 == .sendPing)
        monitor.pongReceived()
        let result12 = monitor.tick()
        #expect(result12 == .sendPing)
        let result13 = monitor.tick()
        #expect(result13 == .sendPing)
        let result14 = monitor.tick()
        #expect(result14 == .disconnect)
    }

    @Test("each rise of pending is a new gate epoch; answers to old epochs are refused")
    func eachRiseOfPendingIsANewGateEpochAnswersToOldEpochsAreRefused() {
        var gates = GateTracker()
        let result15 = gates.update(SessionStatus(state: .waiting, pending: true, gate: .tool))
        #expect(result15)
        let first = gates.current!.epoch
        let result16 = gates.update(SessionStatus(state: .waiting, pending: true, gate: .tool))
        #expect(!result16)
        #expect(gates.current!.epoch == first)
        let result17 = gates.update(SessionStatus(state: .working, pending: false))
        #expect(result17)
        #expect(gates.current == nil)
        #expect(!gates.accepts(epoch: first))
        let result18 = gates.update(SessionStatus(state: .waiting, pending: true, gate: .plan))
        #expect(result18)
        #expect(gates.current!.epoch == first + 1)
        #expect(!gates.accepts(epoch: first))
        #expect(gates.accepts(epoch: first + 1))
        // The kind changing while pending stays up is a new gate too.
        let result19 = gates.update(SessionStatus(state: .waiting, pending: true, gate: .tool))
        #expect(result19)
        #expect(gates.current!.epoch == first + 2)
    }
}

@Suite("Session against an in-memory server and a manual clock", .timeLimit(.minutes(1)))
struct SessionTests {
    let endpoint = try! AttachEndpoint("http://127.0.0.1:9")
    let id = SessionID("1b4e28ba-2fa1-4d3b-9a5c-0e1a2b3c4d5e")!

    func configuration(id: SessionID? = nil, ping: Duration? = nil) -> AttachSession.Configuration {
        AttachSession.Configuration(endpoint: endpoint, sessionID: id, columns: 20, rows: 3, pingInterval: ping)
    }

    func screen(_ session: AttachSession) async -> [String] {
        await session.withTerminal { terminal in
            (0..<terminal.scrollbackCount).map { terminal.scrollbackLine(.init($0)) }
                + (0..<terminal.rows).map { terminal.screenLine($0) }
        }
    }

    @Test("attach, adopt the id, send the size, replay replaces, live output appends")
    func attachAdoptTheIdSendTheSizeReplayReplacesLiveOutputAppends() async throws {
        let channel = FakeChannel()
        let session = AttachSession(
            configuration: configuration(), transport: FakeTransport([.channel(channel)]), clock: ManualClock())
        var events = session.events.makeAsyncIterator()
        var sent = channel.sent.makeAsyncIterator()
        await session.start()
        #expect(try await nextSent(&sent) == .attach(sessionID: nil, cwd: nil))
        channel.serve(#"{"type":"attached","sessionId":"\#(id.text)"}"#)
        #expect(try await nextSent(&sent) == .resize(columns: 20, rows: 3))
        #expect(await session.sessionID == id)
        channel.serve(#"{"type":"output","data":"\u001b[0mone\r\ntwo"}"#)
        _ = try await nextEvent(&events) { if case .replayed = $0 { true } else { false } }
        channel.serve(#"{"type":"output","data":"\r\nthree"}"#)
        channel.serve(#"{"type":"status","status":"idle","pending":false}"#)
        _ = try await nextEvent(&events) { if case .status = $0 { true } else { false } }
        #expect(await screen(session) == ["one", "two", "three"])
        await session.close()
        #expect(channel.closeCode == WebSocketCloseCode.normal)
    }

    @Test("a reconnect re-attaches the same id, resends the size and never duplicates scrollback")
    func aReconnectReAttachesTheSameIdResendsTheSizeAndNeverDuplicatesScrollback() async throws {
        let first = FakeChannel()
        let second = FakeChannel()
        let clock = ManualClock()
        let transport = FakeTransport([.channel(first), .channel(second)])
        let session = AttachSession(configuration: configuration(id: id), transport: transport, clock: clock)
        var events = session.events.makeAsyncIterator()
        var sentFirst = first.sent.makeAsyncIterator()
        await session.start()
        #expect(try await nextSent(&sentFirst) == .attach(sessionID: id, cwd: nil))
        first.serve(#"{"type":"attached","sessionId":"\#(id.text)"}"#)
        first.serve(#"{"type":"output","data":"a\r\nb\r\nc\r\nd"}"#)
        first.serve(#"{"type":"output","data":"\r\ne"}"#)
        _ = try await nextEvent(&events) { if case .replayed = $0 { true } else { false } }
        first.fail(.connectionLost("reset"))
        _ = try await nextEvent(&events) { $0 == .disconnected(.connectionLost("reset"), retryIn: .seconds(1)) }
        try await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [.seconds(1)])
        clock.advance(by: .seconds(1))
        var sentSecond = second.sent.makeAsyncIterator()
        #expect(try await nextSent(&sentSecond) == .attach(sessionID: id, cwd: nil))
        second.serve(#"{"type":"attached","sessionId":"\#(id.text)"}"#)
        #expect(try await nextSent(&sentSecond) == .resize(columns: 20, rows: 3))
        second.serve(#"{"type":"output","data":"a\r\nb\r\nc\r\nd\r\ne"}"#)
        _ = try await nextEvent(&events) { if case .replayed = $0 { true } else { false } }
        #expect(await screen(session) == ["a", "b", "c", "d", "e"])
        #expect(transport.connects == 2)
        await session.close()
    }

    @Test("retry now connects without waiting for the backoff") func retryNowConnectsWithoutWaitingForTheBackoff()
        async throws
    {
        let channel = FakeChannel()
        let clock = ManualClock()
        let transport = FakeTransport([
            .fail(.connectionRefused(host: "h", port: 9)), .fail(.connectionRefused(host: "h", port: 9)),
            .channel(channel),
        ])
        let session = AttachSession(configuration: configuration(), transport: transport, clock: clock)
        var events = session.events.makeAsyncIterator()
        await session.start()
        _ = try await nextEvent(&events) { if case .disconnected(_, retryIn: .seconds(1)) = $0 { true } else { false } }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        _ = try await nextEvent(&events) { if case .disconnected(_, retryIn: .seconds(2)) = $0 { true } else { false } }
        try await clock.waitForSleepers(1)
        await session.retryNow()
        var sent = channel.sent.makeAsyncIterator()
        #expect(try await nextSent(&sent) == .attach(sessionID: nil, cwd: nil))
        #expect(clock.now.offset == .seconds(1))  // no time passed for the second wait
        await session.close()
    }

    @Test("a message over the limit is replayTooLarge and stops retrying")
    func aMessageOverTheLimitIsReplayTooLargeAndStopsRetrying() async throws {
        let channel = FakeChannel()
        let transport = FakeTransport([.channel(channel), .channel(FakeChannel())])
        let session = AttachSession(configuration: configuration(), transport: transport, clock: ManualClock())
        var events = session.events.makeAsyncIterator()
        await session.start()
        channel.serve(#"{"type":"attached","sessionId":"\#(id.text)"}"#)
        channel.fail(.messageTooLarge(limit: 1024))
        let stopped = try await nextEvent(&events) { if case .stopped = $0 { true } else { false } }
        #expect(stopped == .stopped(.replayTooLarge(limit: 1024)))
        #expect(!AttachError.replayTooLarge(limit: 1024).isRetryable)
        #expect(AttachError.replayTooLarge(limit: 16 << 20).description.contains("SCROLLBACK_BYTES"))
        #expect(transport.connects == 1)
        #expect(channel.closeCode == WebSocketCloseCode.messageTooBig)
    }

    @Test("exit with code -1 stops retrying") func exitWithCode1StopsRetrying() async throws {
        let channel = FakeChannel()
        let transport = FakeTransport([.channel(channel)])
        let session = AttachSession(configuration: configuration(), transport: transport, clock: ManualClock())
        var events = session.events.makeAsyncIterator()
        await session.start()
        channel.serve(#"{"type":"attached","sessionId":"\#(id.text)"}"#)
        channel.serve(#"{"type":"exit","code":-1,"reason":"no such shell"}"#)
        #expect(
            try await nextEvent(&events) { if case .exited = $0 { true } else { false } }
                == .exited(code: -1, reason: "no such shell"))
        #expect(
            try await nextEvent(&events) { if case .stopped = $0 { true } else { false } }
                == .stopped(.spawnFailed(reason: "no such shell")))
        #expect(transport.connects == 1)
    }

    @Test("two unanswered pings disconnect and reconnect") func twoUnansweredPingsDisconnectAndReconnect() async throws
    {
        let channel = FakeChannel()
        let clock = ManualClock()
        let transport = FakeTransport([.channel(channel), .channel(FakeChannel())])
        let session = AttachSession(
            configuration: configuration(ping: .seconds(25)), transport: transport, clock: clock)
        var events = session.events.makeAsyncIterator()
        await session.start()
        channel.serve(#"{"type":"attached","sessionId":"\#(id.text)"}"#)
        _ = try await nextEvent(&events) { if case .attached = $0 { true } else { false } }
        for expected in 1...2 {
            try await clock.waitForSleepers(1)
            clock.advance(by: .seconds(25))
            for _ in 0..<10_000 where channel.pingsSent < expected { await Task.yield() }
            #expect(channel.pingsSent == expected)
        }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(25))
        let event = try await nextEvent(&events) { if case .disconnected = $0 { true } else { false } }
        #expect(event == .disconnected(.pingTimeout, retryIn: .seconds(1)))
        await session.close()
    }

    @Test("a pong keeps the connection") func aPongKeepsTheConnection() async throws {
        let channel = FakeChannel()
        let clock = ManualClock()
        let session = AttachSession(
            configuration: configuration(ping: .seconds(25)), transport: FakeTransport([.channel(channel)]),
            clock: clock)
        var events = session.events.makeAsyncIterator()
        await session.start()
        channel.serve(#"{"type":"attached","sessionId":"\#(id.text)"}"#)
        _ = try await nextEvent(&events) { if case .attached = $0 { true } else { false } }
        for round in 1...5 {
            try await clock.waitForSleepers(1)
            clock.advance(by: .seconds(25))
            for _ in 0..<10_000 where channel.pingsSent < round { await Task.yield() }
            channel.serve(.pong)
            channel.serve(#"{"type":"status","status":"idle","pending":false}"#)
            _ = try await nextEvent(&events) { if case .status = $0 { true } else { false } }
        }
        #expect(channel.pingsSent == 5)
        #expect(await session.state == .attached)
        await session.close()
    }

    @Test("approve and reject reach only the gate they were aimed at")
    func approveAndRejectReachOnlyTheGateTheyWereAimedAt() async throws {
        let channel = FakeChannel()
        let session = AttachSession(
            configuration: configuration(), transport: FakeTransport([.channel(channel)]), clock: ManualClock())
        var events = session.events.makeAsyncIterator()
        var sent = channel.sent.makeAsyncIterator()
        await session.start()
        _ = try await nextSent(&sent)
        channel.serve(#"{"type":"attached","sessionId":"\#(id.text)"}"#)
        _ = try await nextSent(&sent)
        channel.serve(#"{"type":"status","status":"waiting","pending":true,"gate":"plan"}"#)
        guard
            case .gate(let gate?) = try await nextEvent(&events, where: { if case .gate = $0 { true } else { false } })
        else {
            Issue.record("no gate")
            return
        }
        channel.serve(#"{"type":"status","status":"working","pending":false}"#)
        channel.serve(#"{"type":"status","status":"waiting","pending":true,"gate":"tool"}"#)
        _ = try await nextEvent(&events) { if case .gate(let next?) = $0 { next.epoch != gate.epoch } else { false } }
        #expect(try await session.approve(mode: .acceptEdits, epoch: gate.epoch) == false)
        #expect(await session.droppedGateAnswers == 1)
        let current = await session.pendingGate!
        #expect(current.kind == .tool)
        #expect(try await session.reject(epoch: current.epoch))
        #expect(try await nextSent(&sent) == .reject)
        await session.close()
    }

    @Test("malformed frames are counted and the session goes on") func malformedFramesAreCountedAndTheSessionGoesOn()
        async throws
    {
        let channel = FakeChannel()
        let session = AttachSession(
            configuration: configuration(), transport: FakeTransport([.channel(channel)]), clock: ManualClock())
        var events = session.events.makeAsyncIterator()
        await session.start()
        channel.serve(#"{"type":"attached","sessionId":"\#(id.text)"}"#)
        channel.serve("garbage")
        channel.serve(.binary([1, 2]))
        channel.serve(#"{"type":"whatever"}"#)
        channel.serve(#"{"type":"output","data":"ok"}"#)
        _ = try await nextEvent(&events) { if case .replayed = $0 { true } else { false } }
        let statistics = await session.frameStatistics
        #expect(statistics.malformed == 1)
        #expect(statistics.unknownType == 1)
        #expect(statistics.binaryMessages == 1)
        #expect(await screen(session) == ["ok", "", ""])
        await session.close()
    }

    @Test("answers to queries go back as input, but not those inside a replay")
    func answersToQueriesGoBackAsInputButNotThoseInsideAReplay() async throws {
        let channel = FakeChannel()
        let session = AttachSession(
            configuration: configuration(), transport: FakeTransport([.channel(channel)]), clock: ManualClock())
        var sent = channel.sent.makeAsyncIterator()
        await session.start()
        _ = try await nextSent(&sent)
        channel.serve(#"{"type":"attached","sessionId":"\#(id.text)"}"#)
        _ = try await nextSent(&sent)
        channel.serve(#"{"type":"output","data":"\u001b[6n"}"#)  // in the replay: not answered
        channel.serve(#"{"type":"output","data":"\u001b[6n"}"#)
        #expect(try await nextSent(&sent) == .input("\u{1B}[1;1R"))
        await session.close()
    }
}
