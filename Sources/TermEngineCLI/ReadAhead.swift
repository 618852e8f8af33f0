import Dispatch

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
/// it, valid until the next call.
package final class ReadAheadInput {
    /// The file's length when it is a regular file, as ``ChunkedInput``'s.
    package let knownSize: Int?

    private let reader: Reader
    /// The buffer the caller holds, if any, and the next it takes.
    private var held: Int?
    private var nextBuffer = 0
    /// Whether the caller has been given the end or a failure: later calls
    /// return the end at once (the reader has stopped).
    private var finished = false

    /// Opens `path` (or standard input for "-") and starts reading it.
    /// - Throws: the failure to open it, as ``ChunkedInput/init(_:)`` does.
    package init(_ path: String) throws {
        let input = try ChunkedInput(path)
        knownSize = input.knownSize
        reader = Reader(input)
        let reader = reader
        DispatchQueue(label: "termengine.read-ahead").async { reader.run() }
    }

    /// Stops the reader and waits for it: it stops at once when it has
    /// stopped already (the end of the input, a failure) or waits for a
    /// buffer; a read under way (a pipe with nothing to read) completes first.
    deinit {
        reader.stop()
    }

    /// The next chunk (valid until the next call), empty at the end of the
    /// input.
    /// - Throws: the read's failure, with the path (``ChunkedInput``'s
    ///   message); after it the input is at its end.
    package func next() throws -> UnsafeBufferPointer<UInt8> {
        if let held {
            reader.giveBack()
            self.held = nil
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
            held = index
            return chunk
        }
    }

    /// The reading thread's side, shared with the caller's: two buffers
    /// that change hands through two semaphores, which order every access.
    /// `filled` counts chunks read (a buffer's bytes and outcome are written
    /// before its signal, read after the wait for it); `emptied` counts
    /// buffers given back, which the reader may fill again.
    private final class Reader: @unchecked Sendable {
        /// The outcome of one read: its bytes (none at the end of the
        /// input) or its failure.
        enum Outcome {
            case bytes(UnsafeBufferPointer<UInt8>)
            case failed(any Error)
        }

        private let input: ChunkedInput
        private let buffers: UnsafeMutableBufferPointer<UInt8>
        private let outcomes: UnsafeMutablePointer<Outcome>
        private let filled = DispatchSemaphore(value: 0)
        /// Made with no permits and given its two in `init`: libdispatch
        /// traps when a semaphore goes with fewer permits than it was made
        /// with, as this one may (the reader waiting for a buffer at the end).
        private let emptied = DispatchSemaphore(value: 0)
        /// Signalled once, when `run` returns.
        private let stopped = DispatchSemaphore(value: 0)
        /// Set by `stop()` before it wakes the reader, read by the reader
        /// after each wait on `emptied`; under `stoppingLock` (the permit the
        /// reader took may be an older one, which orders nothing).
        private var stopping = false
        private let stoppingLock = DispatchSemaphore(value: 1)

        init(_ input: consuming ChunkedInput) {
            self.input = input
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
            while true {
                emptied.wait()
                stoppingLock.wait()
                let stop = stopping
                stoppingLock.signal()
                if stop { break }
                let start = buffers.baseAddress! + index * ChunkedInput.chunkSize
                let outcome: Outcome
                do {
                    let count = try input.read(into: start, count: ChunkedInput.chunkSize)
                    outcome = .bytes(UnsafeBufferPointer(start: start, count: count))
                } catch {
                    outcome = .failed(error)
                }
                outcomes[index] = outcome
                filled.signal()
                guard case .bytes(let chunk) = outcome, !chunk.isEmpty else { break }
                index ^= 1
            }
            stopped.signal()
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

        /// Tells the reader to stop and waits until it has.
        func stop() {
            stoppingLock.wait()
            stopping = true
            stoppingLock.signal()
            emptied.signal()
            emptied.signal()
            stopped.wait()
        }
    }
}
