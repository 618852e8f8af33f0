import Dispatch

#if os(Linux)
    import CThreadShim
#endif

/// An input (a file, or standard input for "-") read a chunk ahead on a
/// thread of its own, for a command that feeds as it reads (`replay`):
/// while the caller feeds one chunk, the next is read into a second buffer.
///
/// A read from the page cache copies about 8 GB/s here, so 64 MiB of input
/// took some 7 ms of `read` calls, on top of the feeds and on the same core:
/// a tenth of a whole `replay` of plain scrolling text. Read ahead, those
/// copies run on the other core while the terminal parses, and the caller
/// waits only when the reader is behind (a slow pipe) or at the start.
///
/// A chunk is what one `read` returned, as ``ChunkedInput/next()`` returns
/// it. It lives in the reader's buffers: valid until the next call, and only
/// while the input is alive (keep it, e.g. with `withExtendedLifetime`, for
/// as long as a chunk is read).
package final class ReadAheadInput {
    /// The file's length when it is a regular file, as ``InputFile``'s.
    package let knownSize: Int?

    /// The size of the first read (64 KiB); each read after it asks for four
    /// times the one before, up to ``ChunkedInput/chunkSize``.
    package static let firstReadSize = ChunkedInput.chunkSize >> 4

    private let reader: Reader
    /// Whether the caller holds a buffer (the one it was given last).
    private var holding = false
    /// The buffer the caller takes next.
    private var nextBuffer = 0
    /// Whether the caller has been given the end or a failure: later calls
    /// return the end at once (the reader has stopped).
    private var finished = false

    /// Opens `path` (or standard input for "-") and starts reading it.
    /// - Throws: the failure to open it, as ``InputFile/init(_:)`` does.
    package init(_ path: String) throws {
        let file = try InputFile(path)
        knownSize = file.knownSize
        reader = Reader(file)
        let reader = reader
        // The reader keeps off the CPU the caller feeds on, where the process
        // may run on another (Linux). Woken there after each chunk given
        // back, it waited for the feed to block on the next chunk, and the
        // two ran one after the other: a wait of about a read (0.15 ms) at
        // every chunk of some runs, more of them under a parent such as GNU
        // time. 64 MiB of plain scrolling text at 80×24, the static build
        // under `/usr/bin/time`, `perf stat -r 20`: 43.7 → 38.9 ms a process.
        #if os(Linux)
            let feedingCPU = cthread_current_cpu()
        #endif
        DispatchQueue(label: "termengine.read-ahead").async {
            #if os(Linux)
                _ = cthread_avoid_cpu(feedingCPU)
                // The queue's thread goes back to Dispatch's pool as it was.
                defer { _ = cthread_restore_affinity() }
            #endif
            reader.run()
        }
    }

    /// Tells the reader to stop, without waiting for it: a read under way
    /// (a pipe with nothing to read yet) may last. The reader keeps its
    /// buffers and the file until it has stopped.
    deinit {
        reader.stop()
    }

    /// The next chunk (valid until the next call, while the input is
    /// alive), empty at the end of the input.
    /// - Throws: the read's failure, with the path (``InputFile``'s
    ///   message); after it the input is at its end.
    package func next() throws -> UnsafeBufferPointer<UInt8> {
        if holding {
            reader.giveBack()
            holding = false
        }
        guard !finished else { return UnsafeBufferPointer(start: nil, count: 0) }
        let index = nextBuffer
        nextBuffer ^= 1
        switch reader.take(index) {
        case .failed(let error):
            finished = true
            throw error
        case .bytes(let chunk):
            if chunk.isEmpty { finished = true }
            holding = true
            return chunk
        }
    }

    /// The reading thread's side, shared with the caller's: two buffers
    /// that change hands through two semaphores, which order every access.
    /// `filled` counts chunks read (a buffer's bytes and outcome are written
    /// before its signal, read after the wait for it); `emptied` counts
    /// buffers given back, which the reader may fill again (it fills them
    /// in turn, so the one it fills is the one given back longest ago).
    /// The reading thread's block holds it until the thread has stopped.
    private final class Reader: @unchecked Sendable {
        /// The outcome of one read: its bytes (none at the end of the
        /// input) or its failure.
        enum Outcome {
            case bytes(UnsafeBufferPointer<UInt8>)
            case failed(any Error)
        }

        private let file: InputFile
        private let buffers: UnsafeMutableBufferPointer<UInt8>
        private let outcomes: UnsafeMutablePointer<Outcome>
        private let filled = DispatchSemaphore(value: 0)
        /// Made with no permits and given its two in `init`: libdispatch
        /// traps when a semaphore goes with fewer permits than it was made
        /// with, as this one may (the reader waiting for a buffer at the end).
        private let emptied = DispatchSemaphore(value: 0)
        /// Set by `stop()` before it wakes the reader, read by the reader
        /// after each wait on `emptied`; under `stoppingLock` (the permit the
        /// reader took may be an older one, which orders nothing).
        private var stopping = false
        private let stoppingLock = DispatchSemaphore(value: 1)

        init(_ file: consuming InputFile) {
            self.file = file
            buffers = .allocate(capacity: 2 * ChunkedInput.chunkSize)
            outcomes = .allocate(capacity: 2)
            outcomes.initialize(repeating: .bytes(UnsafeBufferPointer(start: nil, count: 0)), count: 2)
            emptied.signal()
            emptied.signal()
        }

        deinit {
            outcomes.deinitialize(count: 2)
            outcomes.deallocate()
            buffers.deallocate()
        }

        /// The reading thread: fills the buffers in turn, each once it has
        /// been given back, until the end of the input, a failure or `stop()`.
        func run() {
            var index = 0
            // The first reads are short, so that the caller starts feeding
            // at once: a read into fresh pages faults each one in (about
            // 0.5 ms for the first MiB here, which the caller waited for:
            // 1.3% of a 64 MiB `replay` of plain scrolling text). Each is
            // four times the one before, whose feed it overlaps, up to a
            // whole chunk.
            var size = ReadAheadInput.firstReadSize
            while true {
                emptied.wait()
                stoppingLock.wait()
                let stop = stopping
                stoppingLock.signal()
                if stop { return }
                let start = buffers.baseAddress! + index * ChunkedInput.chunkSize
                let outcome: Outcome
                do {
                    let count = try file.read(into: start, count: size)
                    outcome = .bytes(UnsafeBufferPointer(start: start, count: count))
                } catch {
                    outcome = .failed(error)
                }
                outcomes[index] = outcome
                filled.signal()
                guard case .bytes(let chunk) = outcome, !chunk.isEmpty else { return }
                index ^= 1
                size = min(size << 2, ChunkedInput.chunkSize)
            }
        }

        /// Buffer `index`'s outcome, once the reader has written it.
        func take(_ index: Int) -> Outcome {
            filled.wait()
            return outcomes[index]
        }

        /// Hands a buffer the caller has finished with back to the reader.
        func giveBack() {
            emptied.signal()
        }

        /// Tells the reader to stop at its next wait for a buffer (one
        /// permit: it looks at `stopping` after every wait), or at once when
        /// it is waiting.
        func stop() {
            stoppingLock.wait()
            stopping = true
            stoppingLock.signal()
            emptied.signal()
        }
    }
}
