import CAllocCounter
import CommandLineOptions
import Foundation
import TermCore

#if canImport(Glibc)
    import Glibc
#endif

/// `termbench feed`: one engine on one file, in the harness protocol that the
/// reference harnesses share (Benchmarks/reference/rust/harness-common):
///
///     termbench feed FILE COLS ROWS [--engine termengine|memchr] [--runs N] [--warmup N]
///                                   [--scrollback N] [--chunk N] [--steady] [--dump]
///
/// Every run feeds the whole file into a fresh `Terminal`, in two halves: the
/// first half warms the terminal up (styles interned, scrollback filling),
/// and the heap allocations made during the second half are counted (the
/// harness protocol's `allocs=`). Only the feed is timed; the file is read
/// before.
/// `--chunk N` (N > 0) feeds each half in calls of at most N bytes, as a
/// terminal hands on what one read() of its PTY returned.
/// The result line carries the median time and rate, the terminal's heap
/// (glibc `mallinfo2` plus anonymous `mmap`s, after the feed minus before
/// creating it), the
/// allocation count of the last run's second half, the peak RSS, the
/// scrollback held and a hash of the final screen text.
///
/// The second half is a steady state only where the first filled the
/// scrollback and went round its ring: a corpus of few lines (every cell
/// its own truecolour SGR, 2,761 lines in 16 MiB at 80×24) still grows
/// pages' tables for the first time there. So with `--steady` TermEngine's
/// result line also has `steady_allocs=` (and `steady_alloc_bytes=`), counted
/// (untimed, after the timed runs, on a terminal of its own)
/// over one pass of the file fed after the terminal has been through as many
/// passes again as it took to fill its scrollback (or to stop growing it
/// with the cursor back on the same row),
/// and 4 passes at least: by then every row of the ring has been written
/// twice, so each page has filled both of its eras' tables (`Grid.renewEra`)
/// at least once.
/// `steady_passes=` is the passes fed before the counted one, and
/// `steady_reached=0` says that the scrollback was still growing when the
/// passes ran out (``maxWarmupPasses``): the count is then not a steady
/// state's.
enum FeedCommand {
    static let usage = """
        termbench feed FILE COLS ROWS [--engine termengine|memchr] [--runs N] [--warmup N] [--scrollback N]
                                      [--chunk N] [--steady] [--dump]
        """

    enum Engine: String {
        /// TermEngine's `Terminal`.
        case termengine
        /// No terminal at all: `memchr` for ESC across the bytes, the
        /// fastest any engine could look at every byte once (a bound).
        case memchr
    }

    struct Run {
        var seconds: Double
        var heapBytes: Int
        var allocations: UInt64
        var allocatedBytes: UInt64
        var scrollback: Int
        var screen: UInt64
        /// `key=value` fields about the terminal's side tables and storage
        /// (see `storageFields`); empty for memchr.
        var storage: [String] = []
    }

    static func run(_ options: inout Arguments) throws {
        let engineName = try options.value("--engine") ?? "termengine"
        guard let engine = Engine(rawValue: engineName) else {
            throw Arguments.Failure("--engine must be termengine or memchr, got '\(engineName)'")
        }
        let runs = try options.integer("--runs", in: 1...1000, default: 5)
        let warmup = try options.integer("--warmup", in: 0...100, default: 1)
        let scrollback = try options.integer("--scrollback", in: 0...Terminal.Limits.maxScrollback, default: 10_000)
        let chunk = try options.integer("--chunk", in: 0...(1 << 30), default: 0)
        let dump = options.flag("--dump")
        let steady = options.flag("--steady")
        let positionals = try options.positionals()
        guard positionals.count == 3,
            let columns = Int(positionals[1]), Terminal.Limits.dimensions.contains(columns),
            let rows = Int(positionals[2]), Terminal.Limits.dimensions.contains(rows)
        else { throw Arguments.Failure("usage: \(usage)") }
        let bytes = try readFile(positionals[0])

        if dump {
            let terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback)
            bytes.withUnsafeBufferPointer { feed(terminal, $0, chunk: chunk) }
            print(screenText(terminal), terminator: "")
            print("scrollback=\(terminal.scrollbackCount)")
            return
        }

