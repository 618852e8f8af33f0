import Dispatch

/// The hand-over from a connection's reader thread to the async consumer.
///
/// Bounded by bytes: the reader blocks (and so stops reading the socket,
/// which pushes back on the server through TCP) while more than `byteLimit`
/// bytes wait to be consumed.
final class MessageQueue: Sendable {
    private struct State {
        var items: [ChannelMessage] = []
        var head = 0
        var bytes = 0
        var end: Result<ChannelMessage, AttachError>?
        var waiter: CheckedContinuation<Result<ChannelMessage, AttachError>, Never>?
        var producerWaiting = false
    }

    /// Bytes of messages that may wait before the reader blocks.
    let byteLimit: Int
    /// What each waiting message counts for besides its payload: 64 bytes,
    /// about its array header and queue slot. Without it empty text frames
    /// (2 bytes on the wire each) would queue without limit while the
    /// consumer is busy.
    static let messageOverhead = 64
    /// Consumed slots at the front are dropped once there are this many and
    /// they are half of the array: 1024.
    static let compactAfter = 1024
    private let state = Locked(State())
    private let space = DispatchSemaphore(value: 0)

    init(byteLimit: Int) { self.byteLimit = byteLimit }

    /// Bytes counted for the messages waiting now (for tests).
    var queuedBytes: Int { state.withLock { $0.bytes } }
    /// Slots of the queue's array, consumed ones included (for tests).
    var slotCount: Int { state.withLock { $0.items.count } }

    private static func size(_ message: ChannelMessage) -> Int {
        switch message {
        case .text(let bytes), .binary(let bytes): return bytes.count + messageOverhead
        case .pong, .closed: return messageOverhead
        }
    }

    /// Queues `message`, blocking while the queue is over its limit.
    /// Returns false when the queue was finished (the message is dropped).
    @discardableResult
    func push(_ message: ChannelMessage) -> Bool {
        let size = Self.size(message)
        while true {
            let outcome: Bool? = state.withLock { state in
                if state.end != nil { return false }
                // A pong only says "the server answered": one waiting is as
                // good as many (unsolicited pongs are allowed, §5.5.3).
                if message == .pong, state.items.last == .pong, state.items.count > state.head { return true }
                if state.bytes > 0 && state.bytes + size > byteLimit {
                    state.producerWaiting = true
                    return nil
                }
                if let waiter = state.waiter {
                    state.waiter = nil
                    waiter.resume(returning: .success(message))
                    return true
                }
                state.items.append(message)
                state.bytes += size
                return true
            }
            if let outcome { return outcome }
            space.wait()
        }
    }

    /// Ends the queue: after the queued messages, `receive` returns or throws `end`.
    func finish(_ end: Result<ChannelMessage, AttachError>) {
        let wakeProducer = state.withLock { state -> Bool in
            if state.end == nil { state.end = end }
            if let waiter = state.waiter, state.head == state.items.count {
                state.waiter = nil
                waiter.resume(returning: end)
            }
            let waiting = state.producerWaiting
            state.producerWaiting = false
            return waiting
        }
        if wakeProducer { space.signal() }
    }

    /// Ends the queue at once, dropping what waits (a local close). An end
    /// already set (the server's close, a protocol error) is kept: it is the
    /// real cause, and a close racing with it must not rename it.
    func cancel(_ end: AttachError) {
        let wakeProducer = state.withLock { state -> Bool in
            state.items.removeAll()
            state.head = 0
            state.bytes = 0
            if state.end == nil { state.end = .failure(end) }
            if let waiter = state.waiter {
                state.waiter = nil
                waiter.resume(returning: .failure(end))
            }
            let waiting = state.producerWaiting
            state.producerWaiting = false
            return waiting
        }
        if wakeProducer { space.signal() }
    }

    func receive() async throws(AttachError) -> ChannelMessage {
        let result: Result<ChannelMessage, AttachError> = await withCheckedContinuation { continuation in
            let wakeProducer = state.withLock { state -> Bool in
                if state.head < state.items.count {
                    let message = state.items[state.head]
                    // Release the message now: a slot behind `head` kept its
                    // bytes alive until the queue ran empty, which under a
                    // steady flood it never does (RSS grew without bound).
                    state.items[state.head] = .pong
                    state.head += 1
                    state.bytes -= Self.size(message)
                    if state.head == state.items.count {
                        state.items.removeAll(keepingCapacity: true)
                        state.head = 0
                    } else if state.head >= Self.compactAfter && state.head * 2 >= state.items.count {
                        // Amortised O(1): the slots moved are at most as many as those dropped.
                        state.items.removeFirst(state.head)
                        state.head = 0
                    }
                    continuation.resume(returning: .success(message))
                } else if let end = state.end {
                    continuation.resume(returning: end)
                } else {
                    state.waiter = continuation
                }
                let waiting = state.producerWaiting
                state.producerWaiting = false
                return waiting
            }
            if wakeProducer { space.signal() }
        }
        return try result.get()
    }
}
