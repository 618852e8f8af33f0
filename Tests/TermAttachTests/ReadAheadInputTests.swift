import Foundation
import TermEngineCLI
import Testing

#if os(Linux)
    import CThreadShim
#endif

/// `termengine replay` reads its input a chunk ahead on a thread of its own
/// (`ReadAheadInput`, issue #21): two buffers change hands between the
/// reader and the feeding caller. Whatever the pace of either side, the
/// chunks must be the input's bytes in order, a chunk the caller holds must
/// never be written under it, a failure must come out as the same message,
/// and dropping the input early must not hang.
@Suite("Input read ahead")
struct ReadAheadInputTests {
    /// Bytes whose value depends on their position and on which 1 MiB chunk
    /// they are in, so that a chunk read into the wrong place or written
    /// over by the next shows.
    static func pattern(count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ ($0 >> 20) &* 31) }
    }

    @Test(
        "a file of several chunks comes out whole and in order, a held chunk unchanged while the reader runs on; the first reads are short"
    )
    func fileComesOutWholeAndInOrder() throws {
        let bytes = Self.pattern(count: 5 * ChunkedInput.chunkSize + 123)
        let file = try temporaryFile("read-ahead", holding: bytes)
        defer { try? FileManager.default.removeItem(at: file) }
        let input = try ReadAheadInput(file.path)
        #expect(input.knownSize == bytes.count)
        var offset = 0
        var chunks = 0
        var sizes: [Int] = []
        while true {
            let chunk = try input.next()
            if chunk.isEmpty { break }
            sizes.append(chunk.count)
            let expected = bytes[offset..<(offset + chunk.count)]
            let read = chunk.elementsEqual(expected)
            #expect(read, "chunk \(chunks) at \(offset)")
            // The reader fills the other buffer meanwhile; this one must
            // still hold its bytes afterwards.
            usleep(3_000)
            let kept = chunk.elementsEqual(expected)
            #expect(kept, "chunk \(chunks) at \(offset), after the reader ran on")
            offset += chunk.count
            chunks += 1
        }
        #expect(offset == bytes.count)
        // 64 KiB, 256 KiB, then whole chunks: feeding starts after a short
        // read, each read overlapping the feed of the one before.
        let first = ReadAheadInput.firstReadSize
        let whole = ChunkedInput.chunkSize
        #expect(first == 64 << 10 && whole == 1 << 20)
        #expect(sizes == [first, 4 * first, whole, whole, whole, whole, bytes.count - 4 * whole - 5 * first])
        // The end stays the end.
        #expect(try input.next().isEmpty)
    }

    @Test("a pipe written in small pieces with pauses comes out whole and in order")
    func pipeComesOutWhole() throws {
        let fifo = temporaryPath("read-ahead")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let bytes = Self.pattern(count: 300_000)
        // The writer opens its end on a thread of its own (opening a FIFO
        // waits for the other end) and writes 10,000 bytes at a time.
        let writer = Thread {
            let descriptor = open(fifo.path, O_WRONLY)
            guard descriptor >= 0 else { return }
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + 10_000, bytes.count)
                let written = bytes[offset..<end].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                guard written > 0 else { break }
                offset += written
                if offset % 50_000 == 0 { usleep(2_000) }
            }
            close(descriptor)
        }
        writer.start()
        let input = try ReadAheadInput(fifo.path)
        #expect(input.knownSize == nil)
        var read: [UInt8] = []
        while true {
            let chunk = try input.next()
            if chunk.isEmpty { break }
            read += chunk
        }
        let whole = read == bytes
        #expect(whole, "\(read.count) bytes read of \(bytes.count)")
    }

    @Test("a read that fails is thrown with the path, then the input is at its end")
    func failureIsThrownWithThePath() throws {
        let directory = FileManager.default.temporaryDirectory.path
        let input = try ReadAheadInput(directory)
        #expect {
            _ = try input.next()
        } throws: { error in
            "\(error)" == "cannot read \(directory): Is a directory"
        }
        #expect(try input.next().isEmpty)
    }

    @Test("an input dropped after its first chunk stops its reader and returns")
    func droppedEarlyReturns() throws {
        let bytes = Self.pattern(count: 4 * ChunkedInput.chunkSize)
        let file = try temporaryFile("read-ahead", holding: bytes)
        defer { try? FileManager.default.removeItem(at: file) }
        for _ in 0..<20 {
            let input = try ReadAheadInput(file.path)
            // The chunk is the input's buffer: kept while it is read.
            try withExtendedLifetime(input) {
                let chunk = try input.next()
                let read = chunk.count == ReadAheadInput.firstReadSize && chunk.elementsEqual(bytes[0..<chunk.count])
                #expect(read)
            }
        }
        // Dropped before anything was read, too.
        for _ in 0..<20 { _ = try ReadAheadInput(file.path) }
    }

    /// The reader may be inside a `read` that waits for a pipe's writer:
    /// dropping the input must not wait for it.
    @Test("an input dropped while its reader waits on an idle pipe returns at once")
    func droppedWhileReadingAnIdlePipeReturns() throws {
        let fifo = temporaryPath("read-ahead")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        // The writer sends one chunk, then holds its end open for 2 s.
        let writer = Thread {
            let descriptor = open(fifo.path, O_WRONLY)
            guard descriptor >= 0 else { return }
            _ = "first".withCString { write(descriptor, $0, 5) }
            usleep(2_000_000)
            close(descriptor)
        }
        writer.start()
        var input: ReadAheadInput? = try ReadAheadInput(fifo.path)
        let first = try input.map { input in
            try withExtendedLifetime(input) { String(decoding: try input.next(), as: UTF8.self) }
        }
        #expect(first == "first")
        let clock = ContinuousClock()
        let dropped = clock.measure { input = nil }
        #expect(input == nil)
        #expect(dropped < .milliseconds(500), "dropping took \(dropped)")
    }

    #if os(Linux)
        /// The reader keeps off the feeding thread's CPU through
        /// `cthread_avoid_cpu`: on a thread of its own (whose affinity the
        /// test may change), the CPU it runs on leaves its affinity and every
        /// other CPU it was allowed stays, by sched_getaffinity(2); with no
        /// other CPU allowed, nothing changes; and the thread gets its
        /// affinity back (the reader's thread is Dispatch's, and goes back to
        /// its pool).
        @Test("keeping a thread off a CPU leaves that one out of its affinity, and only that one")
        func keepingAThreadOffACPU() async {
            struct Placement: Sendable {
                var cpu: Int32 = -1
                var allowedBefore: [Int32] = []
                var allowedAfter: [Int32] = []
                var outcome: Int32 = 0
                var restored: [Int32] = []
            }
            let placement = await withCheckedContinuation { (done: CheckedContinuation<Placement, Never>) in
                Thread {
                    func allowed() -> [Int32] { (0..<1024).filter { cthread_may_run_on($0) == 1 } }
                    var placement = Placement()
                    placement.cpu = cthread_current_cpu()
                    placement.allowedBefore = allowed()
                    placement.outcome = cthread_avoid_cpu(placement.cpu)
                    placement.allowedAfter = allowed()
                    placement.restored = cthread_restore_affinity() == 0 ? allowed() : []
                    done.resume(returning: placement)
                }.start()
            }
            #expect(placement.cpu >= 0)
            #expect(placement.allowedBefore.contains(placement.cpu))
            if placement.allowedBefore.count >= 2 {
                #expect(placement.outcome == 0)
                #expect(placement.allowedAfter == placement.allowedBefore.filter { $0 != placement.cpu })
            } else {
                #expect(placement.outcome == -1)
                #expect(placement.allowedAfter == placement.allowedBefore)
            }
            // Restored: the main thread's affinity, which the test process
            // does not change.
            #expect(placement.restored == placement.allowedBefore)
            #expect(cthread_avoid_cpu(-1) == -1)
        }
    #endif

    @Test("a missing file is refused at once, as before")
    func missingFileIsRefused() {
        #expect {
            _ = try ReadAheadInput("/nonexistent/read-ahead.bin")
        } throws: { error in
            "\(error)" == "cannot read /nonexistent/read-ahead.bin: No such file or directory"
        }
    }
}
