import Foundation

/// Reads a whole input file, or standard input for "-".
func readInput(_ path: String) throws -> [UInt8] {
    if path == "-" {
        return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    }
    guard let data = FileManager.default.contents(atPath: path) else {
        throw Arguments.Failure(description: "cannot read \(path): no such file or not readable")
    }
    return [UInt8](data)
}

/// LF → CR LF, as a PTY's line discipline does with ONLCR.
func translateNewlines(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 16)
    for byte in bytes {
        if byte == 0x0A { out.append(0x0D) }
        out.append(byte)
    }
    return out
}
