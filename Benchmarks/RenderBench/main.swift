import Foundation
import TermCore
@_spi(Benchmarks) import TermRender
import TermReplay

// render-bench: thumbnails per second from 24 KB previews, snapshot cost
// with 0, 1 and all rows changed, feed throughput while another thread
// snapshots 60 times a second, and the size ratio of replay compaction.
// Build with -c release; inputs are generated, so every run is the same.

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Seeded output like a busy shell session: coloured listings, prompts,
/// CJK text, cursor motion.
func sessionOutput(bytes: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    func next() -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(truncatingIfNeeded: state >> 33)
    }
    var out: [UInt8] = []
    let words = ["alpha", "beta", "render", "cursor", "glyph", "漢字", "palette", "scroll"]
    while out.count < bytes {
        switch next() % 6 {
        case 0: out += Array("\u{1B}[1;32muser@host\u{1B}[0m:\u{1B}[1;34m~/src\u{1B}[0m$ make\r\n".utf8)
        case 1: out += Array("\u{1B}[38;5;\(next() % 256)m\(words[next() % words.count])\u{1B}[0m ".utf8)
        case 2: out += Array("\u{1B}[\(next() % 24 + 1);\(next() % 80 + 1)H\(words[next() % words.count])".utf8)
        case 3:
            out += Array("-rw-r--r-- 1 user user \(next() % 99999) Nov 30 \(words[next() % words.count]).txt\r\n".utf8)
        default:
            out += Array(
                "\u{1B}[48;2;\(next() % 256);\(next() % 256);\(next() % 256)m \u{1B}[0m\(words[next() % words.count])"
                    .utf8)
        }
    }
    return Array(out.prefix(bytes))
}

/// 24 KB previews cut at an arbitrary byte, as the server sends them.
let previews = (0..<8).map { seed -> [UInt8] in
    let output = sessionOutput(bytes: 40_000, seed: UInt64(seed + 1))
    return Array(output[(output.count - 24_576 + seed * 7)...])
}

/// This thread's CPU time in seconds: on a machine other work shares,
/// thumbnails per CPU-second is what one core of its own would do, where
/// thumbnails per wall-clock second is also the share of the core we got.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Thumbnails of one size a wall-clock second and a CPU-second, over
/// `duration` seconds, and bytes each.
func thumbnailRate(_ size: ThumbnailRenderer.Size, duration: Double) -> (rate: Double, cpuRate: Double, bytes: Int) {
    var count = 0
    var bytes = 0
    let start = ContinuousClock.now
    let cpuStart = threadCPUSeconds()
    while seconds(start.duration(to: .now)) < duration {
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 0)
        terminal.feed(previews[count % previews.count])
        bytes += ThumbnailRenderer.png(terminal.snapshot(), size: size).count
        count += 1
    }
    let cpu = threadCPUSeconds() - cpuStart
    return (Double(count) / seconds(start.duration(to: .now)), Double(count) / max(cpu, 1e-9), bytes / max(1, count))
}

let thumbnailSizes = [("minimap", ThumbnailRenderer.Size.minimap), ("full", ThumbnailRenderer.Size.full)]

func thumbnailBenchmark() {
    for (name, size) in thumbnailSizes {
        let result = thumbnailRate(size, duration: 2)
        // The words up to "bytes each" are what `--base` parses in an older build's output.
        print(
            "thumbnail \(name) 80x24 from 24 KB previews: \(String(format: "%.0f", result.rate)) per second"
                + " (feed + snapshot + raster + PNG, one core), \(result.bytes) bytes each;"
                + " \(String(format: "%.0f", result.cpuRate)) per CPU-second")
    }
}

