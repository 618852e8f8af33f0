import Foundation
import TermCore
import Testing

/// Replays xterm.js's escape-sequence fixtures, whose expected screens were
/// captured from a real xterm: 80×25, LF → CR LF as a PTY's ONLCR does,
/// rows compared right-trimmed. Known deviations are listed with reasons in
/// `xtermjs-deviations.tsv`; any other mismatch fails.
@Suite("Conformance: xterm.js fixtures")
struct XtermjsConformanceTests {
    @Test("Screens match xterm", SharedConformance.available("xtermjs"))
    func screensMatchXterm() throws {
        let folder = try SharedConformance.folder("xtermjs")
        let deviations = SharedConformance.deviations("xtermjs-deviations.tsv")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".in") }.sorted()
        var passed = 0
        var failures: [String] = []
        var listed: [String] = []
        for input in inputs {
            let name = String(input.dropLast(3))
            let expectedURL = folder.appendingPathComponent(name + ".text")
            // A fixture without its expected screen fails: skipping it would
            // count the set as passed with one fewer.
            guard let expectedText = try? String(contentsOf: expectedURL, encoding: .utf8) else {
                failures.append("\(name): no expected screen at \(expectedURL.path)")
                continue
            }
            let bytes = try Data(contentsOf: folder.appendingPathComponent(input))
            let terminal = Terminal(columns: 80, rows: 25)
            terminal.feed(LineDiscipline.onlcr(bytes))
            let expected = expectedText.split(separator: "\n", omittingEmptySubsequences: false).prefix(25)
                .map(rightTrimmed)
            var differences: [String] = []
            for row in 0..<25 {
                let want = row < expected.count ? expected[row] : ""
                let got = terminal.screenLine(row)
                if got != want {
                    differences.append("row \(row): want \(want.debugDescription) got \(got.debugDescription)")
                }
            }
            if differences.isEmpty {
                passed += 1
                if deviations[name] != nil {
                    failures.append("\(name): listed as a deviation but now passes; remove it from the list")
                }
            } else if let reason = deviations[name] {
                listed.append("\(name): \(reason)")
            } else {
                failures.append("\(name):\n    " + differences.prefix(6).joined(separator: "\n    "))
            }
        }
        print(
            "xterm.js harness: \(passed) of \(passed + failures.count + listed.count) cases passed, \(listed.count) listed deviations, \(failures.count) unexplained failures"
        )
        for line in listed { print("  deviation: \(line)") }
        for line in failures { print("  FAIL: \(line)") }
        #expect(failures.isEmpty, "unlisted failures:\n\(failures.joined(separator: "\n"))")
        #expect(passed >= 70)
    }
}
