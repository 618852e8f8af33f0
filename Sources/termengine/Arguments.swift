/// A minimal command-line reader: flags with values, boolean flags and
/// positional arguments, with errors that name the offending argument.
struct Arguments {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var remaining: [String]

    init(_ arguments: some Sequence<String>) { remaining = Array(arguments) }

    /// Removes `--name` and returns true if it was present.
    mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// Removes every `--name VALUE` (or `--name=VALUE`) and returns the values.
    mutating func values(_ name: String) throws -> [String] {
        var found: [String] = []
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if argument == name {
                guard index + 1 < remaining.count else { throw Failure(description: "\(name) needs a value") }
                found.append(remaining[index + 1])
                remaining.removeSubrange(index...(index + 1))
            } else if argument.hasPrefix(name + "=") {
                found.append(String(argument.dropFirst(name.count + 1)))
                remaining.remove(at: index)
            } else {
                index += 1
            }
        }
        return found
    }

    /// The last `--name VALUE` as an integer in `range`, or `defaultValue`.
    mutating func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws -> Int {
        guard let text = try values(name).last else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw Failure(
                description: "\(name) must be a whole number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// `--help` or `-h` among the arguments: the command prints its usage
    /// on standard output and exits 0.
    struct HelpRequested: Error {}

    static func isHelp(_ argument: String) -> Bool { argument == "--help" || argument == "-h" }

    /// The positional arguments left, after refusing any unknown flag.
    /// Throws ``HelpRequested`` for a `--help` or `-h` left (one given as a
    /// flag's value, `--send -h`, was taken by ``values(_:)`` already); with
    /// `onlyLeading`, only when it comes first (`run vim -h` runs `vim -h`).
    func positionals(helpOnlyLeading onlyLeading: Bool = false) throws -> [String] {
        if onlyLeading ? remaining.first.map(Self.isHelp) ?? false : remaining.contains(where: Self.isHelp) {
            throw HelpRequested()
        }
        if let unknown = remaining.first(where: { $0.hasPrefix("--") }) {
            throw Failure(description: "unknown option \(unknown)")
        }
        return remaining
    }
}
