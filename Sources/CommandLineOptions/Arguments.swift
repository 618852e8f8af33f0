/// A minimal command-line reader: flags with values, boolean flags and
/// positional arguments, with errors that name the offending argument.
///
/// The one reader of the `termengine` CLI and of the `termbench`
/// benchmark; `package`, not a product. Its messages are part of the CLI's
/// contract (Tests/TermAttachTests/CLITests.swift pins them).
package struct Arguments {
    /// A refused argument; `description` is the one line printed after
    /// the command's name.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        package init(description: String) { self.description = description }
        package init(_ description: String) { self.description = description }
    }

    private var remaining: [String]

    // A slice, not `some Sequence<String>`: a generic Array(_:) left
    // unspecialised across the module boundary cost ~0.3M instructions
    // at every start (callgrind, termbench feed).
    package init(_ arguments: ArraySlice<String>) { remaining = Array(arguments) }

    /// Removes `--name` and returns true if it was present.
    package mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// Removes every `--name VALUE` (or `--name=VALUE`) and returns the values.
    package mutating func values(_ name: String) throws -> [String] {
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

    /// Removes every `--name VALUE` and returns the last value, if any.
    package mutating func value(_ name: String) throws -> String? { try values(name).last }

    /// The last `--name a,b,c` as a list, or nil when absent.
    package mutating func list(_ name: String) throws -> [String]? {
        try value(name).map { $0.split(separator: ",").map(String.init) }
    }

    /// The last `--name VALUE` as an integer in `range`, or `defaultValue`.
    package mutating func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws -> Int {
        guard let text = try values(name).last else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw Failure(
                description: "\(name) must be a whole number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// `--help` or `-h` among the arguments: the command prints its usage
    /// on standard output and exits 0.
    package struct HelpRequested: Error {
        package init() {}
    }

    static func isHelp(_ argument: String) -> Bool { argument == "--help" || argument == "-h" }

    /// The positional arguments left, after refusing any unknown flag.
    /// Throws ``HelpRequested`` for a `--help` or `-h` left (one given as a
    /// flag's value, `--send -h`, was taken by ``values(_:)`` already); with
    /// `onlyLeading`, only when it comes first (`run vim -h` runs `vim -h`).
    package func positionals(helpOnlyLeading onlyLeading: Bool = false) throws -> [String] {
        if onlyLeading ? remaining.first.map(Self.isHelp) ?? false : remaining.contains(where: Self.isHelp) {
            throw HelpRequested()
        }
        if let unknown = remaining.first(where: { $0.hasPrefix("--") }) {
            throw Failure(description: "unknown option \(unknown)")
        }
        return remaining
    }
}