        var results: [Run] = []
        for index in 0..<(warmup + runs) {
            let result = bytes.withUnsafeBufferPointer { buffer in
                switch engine {
                case .termengine:
                    feedTerminal(buffer, columns: columns, rows: rows, scrollback: scrollback, chunk: chunk)
                case .memchr: scan(buffer)
                }
            }
            if index >= warmup { results.append(result) }
        }
        let mebibytes = Double(bytes.count) / 1_048_576
        let last = results[results.count - 1]
        let counting = termbench_alloc_counter_active() != 0
        let allocations = counting ? String(last.allocations) : "-1"
        var fields = [
            "bytes=\(bytes.count)",
            "seconds=\(String(format: "%.6f", median(results.map(\.seconds))))",
            "mibps=\(String(format: "%.1f", median(results.map { mebibytes / $0.seconds })))",
            "mibps_best=\(String(format: "%.1f", results.map { mebibytes / $0.seconds }.max() ?? 0))",
            "runs=\(runs)",
            "heap_bytes=\(last.heapBytes)",
            "allocs=\(allocations)",
            "alloc_bytes=\(last.allocatedBytes)",
            "peak_rss_kib=\(peakResidentKiB())",
            "scrollback=\(last.scrollback)",
            "screen=\(hex16(last.screen))",
        ]
        fields += last.storage
        if steady && engine == .termengine && counting {
            fields +=
                bytes.withUnsafeBufferPointer { buffer in
                    steadyPass(buffer, columns: columns, rows: rows, scrollback: scrollback, chunk: chunk)
                }.fields
        }
        print(fields.joined(separator: " "))
    }

    /// The most passes `steadyPass` feeds before the one it counts: a file
    /// that adds a line in many passes is not worth more.
    static let maxWarmupPasses = 64
    /// The fewest passes `steadyPass` feeds before the one it counts.
    static let minWarmupPasses = 4

    /// One pass of `bytes` counted on a terminal in a steady state (see the
    /// type's comment).
    static func steadyPass(
        _ bytes: UnsafeBufferPointer<UInt8>, columns: Int, rows: Int, scrollback: Int, chunk: Int
    ) -> SteadyPass {
        let terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback)
        var passes = 0
        var reached = false
        // Until the scrollback is full or a pass adds nothing to it and
        // leaves the cursor's row as it was (a screen still filling adds
        // nothing to the scrollback either)…
        while passes < maxWarmupPasses && !reached {
            let held = (terminal.scrollbackCount, terminal.cursor.position.row)
            feed(terminal, bytes, chunk: chunk)
            passes += 1
            reached =
                terminal.scrollbackCount == scrollback
                || (terminal.scrollbackCount, terminal.cursor.position.row) == held
        }
        // …then as many again, and 4 in all at least: the ring goes round
        // once more, and a page's tables have taken their eras' rows a few
        // times (link_churn, whose scrollback fills in one pass, grew a link
        // table in its 3rd and 4th, none after).
        let warmup = min(max(2 * passes, minWarmupPasses), maxWarmupPasses)
        while passes < warmup {
            feed(terminal, bytes, chunk: chunk)
            passes += 1
        }
        let before = termbench_alloc_counts_now()
        feed(terminal, bytes, chunk: chunk)
        let after = termbench_alloc_counts_now()
        return SteadyPass(
            allocations: Int(after.allocations - before.allocations),
            allocatedBytes: Int(after.bytes - before.bytes), passesBefore: passes, reached: reached)
    }

    /// One timed run of the engine on a fresh terminal.
    static func feedTerminal(
        _ bytes: UnsafeBufferPointer<UInt8>, columns: Int, rows: Int, scrollback: Int, chunk: Int
    ) -> Run {
        let half = bytes.count / 2
        let heapBefore = termbench_heap_in_use()
        let terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback)
        let start = ContinuousClock.now
        feed(terminal, UnsafeBufferPointer(rebasing: bytes[0..<half]), chunk: chunk)
        let before = termbench_alloc_counts_now()
        feed(terminal, UnsafeBufferPointer(rebasing: bytes[half...]), chunk: chunk)
        let after = termbench_alloc_counts_now()
        let elapsed = start.duration(to: .now)
        let heapAfter = termbench_heap_in_use()
        let screen = fnv1a(screenText(terminal))
        return Run(
            seconds: seconds(elapsed), heapBytes: Int(heapAfter) - Int(heapBefore),
            allocations: after.allocations - before.allocations, allocatedBytes: after.bytes - before.bytes,
            scrollback: terminal.scrollbackCount, screen: screen, storage: storageFields(terminal))
    }

    /// Feeds `bytes` in one call, or in calls of at most `chunk` bytes.
    static func feed(_ terminal: Terminal, _ bytes: UnsafeBufferPointer<UInt8>, chunk: Int) {
        guard chunk > 0, bytes.count > chunk else {
            terminal.feed(bytes)
            return
        }
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            terminal.feed(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            start = end
        }
    }

    /// What the terminal holds after a feed, as extra result fields after
    /// the protocol's own (runners that do not know a field ignore them):
    /// `styles=` is `Terminal.styleCount`, the styles interned now; then its
    /// storage by kind (`Terminal.storageUsage`, issue #17): `cell_bytes=`,
    /// `row_bytes=`, `table_bytes=`.
    static func storageFields(_ terminal: Terminal) -> [String] {
        let usage = terminal.storageUsage
        return [
            "styles=\(terminal.styleCount)", "cell_bytes=\(usage.cellBytes)", "row_bytes=\(usage.rowBytes)",
            "table_bytes=\(usage.tableBytes)",
        ]
    }

    /// The physical-limit line: find every ESC with glibc's vectorised memchr.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Run {
        guard let base = bytes.baseAddress else {
            return Run(seconds: 1e-9, heapBytes: 0, allocations: 0, allocatedBytes: 0, scrollback: 0, screen: 0)
        }
        let start = ContinuousClock.now
        var offset = 0
        var escapes: UInt64 = 0
        while offset < bytes.count {
            guard let found = memchr(base + offset, 0x1B, bytes.count - offset) else { break }
            escapes &+= 1
            offset = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
        }
        let elapsed = start.duration(to: .now)
        // The count goes in the `screen` field so the loop cannot be dropped.
        return Run(
            seconds: seconds(elapsed), heapBytes: 0, allocations: 0, allocatedBytes: 0, scrollback: 0, screen: escapes)
    }

    /// The text the `screen` hash covers: each row with trailing spaces
    /// trimmed (Terminal.screenLine already trims), then "\n".
    static func screenText(_ terminal: Terminal) -> String {
        var text = ""
        for row in 0..<terminal.rows {
            text += terminal.screenLine(row)
            text += "\n"
        }
        return text
    }
}

