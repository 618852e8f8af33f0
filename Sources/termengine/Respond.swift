import CommandLineOptions
import TermCore
import TermEngineCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `termengine respond`: a terminal that answers queries for another program.
///
/// A test harness that runs a real program in a PTY passes each chunk of the
/// program's output here and writes the answers (DA, DSR/CPR, DECRQM, colour
/// queries…) back into the PTY, so the program talks to this engine as it
/// would to a terminal. Framing on standard input and output: a 4-byte
/// big-endian length, then that many bytes; every input frame gets exactly
/// one reply frame (length 0 when there is nothing to answer).
enum RespondCommand {
    static let usage = "termengine respond [--cols C] [--rows R]"

    static let details = """
        A terminal that answers queries for another program. Standard input carries frames of the
        program's output: a 4-byte big-endian length, then that many bytes (at most \(maxFrame >> 20) MiB).
        Each frame gets one frame back on standard output, the same way: the terminal's answers
        (DA, DSR/CPR, DECRQM, colour queries…), length 0 when there is nothing to answer.

          --cols C, --rows R   the terminal's size, each 1…1000 (default 80×24)
        """

    /// The largest input frame accepted; a larger length is a protocol error.
    static let maxFrame = 16 << 20

    static func run(_ arguments: inout Arguments) throws {
        let columns = try arguments.integer("--cols", in: Terminal.Limits.dimensions, default: 80)
        let rows = try arguments.integer("--rows", in: Terminal.Limits.dimensions, default: 24)
        _ = try arguments.positionals()
        let terminal = Terminal(columns: columns, rows: rows)
        var replies: [UInt8] = []
        terminal.writeBack = { replies += $0 }
        while let header = readExactly(4) {
            let length = header.reduce(0) { $0 << 8 | Int($1) }
            guard length <= maxFrame else {
                throw Arguments.Failure(description: "frame of \(length) bytes is over the \(maxFrame)-byte limit")
            }
            guard let frame = readExactly(length) else {
                throw Arguments.Failure(description: "input ended inside a \(length)-byte frame")
            }
            replies.removeAll(keepingCapacity: true)
            terminal.feed(frame)
            let count = UInt32(replies.count)
            writeStandardOutput(
                [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
                    + replies)
        }
    }

    /// Exactly `count` bytes of standard input, or nil when it ends (or
    /// fails) first.
    static func readExactly(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress! + filled, count - filled) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            filled += got
        }
        return bytes
    }
}
