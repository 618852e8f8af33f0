import CommandLineOptions

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a whole input file, or standard input for "-", straight into one
/// array (no intermediate `Data`: a 16 MiB replay is held once, not twice):
/// ``ChunkedInput/readAll()``.
package func readInput(_ path: String) throws -> [UInt8] {
    try ChunkedInput(path).readAll()
}

/// An input file, or standard input for "-", open for reading: the
/// descriptor, its path for messages, and its length when it is a regular
/// file. Closed (but for standard input) when it goes.
package struct InputFile: ~Copyable {
    private let descriptor: Int32
    private let path: String
    /// The file's length when it is a regular file (it may still grow or
    /// shrink while it is read), nil for a pipe or a terminal.
    package let knownSize: Int?

    /// Opens `path`, or takes standard input for "-".
    /// - Throws: the failure, as "cannot read PATH: REASON".
    package init(_ path: String) throws {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw Arguments.Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        let isRegular = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        self.descriptor = descriptor
        self.path = path
        self.knownSize = isRegular ? Int(info.st_size) : nil
    }

    deinit {
        if descriptor != STDIN_FILENO { close(descriptor) }
    }

    /// One `read` of at most `count` bytes (and at most 1 GiB: Darwin's
    /// read(2) refuses counts past INT_MAX, where Linux reads less), again
    /// when interrupted; 0 at the end of the input.
    /// - Throws: the failure, as "cannot read PATH: REASON".
    package func read(into start: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        while true {
            let result = systemRead(descriptor, start, min(count, 1 << 30))
            let failure = errno
            if result < 0 && failure == EINTR { continue }
            guard result >= 0 else {
                throw Arguments.Failure(description: "cannot read \(path): \(String(cString: strerror(failure)))")
            }
            return result
        }
    }
}

/// An input file, or standard input for "-", read a chunk at a time into
/// one buffer used again for each, for a command that feeds as it reads:
/// a 64 MiB replay read whole spent 35 ms of a 90 ms process in that one
/// `read`, most of it the kernel faulting in and zeroing fresh pages for the
/// array (strace -T), where chunks into a buffer that stays in the cache
/// cost a copy each, and the process holds 1 MiB of input rather than all of
/// it. (`replay` reads its chunks ahead, ``ReadAheadInput``.)
package struct ChunkedInput: ~Copyable {
    /// The bytes of each chunk at most.
    package static let chunkSize = 1 << 20

    private let file: InputFile
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The file's length when it is a regular file (it may still grow or
    /// shrink while it is read), nil for a pipe or a terminal.
    package var knownSize: Int? { file.knownSize }

    package init(_ path: String) throws {
        file = try InputFile(path)
        buffer = .allocate(capacity: Self.chunkSize)
    }

    deinit {
        buffer.deallocate()
    }

    /// The next chunk (valid until the next call), empty at the end of the
    /// input. A chunk is what one `read` returned: a pipe's may be short.
    package func next() throws -> UnsafeBufferPointer<UInt8> {
        let count = try file.read(into: buffer.baseAddress!, count: buffer.count)
        return UnsafeBufferPointer(rebasing: buffer[..<count])
    }

    /// The whole input in one array. A regular file is read into the
    /// array's own storage, sized from its length, with no buffer between
    /// (copied through a 64 KiB chunk, a 64 MiB replay spent about as long
    /// being read as being fed); what is past that length (a file that
    /// grew) and other inputs (pipes, a terminal) come in chunks. Not
    /// mapped: a mapped file cut short by another process faults the reader
    /// (SIGBUS), and no input may crash it.
    package consuming func readAll() throws -> [UInt8] {
        // The known size and one byte more: a read that fills that byte
        // finds the file longer than it was, and the rest comes in chunks.
        var failure: (any Error)?
        var ended = false
        var bytes = [UInt8](unsafeUninitializedCapacity: (knownSize ?? 0) + 1) { array, initialized in
            do {
                while initialized < array.count {
                    let count = try file.read(into: array.baseAddress! + initialized, count: array.count - initialized)
                    if count == 0 {
                        ended = true
                        return
                    }
                    initialized += count
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        while !ended {
            let chunk = try next()
            bytes.append(contentsOf: chunk)
            ended = chunk.isEmpty
        }
        return bytes
    }
}

/// The C library's `read`, named apart from ``InputFile``'s own.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// Writes `bytes` to a file (created, or truncated, with mode 0666 less the
/// umask), or to standard output for "-".
package func writeOutput(_ bytes: [UInt8], to path: String) throws {
    if path == "-" {
        writeStandardOutput(bytes)
        return
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
    guard descriptor >= 0 else { throw Arguments.Failure(description: "cannot write \(path)") }
    let written = writeAll(descriptor, bytes)
    guard close(descriptor) == 0, written else { throw Arguments.Failure(description: "cannot write \(path)") }
}

/// Writes all of `bytes` to `descriptor`, again after an interrupted or
/// short write; false when a write fails.
@discardableResult
package func writeAll(_ descriptor: Int32, _ bytes: some Collection<UInt8>) -> Bool {
    let result = bytes.withContiguousStorageIfAvailable { buffer -> Bool in
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
    return result ?? writeAll(descriptor, Array(bytes))
}

/// Writes `bytes` to standard output unbuffered, after what `print` holds.
package func writeStandardOutput(_ bytes: some Collection<UInt8>) {
    fflush(nil)  // every output stream: what `print` holds
    writeAll(STDOUT_FILENO, bytes)
}

/// Writes `text` to standard error (unbuffered, as the C library's is).
package func writeStandardError(_ text: String) {
    writeAll(STDERR_FILENO, Array(text.utf8))
}

/// `value` with `digits` digits after the point, rounded as `printf`'s
/// `%.*f` rounds (the C library formats it).
package func fixed(_ value: Double, digits: Int) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let count = withVaList([Int32(digits), value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
    guard count >= 0 else { return String(value) }
    if Int(count) >= buffer.count {
        // A huge value: the whole number needs more than 63 characters.
        buffer = [CChar](repeating: 0, count: Int(count) + 1)
        _ = withVaList([Int32(digits), value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
