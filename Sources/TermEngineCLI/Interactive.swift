import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `attach` and `run` share on the user's terminal: its size, the keys
/// typed, the bytes drawn, and the detach key. (`attach`'s own side is an
/// extension in the network helper.)
package enum Interactive {
    /// The detach key of `attach` and `run`: Ctrl-\ (FS).
    package static let detachKey: UInt8 = 0x1C

    /// The size of the terminal on standard output, columns then rows.
    package static func windowSize() -> (Int, Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (min(Int(size.ws_col), 1000), min(Int(size.ws_row), 1001))
    }

    /// Starts a thread that reads the keyboard (standard input) and hands
    /// each read to `onKeys` until it returns false or the input ends, then
    /// calls `onEnd` once: `attach` and `run` read keys alike.
    package static func readKeys(
        _ onKeys: @escaping @Sendable ([UInt8]) -> Bool, onEnd: @escaping @Sendable () -> Void
    ) {
        // A serial queue of its own: the blocking reads hold one thread of
        // their own, never one of the pool that Swift concurrency runs on.
        DispatchQueue(label: "termengine.keys").async {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0, onKeys(Array(buffer[..<count])) else {
                    onEnd()
                    return
                }
            }
        }
    }

    /// Writes `text` to standard output at once (unbuffered).
    package static func writeOut(_ text: String) {
        writeAll(STDOUT_FILENO, Array(text.utf8))
    }
}
