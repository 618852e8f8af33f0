/// What a PTY's line discipline does to a program's output before a terminal
/// sees it, for output that did not come through one (a pipe, a file, a log,
/// a socket): a program writes "\n" and relies on the kernel to send CR LF.
///
/// ```swift
/// for chunk in pipe { terminal.feed(LineDiscipline.onlcr(chunk)) }
/// ```
public enum LineDiscipline {
    /// The bytes with every LF (0x0A) sent as CR LF, as the termios output
    /// flag ONLCR does (on by default on a PTY: Linux's `n_tty` writes
    /// "\r\n" for each '\n' in `do_output_char`, whatever came before it).
    ///
    /// A CR LF written by the program therefore becomes CR CR LF, exactly as
    /// on a PTY, and draws the same (the second CR does nothing). Since the
    /// translation of a byte never depends on the bytes around it, it keeps
    /// no state: chunks translated one by one give the bytes of the whole,
    /// wherever they are split (a CR at the end of one chunk and its LF at
    /// the start of the next included).
    /// - Complexity: O(n) in the number of bytes.
    public static func onlcr(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        // Through the buffer, so the loop is specialised here: a generic
        // sequence called from another module is not.
        if let translated = bytes.withContiguousStorageIfAvailable(onlcr(buffer:)) { return translated }
        return Array(bytes).withUnsafeBufferPointer(onlcr(buffer:))
    }

    private static func onlcr(buffer bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        // One LF in 16 bytes is typical of text; more only grows once more.
        out.reserveCapacity(bytes.count + bytes.count / 16)
        for byte in bytes {
            if byte == 0x0A { out.append(0x0D) }
            out.append(byte)
        }
        return out
    }
}
