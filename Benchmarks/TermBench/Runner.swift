import CommandLineOptions
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An engine the runner can measure, as commands in the harness protocol.
struct EngineSpec {
    enum Role: String {
        /// TermEngine itself.
        case subject
        /// Another engine, for the ratios.
        case reference
        /// TermEngine built at another revision (`--base REV`), for the
        /// before/after ratio; not a reference.
        case base
        /// Not an engine: the physical-limit line.
        case limit
    }

    var name: String
    var role: Role
    var version: String
    /// argv of the in-process measurement (`--runs`/`--warmup` appended).
    var feed: (_ file: String, _ size: TerminalSize) -> [String]
    /// argv of one whole-process race entry, or nil when it takes no part.
    var race: ((_ file: String, _ size: TerminalSize) -> [String])?
    /// Whether its feed takes `--chunk N` (every harness here does; a base
    /// build from before the option does not), for the chunked rows.
    var feedsInChunks = true
    /// argv of one whole-process race entry fed in chunks of N bytes, or nil
    /// when it takes no part in the chunked rows' race.
    var chunkedRace: ((_ file: String, _ size: TerminalSize, _ chunk: Int) -> [String])?
    /// argv of an untimed run, once per file and size before its rounds,
    /// that prints `name=value` settings the engine needs for that file; they
    /// are passed as `--name value` to all its measurements of the file
    /// (Ghostty's scrollback byte figure, see its harness).
    var calibrate: ((_ file: String, _ size: TerminalSize) -> [String])?
}

struct TerminalSize: CustomStringConvertible, Hashable {
    var columns: Int
    var rows: Int
    var description: String { "\(columns)x\(rows)" }

    init?(_ text: String) {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
            (1...1000).contains(columns), (1...1000).contains(rows)
        else { return nil }
        self.columns = columns
        self.rows = rows
    }
}

/// One engine's in-process result on one file at one size.
struct Measurement {
    var engine: String
    var error: String?
    /// The process ran past `--timeout` and was killed.
    var timedOut = false
    var mibps = 0.0
    /// The fastest run's rate (least disturbed by other load).
    var bestMibps = 0.0
    var seconds = 0.0
    var heapBytes = 0
    /// Allocations in the second half of the feed; -1 when not counted.
    var allocations = -1
    /// A pass counted in a steady state (`termbench feed --steady`); nil
    /// from a harness that counts none, or a round that did not ask.
    var steady: SteadyPass?
    var allocatedBytes = 0
    /// VmHWM reported by the process itself.
    var peakResidentKiB = 0
    /// ru_maxrss of the process as seen by the runner.
    var childMaxResidentKiB = 0
    var scrollback = 0
    var screen = ""
    /// nil: not compared (the subject itself, or the limit line).
    var screenMatchesSubject: Bool?
    /// Styles interned after the feed (`Terminal.styleCount`), from engines
    /// that report it (`styles=`); nil otherwise.
    var styles: Int?
    /// The terminal's storage by kind in bytes (`cell_bytes`, `row_bytes`,
    /// `table_bytes` in the result line), for engines that report it
    /// (`FeedCommand.storageFields`).
    var storage: [String: Int] = [:]
}

extension Measurement {
    /// One engine's rounds on one file as one measurement: the median rate
    /// and time, the fastest rate, and the memory figures of the last round
    /// (every round feeds the same bytes into a fresh terminal); the first
    /// failed round, if any.
    static func combining(_ rounds: [Measurement]) -> Measurement {
        guard let last = rounds.last else { return Measurement(engine: "") }
        if let failed = rounds.first(where: { $0.error != nil }) { return failed }
        var combined = last
        combined.mibps = median(rounds.map(\.mibps))
        combined.seconds = median(rounds.map(\.seconds))
        combined.bestMibps = rounds.map(\.bestMibps).max() ?? last.bestMibps
        combined.childMaxResidentKiB = rounds.map(\.childMaxResidentKiB).max() ?? last.childMaxResidentKiB
        combined.peakResidentKiB = rounds.map(\.peakResidentKiB).max() ?? last.peakResidentKiB
        return combined
    }
}

/// One engine's whole-process race on one file at one size.
struct RaceEntry {
    var engine: String
    var error: String?
    /// Median wall time of the whole process, start to exit.
    var wallSeconds = 0.0
    var maxResidentKiB = 0
}

