import Foundation

/// A program of this package, run as a user runs it.
public struct PackageExecutable {
    /// What a run left.
    public struct Run {
        public var status: Int32
        /// True when the program ended by a signal (a crash), not an exit.
        public var crashed: Bool
        public var output: String
        public var errors: String
    }

    public let url: URL

    /// The executable `name`, built next to the test bundle (`swift build`
    /// builds it before `swift test` runs).
    public init(_ name: String) throws {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) {
                self.url = url
                return
            }
        }
        throw MissingExecutable(description: "\(name) is not built next to \(directory.path): run swift build first")
    }

    /// The program at `url` (a copy of one, or a link to one).
    public init(at url: URL) { self.url = url }

    /// Runs the program with `arguments` and standard input from /dev/null.
    public func run(_ arguments: [String]) throws -> Run {
        let result = try ChildProcess.run(url.path, arguments)
        return Run(
            status: result.status, crashed: result.crashed, output: String(decoding: result.output, as: UTF8.self),
            errors: String(decoding: result.errors, as: UTF8.self))
    }
}

public struct MissingExecutable: Error, CustomStringConvertible {
    public var description: String
}
