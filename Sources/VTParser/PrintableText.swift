/// The printable text ahead in the buffer a parser is reading, offered to a
/// handler where a run of non-ASCII text starts
/// (``VTHandler/printText(ahead:)``).
///
/// The text is read where it lies, a character at a time: printable ASCII
/// (0x20–0x7E, a byte each) and whole, valid, printable UTF-8 sequences in
/// this buffer (as the parser decodes them: never a C1 control, never a
/// sequence split across calls). A handler that places characters as it
/// decodes them stores each one in the same pass, where the parser's run
/// (``VTHandler/printText(_:)``) decodes into a buffer that the handler
/// then reads again. The handler takes what it printed
/// (``take(upTo:)``); the parser goes on from the first byte not taken, in
/// ground state as before.
public struct PrintableText {
    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let end: Int
    @usableFromInline var taken: Int
    /// The offset in the buffer of the first byte not taken.
    @inlinable public var position: Int { taken }

    /// The buffer's start and where the text may end at the latest (offsets
    /// as ``character(at:)`` takes them), for a handler that reads common
    /// characters from the bytes itself. What it takes from ``position`` on
    /// must be printable text as ``character(at:)`` decodes it, though it
    /// may read on past a stretch of eight printable ASCII bytes.
    @inlinable public var bytes: (base: UnsafePointer<UInt8>, end: Int) { (base, end) }

    @inlinable
    init(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) {
        self.base = base
        self.taken = start
        self.end = end
    }

    /// The character whose bytes start at `offset` (an offset in the buffer,
    /// from ``position`` on, as returned by an earlier call), and the offset
    /// after it; nil where the text ends: a control, an escape, the end of
    /// the buffer, or bytes that are not a whole, valid, printable sequence
    /// here (the parser's byte-at-a-time decoder takes those); also a
    /// stretch of eight printable ASCII bytes or more, which the parser
    /// takes faster.
    @inlinable @inline(__always)
    public func character(at offset: Int) -> (scalar: UInt32, next: Int)? {
        guard offset < end else { return nil }
        let byte = base[offset]
        // Offsets stay within the buffer: wrapping operators spare the
        // overflow checks.
        if byte &- 0x20 < 0x5F {
            // Eight printable ASCII bytes or more end the text: the parser
            // stores such a stretch eight bytes at a time
            // (``VTHandler/printASCII(_:)``), where a handler taking it here
            // would decode it a byte at a time (a bullet or an arrow before
            // a line of ASCII: callgrind, 2 MiB of agent_tui at 80×24,
            // 66.0M -> 60.9M instructions; in the parser, 54.5M).
            if offset &+ 8 <= end {
                let eight = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                if VTParser.nonPrintableBytes(eight) == 0 { return nil }
            }
            return (UInt32(byte), offset &+ 1)
        }
        var scalar: UInt32 = 0
        guard byte >= 0xC2, case let length = VTParser.decodeUTF8(base, offset, end, &scalar), length > 0 else {
            return nil
        }
        return (scalar, offset &+ length)
    }

    /// Takes the text up to `offset` (after a character ``character(at:)``
    /// returned, or ``position`` itself): the parser goes on from there.
    @inlinable @inline(__always)
    public mutating func take(upTo offset: Int) {
        assert(offset >= taken && offset <= end, "taking text outside what was offered")
        taken = offset
    }
}
