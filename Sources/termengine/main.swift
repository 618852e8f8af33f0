import Foundation

// termengine: the command-line front end of TermEngine.

let usage = """
    usage:
      \(DumpCommand.usage)
      \(ReplayCommand.usage)
      \(CompactCommand.usage)
      \(ThumbnailCommand.usage)
      \(RespondCommand.usage)
      \(SessionsCommand.usage)
      \(AttachCommand.usage)
      \(RunCommand.usage)
    """

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
            print(usage)
        default:
            FileHandle.standardError.write(Data("termengine: unknown command '\(command ?? "")'\n\(usage)\n".utf8))
            return 2
        }
    } catch {
        FileHandle.standardError.write(Data("termengine \(command ?? ""): \(error)\n".utf8))
        return 2
    }
    return status
}

exit(runCommandLine())
