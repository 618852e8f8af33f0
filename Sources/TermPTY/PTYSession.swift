#if os(Linux) || os(macOS)
    import Dispatch
    import TermCore

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A program on a pseudo-terminal whose output feeds a `Terminal` (TermCore): the
    /// local counterpart of a web-terminal session, for a front end that runs
    /// programs itself.
    ///
    /// Why one queue: the terminal, the pending input and the read buffer
    /// belong to the session's serial queue, and every method hops onto it.
    /// Output is read there as it arrives (never more than
    /// ``PTYLimits/readChunk`` at once, the kernel's PTY buffer holding the
    /// rest), fed to the terminal, and the terminal's replies (to DA, DSR…)
    /// are written back there without blocking: a program that writes
    /// output while it ignores its input can then never deadlock the
    /// session, and nothing that input grows is unbounded
    /// (``PTYLimits/maxPendingInput``).
    ///
    /// ```swift
    /// let session = try PTYSession(PTYCommand("/bin/sh", ["-c", "stty size"]), size: PTYSize(columns: 80, rows: 24))
    /// let status = session.waitForExit(timeout: .seconds(5))   // .exited(0)
    /// session.snapshot().line(0).text                            // "24 80"
    /// ```
    ///
    /// The callbacks run on the session's queue; they may call the session
    /// (calls from its own queue run in place), and should return quickly.
    public final class PTYSession: @unchecked Sendable {
        // @unchecked: every `var` below, the terminal and the buffers are
        // touched only on `queue` (checked by `onQueue` in debug builds).

        /// What a session has counted, for tests and status lines.
        public struct Counters: Equatable, Sendable {
            /// Bytes read from the program.
            public var bytesRead = 0
            /// The largest single read (at most ``PTYLimits/readChunk``).
            public var largestRead = 0
            /// Bytes written to the program (input and replies).
            public var bytesWritten = 0
            /// Input dropped because ``PTYLimits/maxPendingInput`` bytes
            /// were already waiting, or because the program was gone.
            public var droppedInputBytes = 0
            /// The most input that waited at once.
            public var largestPendingInput = 0
        }

        /// Called after each batch of output has been fed to the terminal:
        /// time to take a snapshot.
        public typealias UpdateHandler = @Sendable () -> Void
        /// Called with each chunk of output as read, after the terminal has
        /// been fed it (a recorder, a logger). The bytes are lent for the call.
        public typealias OutputObserver = @Sendable (UnsafeRawBufferPointer) -> Void
        /// Called once, when the program has exited and its output has been fed.
        public typealias ExitHandler = @Sendable (ExitStatus) -> Void

        /// The process and the PTY's master side.
        public let process: PseudoTerminal
        private let queue: DispatchQueue
        private let queueKey = DispatchSpecificKey<UInt8>()
        private let terminal: Terminal
        private let input: PendingInput
        private let readBuffer: UnsafeMutableRawBufferPointer
        private var readSource: DispatchSourceRead?
        private var writeSource: DispatchSourceWrite?
        private var writeSourceRunning = false
        private var counters = Counters()
        private var exited = false
        private var status: ExitStatus?
        private var outputEnded = false
        private var masterClosed = false
        private var finished = false
        private var waiters: [CheckedContinuation<ExitStatus, Never>] = []
        private let done = DispatchGroup()
        private let onUpdate: UpdateHandler?
        private let onOutput: OutputObserver?
        private let onExit: ExitHandler?

        /// Starts `command` on a new PTY of `size`, with a terminal of the
        /// same size keeping `scrollback` lines.
        /// - Throws: ``PTYError`` when the program cannot be started
        ///   ("cannot start 'foo': No such file or directory").
        public init(
            _ command: PTYCommand, size: PTYSize, scrollback: Int = Terminal.Limits.defaultScrollback,
            onUpdate: UpdateHandler? = nil, onOutput: OutputObserver? = nil, onExit: ExitHandler? = nil
        ) throws(PTYError) {
            let columns = min(max(size.columns, 1), Terminal.Limits.dimensions.upperBound)
            let rows = min(max(size.rows, 1), Terminal.Limits.dimensions.upperBound)
            process = try PseudoTerminal.spawn(command, size: PTYSize(columns: columns, rows: rows))
            queue = DispatchQueue(label: "TermPTY.session.\(process.pid)")
            queue.setSpecific(key: queueKey, value: 1)
            terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback)
            input = PendingInput()
            readBuffer = .allocate(byteCount: PTYLimits.readChunk, alignment: 16)
            self.onUpdate = onUpdate
            self.onOutput = onOutput
            self.onExit = onExit
            // The terminal's answers go out with the input, from the queue
            // the terminal is fed on (the closure is called during `feed`).
            terminal.writeBack = { [input] bytes in input.append(bytes) }
            done.enter()
            queue.async { self.startReading() }
            let waiter = DispatchQueue(label: "TermPTY.wait.\(process.pid)")
            waiter.async { [process] in
                process.waitUntilExited()
                // Marked exited before the reap, so that no signal can go to
                // a recycled process id.
                self.queue.sync { self.exited = true }
                let status = process.waitForExit()
                self.queue.async { self.programExited(status) }
            }
        }

        deinit {
            if !masterClosed { process.closeMaster() }
            readBuffer.deallocate()
        }

        // MARK: - Reading the terminal

        /// The screen now; read it on any thread.
        /// - Complexity: O(rows changed since the last snapshot).
        public func snapshot(scrollback: Range<Int> = 0..<0) -> Snapshot {
            onQueue { terminal.snapshot(scrollback: scrollback) }
        }

        /// Runs `body` with the terminal on the session's queue (modes,
        /// title, cells, `onEvent`…). The terminal must not escape it.
        public func withTerminal<Result>(_ body: (Terminal) throws -> Result) rethrows -> Result {
            try onQueue { try body(terminal) }
        }

        /// What the session has counted so far.
        public var statistics: Counters { onQueue { counters } }

        /// How the program ended, once it has and its output has been fed.
        public var exitStatus: ExitStatus? { onQueue { finished ? status : nil } }

        // MARK: - Acting on the program

        /// Sends bytes to the program as typed input. Never blocks: what the
        /// program does not read yet waits, up to ``PTYLimits/maxPendingInput``.
        public func send(_ bytes: [UInt8]) {
            onQueue {
                input.append(bytes)
                flushInput()
            }
        }

        /// Resizes the terminal and the PTY; the program gets `SIGWINCH`.
        public func resize(columns: Int, rows: Int) throws(PTYError) {
            let columns = min(max(columns, 1), Terminal.Limits.dimensions.upperBound)
            let rows = min(max(rows, 1), Terminal.Limits.dimensions.upperBound)
            let failure = onQueue { () -> PTYError? in
                terminal.resize(columns: columns, rows: rows)
                guard !masterClosed else { return nil }
                do throws(PTYError) {
                    try process.resize(PTYSize(columns: columns, rows: rows))
                    return nil
                } catch { return error }
            }
            if let failure { throw failure }
        }

        /// Sends `signal` (`SIGHUP`, `SIGTERM`…) to the program, or with
        /// `group` to its process group. Returns false once it has exited.
        @discardableResult
        public func send(signal: Int32, group: Bool = false) -> Bool {
            onQueue { exited ? false : process.send(signal: signal, group: group) }
        }

        /// Hangs the terminal up: closes the PTY, so the kernel sends
        /// `SIGHUP` to the program's session, as when a terminal window
        /// closes. Input sent afterwards is dropped; the exit is still
        /// reported.
        public func hangUp() {
            onQueue { closeMaster() }
        }

        // MARK: - Waiting for the end

        /// Blocks until the program has exited and its output has been fed,
        /// or `timeout` has passed (nil then). Not from the session's
        /// callbacks.
        public func waitForExit(timeout: Duration? = nil) -> ExitStatus? {
            if let timeout {
                let nanoseconds =
                    timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
                guard done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else { return nil }
            } else {
                done.wait()
            }
            return exitStatus
        }

        /// Waits until the program has exited and its output has been fed.
        public func waitForExit() async -> ExitStatus {
            await withCheckedContinuation { continuation in
                queue.async {
                    if self.finished, let status = self.status {
                        continuation.resume(returning: status)
                    } else {
                        self.waiters.append(continuation)
                    }
                }
            }
        }

        // MARK: - On the queue

        /// Runs `body` on the queue: in place when already there (a callback
        /// calling back), else synchronously.
        private func onQueue<Result>(_ body: () throws -> Result) rethrows -> Result {
            if DispatchQueue.getSpecific(key: queueKey) != nil { return try body() }
            return try queue.sync { try body() }
        }

        private func startReading() {
            guard !masterClosed else { return }
            let source = DispatchSource.makeReadSource(fileDescriptor: process.master, queue: queue)
            source.setEventHandler { [unowned self] in self.readAvailable() }
            readSource = source
            source.resume()
        }

        private func readAvailable() {
            var fed = false
            for _ in 0..<PTYLimits.readsPerWakeup {
                let count = read(process.master, readBuffer.baseAddress, readBuffer.count)
                if count > 0 {
                    let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[..<count])
                    terminal.feed(bytes.assumingMemoryBound(to: UInt8.self))
                    counters.bytesRead += count
                    counters.largestRead = max(counters.largestRead, count)
                    onOutput?(bytes)
                    fed = true
                    continue
                }
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
                // 0 or EIO: every holder of the slave side has closed it
                // (Linux answers EIO, after the last byte written is read).
                outputEnded = true
                break
            }
            if fed {
                flushInput()
                onUpdate?()
            }
            if outputEnded {
                readSource?.cancel()
                readSource = nil
                if status != nil { finish() }
            }
        }

        private func flushInput() {
            guard !masterClosed else {
                counters.droppedInputBytes += input.removeAll()
                return
            }
            counters.largestPendingInput = max(counters.largestPendingInput, input.count)
            counters.droppedInputBytes += input.takeDropped()
            while input.count > 0 {
                let written = input.withBytes { write(process.master, $0.baseAddress, $0.count) }
                if written > 0 {
                    input.removeFirst(written)
                    counters.bytesWritten += written
                    continue
                }
                if written < 0 && errno == EINTR { continue }
                if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    startWriteSource()
                    return
                }
                // EIO: the program and its jobs have closed the terminal.
                counters.droppedInputBytes += input.removeAll()
                break
            }
            stopWriteSource()
        }

        private func startWriteSource() {
            if writeSource == nil {
                let source = DispatchSource.makeWriteSource(fileDescriptor: process.master, queue: queue)
                source.setEventHandler { [unowned self] in self.flushInput() }
                writeSource = source
            }
            if !writeSourceRunning {
                writeSourceRunning = true
                writeSource?.resume()
            }
        }

        private func stopWriteSource() {
            if writeSourceRunning {
                writeSourceRunning = false
                writeSource?.suspend()
            }
        }

        private func programExited(_ status: ExitStatus) {
            self.status = status
            if outputEnded || masterClosed {
                finish()
            } else {
                queue.asyncAfter(deadline: .now() + PTYLimits.exitDrainGrace) { self.finish() }
            }
        }

        private func closeMaster() {
            guard !masterClosed else { return }
            masterClosed = true
            readSource?.cancel()
            readSource = nil
            if let writeSource {
                if !writeSourceRunning { writeSource.resume() }  // a suspended source cannot be released
                writeSource.cancel()
                writeSourceRunning = false
            }
            writeSource = nil
            counters.droppedInputBytes += input.removeAll()
            process.closeMaster()
        }

        private func finish() {
            guard !finished, let status else { return }
            // Set first: the last read may find the end of the output and
            // call back here.
            finished = true
            if !outputEnded && !masterClosed { readAvailable() }  // what a background job left
            closeMaster()
            onUpdate?()
            onExit?(status)
            for waiter in waiters { waiter.resume(returning: status) }
            waiters.removeAll()
            done.leave()
        }
    }

    /// Input waiting for the program: a byte queue with a head index (no copy
    /// per write), bounded by ``PTYLimits/maxPendingInput``. Confined to its
    /// session's queue.
    final class PendingInput {
        private var bytes: [UInt8] = []
        private var head = 0
        private var dropped = 0

        var count: Int { bytes.count - head }

        /// Queues `chunk` whole, or drops it whole past the limit (a reply
        /// or key cut in two would be worse than one lost).
        func append(_ chunk: [UInt8]) {
            guard count + chunk.count <= PTYLimits.maxPendingInput else {
                dropped += chunk.count
                return
            }
            if head > 0 && head >= bytes.count / 2 {
                bytes.removeFirst(head)
                head = 0
            }
            bytes += chunk
        }

        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[head...])) }
        }

        func removeFirst(_ count: Int) {
            head += count
            if head == bytes.count {
                bytes.removeAll(keepingCapacity: bytes.capacity <= 65_536)
                head = 0
            }
        }

        /// Empties the queue; returns how many bytes were dropped.
        func removeAll() -> Int {
            let pending = count + takeDropped()
            bytes.removeAll()
            head = 0
            return pending
        }

        /// Bytes dropped at the limit since the last call.
        func takeDropped() -> Int {
            defer { dropped = 0 }
            return dropped
        }
    }
#endif
