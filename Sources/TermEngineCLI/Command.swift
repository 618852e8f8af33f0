import CommandLineOptions

/// A subcommand: its one-line synopsis and what `termengine help NAME`
/// prints below it.
package struct Command {
    package let name: String
    package let usage: String
    package let details: String

    package init(name: String, usage: String, details: String) {
        self.name = name
        self.usage = usage
        self.details = details
    }

    /// The usage of `termengine NAME --help`: `usage: ` and the synopsis
    /// (its continuation lines moved right as far), a blank line, the details.
    package var help: String { "usage: \(indentingContinuations(of: usage, by: 7))\n\n\(details)" }

    /// Runs the subcommand `name` as the CLI runs each one: `--help` (or
    /// `-h`) prints `help` on standard output and exits 0; any other error
    /// is one line on standard error, `termengine NAME: reason`, and exit 2.
    package static func run(_ name: String, help: String?, _ body: () throws -> Int32) -> Int32 {
        do {
            return try body()
        } catch is Arguments.HelpRequested {
            if let help { print(help) }
            return 0
        } catch {
            writeStandardError("termengine \(name): \(error)\n")
            return 2
        }
    }
}

/// `text` with a newline and `count` spaces before each of its lines but the
/// first.
package func indentingContinuations(of text: String, by count: Int) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).joined(
        separator: "\n" + String(repeating: " ", count: count))
}

/// The subcommands that need the network (TermAttach and Foundation), which
/// run in a helper executable, so that `termengine` itself starts without
/// them (issue #21): `attach`, `sessions`, and `thumbnail --preview` (a
/// server's preview is read with the web-terminal client's JSON reader).
package enum NetworkCommands {
    /// The helper's file name; `termengine` looks for it in its own directory.
    package static let helper = "termengine-net"

    /// The synopses `termengine help` lists; the helper prints the details.
    package static let attachUsage = """
        termengine attach URL [--session ID | --new] [--cwd DIR] [--origin O] [--ca-file PEM] [--max-message BYTES]
                          [--size COLSxROWS] [--send TEXT]... [--until REGEX] [--timeout S] [--dump]
        """
    package static let sessionsUsage = "termengine sessions URL [--origin O] [--thumbnails DIR] [--timeout S]"
}
