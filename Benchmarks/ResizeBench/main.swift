// resize-bench: shows that resizing (with reflow) costs time linear in the
// scrollback. For growing scrollbacks it fills a 200×50 terminal, then times
// a reflowing resize to 80×24 and back, and prints the median and the cost
// per stored line: a flat per-line column means linear.
//
//   swift run -c release resize-bench

import Foundation
import TermCore

func line(_ index: Int) -> String {
    "line \(index) " + String(repeating: "x", count: index % 180) + "\r\n"
}

func seconds(_ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    let elapsed = start.duration(to: .now)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

let runs = 5
print("scrollback_lines  median_ms  ns_per_line")
var results: [[String: Double]] = []
for lines in [1_250, 2_500, 5_000, 10_000, 20_000] {
    var input = ""
    for index in 0..<lines + 50 { input += line(index) }
    let bytes = Array(input.utf8)
    var samples: [Double] = []
    for _ in 0..<runs {
        let terminal = Terminal(columns: 200, rows: 50, scrollback: lines)
        terminal.feed(bytes)
        samples.append(
            seconds {
                terminal.resize(columns: 80, rows: 24)
                terminal.resize(columns: 200, rows: 50)
            })
    }
    samples.sort()
    let median = samples[runs / 2]
    let perLine = median / Double(lines) * 1e9
    results.append(["lines": Double(lines), "median_seconds": median, "ns_per_line": perLine])
    print(String(format: "%16d  %9.2f  %11.0f", lines, median * 1e3, perLine))
}
let ratio = results.last!["ns_per_line"]! / results.first!["ns_per_line"]!
print(
    String(
        format: "cost per line, largest vs smallest scrollback: %.2fx (1.0 = linear; quadratic would be %.0fx)",
        ratio, results.last!["lines"]! / results.first!["lines"]!))