struct FileResult {
    /// The row's name: the corpus kind, with `@4k` (`Runner.chunkSuffix`)
    /// when it was fed in chunks.
    var corpus: String
    /// The corpus kind the bytes came from (`corpus` without the suffix).
    var kind: String
    /// The most bytes each feed call was given; 0 for the whole file at once.
    var chunk = 0
    var size: TerminalSize
    var bytes: Int
    var measurements: [Measurement]
    var race: [RaceEntry]
    /// Each round's rates, engine by engine (the order of `measurements`),
    /// 0 for a round that failed or was not run: what paired ratios are
    /// taken from (`Report.baseRatio`).
    var roundRates: [[Double]] = []
}

/// `termbench run`: every corpus file, every size, every engine.
struct Runner {
    static let usage = """
        termbench run [--corpus DIR] [--sizes 80x24,200x50] [--runs N] [--warmup N] [--race-runs N]
                      [--no-race] [--quick] [--only a,b] [--engines a,b] [--harness-dir DIR]
                      [--out DIR] [--scrollback N] [--timeout SECONDS] [--base REV] [--chunk BYTES]
                      [--termengine PATH] [--race-bytes N]
        """

    /// The corpus kinds of issue #17 (Corpus/generate.py): the two churn
    /// kinds are judged against truecolor_dense's speed and are not part of
    /// issue #4's 2× rule.
    static let churnCorpora: Set<String> = ["style_churn", "link_churn"]
    static let issue17Corpora: Set<String> = churnCorpora.union(["truecolor_dense"])

    var corpusDirectory = "Corpus/generated"
    var sizes = [TerminalSize("80x24")!, TerminalSize("200x50")!]
    var runs = 5
    var warmup = 1
    var raceRuns = 3
    /// `--race-bytes N`: the whole-process race feeds each corpus file
    /// repeated (whole copies, one after another) to at least this many
    /// bytes, 64 MiB by default as issue #21 judges it: start-up and the
    /// reading of the input count once per process, so on a 16 MiB file
    /// they weighed four times as much against the feed. 0 races the file
    /// as it is.
    var raceBytes = 64 << 20
    var scrollback = 10_000
    var timeout = 300.0
    var only: Set<String>?
    var engineNames: [String]?
    var harnessDirectory = "Benchmarks/build/bin"
    /// `--termengine PATH`: the `termengine` the whole-process race runs;
    /// by default the one beside termbench. `Benchmarks/run.sh` passes the
    /// static executable, the release build README gives (start-up is part
    /// of a whole process: 1.5 ms against 5 ms dynamic, docs/PERFORMANCE.md
    /// "Start-up and footprint").
    var termenginePath: String?
    var outputDirectory = "Benchmarks/results"
    var quick = false
    /// `--chunk BYTES`: every corpus is also fed in calls of at most this
    /// many bytes, as a terminal hands on what one read() of its PTY returns
    /// (4 KiB, a pipe's or PTY's usual read), in rows of their own named
    /// `kind@4k`; 0 leaves those rows out.
    var chunk = 4096
    /// `--base REV`: the revision to build and race as one more engine.
    var baseRevision: String?
    /// The base build, once `prepareBase` has made it.
    var base: BaseBuild?
    var commandLine = ""
    let loadAverageAtStart = loadAverage()

    init(_ options: inout Arguments) throws {
        commandLine = CommandLine.arguments.joined(separator: " ")
        quick = options.flag("--quick")
        if quick {
            runs = 1
            warmup = 0
            raceRuns = 1
        }
        corpusDirectory = try options.value("--corpus") ?? corpusDirectory
        if let list = try options.list("--sizes") {
            sizes = try list.map { text in
                guard let size = TerminalSize(text) else { throw Arguments.Failure("--sizes: bad size '\(text)'") }
                return size
            }
        }
        runs = try options.integer("--runs", in: 1...100, default: runs)
        warmup = try options.integer("--warmup", in: 0...10, default: warmup)
        raceRuns = try options.integer("--race-runs", in: 0...100, default: raceRuns)
        if options.flag("--no-race") { raceRuns = 0 }
        raceBytes = try options.integer("--race-bytes", in: 0...(1 << 32), default: raceBytes)
        scrollback = try options.integer("--scrollback", in: 0...1_000_000, default: scrollback)
        timeout = Double(try options.integer("--timeout", in: 1...3600, default: Int(timeout)))
        only = try options.list("--only").map(Set.init)
        engineNames = try options.list("--engines")
        harnessDirectory = try options.value("--harness-dir") ?? harnessDirectory
        termenginePath = try options.value("--termengine")
        outputDirectory = try options.value("--out") ?? outputDirectory
        baseRevision = try options.value("--base").flatMap { $0.isEmpty ? nil : $0 }
        chunk = try options.integer("--chunk", in: 0...(1 << 30), default: chunk)
        let extra = try options.positionals()
        guard extra.isEmpty else { throw Arguments.Failure("unexpected arguments: \(extra.joined(separator: " "))") }
    }

