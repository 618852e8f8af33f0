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

    /// Runs the program with `arguments` and standard input from /dev/null.
    public func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        // Read both pipes while the child runs: a full pipe would block it.
        nonisolated(unsafe) var err = Data()
        let reader = Thread { err = errors.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        return Run(
            status: process.terminationStatus, crashed: process.terminationReason == .uncaughtSignal,
            output: String(decoding: out, as: UTF8.self), errors: String(decoding: err, as: UTF8.self))
    }
}

public struct MissingExecutable: Error, CustomStringConvertible {
    public var description: String
}
