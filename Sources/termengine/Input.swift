import CommandLineOptions
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a whole input file, or standard input for "-", straight into one
/// array (no intermediate `Data`: a 16 MiB replay is held once, not twice).
func readInput(_ path: String) throws -> [UInt8] {
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
