import CommandLineOptions
import TermCore
import TermEngineCLI
import TermReplay

/// `termengine compact`: the shortest stream found that rebuilds the final
/// state of a replay (see ``ReplayCompactor``).
enum CompactCommand {
    /// `--verify` feeds the stream into a fresh terminal and checks that it
    /// rebuilds the same state and that compacting it again gives the same
    /// bytes.
    static let usage = "termengine compact FILE|- [--cols C] [--rows R] [--scrollback N] [--verify] -o OUT|-"

    static let details = """
        Replays FILE (- for standard input) and writes to OUT (- for standard output) the shortest
        stream found that rebuilds its final state in a fresh terminal of the same size; then
        prints `bytes=N compact=M ratio=P%` on standard error.

          --cols C, --rows R   the terminal's size, each 1…1000 (default 80×24)
          --scrollback N       lines of scrollback, 0…\(Terminal.Limits.maxScrollback) (default \(Terminal.Limits.defaultScrollback))
          --verify             feed OUT into a fresh terminal: it must rebuild the same state, and
                               compacting it again must give the same bytes (else exit 2 with the
                               differences)
          -o OUT, --output OUT where to write the stream
        """

    static func run(_ arguments: inout Arguments) throws {
        let columns = try arguments.integer("--cols", in: Terminal.Limits.dimensions, default: 80)
        let rows = try arguments.integer("--rows", in: Terminal.Limits.dimensions, default: 24)
        let scrollback = try arguments.integer(
            "--scrollback", in: 0...Terminal.Limits.maxScrollback, default: Terminal.Limits.defaultScrollback)
        let verify = arguments.flag("--verify")
        let outputs = try arguments.values("-o") + arguments.values("--output")
        let files = try arguments.positionals()
        guard files.count == 1, outputs.count == 1 else {
            throw Arguments.Failure(description: "compact takes one FILE and one -o OUT\nusage: \(usage)")
        }
        let bytes = try readInput(files[0])
        let terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback)
        terminal.feed(bytes)
        let compact = ReplayCompactor.compact(terminal, startColumns: columns)
        try writeOutput(compact, to: outputs[0])
        let ratio = bytes.isEmpty ? 0 : Double(compact.count) * 100 / Double(bytes.count)
        var report = "bytes=\(bytes.count) compact=\(compact.count) ratio=\(fixed(ratio, digits: 2))%"
        if verify {
            let copy = Terminal(columns: columns, rows: rows, scrollback: scrollback)
            copy.feed(compact)
            var differences = TerminalComparison.differences(terminal, copy)
            // Compacting the rebuilt terminal must give the same bytes.
            let again = ReplayCompactor.compact(copy, startColumns: columns)
            if again != compact {
                let at = compact.indices.first { $0 >= again.count || compact[$0] != again[$0] } ?? compact.count
                differences.append(
                    "compacting the rebuilt terminal gives \(again.count) bytes, not \(compact.count); they differ from byte \(at)"
                )
            }
            report += differences.isEmpty ? " verified" : "\n" + differences.joined(separator: "\n")
            if !differences.isEmpty {
                writeStandardError(report + "\n")
                throw Arguments.Failure(
                    description: "the compacted stream differs (\(differences.count) differences shown)")
            }
        }
        writeStandardError(report + "\n")
    }
}
