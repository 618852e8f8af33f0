import Foundation

/// A path in the temporary directory that no other test names (a UUID in
/// it), for a file, a FIFO or a directory a test makes there and removes.
func temporaryPath(_ prefix: String, suffix: String = "") -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)")
}

/// A new file at a ``temporaryPath(_:suffix:)`` holding `bytes`; the test
/// removes it.
func temporaryFile(_ prefix: String, suffix: String = "", holding bytes: [UInt8]) throws -> URL {
    let file = temporaryPath(prefix, suffix: suffix)
    try Data(bytes).write(to: file)
    return file
}
