import CommandLineOptions
import Foundation

// termengine: the command-line front end of TermEngine.

/// A subcommand: its one-line synopsis and what `termengine help NAME`
/// prints below it.
struct Command {
    let name: String
    let usage: String
    let details: String

    /// The usage of `termengine NAME --help`: `usage: ` and the synopsis
    /// (its continuation lines moved right as far), a blank line, the details.
    var help: String {
        let synopsis = usage.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: 7))
        return "usage: \(synopsis)\n\n\(details)"
    }
}

let commands = [
    Command(name: "dump", usage: DumpCommand.usage, details: DumpCommand.details),
    Command(name: "replay", usage: ReplayCommand.usage, details: ReplayCommand.details),
    Command(name: "compact", usage: CompactCommand.usage, details: CompactCommand.details),
    Command(name: "thumbnail", usage: ThumbnailCommand.usage, details: ThumbnailCommand.details),
    Command(name: "respond", usage: RespondCommand.usage, details: RespondCommand.details),
    Command(name: "sessions", usage: SessionsCommand.usage, details: SessionsCommand.details),
    Command(name: "attach", usage: AttachCommand.usage, details: AttachCommand.details),
    Command(name: "run", usage: RunCommand.usage, details: RunCommand.details),
]

/// `termengine help`: every synopsis.
let usage =
    "usage:\n"
    + (commands.map(\.usage) + ["termengine help [COMMAND]", "termengine --version"])
    .map { "  " + $0.replacingOccurrences(of: "\n", with: "\n  ") }.joined(separator: "\n")
    + "\n\n`termengine COMMAND --help` (or -h, or `termengine help COMMAND`) describes a command and its options."

func runCommandLine() -> Int32 {
    var arguments = Arguments(CommandLine.arguments.dropFirst(2))
    let command = CommandLine.arguments.dropFirst().first
    var status: Int32 = 0
    do {
        switch command {
        case "dump": try DumpCommand.run(&arguments)
        case "replay": try ReplayCommand.run(&arguments)
        case "compact": try CompactCommand.run(&arguments)
        case "thumbnail": try ThumbnailCommand.run(&arguments)
        case "respond": try RespondCommand.run(&arguments)
        case "sessions": try SessionsCommand.run(&arguments)
        case "attach": try AttachCommand.run(&arguments)
        case "run": status = try RunCommand.run(Array(CommandLine.arguments.dropFirst(2)))
        case "help", "--help", "-h":
            let topics = CommandLine.arguments.dropFirst(2)
            guard let topic = topics.first else {
                print(usage)
                return 0
            }
            guard topics.count == 1, let described = commands.first(where: { $0.name == topic }) else {
                let problem = topics.count == 1 ? "no command '\(topic)'" : "help takes one COMMAND"
                FileHandle.standardError.write(Data("termengine help: \(problem)\n\(usage)\n".utf8))
                return 2
            }
            print(described.help)
        case "--version":
            print("termengine \(TermEngineVersion.current)")
        default:
            FileHandle.standardError.write(Data("termengine: unknown command '\(command ?? "")'\n\(usage)\n".utf8))
            return 2
        }
    } catch is Arguments.HelpRequested {
        // Only a known command's arguments get this far.
        if let described = commands.first(where: { $0.name == command }) { print(described.help) }
        return 0
    } catch {
        FileHandle.standardError.write(Data("termengine \(command ?? ""): \(error)\n".utf8))
        return 2
    }
    return status
}

exit(runCommandLine())
