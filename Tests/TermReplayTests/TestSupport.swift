import Foundation
import TermCore
import TermReplay
import TestSupport

/// The package's root directory (tests run from anywhere).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Feeds the compacted stream of `original` into a fresh terminal of its
/// size and returns the differences (empty when equal) and the stream.
func compactionDifferences(_ original: Terminal, limit: Int = 10) -> (differences: [String], bytes: [UInt8]) {
    let compact = ReplayCompactor.compact(original)
    let copy = Terminal(columns: original.columns, rows: original.rows, scrollback: original.scrollbackLimit)
    copy.feed(compact)
    return (TerminalComparison.differences(original, copy, limit: limit), compact)
}

/// A generated corpus from Corpus/generate.py, or nil when python3 is missing.
func generatedCorpus(kind: String, size: Int, seed: Int = 1, columns: Int = 80, rows: Int = 24) -> [UInt8]? {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent(
        "replay-\(kind)-\(size)-\(seed)-\(columns)x\(rows).bin")
    if let data = FileManager.default.contents(atPath: output.path), data.count > 0 { return [UInt8](data) }
    let arguments = [
        packageRoot.appendingPathComponent("Corpus/generate.py").path, "--kind", kind, "--size", "\(size)",
        "--seed", "\(seed)", "--cols", "\(columns)", "--rows", "\(rows)", "-o", output.path,
    ]
    guard let result = try? ChildProcess.run("python3", arguments), result.status == 0, !result.crashed,
        let data = FileManager.default.contents(atPath: output.path)
    else {
        return nil
    }
    return [UInt8](data)
}

let CSI = "\u{1B}["