/// `render-bench thumbnail --base PATH [--rounds N]`: this build and an
/// earlier build's render-bench (PATH; Benchmarks/render-bench-base.sh
/// builds one from a git revision) in alternating rounds, so both see the
/// same machine load, then the medians side by side. The base is run as a
/// child process whose `thumbnail` lines are parsed, so any revision with
/// that output (all since the thumbnails came) can be the base.
func thumbnailComparison(base: String, rounds: Int) {
    var ours: [String: [Double]] = [:]
    var oursCPU: [String: [Double]] = [:]
    var theirs: [String: [Double]] = [:]
    var ourBytes: [String: Int] = [:]
    var theirBytes: [String: Int] = [:]
    for round in 1...rounds {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: base)
        process.arguments = ["thumbnail"]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch {
            print("render-bench: cannot run the base \(base): \(error)")
            return
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        for line in output.split(separator: "\n") {
            // "thumbnail NAME 80x24 from 24 KB previews: RATE per second (...), BYTES bytes each"
            let words = line.split(separator: " ")
            guard words.count > 8, words[0] == "thumbnail", let rate = Double(words[7]) else { continue }
            theirs[String(words[1]), default: []].append(rate)
            if let bytesIndex = words.firstIndex(of: "bytes"), let bytes = Int(words[bytesIndex - 1]) {
                theirBytes[String(words[1])] = bytes
            }
        }
        for (name, size) in thumbnailSizes {
            let result = thumbnailRate(size, duration: 2)
            ours[name, default: []].append(result.rate)
            oursCPU[name, default: []].append(result.cpuRate)
            ourBytes[name] = result.bytes
        }
        let summary = thumbnailSizes.map { name, _ in
            "\(name) \(String(format: "%.0f", theirs[name]?.last ?? 0)) -> \(String(format: "%.0f", ours[name]?.last ?? 0))"
        }
        print("round \(round)/\(rounds): " + summary.joined(separator: ", "))
    }
    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
    print("thumbnails per second, one core, medians of \(rounds) alternating rounds (base: \(base))")
    print("size     base/s  this build/s  ratio  this build per CPU-second  bytes base -> this")
    for (name, _) in thumbnailSizes {
        let before = median(theirs[name] ?? [])
        let after = median(ours[name] ?? [])
        print(
            name.padding(toLength: 8, withPad: " ", startingAt: 0)
                + String(format: " %6.0f  %12.0f  %5.2fx", before, after, before > 0 ? after / before : 0)
                + String(format: "  %25.0f", median(oursCPU[name] ?? []))
                + "  \(theirBytes[name] ?? 0) -> \(ourBytes[name] ?? 0)")
    }
}

/// `render-bench png-tune`: the PNG encoding of the benchmark's full-size
/// screens with each row filter, zlib level and strategy: encodes a second
/// and bytes, the measurement behind `PNGWriter.defaultLevel` and its filter.
func pngTuning() {
    let screens = previews.map { preview -> Snapshot in
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 0)
        terminal.feed(preview)
        return terminal.snapshot()
    }
    let pictures = screens.map { ThumbnailRenderer.indexedPicture($0) }
    print(
        "filter  level  strategy  encodes per CPU-second  bytes (mean of \(pictures.count) screens, 640x384, indexed)")
    for filter in ["none", "sub", "up"] {
        for level: Int32 in [1, 3, 6, 9] {
            for strategy in ["default", "rle"] {
                var count = 0
                var bytes = 0
                let start = ContinuousClock.now
                let cpuStart = threadCPUSeconds()
                while seconds(start.duration(to: .now)) < 0.5 {
                    let picture = pictures[count % pictures.count]
                    bytes +=
                        ThumbnailRenderer.encodeForTuning(
                            picture, filter: filter, level: level, runLengthOnly: strategy == "rle"
                        ).count
                    count += 1
                }
                let rate = Double(count) / max(threadCPUSeconds() - cpuStart, 1e-9)
                print(
                    filter.padding(toLength: 8, withPad: " ", startingAt: 0)
                        + String(format: "%5d  ", level) + strategy.padding(toLength: 8, withPad: " ", startingAt: 0)
                        + String(format: "  %22.0f  %d", rate, bytes / count))
            }
        }
    }
}

