import Foundation

/// An open RFC 6455 client connection over a ``ByteStream``.
///
/// A reader thread parses frames and hands whole messages to a bounded
/// ``MessageQueue``; it answers pings itself. Writes go through one serial
/// queue, so frames never interleave.
final class WebSocketConnection: MessageChannel {
    /// Bytes read from the socket per call.
    static let readChunk = 256 * 1024
    /// A write that cannot finish in this time fails the connection.
    static let writeTimeout: Duration = .seconds(10)
    /// How long a closing handshake's close frame may take to send: 0.5 s.
    /// Past it the TCP connection is ended without one, so a server that
    /// stops reading cannot hold the client (the CLI's `--timeout` promises
    /// an exit within a second of it).
    static let closeTimeout: Duration = .milliseconds(500)

    private let stream: any ByteStream
    private let queue: MessageQueue
    private let writer = DispatchQueue(label: "TermAttach.WebSocket.writer")
    private let closing = Locked(false)

    /// What the reader and the writer did with pings (for tests and
    /// diagnostics).
    struct PongStatistics: Equatable {
        var pingsReceived = 0
        /// Pong frames written whole; a write that failed is not counted.
        var pongsSent = 0
        /// Pings whose pong was replaced by a later ping's before it went out.
        var pongsSuperseded = 0
        /// Pong writes scheduled on the writer and not yet begun, now and the
        /// most ever: the property of §5.5.3 kept here is that a flood never
        /// queues more than one.
        var queuedWrites = 0
        var peakQueuedWrites = 0
        /// True while a pong is being written.
        var writing = false
        /// The payload of the last pong written whole.
        var lastPongPayload: [UInt8] = []
    }

    /// The pong that waits for the writer, if any, and whether a write of it
    /// is scheduled: one slot, whatever the number of pings (§5.5.3).
    private struct PongSlot {
        var payload: [UInt8]?
        var scheduled = false
        var statistics = PongStatistics()
    }
    private let pongs = Locked(PongSlot())
    /// Why the reader ended the connection (the server's close, a protocol
    /// violation, EOF), set before the stream is shut down: a send that fails
    /// afterwards reports this cause, not the broken pipe it ran into.
    private let endCause = Locked<AttachError?>(nil)
    var pongStatistics: PongStatistics { pongs.withLock { $0.statistics } }

