/// When to connect, wait and give up: a pure state machine, with no clock
/// and no I/O, so every schedule is tested without waiting.
///
/// The driver (``AttachSession``) feeds it inputs and carries out the effect
/// each returns: `connect`, or `wait(d)` on its injected clock.
///
/// Backoff after consecutive failures: 1, 2, 4, 8, 16, then 30 s each time
/// (PROTOCOL.md); a successful attach resets it; "retry now" skips the wait.
/// A failure that cannot heal by itself (``AttachError/isRetryable`` false)
/// stops the machine instead of looping.
public struct ReconnectMachine: Equatable, Sendable {
    /// The waits, in order; the last repeats.
    public static let backoff: [Duration] = [
        .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30),
    ]

    /// Where the machine is.
    public enum State: Equatable, Sendable {
        /// Not started.
        case idle
        /// Connecting (or connected and waiting for `attached`); `attempt` counts from 1.
        case connecting(attempt: Int)
        /// Attached: the server adopted this client.
        case attached
        /// Waiting `delay` before attempt `attempt`.
        case waiting(attempt: Int, delay: Duration)
        /// Stopped for good: nil after a local close or the program's exit,
        /// else the error that cannot be retried.
        case stopped(AttachError?)
    }

    /// What happened.
    public enum Input: Equatable, Sendable {
        /// Begin: the first connection.
        case start
        /// An `attached` frame arrived.
        case attached
        /// The connection failed or ended with `error`.
        case disconnected(AttachError)
        /// The wait scheduled by ``Effect/wait(_:)`` is over.
        case timerFired
        /// The user asked to retry at once.
        case retryNow
        /// Stop (a local close, or the session's program exited).
        case stop
    }

    /// What the driver must do.
    public enum Effect: Equatable, Sendable {
        /// Nothing to do.
        case none
        /// Open a connection and attach.
        case connect
        /// Wait this long, then send ``Input/timerFired``.
        case wait(Duration)
        /// Cancel the pending wait and connect now.
        case cancelWaitAndConnect
        /// Stop: report the error (nil: an orderly end).
        case stop(AttachError?)
    }

    /// Where the machine is now.
    public private(set) var state: State = .idle
    /// Failures since the last successful attach.
    public private(set) var consecutiveFailures = 0
    private var attempt = 0

    /// A machine that has not started (``State/idle``).
    public init() {}

    /// The wait after `failures` consecutive failures (1 → 1 s … 6+ → 30 s).
    public static func delay(afterFailures failures: Int) -> Duration {
        backoff[min(max(failures, 1), backoff.count) - 1]
    }

    /// Applies `input` and returns what the driver must do.
    public mutating func handle(_ input: Input) -> Effect {
        switch (state, input) {
        case (.stopped, _):
            return .none
        case (_, .stop):
            state = .stopped(nil)
            return .stop(nil)
        case (.idle, .start):
            attempt = 1
            state = .connecting(attempt: attempt)
            return .connect
        case (.connecting, .attached):
            consecutiveFailures = 0
            attempt = 0
            state = .attached
            return .none
        case (.connecting, .disconnected(let error)), (.attached, .disconnected(let error)):
            guard error.isRetryable else {
                state = .stopped(error)
                return .stop(error)
            }
            consecutiveFailures += 1
            attempt += 1
            let delay = Self.delay(afterFailures: consecutiveFailures)
            state = .waiting(attempt: attempt, delay: delay)
            return .wait(delay)
        case (.waiting(let next, _), .timerFired):
            state = .connecting(attempt: next)
            return .connect
        case (.waiting(let next, _), .retryNow):
            state = .connecting(attempt: next)
            return .cancelWaitAndConnect
        default:
            // A late timer, a second start, a retry while connected: nothing to do.
            return .none
        }
    }
}

/// Keeps the connection honest: a ping every 25 s; two pings in a row
/// without a pong mean the connection is gone (PROTOCOL.md).
public struct PingMonitor: Equatable, Sendable {
    /// The time between pings.
    public static let interval: Duration = .seconds(25)
    /// Unanswered pings tolerated; at the next tick the connection is dropped.
    public static let missedPongLimit = 2

    /// What to do at a tick.
    public enum Action: Equatable, Sendable {
        /// Send a ping now.
        case sendPing
        /// Two pings went unanswered: end the connection (and reconnect).
        case disconnect
    }

    /// Pings sent since the last pong.
    public private(set) var unanswered = 0

    /// A monitor with no ping outstanding.
    public init() {}

    /// The interval elapsed.
    public mutating func tick() -> Action {
        if unanswered >= Self.missedPongLimit { return .disconnect }
        unanswered += 1
        return .sendPing
    }

    /// A pong arrived.
    public mutating func pongReceived() { unanswered = 0 }
}

/// A permission gate that is showing, with the epoch that tells it from
/// the gates before and after it.
public struct PendingGate: Equatable, Sendable {
    /// Tool or plan; nil when the server did not say.
    public var kind: GateKind?
    /// The `detail` of the status frames while the gate shows, as the server
    /// wrote it.
    public var detail: String?
    /// Increases with every rise of `pending`; answers carry it.
    public var epoch: Int
}

/// Turns `status` frames into gates with epochs, so that an approve or
/// reject aimed at a gate that has since changed is dropped, never sent
/// (a late key must never approve the next gate).
public struct GateTracker: Equatable, Sendable {
    /// The gate showing now, or nil.
    public private(set) var current: PendingGate?
    private var lastEpoch = 0

    /// A tracker with no gate showing; the first gate gets epoch 1.
    public init() {}

    /// Applies a status; returns true when the showing gate changed.
    public mutating func update(_ status: SessionStatus) -> Bool {
        let before = current
        if status.pending {
            if var gate = current, gate.kind == status.gate {
                gate.detail = status.detail
                current = gate
            } else {
                // A rise of `pending` (or a different kind of gate while it
                // stayed up) is a new gate.
                lastEpoch += 1
                current = PendingGate(kind: status.gate, detail: status.detail, epoch: lastEpoch)
            }
        } else {
            current = nil
        }
        return before != current
    }

    /// Forgets the gate (after a disconnect nobody knows what happened to it:
    /// the next pending status starts a new epoch).
    public mutating func clear() -> Bool {
        defer { current = nil }
        return current != nil
    }

    /// True when an answer aimed at `epoch` is for the gate showing now.
    public func accepts(epoch: Int) -> Bool { current?.epoch == epoch }
}
