/// A small command-line reader: `--name VALUE`, `--name=VALUE`, flags and
/// positionals, with errors that name the argument.
struct Options {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private var remaining: [String]

    init(_ arguments: some Sequence<String>) { remaining = Array(arguments) }

    /// Removes `--name` and returns true if it was present.
    mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// Removes every `--name VALUE` and returns the last value, if any.
    mutating func value(_ name: String) throws -> String? {
        var found: String?
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if argument == name {
                guard index + 1 < remaining.count else { throw Failure("\(name) needs a value") }
                found = remaining[index + 1]
                remaining.removeSubrange(index...(index + 1))
            } else if argument.hasPrefix(name + "=") {
                found = String(argument.dropFirst(name.count + 1))
                remaining.remove(at: index)
            } else {
                index += 1
            }
        }
        return found
    }

    /// `--name VALUE` as an integer in `range`, or `defaultValue`.
    mutating func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws -> Int {
        guard let text = try value(name) else { return defaultValue }
        guard let number = Int(text), range.contains(number) else {
            throw Failure("\(name) must be a whole number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// `--name a,b,c` as a list, or nil when absent.
    mutating func list(_ name: String) throws -> [String]? {
        try value(name).map { $0.split(separator: ",").map(String.init) }
    }

    /// The positional arguments left, after refusing any unknown option.
    func positionals() throws -> [String] {
        if let unknown = remaining.first(where: { $0.hasPrefix("--") }) {
            throw Failure("unknown option \(unknown)")
        }
        return remaining
    }
}
