import Foundation

/// A value behind a pthread mutex (NSLock).
///
/// Used where threads outside Swift concurrency (a connection's reader
/// thread) share state with tasks. `Synchronization.Mutex` would do, but on
/// Linux it waits with raw futex calls that ThreadSanitizer cannot see, so
/// every access under it is reported as a race; NSLock's pthread mutex is
/// understood by the sanitizer.
final class Locked<State>: @unchecked Sendable {
    // Invariant behind @unchecked Sendable: `state` is only touched while
    // `lock` is held, inside `withLock`.
    private var state: State
    private let lock = NSLock()

    init(_ state: State) { self.state = state }

    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
