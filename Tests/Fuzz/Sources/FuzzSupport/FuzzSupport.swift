/// What every fuzz target shares: reading parameters off the front of the
/// input, and failing loudly when a property does not hold.
///
/// A failed property must stop the process: libFuzzer only writes the input
/// to a `crash-…` file when the process dies, so a mismatch is a trap, like
/// a crash, with the reason printed first.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes taken one field at a time from the front of a fuzz input; an input
/// that runs out reads as zeros, so every input is a valid one (libFuzzer
/// mutates lengths freely).
public struct FuzzInput {
    public let bytes: UnsafeBufferPointer<UInt8>
    public private(set) var offset = 0

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    }

    public var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, 0 past the end.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next two bytes, big-endian.
    public mutating func uint16() -> Int { Int(byte()) << 8 | Int(byte()) }

    /// A number in `range`, from one byte (two when the range is wider than 256).
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = range.count
        let raw = span > 256 ? uint16() : Int(byte())
        return range.lowerBound + raw % span
    }

    /// Everything not read yet.
    public mutating func rest() -> UnsafeBufferPointer<UInt8> {
        let start = min(offset, bytes.count)
        offset = bytes.count
        return UnsafeBufferPointer(rebasing: bytes[start...])
    }
}

/// Stops the process with `message` when `condition` is false: the fuzzer
/// then keeps the input as a crash.
public func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    guard !condition() else { return }
    let text = "FUZZ PROPERTY FAILED (\(file):\(line)): \(message())\n"
    // write(2) to descriptor 2: unbuffered, so the reason is out before abort().
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}

/// `bytes` as the body of a C or Python bytes literal (`\x1b[?3h`), for
/// messages and reproducer notes: every byte that is not printable ASCII is
/// `\xNN`, so the text says exactly which bytes to feed.
public func escaped(_ bytes: some Sequence<UInt8>, limit: Int = 400) -> String {
    var out = ""
    var count = 0
    for byte in bytes {
        count += 1
        if count > limit {
            out += "…"
            break
        }
        switch byte {
        case 0x5C: out += "\\\\"
        case 0x22: out += "\\\""
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            let hex = String(byte, radix: 16)
            out += (hex.count == 1 ? "\\x0" : "\\x") + hex
        }
    }
    return out
}
