@testable import TermAttach

/// An in-memory channel: the test plays the server.
final class FakeChannel: MessageChannel {
    private let incoming: AsyncStream<Result<ChannelMessage, AttachError>>
    private let incomingSink: AsyncStream<Result<ChannelMessage, AttachError>>.Continuation
    let sent: AsyncStream<ClientFrame>
    private let sentSink: AsyncStream<ClientFrame>.Continuation
    private let state = Locked((closed: false, pings: 0, closeCode: UInt16?.none))

    init() {
        (incoming, incomingSink) = AsyncStream.makeStream()
        (sent, sentSink) = AsyncStream.makeStream()
    }

    var isClosed: Bool { state.withLock { $0.closed } }
    var pingsSent: Int { state.withLock { $0.pings } }
    var closeCode: UInt16? { state.withLock { $0.closeCode } }

    /// The server sends a frame.
    func serve(_ json: String) { incomingSink.yield(.success(.text(Array(json.utf8)))) }
    func serve(_ message: ChannelMessage) { incomingSink.yield(.success(message)) }
    /// The connection fails.
    func fail(_ error: AttachError) { incomingSink.yield(.failure(error)) }

    func receive() async throws(AttachError) -> ChannelMessage {
        var iterator = incoming.makeAsyncIterator()
        guard let next = await iterator.next() else { throw AttachError.closedLocally }
        return try next.get()
    }

    func send(text: [UInt8]) async throws(AttachError) {
        if isClosed { throw AttachError.closedLocally }
        switch WireCodec.decodeClientFrame(text) {
        case .success(let frame): sentSink.yield(frame)
        case .failure(let error): throw AttachError.invalidArgument("the client sent a bad frame: \(error)")
        }
    }

    func sendPing() async throws(AttachError) {
        state.withLock { $0.pings += 1 }
    }

    func close(code: UInt16, reason: String) async {
        state.withLock {
            if !$0.closed { $0.closeCode = code }
            $0.closed = true
        }
        incomingSink.yield(.failure(.closedLocally))
        incomingSink.finish()
        sentSink.finish()
    }
}

/// Hands out scripted connections in order: a channel or a failure.
final class FakeTransport: AttachTransport {
    enum Step: Sendable {
        case channel(FakeChannel)
        case fail(AttachError)
    }

    private let steps: Locked<[Step]>
    private let connectCount = Locked(0)

    init(_ steps: [Step]) { self.steps = Locked(steps) }

    var connects: Int { connectCount.withLock { $0 } }

    func connect(to endpoint: AttachEndpoint, options: ConnectOptions) async throws(AttachError) -> any MessageChannel {
        connectCount.withLock { $0 += 1 }
        let step = steps.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        switch step {
        case .channel(let channel)?: return channel
        case .fail(let error)?: throw error
        case nil: throw AttachError.connectionRefused(host: endpoint.host, port: endpoint.port)
        }
    }
}

/// Reads events until one matches, failing after `limit` events.
func nextEvent(
    _ iterator: inout AsyncStream<AttachSession.Event>.Iterator, limit: Int = 50,
    where predicate: (AttachSession.Event) -> Bool
) async throws -> AttachSession.Event {
    for _ in 0..<limit {
        guard let event = await iterator.next() else { throw TestFailure("the event stream ended") }
        if predicate(event) { return event }
    }
    throw TestFailure("no matching event in \(limit)")
}

/// The next frame the client sent.
func nextSent(_ iterator: inout AsyncStream<ClientFrame>.Iterator) async throws -> ClientFrame {
    guard let frame = await iterator.next() else { throw TestFailure("the channel closed") }
    return frame
}