func snapshotBenchmark() {
    let terminal = Terminal(columns: 200, rows: 50, scrollback: 1000)
    terminal.feed(sessionOutput(bytes: 200_000, seed: 9))
    _ = terminal.snapshot()
    let iterations = 20_000
    func measure(_ name: String, _ change: () -> Void) {
        let start = ContinuousClock.now
        var keep = 0
        for _ in 0..<iterations {
            change()
            keep &+= terminal.snapshot().rows
        }
        let nanoseconds = seconds(start.duration(to: .now)) / Double(iterations) * 1e9
        print(
            "snapshot 200x50, \(name): \(String(format: "%.0f", nanoseconds)) ns (including the change)\(keep == 0 ? "!" : "")"
        )
    }
    measure("0 rows changed") {}
    let one = Array("\u{1B}[10;10HX".utf8)
    measure("1 row changed") { terminal.feed(one) }
    let all =
        Array(String(repeating: "\u{1B}[1;1H\u{1B}[2J", count: 1).utf8)
        + Array(String(repeating: "y\r\n", count: 49).utf8)
    measure("all rows changed") { terminal.feed(all) }
}

/// A flag one thread raises and another polls, behind a lock (the reader
/// looks 60 times a second: the lock costs nothing measurable, and unlike
/// `Synchronization.Atomic` it exists below macOS 15 / iOS 18).
final class StopFlag: @unchecked Sendable {
    // Invariant behind @unchecked Sendable: `raised` is only touched under `lock`.
    private var raised = false
    private let lock = NSLock()

    var isRaised: Bool {
        lock.lock()
        defer { lock.unlock() }
        return raised
    }

    func raise() {
        lock.lock()
        raised = true
        lock.unlock()
    }
}

func concurrentFeedBenchmark() {
    let input = sessionOutput(bytes: 32 << 20, seed: 3)
    let chunks = stride(from: 0, to: input.count, by: 4096).map { Array(input[$0..<min($0 + 4096, input.count)]) }
    for withSnapshots in [false, true] {
        let shared = LockedTerminal(Terminal(columns: 200, rows: 50))
        let done = StopFlag()
        let reader = Thread {
            var taken = 0
            while !done.isRaised {
                _ = shared.snapshot()
                taken += 1
                Thread.sleep(forTimeInterval: 1.0 / 60)
            }
        }
        if withSnapshots { reader.start() }
        let start = ContinuousClock.now
        for chunk in chunks { shared.feed(chunk) }
        let elapsed = seconds(start.duration(to: .now))
        done.raise()
        print(
            "feed 200x50 \(withSnapshots ? "while another thread snapshots 60/s" : "alone"): "
                + String(format: "%.1f MiB/s", Double(input.count) / 1_048_576 / elapsed))
    }
}

func compactionBenchmark() {
    let input = sessionOutput(bytes: 16 << 20, seed: 5)
    let start = ContinuousClock.now
    let compact = ReplayCompactor.compact(input, columns: 80, rows: 24, scrollback: 10_000)
    let elapsed = seconds(start.duration(to: .now))
    print(
        "compact 16 MiB session (80x24, 10,000 lines of scrollback): \(compact.count) bytes, "
            + String(format: "%.2f%% of the input, %.2f s", Double(compact.count) * 100 / Double(input.count), elapsed))
}

let arguments = Array(CommandLine.arguments.dropFirst())
let only = arguments.first
if only == "thumbnail", let index = arguments.firstIndex(of: "--base"), index + 1 < arguments.count {
    let rounds = arguments.firstIndex(of: "--rounds").flatMap {
        $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil
    }
    thumbnailComparison(base: arguments[index + 1], rounds: max(1, rounds ?? 5))
} else if only == "png-tune" {
    pngTuning()
} else if only == nil || only == "thumbnail" {
    thumbnailBenchmark()
}
if only == nil || only == "snapshot" { snapshotBenchmark() }
if only == nil || only == "feed" { concurrentFeedBenchmark() }
if only == nil || only == "compact" { compactionBenchmark() }
