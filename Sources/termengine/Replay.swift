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
    static let usage = "termengine replay FILE|- [--cols C] [--rows R] [--scrollback N] [--chunk BYTES] [--quiet]"

    static let details = """
        Feeds FILE (- for standard input) into a terminal, then prints the final screen and
        `bytes=N seconds=S mibps=X` (the time of the feed alone). A progress bar goes to standard
        error when it is a terminal and FILE is a regular file of at least \(progressThreshold >> 20) MiB.

          --cols C, --rows R   the terminal's size, each 1…1000 (default 80×24)
          --scrollback N       lines of scrollback, 0…\(Terminal.Limits.maxScrollback) (default \(Terminal.Limits.defaultScrollback))
          --chunk BYTES        feed in calls of at most BYTES (1…\(1 << 30)), as a terminal's reads of a program's
                               output deliver it (4096 for a PTY's); default: as read, \(ChunkedInput.chunkSize >> 20) MiB at a time
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
        let feedSize = try arguments.integer("--chunk", in: 1...(1 << 30), default: ChunkedInput.chunkSize)
        let quiet = arguments.flag("--quiet")
        let files = try arguments.positionals()
        guard files.count == 1 else { throw Arguments.Failure(description: "replay takes one FILE\nusage: \(usage)") }
        let input = try ReadAheadInput(files[0])
        let terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback)
        let total = input.knownSize ?? 0
        let showProgress = isatty(STDERR_FILENO) != 0 && total >= progressThreshold && !quiet

        // Fed as it is read, a chunk at a time, the next chunk read on a
        // thread of its own meanwhile (``ReadAheadInput``), in calls of at
        // most `feedSize`; the time is the feeds' alone, summed, as when the
        // input was read first (a read's calls timed together: a clock read
        // around each 4 KiB call would add about 1%).
        var fed = 0
        var elapsed = Duration.zero
        var nextProgress = progressChunk
        while true {
            let chunk = try input.next()
            if chunk.isEmpty { break }
            let start = ContinuousClock.now
            if chunk.count <= feedSize {
                terminal.feed(chunk)
            } else {
                var offset = 0
                while offset < chunk.count {
                    let end = min(offset + feedSize, chunk.count)
                    terminal.feed(UnsafeBufferPointer(rebasing: chunk[offset..<end]))
                    offset = end
                }
            }
            elapsed += start.duration(to: .now)
            fed += chunk.count
            if showProgress && fed >= nextProgress {
                drawProgress(done: fed, total: max(total, fed))
                nextProgress = fed + progressChunk
            }
        }
        if showProgress { writeStandardError("\r\u{1B}[K") }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

        if !quiet {
            for row in 0..<terminal.rows { print(terminal.screenLine(row)) }
        }
        let mibps = seconds > 0 ? Double(fed) / 1_048_576 / seconds : 0
        print("bytes=\(fed) seconds=\(fixed(seconds, digits: 6)) mibps=\(fixed(mibps, digits: 1))")
    }

    static func drawProgress(done: Int, total: Int) {
        let width = 40
        let filled = done * width / max(total, 1)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percent = done * 100 / max(total, 1)
        writeStandardError("\r[\(bar)] \(percent)%")
    }
}
