import Foundation
import TestSupport
import Testing

/// `termengine --help`, `termengine help CMD`, `termengine CMD --help` and
/// `termengine --version`, run as a user runs them: usage on standard
/// output, nothing on standard error, exit 0.
@Suite("termengine help and version")
struct CLIHelpTests {
    /// Every subcommand of `termengine`. The overview must list exactly
    /// these (a new command without a help test fails below).
    static let commands = ["dump", "replay", "compact", "thumbnail", "respond", "sessions", "attach", "run"]

    static func run(_ arguments: [String]) throws -> PackageExecutable.Run {
        try PackageExecutable("termengine").run(arguments)
    }

    static func expectUsage(_ run: PackageExecutable.Run, of command: String, _ how: String) {
        #expect(!run.crashed && run.status == 0, "\(how): status \(run.status), \(run.errors)")
        #expect(run.errors.isEmpty, "\(how) wrote to standard error: \(run.errors)")
        #expect(run.output.hasPrefix("usage: termengine \(command) "), "\(how): \(run.output.prefix(200))")
        // The synopsis, then a blank line and the options.
        #expect(run.output.contains("\n\n"), "\(how) has no description below the synopsis")
    }

    @Test("CMD --help, CMD -h and help CMD print CMD's usage on standard output and exit 0", arguments: commands)
    func commandHelp(_ command: String) throws {
        let long = try Self.run([command, "--help"])
        Self.expectUsage(long, of: command, "\(command) --help")
        let short = try Self.run([command, "-h"])
        Self.expectUsage(short, of: command, "\(command) -h")
        #expect(short.output == long.output)
        let topic = try Self.run(["help", command])
        Self.expectUsage(topic, of: command, "help \(command)")
        #expect(topic.output == long.output)
    }

    @Test("--help after other options still prints the usage")
    func helpAmongOptions() throws {
        Self.expectUsage(
            try Self.run(["dump", "--cols", "40", "--attrs", "--help"]), of: "dump", "dump --cols 40 --help")
        Self.expectUsage(
            try Self.run(["run", "--size", "40x10", "--help", "--", "sh"]), of: "run", "run --size 40x10 --help -- sh")
    }

    @Test("the program's own -h after run's command is the program's, not run's")
    func runPassesHelpOn() throws {
        // No terminal on standard input here: run refuses to start, so the
        // arguments were taken as a command, not as a request for help.
        for arguments in [["run", "sh", "-h"], ["run", "--", "sh", "--help"]] {
            let run = try Self.run(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.output.isEmpty, "\(arguments): \(run.output)")
            #expect(run.errors == "termengine run: run needs a terminal on standard input and output\n")
        }
    }

    @Test("--help, -h and help print the overview, which lists every command", arguments: ["--help", "-h", "help"])
    func overview(_ flag: String) throws {
        let run = try Self.run([flag])
        #expect(run.status == 0 && run.errors.isEmpty, "\(run.errors)")
        #expect(run.output.hasPrefix("usage:\n"))
        let listed = run.output.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard words.count >= 2, words[0] == "termengine", !words[1].hasPrefix("-") else { return nil }
            return String(words[1])
        }
        #expect(listed == Self.commands + ["help"])
        #expect(run.output.contains("termengine --version"))
    }

    @Test("help for no such command fails on standard error with the overview")
    func unknownTopic() throws {
        let run = try Self.run(["help", "nosuch"])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("termengine help: no command 'nosuch'\nusage:\n"))
    }

    @Test("--version prints termengine X.Y.Z, the newest version in CHANGELOG.md")
    func version() throws {
        let run = try Self.run(["--version"])
        #expect(run.status == 0 && run.errors.isEmpty, "\(run.errors)")
        let parts = run.output.split(separator: " ")
        #expect(parts.count == 2 && parts[0] == "termengine", "\(run.output)")
        let version = parts.last.map { String($0.dropLast()) } ?? ""  // the newline
        #expect(run.output == "termengine \(version)\n")
        #expect(version.split(separator: ".").count == 3 && version.split(separator: ".").allSatisfy { Int($0) != nil })

        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        // The first `## X.Y.Z` heading (not "## Unreleased" or the promise's).
        let newest = changelog.split(separator: "\n").first {
            $0.hasPrefix("## ") && $0.dropFirst(3).first?.isNumber == true
        }
        #expect(newest?.hasPrefix("## \(version)") == true, "CHANGELOG.md's newest entry: \(newest ?? "none")")
    }
}
