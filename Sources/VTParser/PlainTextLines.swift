/// The whole lines of plain text ahead in the buffer a parser is reading,
/// offered to a handler after a CR LF (``VTHandler/printLines(_:)``).
///
/// A plain line is a run of printable ASCII (0x20–0x7E), possibly empty,
/// followed by CR LF, all of it in this buffer. Scrolling output is little
/// else, and a handler that takes such lines in a loop of its own does per
/// line only what the line needs, where the parser's loop would make two
/// calls (``VTHandler/printASCII(_:)`` and
/// ``VTHandler/carriageReturnLineFeed()``), each starting from the
/// handler's whole state. Lines are only ever taken whole: the parser goes on
/// from the first byte not taken, in ground state as before.
public struct PlainTextLines {
    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let end: Int
    /// The offset of the first byte not taken.
    @usableFromInline var position: Int

    @inlinable
    init(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) {
        self.base = base
        self.position = start
        self.end = end
    }

    /// Takes the next line when it is plain, whole in this buffer and at
    /// most `maxLength` characters long: returns its text, without the CR
    /// LF, and moves past the CR LF. Returns nil and takes nothing otherwise.
    /// The text is only valid during the ``VTHandler/printLines(_:)`` call.
    @inlinable @inline(__always)
    public mutating func next(maxLength: Int) -> UnsafeBufferPointer<UInt8>? {
        let textEnd = VTParser.printableRunEnd(base, from: position, to: end)
        // Offsets within the buffer: `textEnd + 1` cannot overflow.
        guard
            textEnd &- position <= maxLength && textEnd &+ 1 < end && base[textEnd] == 0x0D
                && base[textEnd &+ 1] == 0x0A
        else { return nil }
        let text = UnsafeBufferPointer(start: base + position, count: textEnd &- position)
        position = textEnd &+ 2
        return text
    }
}
