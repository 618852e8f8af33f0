import Synchronization

/// A ``Terminal`` behind a lock, for an embedder that feeds on one thread and
/// draws on another: feeding and snapshots go through the lock; snapshots
/// are then read on any thread without it.
///
/// ```swift
/// let shared = LockedTerminal(Terminal(columns: 80, rows: 24))
/// // reader thread:  shared.feed(bytes)
/// // UI thread:      let snapshot = shared.snapshot()
/// ```
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public final class LockedTerminal: Sendable {
    private let terminal: Mutex<Terminal>

    /// Takes ownership of `terminal`: use it only through this object from now on.
    public init(_ terminal: sending Terminal) {
        self.terminal = Mutex(terminal)
    }

    /// Feeds bytes under the lock.
    public func feed(_ bytes: [UInt8]) {
        terminal.withLock { $0.feed(bytes) }
    }

    /// A snapshot, taken under the lock; read it anywhere.
    public func snapshot(scrollback: Range<Int> = 0..<0) -> Snapshot {
        terminal.withLock { $0.snapshot(scrollback: scrollback) }
    }

    /// A snapshot with the scrollback lines `viewport` shows, taken under the
    /// lock in one acquisition (``Terminal/snapshot(viewport:)``): draw it
    /// with `viewport.lines(of:)`, on any thread.
    public func snapshot(viewport: Viewport) -> Snapshot {
        terminal.withLock { $0.snapshot(viewport: viewport) }
    }

    /// The primary screen's scrollback length, under the lock.
    public var scrollbackCount: Int {
        terminal.withLock { $0.scrollbackCount }
    }

    /// Runs `body` with the terminal under the lock (resize, modes, palette…).
    /// The terminal must not escape the closure.
    public func withTerminal<Result: Sendable>(_ body: (Terminal) throws -> Result) rethrows -> Result {
        try terminal.withLock { try body($0) }
    }
}
