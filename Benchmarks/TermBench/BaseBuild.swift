import CommandLineOptions
import Foundation

/// `termbench run --base REV`: TermEngine as it was at git revision REV,
/// built in release mode beside this build and measured as one more engine
/// in the same run, in the same interleaved rounds (issue #17). Before and
/// after is then the ratio of two medians taken minutes apart at most,
/// rather than two runs on a machine whose speed drifts by tens of percent
/// between them (docs/PERFORMANCE.md, "Noise").
///
/// The tree at REV is exported with `git archive` (no worktree to register
/// or prune) into `Benchmarks/build/base-<commit>/src` and built there with
/// its own scratch directory, so neither this checkout nor its `.build` is
/// touched. An export whose recorded commit matches is reused, and
/// `swift build` then has nothing to do. The base is measured the way this
/// build is: its own `termbench feed` in process, its own `termengine
/// replay` in the whole-process race.
struct BaseBuild {
    /// The revision as given on the command line.
    var revision: String
    var commit: String
    var shortCommit: String
    var directory: String
    /// The base's `termbench`, whose `feed` measures it.
    var termbench: String
    /// The base's `termengine`, for the race; nil when it has no `replay`.
    var termengine: String?
    /// Whether the base's `termbench feed` takes `--chunk N`; a base from
    /// before the option takes no part in the chunked rows.
    var feedsInChunks = false
    /// Whether the base's `termengine replay` takes `--chunk BYTES` (from
    /// 2026-12-06 on): its chunked race rows run it, as the current build's
    /// do; before, they run its `termbench feed --chunk N`.
    var replayFeedsInChunks = false

    /// The engine's name in tables and JSON: `termengine@<short commit>`.
    var engineName: String { "termengine@" + shortCommit }

    struct Unusable: Error, CustomStringConvertible {
        let description: String
    }

    /// Exports and builds REV. Throws `Arguments.Failure` when REV names no
    /// commit (a mistake on the command line) and `Unusable` when the base
    /// cannot be built or measured (the run then goes on without it).
    static func prepare(revision: String) throws -> BaseBuild {
        guard let root = git(["rev-parse", "--show-toplevel"]) else {
            throw Arguments.Failure("--base needs a git checkout (run termbench from the repository)")
        }
        guard let commit = git(["-C", root, "rev-parse", "--verify", "--quiet", revision + "^{commit}"]),
            let shortCommit = git(["-C", root, "rev-parse", "--short", commit])
        else { throw Arguments.Failure("--base: '\(revision)' is not a commit of \(root)") }
        let directory = root + "/Benchmarks/build/base-" + shortCommit
        let source = directory + "/src"
        let stamp = source + "/.termbench-base-commit"
        let files = FileManager.default

        if (try? String(contentsOfFile: stamp, encoding: .utf8)) != commit + "\n" {
            log("termbench: exporting \(revision) (\(shortCommit)) into \(source)")
            try? files.removeItem(atPath: source)
            try files.createDirectory(atPath: source, withIntermediateDirectories: true)
            let archive = directory + "/src.tar"
            guard git(["-C", root, "archive", "--format=tar", "-o", archive, commit]) != nil,
                (try? runVisible(["tar", "-xf", archive, "-C", source])) == 0
            else { throw Unusable(description: "could not export \(commit) with git archive") }
            try? files.removeItem(atPath: archive)
            try Data((commit + "\n").utf8).write(to: URL(fileURLWithPath: stamp))
        }

        // The same configuration as Benchmarks/run.sh builds this tree with.
        let build = [
            "swift", "build", "-c", "release", "--package-path", source, "--scratch-path", directory + "/.build",
        ]
        log("termbench: building \(revision) (\(shortCommit)) in release mode (minutes the first time)")
        guard (try? runVisible(build + ["--product", "termbench"])) == 0 else {
            throw Unusable(description: "its termbench did not build (see the messages above)")
        }
        guard let binDirectory = try? spawnDirect(["/usr/bin/env"] + build + ["--show-bin-path"], timeout: 300),
            binDirectory.status == 0
        else { throw Unusable(description: "swift build --show-bin-path failed") }
        let bin = binDirectory.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let termbench = bin + "/termbench"
        guard helpMentions(termbench, "termbench feed") else {
            throw Unusable(description: "its termbench has no `feed` subcommand, which measures an engine in process")
        }

        var termengine: String? = bin + "/termengine"
        if (try? runVisible(build + ["--product", "termengine"])) != 0 {
            log("termbench: \(shortCommit)'s termengine did not build; the base takes no part in the race")
            termengine = nil
        } else if !helpMentions(bin + "/termengine", "termengine replay") {
            log("termbench: \(shortCommit)'s termengine has no `replay`; the base takes no part in the race")
            termengine = nil
        }
        let feedsInChunks = helpMentions(termbench, "[--chunk N]")
        if !feedsInChunks {
            log("termbench: \(shortCommit)'s termbench feed has no --chunk; the base is not in the chunked rows")
        }
        let replayFeedsInChunks = termengine.map { helpMentions($0, "[--chunk BYTES]") } ?? false
        return BaseBuild(
            revision: revision, commit: commit, shortCommit: shortCommit, directory: directory, termbench: termbench,
            termengine: termengine, feedsInChunks: feedsInChunks, replayFeedsInChunks: replayFeedsInChunks)
    }

    /// Whether `binary help` prints `usage` (the subcommand exists).
    static func helpMentions(_ binary: String, _ usage: String) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: binary),
            let child = try? spawnDirect([binary, "help"], timeout: 30)
        else { return false }
        return child.output.contains(usage) || child.errors.contains(usage)
    }

    /// `git ARGS`'s output, trimmed, or nil when it fails.
    static func git(_ arguments: [String]) -> String? {
        guard let child = try? spawnDirect(["/usr/bin/git"] + arguments, timeout: 300), child.status == 0 else {
            return nil
        }
        return child.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a command found on PATH with its output shown on standard error
    /// (a build's progress), and returns its exit status.
    static func runVisible(_ argv: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = argv
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
