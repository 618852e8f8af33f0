import Foundation
import TermCore
import TermReplay
import TestSupport
import Testing

@Suite("Replay compaction, random streams")
struct CompactionPropertyTests {
    /// Sessions per batch: a small count by default, 12,500 (100,000 in
    /// all) with TERMENGINE_LONG=1, or TERMENGINE_STREAMS per batch.
    static let perBatch: Int = {
        let environment = ProcessInfo.processInfo.environment
        if let count = environment["TERMENGINE_STREAMS"].flatMap(Int.init) { return count }
        return environment["TERMENGINE_LONG"] != nil ? 12_500 : 40
    }()
    /// Where the seeds start (TERMENGINE_FIRST_SEED), to explore further.
    static let firstSeed = ProcessInfo.processInfo.environment["TERMENGINE_FIRST_SEED"].flatMap(Int.init) ?? 0

    /// Random sessions of every kind of sequence, hidden state included, with
    /// resizes between streams (`RandomSession`): the compacted stream
    /// rebuilds the same terminal, and compacting that terminal again gives
    /// the same bytes.
    @Test(
        "A compacted random session rebuilds the same terminal, and compacting it again gives the same bytes",
        arguments: 0..<8)
    func randomSessionsCompactToTheSameStateIdempotently(batch: Int) {
        var failures: [String] = []
        var known: [String] = []
        var executed = 0
        let start = Self.firstSeed + batch * Self.perBatch
        for seed in start..<(start + Self.perBatch) {
            var rng = SplitMix64(seed: UInt64(seed))
            let session = RandomSession.random(&rng)
            // For a seed that traps: the last one printed.
            if ProcessInfo.processInfo.environment["TERMENGINE_TRACE_SEEDS"] != nil { print("seed", seed) }
            let terminal = session.replay()
            let problems = compactionProblems(terminal)
            executed += 1
            guard !problems.isEmpty else { continue }
            let line = "seed \(seed): " + problems.joined(separator: "; ")
            if ProcessInfo.processInfo.environment["TERMENGINE_LONG"] != nil {
                print(Self.knownEngineIssue(terminal).map { "KNOWN (\($0))" } ?? "FAIL", line.prefix(300))
            }
            if let issue = Self.knownEngineIssue(terminal) {
                known.append(issue + ", " + line)
            } else {
                failures.append(line)
            }
        }
        if ProcessInfo.processInfo.environment["TERMENGINE_LONG"] != nil {
            print("batch \(batch): \(executed) sessions, \(failures.count) failing, \(known.count) known engine issues")
        }
        #expect(failures.isEmpty, "\(failures.count) failing seeds:\n\(failures.prefix(12).joined(separator: "\n"))")
        withKnownIssue("engine bugs being fixed in TermCore", isIntermittent: true) {
            #expect(known.isEmpty, "\(known.count) seeds:\n\(known.prefix(5).joined(separator: "\n"))")
        }
    }

    /// A state only an engine bug in TermCore leaves, which no stream into a
    /// fresh terminal rebuilds: a cell no print makes.
    static func knownEngineIssue(_ terminal: Terminal) -> String? {
        let history = terminal.snapshot(scrollback: 0..<terminal.scrollbackCount)
        let lines =
            (0..<terminal.scrollbackCount).map { history.scrollbackLine($0) }
            + terminal.screenLines(alternateScreen: false) + terminal.screenLines(alternateScreen: true)
        for line in lines {
            for column in 0..<line.columnCount {
                let cell = line.cell(column)
                guard !cell.scalars.isEmpty, cell.width == .narrow || cell.width == .wide else { continue }
                let width = cell.width == .wide ? 2 : 1
                if Terminal.printedWidth(of: cell.scalars, graphemeClustering: false) != width
                    && Terminal.printedWidth(of: cell.scalars, graphemeClustering: true) != width
                {
                    return "a cell no print makes"
                }
            }
        }
        return nil
    }
}

/// Shortens the sessions of the seeds in TERMENGINE_MINIMISE_SEEDS (commas)
/// by leaving out steps while compaction still fails the same way (the same
/// first problem, before its colon), and prints what is left: the start of
/// a regression test. A debugging aid, not a check: it runs only when the
/// variable is set.
@Test(
    "Minimise failing sessions for debugging",
    .enabled(if: ProcessInfo.processInfo.environment["TERMENGINE_MINIMISE_SEEDS"] != nil))
func minimiseFailingSessionsForDebugging() throws {
    let seeds = (ProcessInfo.processInfo.environment["TERMENGINE_MINIMISE_SEEDS"] ?? "").split(separator: ",")
        .compactMap { Int($0) }
    for seed in seeds {
        var rng = SplitMix64(seed: UInt64(seed))
        var session = RandomSession.random(&rng)
        func kind(_ candidate: RandomSession) -> String? {
            let terminal = candidate.replay()
            guard CompactionPropertyTests.knownEngineIssue(terminal) == nil,
                let first = compactionProblems(terminal).first
            else { return nil }
            return String(first.prefix { $0 != ":" }).replacingOccurrences(
                of: "[0-9]+", with: "N", options: .regularExpression)
        }
        guard let wanted = kind(session) else {
            print("seed \(seed) does not fail")
            continue
        }
        var chunk = max(1, session.steps.count / 2)
        while true {
            var index = 0
            var removed = false
            while index < session.steps.count {
                var candidate = session
                candidate.steps.removeSubrange(index..<min(index + chunk, candidate.steps.count))
                if kind(candidate) == wanted {
                    session = candidate
                    removed = true
                } else {
                    index += chunk
                }
            }
            if chunk == 1 && !removed { break }
            if !removed { chunk = max(1, chunk / 2) }
        }
        print("seed \(seed) minimised: \(session)")
        print("  " + compactionProblems(session.replay(), limit: 4).joined(separator: "\n  "))
    }
}
