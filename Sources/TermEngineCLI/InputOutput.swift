import CommandLineOptions

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a whole input file, or standard input for "-", straight into one
/// array (no intermediate `Data`: a 16 MiB replay is held once, not twice).
package func readInput(_ path: String) throws -> [UInt8] {
    let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY)
    guard descriptor >= 0 else {
        throw Arguments.Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))")
    }
    defer { if descriptor != STDIN_FILENO { close(descriptor) } }
    var info = stat()
    let knownSize = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
    var bytes: [UInt8] = []
    bytes.reserveCapacity(knownSize + 1)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        // 64 KiB at a time; the array was sized for a regular file up front.
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw Arguments.Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if count == 0 { break }
        bytes.append(contentsOf: chunk[..<count])
    }
    return bytes
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