/// The allocations of one pass of a file on a terminal in a steady state
/// (`termbench feed --steady`, see `FeedCommand`), as the result line's
/// `steady_*=` fields carry them: written and read here, in one place.
struct SteadyPass {
    var allocations: Int
    var allocatedBytes: Int
    /// The passes fed before the counted one.
    var passesBefore: Int
    /// False when the scrollback was still growing as the passes ran out
    /// (`FeedCommand.maxWarmupPasses`): the count is not a steady state's.
    var reached: Bool

    /// The result line's fields.
    var fields: [String] {
        [
            "steady_allocs=\(allocations)", "steady_alloc_bytes=\(allocatedBytes)",
            "steady_passes=\(passesBefore)", "steady_reached=\(reached ? 1 : 0)",
        ]
    }

    /// The pass a result line's fields carry; nil from a harness that counts none.
    init?(fields: [String: String]) {
        guard let allocations = fields["steady_allocs"].flatMap({ Int($0) }),
            let allocatedBytes = fields["steady_alloc_bytes"].flatMap({ Int($0) }),
            let passesBefore = fields["steady_passes"].flatMap({ Int($0) }), let reached = fields["steady_reached"]
        else { return nil }
        self.init(
            allocations: allocations, allocatedBytes: allocatedBytes, passesBefore: passesBefore,
            reached: reached == "1")
    }

    init(allocations: Int, allocatedBytes: Int, passesBefore: Int, reached: Bool) {
        self.allocations = allocations
        self.allocatedBytes = allocatedBytes
        self.passesBefore = passesBefore
        self.reached = reached
    }
}

/// The whole file in one array, read straight into it: one copy of the
/// input in memory, as in the C and Rust harnesses, so that peak RSS
/// compares like with like (Foundation's Data would make it two).
func readFile(_ path: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw Arguments.Failure("cannot read \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw Arguments.Failure("cannot stat \(path)") }
    let size = Int(status.st_size)
    var failure: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        while count < size {
            let got = read(fd, buffer.baseAddress! + count, size - count)
            if got < 0 && errno == EINTR { continue }
            if got <= 0 {
                failure = got < 0 ? errno : EIO
                break
            }
            count += got
        }
    }
    guard failure == 0 else { throw Arguments.Failure("cannot read \(path): \(String(cString: strerror(failure)))") }
    return bytes
}

/// FNV-1a, 64 bits, as in the C and Rust harnesses.
func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
}

func hex16(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

#if os(Linux)
    /// VmHWM from /proc/self/status: this process's peak resident set in KiB.
    func peakResidentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
        }
        return 0
    }
#else
    /// Peak resident set: read from /proc on Linux only (0: not known).
    func peakResidentKiB() -> Int { 0 }
#endif
