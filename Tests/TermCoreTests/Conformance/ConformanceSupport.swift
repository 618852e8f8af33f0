import Foundation
import TermCore
import Testing

/// Where the shared conformance material lives: `../shared/conformance`
/// beside the project root (present on every developer machine and in CI),
/// or `$TERMENGINE_SHARED_DIR/conformance` when that variable is set.
///
/// A test whose material is missing is reported as skipped by the test
/// runner, never as passed (``available(_:)``, a condition trait), and fails
/// under `CI=true`, where the material is always present: it then runs, and
/// ``folder(_:)`` records what is missing and where it was looked for.
enum SharedConformance {
    static let projectRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The shared folder: `TERMENGINE_SHARED_DIR`, or `../shared`.
    static let sharedDirectory: URL = {
        if let path = ProcessInfo.processInfo.environment["TERMENGINE_SHARED_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return projectRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }()

    static let directory = sharedDirectory.appendingPathComponent("conformance")

    /// `CI=true`: missing material is a failure, not a skip.
    static let isRequired = ProcessInfo.processInfo.environment["CI"] == "true"

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    static func isPresent(_ name: String) -> Bool { FileManager.default.fileExists(atPath: url(name).path) }

    /// Runs the test when `name` is present; skips it (the runner says so,
    /// with the path) when it is not, except under `CI=true`, where the test
    /// runs and fails in ``folder(_:)``.
    static func available(_ name: String) -> ConditionTrait {
        .enabled(
            if: isPresent(name) || isRequired,
            Comment(rawValue: "conformance material not found at \(url(name).path) (under CI=true this fails)"))
    }

    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// The folder `name`; when it is absent (only reached under `CI=true`,
    /// see ``available(_:)``), a failure that says what is missing and where.
    static func folder(_ name: String) throws -> URL {
        let folder = url(name)
        guard FileManager.default.fileExists(atPath: folder.path) else {
            let origin =
                ProcessInfo.processInfo.environment["TERMENGINE_SHARED_DIR"].map { "TERMENGINE_SHARED_DIR=\($0)" }
                ?? "../shared beside \(projectRoot.path)"
            throw Missing(
                description: "conformance material '\(name)' is missing: looked for \(folder.path) (from \(origin)); "
                    + "CI=true requires it")
        }
        return folder
    }

    /// Known deviations: `key<TAB>reason` per line, `#` comments.
    static func deviations(_ fileName: String) -> [String: String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(fileName)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
        }
        return result
    }
}

extension Data {
    init?(hex: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}

/// Trailing spaces are insignificant in every expected screen.
func rightTrimmed(_ text: some StringProtocol) -> String {
    var result = String(text)
    while result.last == " " { result.removeLast() }
    return result
}
