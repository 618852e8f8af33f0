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
        let start = base + position
        let textLength = VTParser.printableRunEnd(base, from: position, to: end) &- position
        guard take(textLength: textLength, maxLength: maxLength) else { return nil }
        return UnsafeBufferPointer(start: start, count: textLength)
    }

    /// Moves past the line whose text, `textLength` printable bytes from
    /// `position`, has been found, when the line is to be taken: at most
    /// `maxLength` long and followed by CR LF in this buffer.
    @inlinable @inline(__always)
    mutating func take(textLength: Int, maxLength: Int) -> Bool {
        // Offsets within the buffer: `textEnd + 1` cannot overflow.
        let textEnd = position &+ textLength
        guard
            textLength <= maxLength && textEnd &+ 1 < end && base[textEnd] == 0x0D && base[textEnd &+ 1] == 0x0A
        else { return false }
        position = textEnd &+ 2
        return true
    }

    /// Takes the next line as ``next(maxLength:)`` does, and hands its bytes
    /// to `eight` while it looks for the line's end, eight at a time, so that
    /// a handler can store a line's cells in the same pass as the scan
    /// instead of a second one over the same bytes.
    ///
    /// `eight(offset, bytes)` gets the eight bytes at `offset` in the line
    /// (`bytes` loaded little-endian: the byte at `offset` is its low byte),
    /// for `offset` = 0, 8, 16 … up to the eight holding the line's end, and
    /// only while `offset + 8 <= maxLength` and the eight are in the buffer.
    /// The eight holding the end also hold the CR and what follows it, and
    /// the calls come before the line is known to be taken: what the handler
    /// does with bytes past the text, or with a line not taken, it must undo
    /// or overwrite.
    ///
    /// Returns the line's text and how many of its first bytes went to
    /// `eight`; the rest of the text, fewer than eight bytes, did not.
    /// Returns nil and takes nothing when the line is not plain, whole and at
    /// most `maxLength` long.
    @inlinable @inline(__always)
    public mutating func next(
        maxLength: Int, handingOutEights eight: (_ offset: Int, _ bytes: UInt64) -> Void
    ) -> (text: UnsafeBufferPointer<UInt8>, handedOut: Int)? {
        let start = base + position
        let line = UnsafeRawPointer(start)
        let chunkLimit = min(maxLength, end &- position)
        var offset = 0
        var textLength: Int
        var handedOut: Int
        while true {
            guard offset &+ 8 <= chunkLimit else {
                // The last few bytes a row can hold, or the buffer's end:
                // one at a time, not handed out.
                handedOut = offset
                let limit = min(end, position &+ maxLength &+ 1)
                textLength = VTParser.printableRunEnd(base, from: position &+ offset, to: limit) &- position
                break
            }
            let bytes = line.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            eight(offset, bytes)
            let flagged = VTParser.nonPrintableBytes(bytes)
            if flagged != 0 {
                textLength = offset &+ flagged.trailingZeroBitCount &>> 3
                handedOut = textLength
                break
            }
            offset &+= 8
        }
        guard take(textLength: textLength, maxLength: maxLength) else { return nil }
        return (UnsafeBufferPointer(start: start, count: textLength), handedOut)
    }
}
