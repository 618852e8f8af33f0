import CommandLineOptions
import TermEngineCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// termengine: the command-line front end of TermEngine. It links neither
// TermAttach nor Foundation (issue #21): the subcommands that need the
// network run in the helper next to it (`NetworkCommands`, NetworkHelper.swift).

let commands = [
    Command(name: "dump", usage: DumpCommand.usage, details: DumpCommand.details),
    Command(name: "replay", usage: ReplayCommand.usage, details: ReplayCommand.details),
    Command(name: "compact", usage: CompactCommand.usage, details: CompactCommand.details),
    Command(name: "thumbnail", usage: ThumbnailCommand.usage, details: ThumbnailCommand.details),
    Command(name: "respond", usage: RespondCommand.usage, details: RespondCommand.details),
    // Described by the helper, which runs them.
    Command(name: "sessions", usage: NetworkCommands.sessionsUsage, details: ""),
    Command(name: "attach", usage: NetworkCommands.attachUsage, details: ""),
    Command(name: "run", usage: RunCommand.usage, details: RunCommand.details),
]

/// `termengine help`: every synopsis.
let usage =
    "usage:\n"
    + (commands.map(\.usage) + ["termengine help [COMMAND]", "termengine --version"])
    .map { "  " + indentingContinuations(of: $0, by: 2) }.joined(separator: "\n")
    + "\n\n`termengine COMMAND --help` (or -h, or `termengine help COMMAND`) describes a command and its options."

func runCommandLine() -> Int32 {
    let command = CommandLine.arguments.dropFirst().first
    let rest = Array(CommandLine.arguments.dropFirst(2))
    if NetworkHelper.runs(command, rest) { return NetworkHelper.run(command ?? "", rest) }
    var arguments = Arguments(rest[...])
    let help = commands.first(where: { $0.name == command })?.help
    switch command {
    case "help", "--help", "-h":
        guard let topic = rest.first else {
            print(usage)
            return 0
        }
        guard rest.count == 1, let described = commands.first(where: { $0.name == topic }) else {
            let problem = rest.count == 1 ? "no command '\(topic)'" : "help takes one COMMAND"
            writeStandardError("termengine help: \(problem)\n\(usage)\n")
            return 2
        }
        print(described.help)
        return 0
    case "--version":
        print("termengine \(TermEngineVersion.current)")
        return 0
    case "dump", "replay", "compact", "thumbnail", "respond", "run":
        return Command.run(command!, help: help) {
            switch command {
            case "dump": try DumpCommand.run(&arguments)
            case "replay": try ReplayCommand.run(&arguments)
            case "compact": try CompactCommand.run(&arguments)
            case "thumbnail": try ThumbnailCommand.run(&arguments, readPreview: nil)
            case "respond": try RespondCommand.run(&arguments)
            default: return try RunCommand.run(rest)
            }
            return 0
        }
    default:
        writeStandardError("termengine: unknown command '\(command ?? "")'\n\(usage)\n")
        return 2
    }
}

exit(runCommandLine())
