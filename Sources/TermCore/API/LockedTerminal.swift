// A pthread mutex, not `Synchronization.Mutex` (macOS 15 / iOS 18, and on
// Linux it waits with raw futex calls ThreadSanitizer cannot see, so every
// access under it was reported as a race) nor Foundation's NSLock (TermCore
// is built without Foundation): the C library's mutex works
// on every Apple OS the package builds for and is understood by the
// sanitizer. Platforms without pthreads get no `LockedTerminal`.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Android)
    import Android
#endif

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(Android)
    /// A ``Terminal`` behind a lock, for an embedder that feeds on one thread
    /// and draws or types on others: every call takes the lock, does its work
    /// on the terminal and releases it. Snapshots are then read on any thread
    /// without it.
    ///
    /// ```swift
    /// let terminal = Terminal(columns: 80, rows: 24)
    /// terminal.queuesReplies = true      // drain them instead of a writeBack closure
    /// let shared = LockedTerminal(terminal)
    /// // reader thread:  shared.feed(bytes); pty.write(shared.drainReplies())
    /// // UI thread:      let snapshot = shared.snapshot()
    /// //                 pty.write(shared.encode(KeyEvent(.up)))
    /// ```
    ///
    /// The terminal never leaves the lock: ``withTerminal(_:)`` lends it to a
    /// `@Sendable` closure that can return only `Sendable` values (and
    /// `Terminal` is not one), so it can be neither returned nor stored
    /// outside. The ``Terminal/writeBack`` and ``Terminal/onEvent`` closures run
    /// under the lock, on the feeding thread; calling this object again from
    /// them (or from inside ``withTerminal(_:)``) is a programming error that
    /// traps rather than deadlocks. ``Terminal/queuesReplies`` and
    /// ``Terminal/queuesEvents`` with ``drainReplies()`` and ``drainEvents()``
    /// avoid callbacks altogether.
    public final class LockedTerminal: @unchecked Sendable {
        // Invariant behind @unchecked Sendable: `terminal` is used only while
        // `mutex` is held (in `locked`), and never handed out (the closures
        // that see it are @Sendable and return Sendable values).
        private let terminal: Terminal
        /// Allocated once and never moved: a pthread mutex must stay at the
        /// address it was initialized at, which a stored property of a class
        /// does not promise.
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>

        /// Takes ownership of `terminal`: use it only through this object from
        /// now on (`sending`: the compiler refuses a caller that keeps using
        /// it).
        public init(_ terminal: sending Terminal) {
            self.terminal = terminal
            mutex = UnsafeMutablePointer.allocate(capacity: 1)
            // Error-checking: locking again on the thread that holds the lock
            // (a writeBack closure calling `feed`) fails instead of hanging.
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
            let result = pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
            precondition(result == 0, "pthread_mutex_init failed: \(result)")
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        /// Runs `body` on the terminal with the lock held.
        private func locked<Result, Failure: Error>(
            _ body: (Terminal) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            let result = pthread_mutex_lock(mutex)
            precondition(result == 0, "LockedTerminal used from inside its own lock (a callback or withTerminal)")
            defer { pthread_mutex_unlock(mutex) }
            return try body(terminal)
        }

        // MARK: Feeding

        /// Feeds bytes under the lock (``Terminal/feed(_:)-(UnsafeBufferPointer<UInt8>)``).
        /// - Complexity: O(n) in the number of bytes.
        public func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
            locked { $0.feed(bytes) }
        }

        /// Feeds raw bytes under the lock (a buffer from `read(2)`, `Data`'s
        /// `withUnsafeBytes`).
        public func feed(_ bytes: UnsafeRawBufferPointer) {
            bytes.withMemoryRebound(to: UInt8.self) { feed($0) }
        }

        /// Feeds any sequence of bytes: `[UInt8]`, `ArraySlice<UInt8>`,
        /// Foundation's `Data`… Contiguous storage is fed in place; any other
        /// sequence is first copied into an array, before the lock is taken.
        public func feed(_ bytes: some Sequence<UInt8>) {
            let fed: Void? = bytes.withContiguousStorageIfAvailable { feed($0) }
            if fed == nil { Array(bytes).withUnsafeBufferPointer { feed($0) } }
        }

        // MARK: Side effects

        /// The replies queued since the last drain, in order, and empties the
        /// queue: write them to the program. Empty unless the terminal queues
        /// replies (``Terminal/queuesReplies``).
        public func drainReplies() -> [UInt8] {
            locked { $0.drainReplies() }
        }

        /// The events queued since the last drain, in order, and empties the
        /// queue. Empty unless the terminal queues events
        /// (``Terminal/queuesEvents``).
        public func drainEvents() -> [TerminalEvent] {
            locked { $0.drainEvents() }
        }

        // MARK: Reading

        /// A snapshot, taken under the lock; read it anywhere.
        public func snapshot(scrollback: Range<Int> = 0..<0) -> Snapshot {
            locked { $0.snapshot(scrollback: scrollback) }
        }

        /// A snapshot with the scrollback lines `viewport` shows, taken under the
        /// lock in one acquisition (``Terminal/snapshot(viewport:)``): draw it
        /// with `viewport.lines(of:)`, on any thread.
        public func snapshot(viewport: Viewport) -> Snapshot {
            locked { $0.snapshot(viewport: viewport) }
        }

        /// ``Terminal/snapshot(following:)`` under the lock: `viewport` follows
        /// the output since it was last passed here and the snapshot holds the
        /// lines it then shows, in one acquisition.
        public func snapshot(following viewport: inout Viewport) -> Snapshot {
            let before = viewport
            let (after, snapshot) = locked { terminal in
                var viewport = before
                let snapshot = terminal.snapshot(following: &viewport)
                return (viewport, snapshot)
            }
            viewport = after
            return snapshot
        }

        /// The primary screen's scrollback length, under the lock.
        public var scrollbackCount: Int {
            locked { $0.scrollbackCount }
        }

        /// ``Terminal/generation``, under the lock: compare it with the last
        /// snapshot's to know whether a new one shows anything new.
        public var generation: UInt64 {
            locked { $0.generation }
        }

        /// ``Terminal/frameHoldRemaining``, under the lock: seconds until a
        /// synchronized update in progress times out, or nil when none
        /// holds the frame.
        public var frameHoldRemaining: Double? {
            locked { $0.frameHoldRemaining }
        }

        /// The text of a screen row (``Terminal/screenLine(_:)``); "" outside
        /// the screen.
        public func screenLine(_ row: Int) -> String {
            locked { $0.screenLine(row) }
        }

        /// The text a selection covers (``Terminal/text(of:)->String``): soft wraps
        /// joined, hard line ends as "\n".
        public func text(of selection: Selection) -> String {
            locked { $0.text(of: selection) }
        }

        /// Every occurrence of `needle` in the scrollback and on the screen,
        /// oldest first (``Terminal/search(_:caseSensitive:limit:)``).
        public func search(_ needle: String, caseSensitive: Bool = true, limit: Int = TermCore.Limits.searchMatches)
            -> [BufferRange]
        {
            locked { $0.search(needle, caseSensitive: caseSensitive, limit: limit) }
        }

        // MARK: Changing

        /// Changes the size (``Terminal/resize(columns:rows:)``); tell the
        /// program too (`TIOCSWINSZ`, the attach protocol's resize frame).
        public func resize(columns: Int, rows: Int) {
            locked { $0.resize(columns: columns, rows: rows) }
        }

        // MARK: Input

        /// An encoder for the modes in force now (``Terminal/inputEncoder``),
        /// for a ``MouseTracker`` or several events at once. The program may
        /// change its modes with the next feed: take a new one per event.
        public var inputEncoder: InputEncoder {
            locked { $0.inputEncoder }
        }

        /// The bytes for a key, in the modes in force now
        /// (``InputEncoder/encode(_:)-(KeyEvent)``); empty when the key sends
        /// nothing.
        public func encode(_ key: KeyEvent) -> [UInt8] {
            inputEncoder.encode(key)
        }

        /// The report of a mouse event, in the modes in force now
        /// (``InputEncoder/encode(_:)-(MouseEvent)``); empty when they do not
        /// report it.
        public func encode(_ mouse: MouseEvent) -> [UInt8] {
            inputEncoder.encode(mouse)
        }

        /// The bytes for pasting `text` (UTF-8), bracketed under ?2004
        /// (``InputEncoder/paste(_:)``).
        public func paste(_ text: [UInt8]) -> [UInt8] {
            inputEncoder.paste(text)
        }

        /// The focus report, empty unless the program asked for them (?1004)
        /// (``InputEncoder/focus(_:)``).
        public func focus(_ focused: Bool) -> [UInt8] {
            inputEncoder.focus(focused)
        }

        // MARK: Anything else

        /// Runs `body` with the terminal under the lock (modes, palette,
        /// cells, counters…) and returns what it returns.
        ///
        /// The terminal cannot escape: `body` is `@Sendable`, so it captures
        /// no variable it could store the terminal in, and `Result` must be
        /// `Sendable`, which `Terminal` is not. (A non-escapable parameter type,
        /// `~Escapable`, would say so in the type itself, but declaring one
        /// needs the experimental lifetime features in Swift 6, and a class
        /// reference can always be copied.)
        /// Do not call this object from inside `body`: the lock is held, and
        /// taking it again traps.
        public func withTerminal<Result: Sendable, Failure: Error>(
            _ body: @Sendable (Terminal) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            try locked(body)
        }
    }
#endif
