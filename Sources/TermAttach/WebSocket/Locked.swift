import Foundation

/// A value behind a pthread mutex (NSLock).
///
/// Used where threads outside Swift concurrency (a connection's reader
/// thread) share state with tasks. `Synchronization.Mutex` would do, but on
/// Linux it waits with raw futex calls that ThreadSanitizer cannot see, so
/// every access under it is reported as a race; NSLock's pthread mutex is
/// understood by the sanitizer. Mutex and Atomic also need macOS 15 / iOS 18
/// (Synchronization's `@available`), above the package's floor of macOS 13 /
/// iOS 16; NSLock is everywhere.
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

extension Locked where State == Bool {
    /// Sets the flag and returns whether it was already set: the one-shot
    /// guard of a close or a shutdown.
    func testAndSet() -> Bool {
        withLock { flag in
            defer { flag = true }
            return flag
        }
    }

    var isSet: Bool { withLock { $0 } }
}
