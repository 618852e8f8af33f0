// SwiftTerm (the copy in ../shared/anchors/SwiftTerm) under the TermBench harness protocol:
//
//   swiftterm-harness FILE COLS ROWS [--runs N] [--warmup N] [--scrollback N] [--chunk N] [--dump]
//
// Each run creates a `Terminal` with a delegate that discards everything
// (replies to queries included), feeds the file in two halves through
// `Terminal.feed(buffer:)` and times only the feed; allocations are counted
// during the second half (Benchmarks/CAllocCounter, as in termbench and the
// libvterm harness). `--chunk N` (N > 0) feeds each half in calls of at most
// N bytes, as a terminal hands on what one read() of its PTY returned.
// Output: see Benchmarks/reference/rust/harness-common/src/lib.rs.

import CAllocCounter
import Foundation
import SwiftTerm

#if canImport(Glibc)
    import Glibc
#endif

/// The least an embedder must provide: every callback does nothing.
final class SilentDelegate: TerminalDelegate {
    func send(source: Terminal, data: ArraySlice<UInt8>) {}
}

struct Settings {
    var path = ""
    var columns = 0
    var rows = 0
    var runs = 5
    var warmup = 1
    var scrollback = 10_000
    var chunk = 0
    var dump = false
}

/// Writes to standard error (fd 2: glibc's `stderr` is a mutable global,
/// which strict concurrency refuses).
func complain(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

func usage() -> Never {
    let text = "usage: swiftterm-harness FILE COLS ROWS [--runs N] [--warmup N] [--scrollback N] [--chunk N] [--dump]\n"
    complain(text)
    exit(2)
}

func parse() -> Settings {
    var settings = Settings()
    var positionals: [String] = []
    var arguments = CommandLine.arguments.dropFirst().makeIterator()
    func number() -> Int {
        guard let text = arguments.next(), let value = Int(text), value >= 0 else { usage() }
        return value
    }
    while let argument = arguments.next() {
        switch argument {
        case "--runs": settings.runs = max(number(), 1)
        case "--warmup": settings.warmup = number()
        case "--scrollback": settings.scrollback = number()
        case "--chunk": settings.chunk = number()
        case "--dump": settings.dump = true
        default: positionals.append(argument)
        }
    }
    guard positionals.count == 3, let columns = Int(positionals[1]), let rows = Int(positionals[2]), columns > 0,
        rows > 0
    else { usage() }
    settings.path = positionals[0]
    settings.columns = columns
    settings.rows = rows
    return settings
}

/// The whole file in one array, read before any timing.
func readFile(_ path: String) -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
        complain("swiftterm-harness: cannot read \(path)\n")
        exit(2)
    }
    defer { close(descriptor) }
    var info = stat()
    fstat(descriptor, &info)
    let size = Int(info.st_size)
    return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        while count < size {
            let got = read(descriptor, buffer.baseAddress! + count, size - count)
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            count += got
        }
    }
}

func makeTerminal(_ settings: Settings, delegate: SilentDelegate) -> Terminal {
    let options = TerminalOptions(cols: settings.columns, rows: settings.rows, scrollback: settings.scrollback)
    return Terminal(delegate: delegate, options: options)
}

/// Feeds `bytes` whole, or in calls of at most `chunk` bytes.
func feed(_ terminal: Terminal, _ bytes: ArraySlice<UInt8>, chunk: Int) {
    guard chunk > 0 else {
        terminal.feed(buffer: bytes)
        return
    }
    var start = bytes.startIndex
    while start < bytes.endIndex {
        let end = min(start + chunk, bytes.endIndex)
        terminal.feed(buffer: bytes[start..<end])
        start = end
    }
}

/// The text `screen=` hashes: each visible row with trailing spaces trimmed,
/// then "\n"; a wide character once (its second cell, width 0, skipped), an
/// empty cell as a space, as in the other harnesses.
func screenText(_ terminal: Terminal) -> String {
    var text = ""
    for row in 0..<terminal.rows {
        var line = ""
        if let bufferLine = terminal.getLine(row: row) {
            for column in 0..<terminal.cols {
                let cell = bufferLine[column]
                if cell.width == 0 { continue }
                let character = cell.getCharacter()
                line.append(character == "\u{0}" ? " " : character)
            }
        }
        while line.last == " " { line.removeLast() }
        text += line + "\n"
    }
    return text
}

func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func peakResidentKiB() -> Int {
    guard let status = fopen("/proc/self/status", "r") else { return 0 }
    defer { fclose(status) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), status) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmHWM:") {
            return Int(text.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
        }
    }
    return 0
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func hex16(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}

struct Run {
    var seconds: Double
    var heapBytes: Int
    var allocations: UInt64
    var allocatedBytes: UInt64
    var scrollback: Int
    var screen: UInt64
}

func runOnce(_ settings: Settings, _ bytes: [UInt8]) -> Run {
    let half = bytes.count / 2
    let delegate = SilentDelegate()
    let heapBefore = termbench_heap_in_use()
    let terminal = makeTerminal(settings, delegate: delegate)
    let start = now()
    feed(terminal, bytes[..<half], chunk: settings.chunk)
    let before = termbench_alloc_counts_now()
    feed(terminal, bytes[half...], chunk: settings.chunk)
    let after = termbench_alloc_counts_now()
    let seconds = now() - start
    let heapAfter = termbench_heap_in_use()
    let screen = fnv1a(screenText(terminal))
    // The normal screen's lines above the first visible row: its scrollback
    // (yDisp follows the output while nobody scrolls the view).
    let scrollback = terminal.isCurrentBufferAlternate ? 0 : terminal.buffer.yDisp
    return Run(
        seconds: seconds, heapBytes: Int(heapAfter) - Int(heapBefore),
        allocations: after.allocations - before.allocations, allocatedBytes: after.bytes - before.bytes,
        scrollback: scrollback, screen: screen)
}

let settings = parse()
let bytes = readFile(settings.path)
if settings.dump {
    let delegate = SilentDelegate()
    let terminal = makeTerminal(settings, delegate: delegate)
    feed(terminal, bytes[...], chunk: settings.chunk)
    print(screenText(terminal), terminator: "")
    print("scrollback=\(terminal.buffer.yDisp)")
    exit(0)
}
var runs: [Run] = []
for index in 0..<(settings.warmup + settings.runs) {
    let run = runOnce(settings, bytes)
    if index >= settings.warmup { runs.append(run) }
}
let mebibytes = Double(bytes.count) / 1_048_576
let last = runs[runs.count - 1]
let rates = runs.map { mebibytes / $0.seconds }
let fields = [
    "bytes=\(bytes.count)",
    "seconds=\(String(format: "%.6f", median(runs.map(\.seconds))))",
    "mibps=\(String(format: "%.1f", median(rates)))",
    "mibps_best=\(String(format: "%.1f", rates.max() ?? 0))",
    "runs=\(runs.count)",
    "heap_bytes=\(last.heapBytes)",
    "allocs=\(termbench_alloc_counter_active() != 0 ? String(last.allocations) : "-1")",
    "alloc_bytes=\(last.allocatedBytes)",
    "peak_rss_kib=\(peakResidentKiB())",
    "scrollback=\(last.scrollback)",
    "screen=\(hex16(last.screen))",
]
print(fields.joined(separator: " "))