    /// Exports and builds `--base REV` (see `BaseBuild`). A base that cannot
    /// be built or measured is left out with a message, as a reference
    /// harness that failed to build is; a revision that is not a commit is
    /// an error.
    mutating func prepareBase() throws {
        guard let baseRevision else { return }
        do {
            base = try BaseBuild.prepare(revision: baseRevision)
        } catch let unusable as BaseBuild.Unusable {
            log("termbench: --base \(baseRevision): \(unusable); the base is left out of this run")
        }
    }

    // MARK: Engines

    func engines() -> [EngineSpec] {
        let myself = executablePath()
        let binDirectory = (myself as NSString).deletingLastPathComponent
        let termengine = termenginePath ?? binDirectory + "/termengine"
        let scrollbackText = String(scrollback)
        let packages = debianVersions(["libvterm0", "librust-alacritty-terminal-dev", "librust-vt100-dev"])
        func harness(_ name: String, _ binary: String, version: String) -> EngineSpec {
            let path = harnessDirectory + "/" + binary
            return EngineSpec(
                name: name, role: .reference, version: version,
                feed: { file, size in
                    [path, file, String(size.columns), String(size.rows), "--scrollback", scrollbackText]
                },
                race: { file, size in
                    [
                        path, file, String(size.columns), String(size.rows), "--scrollback", scrollbackText,
                        "--runs", "1", "--warmup", "0",
                    ]
                },
                chunkedRace: { file, size, chunk in
                    [
                        path, file, String(size.columns), String(size.rows), "--scrollback", scrollbackText,
                        "--runs", "1", "--warmup", "0", "--chunk", String(chunk),
                    ]
                })
        }
        func debian(_ package: String) -> String { "Debian \(package) \(packages[package] ?? "?")" }
        var ghostty = harness("ghostty", "ghostty-harness", version: harnessVersion("ghostty-harness.version"))
        ghostty.calibrate = { [harnessDirectory] file, size in
            [
                harnessDirectory + "/ghostty-harness", file, String(size.columns), String(size.rows), "--scrollback",
                scrollbackText, "--calibrate",
            ]
        }
        var all = [
            EngineSpec(
                name: "termengine", role: .subject, version: gitDescription(),
                feed: { file, size in
                    [myself, "feed", file, String(size.columns), String(size.rows), "--scrollback", scrollbackText]
                },
                race: { file, size in
                    [
                        termengine, "replay", file, "--cols", String(size.columns), "--rows", String(size.rows),
                        "--scrollback", scrollbackText, "--quiet",
                    ]
                },
                // The chunked rows: `replay --chunk`, fed in calls of that
                // size as the references' harnesses are. (Before it had the
                // option, these rows raced `termbench feed --chunk`, whose
                // Foundation start-up was most of a row's time at 16 MiB.)
                chunkedRace: { file, size, chunk in
                    [
                        termengine, "replay", file, "--cols", String(size.columns), "--rows", String(size.rows),
                        "--scrollback", scrollbackText, "--chunk", String(chunk), "--quiet",
                    ]
                }),
            harness("libvterm", "libvterm-harness", version: debian("libvterm0")),
            harness("alacritty", "alacritty-harness", version: debian("librust-alacritty-terminal-dev")),
            harness("vt100", "vt100-harness", version: debian("librust-vt100-dev")),
            ghostty,
            harness("swiftterm", "swiftterm-harness", version: harnessVersion("swiftterm-harness.version")),
            EngineSpec(
                name: "memchr", role: .limit, version: "glibc memchr for ESC (a bound, not an engine)",
                feed: { file, size in
                    [myself, "feed", file, String(size.columns), String(size.rows), "--engine", "memchr"]
                },
                race: nil),
        ]
        if let base {
            let engine = EngineSpec(
                name: base.engineName, role: .base, version: "\(base.shortCommit) (--base \(base.revision))",
                feed: { file, size in
                    [
                        base.termbench, "feed", file, String(size.columns), String(size.rows), "--scrollback",
                        scrollbackText,
                    ]
                },
                race: base.termengine.map { binary in
                    { file, size in
                        [
                            binary, "replay", file, "--cols", String(size.columns), "--rows", String(size.rows),
                            "--scrollback", scrollbackText, "--quiet",
                        ]
                    }
                },
                feedsInChunks: base.feedsInChunks,
                chunkedRace: { file, size, chunk in
                    if let binary = base.termengine, base.replayFeedsInChunks {
                        return [
                            binary, "replay", file, "--cols", String(size.columns), "--rows", String(size.rows),
                            "--scrollback", scrollbackText, "--chunk", String(chunk), "--quiet",
                        ]
                    }
                    // A base from before `replay --chunk`: its whole process
                    // is its `termbench feed --chunk` (Foundation's start-up
                    // included, which the report says).
                    return [
                        base.termbench, "feed", file, String(size.columns), String(size.rows), "--scrollback",
                        scrollbackText, "--runs", "1", "--warmup", "0", "--chunk", String(chunk),
                    ]
                })
            all.insert(engine, at: 1)
        }
        if let engineNames {
            all = all.filter { $0.role == .subject || $0.role == .base || engineNames.contains($0.name) }
        }
        return all
    }