    /// Connects, runs TLS when the endpoint is `https`, and upgrades.
    /// Blocking: call it off the cooperative pool (see ``runBlocking(_:)``).
    static func open(endpoint: AttachEndpoint, options: ConnectOptions) throws(AttachError) -> WebSocketConnection {
        let seconds =
            Double(options.connectTimeout.components.seconds)
            + Double(options.connectTimeout.components.attoseconds) / 1e18
        let deadline = ContinuousClock.now.advanced(by: options.connectTimeout)
        let socket = try TCPSocket.connect(
            host: endpoint.host, port: endpoint.port, deadline: deadline, timeoutSeconds: seconds)
        let stream: any ByteStream
        if endpoint.isSecure {
            #if os(Linux)
                stream = try TLSStream(
                    socket: socket, host: endpoint.host, caFile: options.caFile, deadline: deadline,
                    timeoutSeconds: seconds)
            #else
                throw AttachError.tlsFailure("wss:// over POSIX sockets needs OpenSSL, which is used on Linux only")
            #endif
        } else {
            stream = socket
        }
        let handshake = WebSocketHandshake(endpoint: endpoint, origin: options.origin ?? endpoint.origin)
        do throws(AttachError) {
            try stream.write(handshake.request, deadline: deadline)
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = try stream.readChunk(&chunk, deadline: deadline)
                if count == 0 {
                    if let end = WebSocketHandshake.endOfHead(received) {
                        try handshake.validate(head: Array(received[..<end]), body: Array(received[end...]))
                    }
                    throw AttachError.handshakeInvalid("the server closed the connection during the upgrade")
                }
                let searched = max(0, received.count - 3)
                received += chunk[..<count]
                if let end = WebSocketHandshake.endOfHead(received, from: searched) {
                    let head = Array(received[..<end])
                    var rest = Array(received[end...])
                    if !head.starts(with: Array("HTTP/1.1 101".utf8)) {
                        // A rejection: its body (if any arrives at once) helps the message.
                        rest +=
                            (try? readSome(stream, deadline: ContinuousClock.now.advanced(by: .milliseconds(200))))
                            ?? []
                    }
                    try handshake.validate(head: head, body: rest)
                    return WebSocketConnection(stream: stream, leftover: rest, messageLimit: options.messageLimit)
                }
                if received.count > WebSocketHandshake.maxResponseHead {
                    throw AttachError.handshakeInvalid(
                        "a response head over \(WebSocketHandshake.maxResponseHead) bytes")
                }
            }
        } catch {
            stream.shutdown()
            if case .timeout = error {
                throw AttachError.timeout(what: "the WebSocket upgrade at \(endpoint.webSocketURL)", seconds: seconds)
            }
            throw error
        }
    }

    private static func readSome(_ stream: any ByteStream, deadline: ContinuousClock.Instant) throws(AttachError)
        -> [UInt8]
    {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = try stream.readChunk(&chunk, deadline: deadline)
        return Array(chunk[..<count])
    }

    /// A connection over an upgraded `stream` (tests pass a scripted one).
    init(stream: any ByteStream, leftover: [UInt8], messageLimit: Int) {
        self.stream = stream
        // Two whole messages may wait: the replay and what follows it.
        queue = MessageQueue(byteLimit: 2 * messageLimit)
        let thread = Thread { [self] in readLoop(leftover: leftover, messageLimit: messageLimit) }
        thread.name = "TermAttach.WebSocket.reader"
        thread.start()
    }

    private func readLoop(leftover: [UInt8], messageLimit: Int) {
        var parser = WebSocketFrameParser(messageLimit: messageLimit)
        var events: [WebSocketEvent] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readChunk, alignment: 16)
        defer { buffer.deallocate() }
        do throws(WebSocketFailure) {
            try leftover.withBytes { bytes throws(WebSocketFailure) in try parser.consume(bytes, into: &events) }
            while true {
                for event in events where !handle(event) { return }
                events.removeAll(keepingCapacity: true)
                let count: Int
                do throws(AttachError) {
                    count = try stream.read(into: buffer, deadline: nil)
                } catch {
                    let cause = endCause.withLock { $0 } ?? (closing.isSet ? .closedLocally : error)
                    endWith(cause)
                    queue.finish(.failure(cause))
                    stream.shutdown()
                    return
                }
                if count == 0 {
                    let cause: AttachError =
                        endCause.withLock { $0 }
                        ?? (closing.isSet
                            ? .closedLocally : .connectionLost("the server ended the connection without a close frame"))
                    endWith(cause)
                    queue.finish(.failure(cause))
                    stream.shutdown()
                    return
                }
                try parser.consume(UnsafeRawBufferPointer(rebasing: buffer[..<count]), into: &events)
            }
        } catch {
            // What was whole before the violation in the same read (a replay
            // just before a bad close frame) is still delivered, in order.
            for event in events where !handle(event) { return }
            // The consumer learns the real cause first: a local close racing
            // with this must not turn it into "closed by this client".
            endWith(error.error)
            queue.finish(.failure(error.error))
            // RFC 6455 §7.1.7: fail the connection, telling the server why.
            let frame = WebSocketFrameWriter.closeFrame(
                code: error.closeCode, reason: error.error.description, key: Self.maskKey())
            writeThenShutdown(frame)
        }
    }

    /// Handles one parsed event; false when the connection is over.
    private func handle(_ event: WebSocketEvent) -> Bool {
        switch event {
        case .text(let bytes):
            return queue.push(.text(bytes))
        case .binary(let bytes):
            return queue.push(.binary(bytes))
        case .ping(let payload):
            // §5.5.2: answer a ping with a pong carrying the same payload.
            // §5.5.3: an endpoint that has not yet answered earlier pings may
            // answer only the most recent one. So a ping replaces the pong
            // still waiting instead of queueing another: a flood of pings
            // costs one slot and one scheduled write, never a queue.
            let schedule = pongs.withLock { slot -> Bool in
                slot.statistics.pingsReceived += 1
                if slot.payload != nil { slot.statistics.pongsSuperseded += 1 }
                slot.payload = payload
                if slot.scheduled { return false }
                slot.scheduled = true
                slot.statistics.queuedWrites += 1
                slot.statistics.peakQueuedWrites = max(slot.statistics.peakQueuedWrites, slot.statistics.queuedWrites)
                return true
            }
            if schedule { writer.async { [self] in writePendingPong() } }
            return true
        case .pong:
            return queue.push(.pong)
        case .close(let code, let reason):
            // §5.5.1: echo the close (unless this side began it), then end TCP.
            endWith(.closedByServer(code: code, reason: reason))
            queue.finish(.success(.closed(code: code, reason: reason)))
            if !closing.testAndSet() {
                let frame = WebSocketFrameWriter.closeFrame(
                    code: code ?? WebSocketCloseCode.normal, reason: "", key: Self.maskKey())
                writeThenShutdown(frame)
            } else {
                stream.shutdown()
            }
            return false
        }
    }

    /// Writes `frame` on the writer's thread; true when it was written whole.
    /// A write that fails or times out ends the connection, since a partly
    /// written frame would leave the stream unframeable; its error is
    /// recorded as the end's cause first (unless another came before), so
    /// the reader reports it rather than "ended without a close frame".
    @discardableResult
    private func writeNow(_ frame: [UInt8], timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        do throws(AttachError) {
            try stream.write(frame, deadline: deadline)
            return true
        } catch {
            endWith(closing.isSet ? .closedLocally : error)
            stream.shutdown()
            return false
        }
    }

    /// Sends the pong in the slot, if one is still waiting (runs on `writer`).
    private func writePendingPong() {
        let payload = pongs.withLock { slot -> [UInt8]? in
            let payload = slot.payload
            slot.payload = nil
            slot.scheduled = false
            slot.statistics.queuedWrites -= 1
            if payload != nil { slot.statistics.writing = true }
            return payload
        }
        guard let payload else { return }
        let written = writeNow(
            WebSocketFrameWriter.frame(opcode: WebSocketOpcode.pong, payload: payload, key: Self.maskKey()),
            timeout: Self.writeTimeout)
        pongs.withLock { slot in
            slot.statistics.writing = false
            guard written else { return }
            slot.statistics.pongsSent += 1
            slot.statistics.lastPongPayload = payload
        }
    }

    /// Sends a close frame through the writer, then ends the stream; ends it
    /// after ``closeTimeout`` in any case (the writer may be stuck behind a
    /// write to a server that does not read). Returns once the stream is
    /// shut down.
    private func writeThenShutdown(_ frame: [UInt8]) {
        let done = DispatchSemaphore(value: 0)
        writer.async { [self] in
            writeNow(frame, timeout: Self.closeTimeout)
            stream.shutdown()
            done.signal()
        }
        if done.wait(timeout: .now() + Self.closeTimeoutInterval) == .timedOut { stream.shutdown() }
    }

    /// ``closeTimeout`` for Dispatch.
    private static let closeTimeoutInterval = DispatchTimeInterval.milliseconds(500)

    private static func maskKey() -> UInt32 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    /// Records the first cause of the connection's end.
    private func endWith(_ cause: AttachError) {
        endCause.withLock { if $0 == nil { $0 = cause } }
    }

    private func sendFrame(_ frame: [UInt8]) async throws(AttachError) {
        if let cause = endCause.withLock({ $0 }) { throw cause }
        if closing.isSet { throw AttachError.closedLocally }
        let result: Result<Void, AttachError> = await withCheckedContinuation { continuation in
            writer.async { [self] in
                let deadline = ContinuousClock.now.advanced(by: Self.writeTimeout)
                do throws(AttachError) {
                    try stream.write(frame, deadline: deadline)
                    continuation.resume(returning: .success(()))
                } catch {
                    // After the reader ended the connection a failed write is
                    // that end; after a local close it is that close. Else the
                    // write's own failure ends the connection (a partial frame
                    // cannot be taken back): the reader then drains and stops.
                    let cause =
                        self.endCause.withLock { $0 }
                        ?? (self.closing.isSet ? .closedLocally : error)
                    self.endWith(cause)
                    self.stream.shutdown()
                    continuation.resume(returning: .failure(cause))
                }
            }
        }
        try result.get()
    }

    func receive() async throws(AttachError) -> ChannelMessage { try await queue.receive() }

    func send(text: [UInt8]) async throws(AttachError) {
        try await sendFrame(
            WebSocketFrameWriter.frame(opcode: WebSocketOpcode.text, payload: text, key: Self.maskKey()))
    }

    func sendPing() async throws(AttachError) {
        try await sendFrame(WebSocketFrameWriter.frame(opcode: WebSocketOpcode.ping, payload: [], key: Self.maskKey()))
    }

    func close(code: UInt16, reason: String) async {
        guard !closing.testAndSet() else { return }
        let frame = WebSocketFrameWriter.closeFrame(code: code, reason: reason, key: Self.maskKey())
        // Bounded by closeTimeout even when the writer is stuck: blocking a
        // thread of its own, not one of the cooperative pool.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread { [self] in
                writeThenShutdown(frame)
                continuation.resume()
            }
            thread.name = "TermAttach.WebSocket.close"
            thread.start()
        }
        queue.cancel(.closedLocally)
    }
}
