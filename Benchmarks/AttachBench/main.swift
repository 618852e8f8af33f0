// attach-bench: the cost of the replay path. A replay is one JSON `output`
// frame of up to 16 MiB (the default message limit); the client validates its
// UTF-8 (RFC 6455 §8.1), decodes it (TermAttach's in-place decoder) and feeds
// the bytes to a Terminal. This measures that against feeding the same
// terminal bytes raw, median of several runs, and prints the ratio.
//
//   swift build -c release --product attach-bench && .build/release/attach-bench [--runs N]

import Foundation
import TermAttach
import TermCore

/// Terminal bytes much like a busy session's scrollback: coloured prompts,
/// `ls`-style listings and plain text, about one escape per ten bytes.
func makeTerminalBytes(jsonBudget: Int) -> (bytes: [UInt8], frame: [UInt8]) {
    var generator = SplitMix64(seed: 42)
    let words = ["src", "build", "README.md", "main.swift", "Package.swift", "tests", "docs", "the", "quick", "fox"]
    var bytes: [UInt8] = []
    var frame = Array(#"{"type":"output","data":"\u001b[0m"#.utf8)
    bytes += [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m")]
    let suffix = Array(#""}"#.utf8)
    while true {
        var line = ""
        switch generator.next() % 4 {
        case 0: line = "\u{1B}[1;32muser@host\u{1B}[0m:\u{1B}[1;34m~/project\u{1B}[0m$ ls -la\r\n"
        case 1:
            for _ in 0..<6 {
                let color = 31 + Int(generator.next() % 7)
                line += "\u{1B}[\(color)m\(words[Int(generator.next() % UInt64(words.count))])\u{1B}[0m  "
            }
            line += "\r\n"
        case 2: line = "compiling \(words[Int(generator.next() % UInt64(words.count))]) … ok ✓\r\n"
        default: line = "\u{1B}[2K\u{1B}[1G[\(generator.next() % 100)%] building target\r"
        }
        var escaped: [UInt8] = []
        appendEscaped(line, to: &escaped)
        if frame.count + escaped.count + suffix.count > jsonBudget { break }
        frame += escaped
        bytes += Array(line.utf8)
    }
    return (bytes, frame + suffix)
}

/// JSON string escaping as Node's JSON.stringify writes it.
func appendEscaped(_ text: String, to out: inout [UInt8]) {
    let hex = Array("0123456789abcdef".utf8)
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
        case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
        case 0x0A: out += Array(#"\n"#.utf8)
        case 0x0D: out += Array(#"\r"#.utf8)
        case 0x09: out += Array(#"\t"#.utf8)
        case 0x08: out += Array(#"\b"#.utf8)
        case 0x0C: out += Array(#"\f"#.utf8)
        case 0..<0x20: out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        default: out.append(byte)
        }
    }
}

struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

var runs = 7
if let index = CommandLine.arguments.firstIndex(of: "--runs"), index + 1 < CommandLine.arguments.count,
    let value = Int(CommandLine.arguments[index + 1]), value > 0
{
    runs = value
}

let (bytes, frame) = makeTerminalBytes(jsonBudget: WireLimits.defaultMessageLimit)
print(
    "frame: \(frame.count) bytes of JSON (limit \(WireLimits.defaultMessageLimit)), "
        + "\(bytes.count) terminal bytes (JSON/bytes = \(String(format: "%.2f", Double(frame.count) / Double(bytes.count))))"
)

let clock = ContinuousClock()
var rawTimes: [Double] = []
var replayTimes: [Double] = []
var decodeTimes: [Double] = []
for _ in 0..<runs {
    // Raw: the terminal bytes straight into a fresh terminal.
    let raw = Terminal(columns: 80, rows: 24, scrollback: 10_000)
    let rawStart = clock.now
    bytes.withUnsafeBufferPointer { raw.feed($0) }
    rawTimes.append(seconds(rawStart.duration(to: clock.now)))

    // Replay: the message as it leaves the WebSocket layer (a fresh array,
    // copied outside the timing), validated, decoded in place, fed.
    let message = Array(frame)
    let terminal = Terminal(columns: 80, rows: 24, scrollback: 10_000)
    let start = clock.now
    guard UTF8Validation.isValid(message) else { fatalError("invalid UTF-8") }
    guard case .success(.output(let data)) = WireCodec.decodeServerFrame(message) else { fatalError("not decoded") }
    let decoded = clock.now
    data.withUnsafeBufferPointer { terminal.feed($0) }
    let end = clock.now
    replayTimes.append(seconds(start.duration(to: end)))
    decodeTimes.append(seconds(start.duration(to: decoded)))
    guard terminal.screenLine(23) == raw.screenLine(23), terminal.scrollbackCount == raw.scrollbackCount else {
        fatalError("the replay and the raw feed differ")
    }
}

let rawMedian = median(rawTimes)
let replayMedian = median(replayTimes)
let decodeMedian = median(decodeTimes)
let mib = Double(frame.count) / 1_048_576
print(String(format: "raw feed:            %8.2f ms  (median of %d)", rawMedian * 1000, runs))
print(
    String(
        format: "validate+decode:     %8.2f ms  (%.0f MiB/s of JSON)", decodeMedian * 1000, mib / decodeMedian))
print(String(format: "validate+decode+feed:%8.2f ms", replayMedian * 1000))
print(String(format: "ratio (replay / raw): %.2f  (acceptance: at most 2.00)", replayMedian / rawMedian))
