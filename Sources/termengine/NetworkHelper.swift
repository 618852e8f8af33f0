import TermEngineCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The subcommands that need the network run in `termengine-net`, a second
/// executable installed beside this one: `termengine` execs it in its own
/// place with the same arguments, so its output, messages and exit status are
/// the command's. Keeping TermAttach (and Foundation, with its networking and
/// its ICU data) out of this executable is what makes `replay` start in a
/// few milliseconds (docs/PERFORMANCE.md, "Start-up and footprint").
enum NetworkHelper {
    /// Whether the helper runs this command line: `attach`, `sessions`,
    /// `thumbnail` with `--preview` (the helper's thumbnail is the whole
    /// command, so a `--preview` that is another option's value only costs
    /// the helper's start), and `help` of the first two.
    static func runs(_ command: String?, _ arguments: [String]) -> Bool {
        switch command {
        case "attach", "sessions": return true
        case "thumbnail": return arguments.contains("--preview")
        case "help", "--help", "-h": return arguments == ["attach"] || arguments == ["sessions"]
        default: return false
        }
    }

    /// Replaces this process with the helper; returns only when that fails,
    /// with `env`'s statuses: 127 when there is no helper, 126 when it
    /// cannot be run.
    static func run(_ command: String, _ arguments: [String]) -> Int32 {
        let name = command.hasPrefix("-") ? "help" : command
        let what: String
        switch name {
        case "help": what = "help " + arguments.joined(separator: " ")
        case "thumbnail": what = "thumbnail --preview"
        default: what = name
        }
        guard let directory = executableDirectory() else {
            writeStandardError(
                "termengine \(name): \(what) runs in \(NetworkCommands.helper), but the directory of this executable, "
                    + "where it would be, cannot be found\n")
            return 127
        }
        let path = (directory == "/" ? "" : directory) + "/" + NetworkCommands.helper
        var pointers = ([path] + CommandLine.arguments.dropFirst()).map { strdup($0) }
        pointers.append(nil)
        fflush(nil)
        execv(path, pointers)
        let failure = errno
        for pointer in pointers { free(pointer) }
        if failure == ENOENT {
            writeStandardError(
                "termengine \(name): \(what) runs in \(NetworkCommands.helper), which is missing (no \(path)): "
                    + "build it with `swift build --product \(NetworkCommands.helper)` (`swift build` alone builds both) "
                    + "and keep it in the same directory as termengine\n")
            return 127
        }
        writeStandardError(
            "termengine \(name): \(what) runs in \(NetworkCommands.helper), which cannot be run: \(path): "
                + "\(String(cString: strerror(failure)))\n")
        return 126
    }

    /// The directory of this executable, symbolic links resolved, so that a
    /// link to termengine elsewhere (on PATH) still finds the helper beside
    /// the real file.
    static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        #if os(Linux)
            // The kernel's own record of the executable, links resolved.
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #elseif canImport(Darwin)
            var size = UInt32(buffer.count)
            guard _NSGetExecutablePath(&buffer, &size) == 0, let resolved = realpath(buffer, nil) else { return nil }
            let path = String(cString: resolved)
            free(resolved)
        #else
            // Elsewhere: the path this process was started by, if it has one.
            guard let first = CommandLine.arguments.first, first.contains("/"),
                let resolved = realpath(first, nil)
            else { return nil }
            let path = String(cString: resolved)
            free(resolved)
        #endif
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
