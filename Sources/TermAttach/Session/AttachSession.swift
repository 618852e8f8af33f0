import TermCore

/// One attached web-terminal session feeding a local `Terminal` (TermCore).
///
/// Connect → send `attach` (the known id, or null for a new session) → adopt
/// the id from `attached` → send the size → the first `output` replaces the
/// screen (reset, then feed), later ones are live. Status, gates, telemetry
/// and exit come out as ``Event``s. On a retryable failure it reconnects with
/// backoff (``ReconnectMachine``) and attaches the same id again; the replay
/// then replaces the screen again, so scrollback is never duplicated and
/// output never reordered (messages are handled one at a time, in order,
/// and nothing from an old connection is fed after a new one starts).
///
/// ```swift
/// let session = AttachSession(configuration: .init(endpoint: try AttachEndpoint("http://127.0.0.1:3000")))
/// await session.start()
/// for await event in session.events { print(event) }
/// ```
public actor AttachSession {
    /// What to attach to and how.
    public struct Configuration: Sendable {
        /// The server to connect to.
        public var endpoint: AttachEndpoint
        /// The session to attach to; nil asks for a new one.
        public var sessionID: SessionID?
        /// The working directory of a new session (absolute).
        public var cwd: String?
        /// The local terminal's size, sent as `resize` after every attach.
        public var columns: Int
        /// The local terminal's height, sent with ``columns``.
        public var rows: Int
        /// Scrollback lines of the local terminal.
        public var scrollback: Int
        /// How each connection is opened: origin, message limit, timeout, CA file.
        public var connect: ConnectOptions
        /// The time between pings (25 s); nil turns pinging off (for tests,
        /// or an embedder with its own liveness check).
        public var pingInterval: Duration?
        /// Whether the terminal's answers to queries in live output (device
        /// attributes, cursor position …) are sent back as input, as a
        /// browser's terminal does.
        public var answersQueries: Bool = true

        /// A configuration for `endpoint`: a new session (or `sessionID`) in an
        /// 80×24 terminal with the default scrollback, pinged every 25 s, unless
        /// told otherwise.
        public init(
            endpoint: AttachEndpoint, sessionID: SessionID? = nil, cwd: String? = nil, columns: Int = 80,
            rows: Int = 24, scrollback: Int = Terminal.Limits.defaultScrollback,
            connect: ConnectOptions = ConnectOptions(), pingInterval: Duration? = PingMonitor.interval
        ) {
            self.endpoint = endpoint
            self.sessionID = sessionID
            self.cwd = cwd
            self.columns = columns
            self.rows = rows
            self.scrollback = scrollback
            self.connect = connect
            self.pingInterval = pingInterval
        }
    }

    /// What the session reports. The screen itself is read with
    /// ``withTerminal(_:)``; ``screenUpdates`` says when it changed.
    public enum Event: Equatable, Sendable {
        /// Connecting; `attempt` counts from 1 since the last attach.
        case connecting(attempt: Int)
        /// The server attached this client to `id` (adopt it).
        case attached(SessionID)
        /// The replay replaced the screen (`byteCount` terminal bytes).
        case replayed(byteCount: Int)
        /// A `status` frame arrived: the program's activity and any gate.
        case status(SessionStatus)
        /// The showing gate changed (nil: none).
        case gate(PendingGate?)
        /// A `telemetry` frame arrived.
        case telemetry(Telemetry)
        /// The session's program ended.
        case exited(code: Int, reason: String?)
        /// The connection failed; the next attempt comes after `retryIn`.
        case disconnected(AttachError, retryIn: Duration)
        /// The session stopped for good: nil after ``close()`` or an exit,
        /// else the error that cannot be retried. The last event.
        case stopped(AttachError?)
    }

    /// Events beyond this many unread are dropped, oldest first. Output is
    /// not an event, so this only fills if nobody reads at all.
    public static let eventBufferLimit = 1024

    /// The session's events, in order; the stream ends after
    /// ``Event/stopped(_:)``. At most ``eventBufferLimit`` wait unread.
    public nonisolated let events: AsyncStream<Event>
    /// Yields after the screen changed (coalesced: at most one waits).
    public nonisolated let screenUpdates: AsyncStream<Void>

    private let eventSink: AsyncStream<Event>.Continuation
    private let screenSink: AsyncStream<Void>.Continuation
    private let configuration: Configuration
    private let transport: any AttachTransport
    private let clock: any Clock<Duration>

    private var terminal: Terminal
    private var columns: Int
    private var rows: Int
    private var machine = ReconnectMachine()
    private var ping = PingMonitor()
    private var gates = GateTracker()
    private var decoder = ServerFrameDecoder()
    private var currentID: SessionID?
    private var channel: (any MessageChannel)?
    private var generation = 0
    private var awaitingReplay = false
    private var pendingFailure: AttachError?
    private var connectionTask: Task<Void, Never>?
    private var timerTask: Task<Void, Never>?
    private var pingTask: Task<Void, Never>?
    private var droppedAnswers = 0
    private var lastTelemetry: Telemetry?
    private var lastStatus: SessionStatus?

    /// A session that has not started; call ``start()``.
    public init(
        configuration: Configuration, transport: any AttachTransport = WebSocketTransport(),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.configuration = configuration
        self.transport = transport
        self.clock = clock
        columns = configuration.columns
        rows = configuration.rows
        currentID = configuration.sessionID
        terminal = Terminal(
            columns: configuration.columns, rows: configuration.rows, scrollback: configuration.scrollback)
        // Queued, not a closure: the actor drains them after each feed and
        // sends them before any input that comes later.
        terminal.queuesReplies = configuration.answersQueries
        (events, eventSink) = AsyncStream.makeStream(
            of: Event.self, bufferingPolicy: .bufferingNewest(Self.eventBufferLimit))
        (screenUpdates, screenSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    // MARK: Reading

    /// Runs `body` with the terminal (on the session's executor).
    public func withTerminal<R: Sendable>(_ body: @Sendable (Terminal) -> R) -> R { body(terminal) }

    /// An immutable picture of the screen (and, if asked, scrollback lines)
    /// that any thread may read: what a front end draws.
    /// - Complexity: O(rows that changed since the last snapshot).
    public func snapshot(scrollback: Range<Int> = 0..<0) -> Snapshot { terminal.snapshot(scrollback: scrollback) }

    /// The session id in use (adopted from the last `attached`).
    public var sessionID: SessionID? { currentID }
    /// Where the reconnect machine is.
    public var state: ReconnectMachine.State { machine.state }
    /// The gate showing now.
    public var pendingGate: PendingGate? { gates.current }
    /// The last `status` the server sent, or nil before the first.
    public var status: SessionStatus? { lastStatus }
    /// The last `telemetry` the server sent, or nil before the first.
    public var telemetry: Telemetry? { lastTelemetry }
    /// Frames decoded, dropped as malformed, of unknown type.
    public var frameStatistics: ServerFrameDecoder.Statistics { decoder.statistics }
    /// Approve/reject calls dropped because their gate had changed.
    public var droppedGateAnswers: Int { droppedAnswers }

    // MARK: Control

    /// Connects and attaches; reconnects on its own until ``close()``.
    public func start() {
        perform(machine.handle(.start))
    }

    /// Skips the wait before the next reconnect attempt.
    public func retryNow() {
        perform(machine.handle(.retryNow))
    }

    /// Detaches (the session's program keeps running on the server) and
    /// ends the event streams.
    public func close() async {
        let effect = machine.handle(.stop)
        let open = channel
        channel = nil
        generation += 1
        await open?.close(code: WebSocketCloseCode.normal, reason: "detach")
        perform(effect)
    }

    /// Sends keyboard input; dropped when not attached.
    public func send(input: String) async throws(AttachError) {
        try await sendFrame(.input(input))
    }

    /// Resizes the local terminal and tells the server (and again after
    /// every attach).
    public func resize(columns: Int, rows: Int) async throws(AttachError) {
        guard WireLimits.dimensions.contains(columns), WireLimits.dimensions.contains(rows) else {
            throw AttachError.invalidArgument("the size must be 1…1000 × 1…1000, got \(columns)×\(rows)")
        }
        guard columns != self.columns || rows != self.rows else { return }
        self.columns = columns
        self.rows = rows
        resizeLocalTerminal()
        try await sendFrame(.resize(columns: columns, rows: rows))
    }

    /// Approves the gate with epoch `epoch`; false (and nothing sent) when
    /// that gate is no longer the one showing.
    @discardableResult
    public func approve(mode: ApproveMode?, epoch: Int) async throws(AttachError) -> Bool {
        guard gates.accepts(epoch: epoch) else {
            droppedAnswers += 1
            return false
        }
        try await sendFrame(.approve(mode: mode))
        return true
    }

    /// Rejects the gate with epoch `epoch`; false when it is no longer showing.
    @discardableResult
    public func reject(epoch: Int) async throws(AttachError) -> Bool {
        guard gates.accepts(epoch: epoch) else {
            droppedAnswers += 1
            return false
        }
        try await sendFrame(.reject)
        return true
    }

    private func sendFrame(_ frame: ClientFrame) async throws(AttachError) {
        let bytes: [UInt8]
        do throws(WireError) {
            bytes = try WireCodec.encode(frame)
        } catch {
            throw AttachError.invalidArgument(error.description)
        }
        guard case .attached = machine.state, let channel else { return }
        try await channel.send(text: bytes)
    }

    // MARK: Driving the machine

    private func perform(_ effect: ReconnectMachine.Effect) {
        switch effect {
        case .none:
            break
        case .connect:
            launchConnection()
        case .cancelWaitAndConnect:
            timerTask?.cancel()
            timerTask = nil
            launchConnection()
        case .wait(let delay):
            let expected = generation
            timerTask = Task { [clock] in
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return
                }
                self.timerFired(generation: expected)
            }
        case .stop(let error):
            timerTask?.cancel()
            pingTask?.cancel()
            eventSink.yield(.stopped(error))
            eventSink.finish()
            screenSink.finish()
        }
    }

    private func timerFired(generation expected: Int) {
        guard expected == generation else { return }
        perform(machine.handle(.timerFired))
    }

    private func launchConnection() {
        generation += 1
        let current = generation
        if case .connecting(let attempt) = machine.state { eventSink.yield(.connecting(attempt: attempt)) }
        connectionTask = Task { await self.runConnection(generation: current) }
    }

    private func runConnection(generation current: Int) async {
        var opened: (any MessageChannel)?
        do throws(AttachError) {
            let channel = try await transport.connect(to: configuration.endpoint, options: configuration.connect)
            opened = channel
            guard current == generation else {
                await channel.close(code: WebSocketCloseCode.normal, reason: "superseded")
                return
            }
            self.channel = channel
            ping = PingMonitor()
            pendingFailure = nil
            awaitingReplay = true
            await sendWhileReceiving(try encode(.attach(sessionID: currentID, cwd: configuration.cwd)), on: channel)
            startPinging(channel: channel, generation: current)
            while current == generation {
                let message = try await channel.receive()
                guard current == generation else { break }
                switch message {
                case .text(let bytes):
                    if let frame = decoder.decode(bytes) { try await handle(frame, on: channel) }
                case .binary:
                    decoder.dropBinary()
                case .pong:
                    ping.pongReceived()
                case .closed(let code, let reason):
                    throw AttachError.closedByServer(code: code, reason: reason)
                }
            }
        } catch {
            guard current == generation else { return }
            var failure = pendingFailure ?? error
            if case .messageTooLarge(let limit) = failure { failure = .replayTooLarge(limit: limit) }
            pendingFailure = nil
            pingTask?.cancel()
            let open = channel ?? opened
            channel = nil
            await open?.close(code: closeCode(for: failure), reason: "")
            guard current == generation else { return }
            if gates.clear() { eventSink.yield(.gate(nil)) }
            let effect = machine.handle(.disconnected(failure))
            if case .wait(let delay) = effect { eventSink.yield(.disconnected(failure, retryIn: delay)) }
            perform(effect)
        }
    }

    private func closeCode(for error: AttachError) -> UInt16 {
        switch error {
        case .replayTooLarge, .messageTooLarge: return WebSocketCloseCode.messageTooBig
        case .protocolViolation: return WebSocketCloseCode.protocolError
        default: return WebSocketCloseCode.goingAway
        }
    }

    private func encode(_ frame: ClientFrame) throws(AttachError) -> [UInt8] {
        do throws(WireError) {
            return try WireCodec.encode(frame)
        } catch {
            throw AttachError.invalidArgument(error.description)
        }
    }

    private func handle(_ frame: ServerFrame, on channel: any MessageChannel) async throws(AttachError) {
        switch frame {
        case .attached(let id):
            currentID = id
            perform(machine.handle(.attached))
            eventSink.yield(.attached(id))
            // The server spawns at 80×24: tell it the real size after every attach.
            await sendWhileReceiving(try encode(.resize(columns: columns, rows: rows)), on: channel)
        case .output(let bytes):
            if awaitingReplay {
                awaitingReplay = false
                terminal.reset()
                bytes.withUnsafeBufferPointer { terminal.feed($0) }
                _ = terminal.drainReplies()
                eventSink.yield(.replayed(byteCount: bytes.count))
            } else {
                bytes.withUnsafeBufferPointer { terminal.feed($0) }
                try await forwardReplies(on: channel)
            }
            screenSink.yield()
        case .status(let status):
            lastStatus = status
            eventSink.yield(.status(status))
            if gates.update(status) { eventSink.yield(.gate(gates.current)) }
        case .telemetry(let telemetry):
            lastTelemetry = telemetry
            eventSink.yield(.telemetry(telemetry))
        case .exit(let code, let reason):
            eventSink.yield(.exited(code: code, reason: reason))
            if code == WireLimits.spawnFailedExitCode {
                // Spawning failed: attaching again would fail the same way.
                throw AttachError.spawnFailed(reason: reason)
            }
            // The program ended: re-attaching its id would start a new one.
            generation += 1
            self.channel = nil
            pingTask?.cancel()
            await channel.close(code: WebSocketCloseCode.normal, reason: "exited")
            perform(machine.handle(.stop))
        }
    }

    private func startPinging(channel: any MessageChannel, generation current: Int) {
        pingTask?.cancel()
        guard let interval = configuration.pingInterval else { return }
        pingTask = Task { [clock] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
                guard await self.pingTick(channel: channel, generation: current) else { return }
            }
        }
    }

    /// One ping interval elapsed; false when pinging should stop.
    private func pingTick(channel: any MessageChannel, generation current: Int) async -> Bool {
        guard current == generation else { return false }
        switch ping.tick() {
        case .sendPing:
            do throws(AttachError) {
                try await channel.sendPing()
            } catch {
                return false
            }
            return true
        case .disconnect:
            pendingFailure = .pingTimeout
            await channel.close(code: WebSocketCloseCode.goingAway, reason: "ping timeout")
            return false
        }
    }

    /// Brings the local terminal to the current size (it reflows; the
    /// server's program redraws for the new size).
    private func resizeLocalTerminal() {
        terminal.resize(columns: columns, rows: rows)
        screenSink.yield()
    }

    /// Sends what the terminal answered to queries in live output (DA, DSR …)
    /// back as input, as a browser's terminal does. Answers to queries inside
    /// a replay are dropped: they were answered when the output was live.
    private func forwardReplies(on channel: any MessageChannel) async throws(AttachError) {
        let bytes = terminal.drainReplies()
        guard !bytes.isEmpty else { return }
        await sendWhileReceiving(try encode(.input(String(decoding: bytes, as: UTF8.self))), on: channel)
    }

    /// Sends from inside the receive loop. A failed send ends the connection
    /// (``MessageChannel``'s contract), and `receive()` still hands over what
    /// had arrived before it throws: so the loop goes on receiving, a replay
    /// that came before the end is still shown, and the send's error (the
    /// channel reports the connection's first cause) is what gets reported.
    private func sendWhileReceiving(_ bytes: [UInt8], on channel: any MessageChannel) async {
        do throws(AttachError) {
            try await channel.send(text: bytes)
        } catch {
            if pendingFailure == nil { pendingFailure = error }
        }
    }
}
