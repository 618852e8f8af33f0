@testable import TermAttach

/// A clock that moves only when a test advances it: timers are tested
/// without any real waiting.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var cancelled: Set<Int> = []
        var nextID = 0
    }

    private let state = Locked(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// Sleepers waiting now.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The deadlines of the sleepers, as offsets from the start.
    var pendingDeadlines: [Duration] { state.withLock { $0.sleepers.map(\.deadline.offset).sorted() } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                state.withLock { state in
                    if state.cancelled.remove(id) != nil {
                        continuation.resume(throwing: CancellationError())
                    } else if deadline <= state.now {
                        continuation.resume()
                    } else {
                        state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                if let index = state.sleepers.firstIndex(where: { $0.id == id }) {
                    state.sleepers.remove(at: index).continuation.resume(throwing: CancellationError())
                } else {
                    state.cancelled.insert(id)
                }
            }
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    func advance(by duration: Duration) {
        state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            for sleeper in due { sleeper.continuation.resume() }
        }
    }

    /// Waits (yielding, never sleeping) until `count` sleepers wait.
    func waitForSleepers(_ count: Int) async throws {
        for _ in 0..<200_000 {
            if sleeperCount >= count { return }
            await Task.yield()
        }
        throw TestFailure("no \(count) sleepers on the manual clock (have \(sleeperCount))")
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
