import Foundation
import TermCore

/// Where the shared conformance material lives: `../shared/conformance`
/// beside the project root (present on every developer machine and in CI).
enum SharedConformance {
    static let projectRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let directory = projectRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance")

    /// The folder, or nil (with a message on stderr) when it is absent.
    static func folder(_ name: String) -> URL? {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            FileHandle.standardError.write(
                Data("SKIPPED: conformance material not found at \(url.path)\n".utf8))
            return nil
        }
        return url
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