    /// What run.sh wrote beside a harness it built from outside Debian
    /// (`NAME.version`: the wheel's version, SwiftTerm's commit), or "?".
    func harnessVersion(_ file: String) -> String {
        let text = (try? String(contentsOfFile: harnessDirectory + "/" + file, encoding: .utf8)) ?? "?"
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: Corpus

    /// The suffix of a chunked row's name: `@4k` for 4,096 bytes.
    static func chunkSuffix(_ chunk: Int) -> String {
        chunk % 1024 == 0 ? "@\(chunk / 1024)k" : "@\(chunk)"
    }

    /// The rows for one size: every corpus file fed whole, then every one
    /// fed in chunks (`--chunk`). `--only` picks kinds (both rows) or a
    /// single row by its full name (`unicode@4k`).
    func corpusRows(for size: TerminalSize) -> [(name: String, kind: String, path: String, chunk: Int)] {
        let files = corpusFiles(for: size)
        var rows = files.map { (name: $0.name, kind: $0.name, path: $0.path, chunk: 0) }
        if chunk > 0 {
            rows += files.map {
                (name: $0.name + Runner.chunkSuffix(chunk), kind: $0.name, path: $0.path, chunk: chunk)
            }
        }
        guard let only else { return rows }
        return rows.filter { only.contains($0.kind) || only.contains($0.name) }
    }

    /// The corpus files for one size, in the order of the generators'
    /// manifests (synthetic kinds first, then recordings), others after.
    func corpusFiles(for size: TerminalSize) -> [(name: String, path: String)] {
        let directory = corpusDirectory + "/" + size.description
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".bin") }
            .map { String($0.dropLast(4)) }
        var order: [String] = []
        for manifest in ["manifest.json", "recordings.json"] {
            guard let data = FileManager.default.contents(atPath: directory + "/" + manifest),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { continue }
            if let listed = object["order"] as? [String] {
                order += listed
            } else if let files = object["files"] as? [String: Any] {
                order +=
                    suiteOrder.filter { files[$0] != nil } + files.keys.sorted().filter { !suiteOrder.contains($0) }
            }
        }
        let known = order.filter(names.contains)
        let rest = names.filter { !known.contains($0) }.sorted()
        return (known + rest).map { ($0, directory + "/" + $0 + ".bin") }
    }

    /// generate.py's SUITE_KINDS order (its manifest is keyed by name).
    let suiteOrder = [
        "dense_cells", "light_cells", "medium_cells", "cursor_motion", "scrolling", "scrolling_fullscreen",
        "scrolling_top_region", "scrolling_bottom_region", "scrolling_top_small_region",
        "scrolling_bottom_small_region", "unicode", "sync_medium_cells", "truecolor_dense", "style_churn",
        "link_churn", "unicode_combining", "unicode_cjk", "unicode_zwj", "unicode_letters", "unicode_flags",
        "unicode_emoji", "unicode_mixed",
    ]

    // MARK: Running

    /// Each engine process's peak RSS on an empty input with no scrollback:
    /// the runtime it carries before any terminal state (the Swift runtime
    /// and Foundation in termbench, little for the C and Rust harnesses).
    func baselines(_ engines: [EngineSpec]) -> [String: Int] {
        let path = NSTemporaryDirectory() + "termbench-empty-\(getpid()).bin"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: path) }
        var result: [String: Int] = [:]
        for engine in engines where engine.role != .limit {
            let argv = engine.feed(path, sizes[0]) + ["--runs", "1", "--warmup", "0", "--scrollback", "0"]
            if let child = try? spawnAndWait(argv, timeout: 60), child.status == 0,
                let fields = resultFields(child.output), let kib = Int(fields["peak_rss_kib"] ?? "")
            {
                result[engine.name] = kib
            }
        }
        return result
    }

    func run() throws -> (results: [FileResult], baselines: [String: Int]) {
        let engines = engines()
        var missing: [String] = []
        for engine in engines where !FileManager.default.isExecutableFile(atPath: engine.feed("", sizes[0])[0]) {
            missing.append(engine.name)
        }
        let allUsable = engines.filter { !missing.contains($0.name) }
        for name in missing { log("termbench: \(name) is not built; it is left out of this run") }
        let baselines = baselines(allUsable)
        // Calibrated settings by engine and file (the chunked row reuses the
        // whole file's).
        var settings: [String: [String]] = [:]

        var results: [FileResult] = []
        for size in sizes {
            let files = corpusRows(for: size)
            if files.isEmpty { log("termbench: no corpus in \(corpusDirectory)/\(size) (run Benchmarks/run.sh)") }
            for (name, kind, path, chunk) in files {
                // The chunked rows measure the engines whose feed can be
                // given chunks (a base build from before --chunk cannot).
                let usable = chunk > 0 ? allUsable.filter(\.feedsInChunks) : allUsable
                for engine in usable where engine.calibrate != nil && settings[engine.name + " " + path] == nil {
                    settings[engine.name + " " + path] = calibrate(engine, file: path, size: size)
                }
                func extra(_ engine: EngineSpec) -> [String] { settings[engine.name + " " + path] ?? [] }
                let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                // Rounds, each engine once per round: on a shared machine a
                // slow spell then costs every engine a round, not one engine
                // all of its runs (one process per engine per file swung a
                // single engine's median by ±40%).
                // Every other round runs the engines in the opposite order,
                // so that running first or second (a warm page cache, a
                // clock still rising) favours none of them.
                var rounds = [[Measurement]](repeating: [], count: usable.count)
                for round in 0..<runs {
                    let order = round % 2 == 0 ? Array(usable.indices) : usable.indices.reversed()
                    // An engine that ran past the timeout on this file is
                    // not run on it again: its later rounds would only take
                    // as long (the current engine on truecolor_dense).
                    for index in order where !rounds[index].contains(where: \.timedOut) {
                        let engine = usable[index]
                        // The subject's steady-state count, untimed, in the
                        // last round only (`Measurement.combining` keeps the
                        // last round's counts).
                        let steady = engine.role == .subject && round == runs - 1 ? ["--steady"] : []
                        let measurement = measure(
                            engine, file: path, size: size, chunk: chunk, extra: extra(engine) + steady)
                        if measurement.timedOut {
                            log("termbench: \(engine.name) timed out on \(name) \(size); not run on it again")
                        }
                        rounds[index].append(measurement)
                    }
                }
                var measurements = rounds.map(Measurement.combining)
                let subjectScreen = measurements.first { $0.engine == "termengine" }?.screen
                for index in measurements.indices {
                    let spec = usable[index]
                    if spec.role == .reference || spec.role == .base, let subjectScreen,
                        measurements[index].error == nil
                    {
                        measurements[index].screenMatchesSubject = measurements[index].screen == subjectScreen
                    }
                }
                var race: [RaceEntry] = []
                if raceRuns > 0 {
                    let racePath = try repeatedFile(path, atLeast: raceBytes)
                    defer { if racePath != path { try? FileManager.default.removeItem(atPath: racePath) } }
                    let racers = usable.filter { chunk > 0 ? $0.chunkedRace != nil : $0.race != nil }
                    let timedOut = Set(measurements.filter(\.timedOut).map(\.engine))
                    race = self.race(
                        racers, file: racePath, size: size, chunk: chunk, extra: extra, skipping: timedOut)
                }
                let roundRates = rounds.map { engineRounds in
                    (0..<runs).map { round in
                        round < engineRounds.count && engineRounds[round].error == nil ? engineRounds[round].mibps : 0
                    }
                }
                let result = FileResult(
                    corpus: name, kind: kind, chunk: chunk, size: size, bytes: bytes, measurements: measurements,
                    race: race,
                    roundRates: roundRates)
                log(progressLine(result))
                results.append(result)
            }
        }
        return (results, baselines)
    }

    /// Runs an engine's calibration on one file (untimed) and returns the
    /// settings it printed as options; none when it fails (the engine then
    /// runs with its defaults, and says so in its result line).
    func calibrate(_ engine: EngineSpec, file: String, size: TerminalSize) -> [String] {
        guard let command = engine.calibrate,
            let child = try? spawnAndWait(command(file, size), timeout: timeout), child.status == 0
        else {
            log("termbench: \(engine.name) calibration failed on \(file) \(size); it runs with its defaults")
            return []
        }
        var options: [String] = []
        for line in child.output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { options += ["--" + parts[0], String(parts[1])] }
        }
        return options
    }

    func measure(
        _ engine: EngineSpec, file: String, size: TerminalSize, chunk: Int, extra: [String] = []
    ) -> Measurement {
        var measurement = Measurement(engine: engine.name)
        let argv =
            engine.feed(file, size) + ["--runs", "1", "--warmup", String(warmup)]
            + (chunk > 0 ? ["--chunk", String(chunk)] : []) + extra
        do {
            let child = try spawnAndWait(argv, timeout: timeout)
            measurement.childMaxResidentKiB = child.maxResidentKiB
            guard !child.timedOut else {
                measurement.timedOut = true
                measurement.error = "timed out after \(Int(timeout)) s"
                return measurement
            }
            guard child.status == 0, let fields = resultFields(child.output) else {
                let why = child.errors.split(separator: "\n").last.map(String.init) ?? "no result line"
                measurement.error = "exit \(child.status): \(why)"
                return measurement
            }
            measurement.mibps = Double(fields["mibps"] ?? "") ?? 0
            measurement.bestMibps = Double(fields["mibps_best"] ?? "") ?? measurement.mibps
            measurement.seconds = Double(fields["seconds"] ?? "") ?? 0
            measurement.heapBytes = Int(fields["heap_bytes"] ?? "") ?? 0
            measurement.allocations = Int(fields["allocs"] ?? "") ?? -1
            measurement.steady = SteadyPass(fields: fields)
            measurement.allocatedBytes = Int(fields["alloc_bytes"] ?? "") ?? 0
            measurement.peakResidentKiB = Int(fields["peak_rss_kib"] ?? "") ?? 0
            measurement.scrollback = Int(fields["scrollback"] ?? "") ?? 0
            measurement.screen = fields["screen"] ?? ""
            measurement.styles = fields["styles"].flatMap { Int($0) }
            // scrollback_bytes: the byte limit a harness gave its engine (Ghostty's).
            for key in ["cell_bytes", "row_bytes", "table_bytes", "scrollback_bytes"] {
                if let value = fields[key].flatMap({ Int($0) }) { measurement.storage[key] = value }
            }
        } catch {
            measurement.error = "\(error)"
        }
        return measurement
    }

    /// `path` itself when it has `bytes` bytes or more (or `bytes` is 0),
    /// else a temporary file of its whole copies, one after another, up to
    /// the first that reaches `bytes`: for the race (`--race-bytes`). The
    /// copies continue one stream: a corpus ends between sequences, so the
    /// next copy's first bytes start anew.
    func repeatedFile(_ path: String, atLeast bytes: Int) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard bytes > 0 && !data.isEmpty && data.count < bytes else { return path }
        let copies = (bytes + data.count - 1) / data.count
        let name = URL(fileURLWithPath: path).lastPathComponent
        let repeated = NSTemporaryDirectory() + "termbench-race-\(getpid())-" + name
        var whole = Data(capacity: copies * data.count)
        for _ in 0..<copies { whole.append(data) }
        try whole.write(to: URL(fileURLWithPath: repeated))
        return repeated
    }

    /// Each engine's whole process on `file`, `raceRuns` times, in rounds:
    /// every engine once a round, in turn, the order reversed every other
    /// round, so that the runs are interleaved (issue #21) and no engine
    /// always runs first after the file was written, or after one other. An
    /// engine whose run fails or times out races no more, and its entry says
    /// why; an engine in `skipping` (its feed timed out) is not raced.
    ///
    /// - Precondition: every engine has the command for the row: `race`, or
    ///   `chunkedRace` when `chunk` is above 0 (the caller keeps only those).
    func race(
        _ engines: [EngineSpec], file: String, size: TerminalSize, chunk: Int,
        extra: (EngineSpec) -> [String], skipping: Set<String>
    ) -> [RaceEntry] {
        var entries = engines.map { RaceEntry(engine: $0.name) }
        var walls = [[Double]](repeating: [], count: engines.count)
        for index in engines.indices where skipping.contains(engines[index].name) {
            entries[index].error = "not raced: its feed timed out"
        }
        for round in 0..<raceRuns {
            let order = round % 2 == 0 ? Array(engines.indices) : engines.indices.reversed()
            for index in order where entries[index].error == nil {
                let engine = engines[index]
                let argv =
                    (chunk > 0 ? engine.chunkedRace!(file, size, chunk) : engine.race!(file, size)) + extra(engine)
                do {
                    let child = try spawnAndWait(argv, timeout: timeout)
                    guard !child.timedOut, child.status == 0 else {
                        entries[index].error = child.timedOut ? "timed out" : "exit \(child.status)"
                        continue
                    }
                    walls[index].append(child.seconds)
                    entries[index].maxResidentKiB = max(entries[index].maxResidentKiB, child.maxResidentKiB)
                } catch {
                    entries[index].error = "\(error)"
                }
            }
        }
        for index in engines.indices where entries[index].error == nil && !walls[index].isEmpty {
            entries[index].wallSeconds = median(walls[index])
        }
        return entries
    }

    func progressLine(_ result: FileResult) -> String {
        let rates = result.measurements.map { m in
            m.error == nil ? "\(m.engine) \(String(format: "%.1f", m.mibps))" : "\(m.engine) failed"
        }
        return "[\(result.size)] \(result.corpus): " + rates.joined(separator: ", ") + " MiB/s"
    }
}

