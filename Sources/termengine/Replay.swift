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

/// `termengine replay`: feeds a whole recording, prints the final screen and a
/// throughput line. `--quiet` prints only that line, so that races between
/// whole processes measure the engine rather than the printing.
enum ReplayCommand {
    static let usage = "termengine replay FILE|- [--cols C] [--rows R] [--scrollback N] [--quiet]"

    static let details = """
        Feeds FILE (- for standard input) into a terminal, then prints the final screen and
        `bytes=N seconds=S mibps=X` (the time of the feed alone). A progress bar goes to standard
        error when it is a terminal and the input is at least \(progressThreshold >> 20) MiB.

          --cols C, --rows R   the terminal's size, each 1…1000 (default 80×24)
          --scrollback N       lines of scrollback, 0…\(Terminal.Limits.maxScrollback) (default \(Terminal.Limits.defaultScrollback))
          --quiet              print only the bytes= line, with no progress bar
        """

    /// Inputs at least this long show a progress bar when stderr is a terminal.
    static let progressThreshold = 4 << 20
    /// Bytes fed between progress updates.
    static let progressChunk = 1 << 20

    static func run(_ arguments: inout Arguments) throws {
        let columns = try arguments.integer("--cols", in: Terminal.Limits.dimensions, default: 80)
        let rows = try arguments.integer("--rows", in: Terminal.Limits.dimensions, default: 24)
        let scrollback = try arguments.integer(
            "--scrollback", in: 0...Terminal.Limits.maxScrollback, default: Terminal.Limits.defaultScrollback)
        let quiet = arguments.flag("--quiet")
        let files = try arguments.positionals()
        guard files.count == 1 else { throw Arguments.Failure(description: "replay takes one FILE\nusage: \(usage)") }
        let bytes = try readInput(files[0])
        let terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback)
        let showProgress = isatty(STDERR_FILENO) != 0 && bytes.count >= progressThreshold && !quiet

        let start = ContinuousClock.now
        bytes.withUnsafeBufferPointer { buffer in
            guard showProgress else {
                terminal.feed(buffer)
                return
            }
            var offset = 0
            while offset < buffer.count {
                let end = min(offset + progressChunk, buffer.count)
                terminal.feed(UnsafeBufferPointer(rebasing: buffer[offset..<end]))
                offset = end
                drawProgress(done: offset, total: buffer.count)
            }
            writeStandardError("\r\u{1B}[K")
        }
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

        if !quiet {
            for row in 0..<terminal.rows { print(terminal.screenLine(row)) }
        }
        let mibps = seconds > 0 ? Double(bytes.count) / 1_048_576 / seconds : 0
        print("bytes=\(bytes.count) seconds=\(fixed(seconds, digits: 6)) mibps=\(fixed(mibps, digits: 1))")
    }

    static func drawProgress(done: Int, total: Int) {
        let width = 40
        let filled = done * width / max(total, 1)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percent = done * 100 / max(total, 1)
        writeStandardError("\r[\(bar)] \(percent)%")
    }
}
