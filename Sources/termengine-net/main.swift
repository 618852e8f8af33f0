import CommandLineOptions
import TermAttach
import TermEngineCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// termengine-net: the subcommands of `termengine` that need the network
// (TermAttach, and with it Foundation), kept out of `termengine` itself so
// that it starts without them (issue #21). `termengine` runs this program in
// its own place, with the same arguments, for `attach`, `sessions`,
// `thumbnail --preview` and their help; its messages and exit statuses are
// termengine's.

let commands = [
    Command(name: "sessions", usage: SessionsCommand.usage, details: SessionsCommand.details),
    Command(name: "attach", usage: AttachCommand.usage, details: AttachCommand.details),
    Command(name: "thumbnail", usage: ThumbnailCommand.usage, details: ThumbnailCommand.details),
]

/// A server's session preview through the web-terminal client's reader.
func readPreview(_ json: [UInt8]) throws -> (columns: Int, rows: Int, data: ArraySlice<UInt8>) {
    let preview = try Preview(json: json)
    return (preview.columns, preview.rows, preview.cleanData)
}

func runCommandLine() -> Int32 {
    var arguments = Arguments(CommandLine.arguments.dropFirst(2))
    let command = CommandLine.arguments.dropFirst().first ?? ""
    let topics = Array(CommandLine.arguments.dropFirst(2))
    if command == "help", topics.count == 1, let described = commands.first(where: { $0.name == topics[0] }) {
        print(described.help)
        return 0
    }
    guard let described = commands.first(where: { $0.name == command }) else {
        writeStandardError(
            "\(NetworkCommands.helper): runs termengine's attach, sessions and thumbnail --preview, "
                + "as `termengine COMMAND`; no command '\(command)'\n")
        return 2
    }
    return Command.run(command, help: described.help) {
        switch command {
        case "sessions": try SessionsCommand.run(&arguments)
        case "attach": try AttachCommand.run(&arguments)
        default: try ThumbnailCommand.run(&arguments, readPreview: readPreview)
        }
        return 0
    }
}

exit(runCommandLine())