func log(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// This executable's path (/proc/self/exe on Linux), for spawning `termbench feed`.
func executablePath() -> String {
    #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #else
        return CommandLine.arguments[0]
    #endif
}

/// Installed versions of Debian packages (dpkg-query), by package name.
func debianVersions(_ packages: [String]) -> [String: String] {
    guard
        let child = try? spawnDirect(
            ["/usr/bin/dpkg-query", "-W", "-f=${Package} ${Version}\\n"] + packages, timeout: 10)
    else { return [:] }
    var versions: [String: String] = [:]
    for line in child.output.split(separator: "\n") {
        let parts = line.split(separator: " ")
        if parts.count == 2 {
            versions[String(parts[0]).replacingOccurrences(of: ":amd64", with: "")] = String(parts[1])
        }
    }
    return versions
}

/// `git describe`-like identity of the working tree being measured.
func gitDescription() -> String {
    guard let head = try? spawnDirect(["/usr/bin/git", "rev-parse", "--short", "HEAD"], timeout: 10),
        head.status == 0
    else { return "unknown" }
    // Results written by earlier runs do not make the engine "dirty".
    let dirty =
        (try? spawnDirect(
            ["/usr/bin/git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!Benchmarks/results"],
            timeout: 10))
        .map { !$0.output.isEmpty } ?? false
    return head.output.trimmingCharacters(in: .whitespacesAndNewlines) + (dirty ? "+dirty" : "")
}
