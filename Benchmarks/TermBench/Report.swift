import Foundation
import TermCore

#if canImport(Glibc)
    import Glibc
#endif

/// Turns the results into the table, the JSON and the acceptance verdicts.
struct Report {
    let runner: Runner
    let engines: [EngineSpec]
    let results: [FileResult]
    /// Peak RSS of each engine's process on an empty input (KiB).
    let baselines: [String: Int]

    var subject: String { "termengine" }
    /// The reference engines that took part.
    var references: [String] {
        engines.filter { $0.role == .reference }.map(\.name)
            .filter { name in results.contains { $0.measurement(name) != nil } }
    }
    var limitEngine: String? { engines.first { $0.role == .limit }?.name }
    /// The base build (`--base REV`), if it took part.
    var baseEngine: String? {
        engines.first { $0.role == .base }.map(\.name)
            .flatMap { name in results.contains { $0.measurement(name) != nil } ? name : nil }
    }
    /// The engines with rows in the memory tables: the subject, the base,
    /// then the references.
    var measuredEngines: [String] { [subject] + (baseEngine.map { [$0] } ?? []) + references }

    /// Heap bytes per cell: what the terminal holds after the feed divided
    /// by the cells of its screen and full scrollback.
    func bytesPerCell(_ measurement: Measurement, _ size: TerminalSize) -> Double {
        Double(measurement.heapBytes) / Double((size.rows + runner.scrollback) * size.columns)
    }

    /// The fastest reference on a file by `rate` (the median, or the best
    /// round), and that rate.
    func bestReference(
        _ result: FileResult, by rate: KeyPath<Measurement, Double> = \.mibps
    ) -> (name: String, mibps: Double)? {
        references.compactMap { name in
            result.measurement(name).flatMap { $0.error == nil ? (name, $0[keyPath: rate]) : nil }
        }.max { $0.1 < $1.1 }
    }

    func ratio(_ result: FileResult) -> Double? {
        guard let subject = result.measurement(subject), subject.error == nil,
            let best = bestReference(result), best.mibps > 0
        else { return nil }
        return subject.mibps / best.mibps
    }

    /// The subject's best round over the fastest reference's best round: the
    /// speeds with the least interference from other load on the machine,
    /// shown beside the verdict (which is on medians) because on a shared
    /// machine whole processes run in a slow or a fast state.
    func bestRoundRatio(_ result: FileResult) -> (ratio: Double, reference: String)? {
        guard let subject = result.measurement(subject), subject.error == nil,
            let best = bestReference(result, by: \.bestMibps), best.mibps > 0
        else { return nil }
        return (subject.bestMibps / best.mibps, best.name)
    }

    /// The median over rounds of the subject's rate over the base build's
    /// in the same round (the two run one after the other): above 1 the
    /// current build is faster. Paired so that a slow spell of a shared
    /// machine, which lowers both rates of a round, cancels out: on this
    /// 2-core VM one engine's rounds of 16 MiB ranged over ±25%, and the
    /// ratio of two medians of 11 rounds came out 0.87 where 40 pairs gave
    /// 0.96 (vim_scroll 80×24). The ratio of the two medians when the rounds
    /// are not at hand.
    func baseRatio(_ result: FileResult) -> Double? {
        guard let baseEngine, let mine = result.measurement(subject), mine.error == nil,
            let base = result.measurement(baseEngine), base.error == nil, base.mibps > 0
        else { return nil }
        if let subjectIndex = result.measurements.firstIndex(where: { $0.engine == subject }),
            let baseIndex = result.measurements.firstIndex(where: { $0.engine == baseEngine }),
            subjectIndex < result.roundRates.count, baseIndex < result.roundRates.count
        {
            let pairs = zip(result.roundRates[subjectIndex], result.roundRates[baseIndex])
            let ratios = pairs.filter { $0.0 > 0 && $0.1 > 0 }.map { $0.0 / $0.1 }
            if !ratios.isEmpty { return median(ratios) }
        }
        return mine.mibps / base.mibps
    }

    /// The subject's median rate over the base build's median rate.
    func baseRatioOfMedians(_ result: FileResult) -> Double? {
        guard let baseEngine, let mine = result.measurement(subject), mine.error == nil,
            let base = result.measurement(baseEngine), base.error == nil, base.mibps > 0
        else { return nil }
        return mine.mibps / base.mibps
    }

    /// The fastest reference's whole-process wall time over the subject's.
    func raceRatio(_ result: FileResult) -> Double? {
        guard let mine = result.race.first(where: { $0.engine == subject && $0.error == nil }), mine.wallSeconds > 0
        else {
            return nil
        }
        let referenceNames = Set(references)
        let best = result.race.filter {
            referenceNames.contains($0.engine) && $0.error == nil && $0.wallSeconds > 0
        }
        .map(\.wallSeconds).min()
        return best.map { $0 / mine.wallSeconds }
    }

    /// The base build's whole-process wall time over the subject's.
    func raceBaseRatio(_ result: FileResult) -> Double? {
        guard let baseEngine,
            let mine = result.race.first(where: { $0.engine == subject && $0.error == nil }), mine.wallSeconds > 0,
            let base = result.race.first(where: { $0.engine == baseEngine && $0.error == nil }), base.wallSeconds > 0
        else { return nil }
        return base.wallSeconds / mine.wallSeconds
    }

    // MARK: Acceptance (issue #4)

    struct Verdict {
        var target: String
        var met: Bool
        var detail: String
        /// The issue whose acceptance list the target comes from.
        var issue = 4
    }

    /// The files issue #4's 2× rule covers: all but the churn corpora.
    var speedRuleResults: [FileResult] { results.filter { !Runner.churnCorpora.contains($0.kind) } }

    /// "; on best rounds: N of M, lowest …" for the 2× verdict's detail.
    func bestRoundSummary() -> String {
        let covered = speedRuleResults
        let ratios = covered.compactMap { result in bestRoundRatio(result).map { (result, $0) } }
        guard let worst = ratios.min(by: { $0.1.ratio < $1.1.ratio }) else { return "" }
        let passing = ratios.filter { $0.1.ratio >= 2 }.count
        return "; on each engine's best round: \(passing) of \(covered.count), lowest \(format(worst.1.ratio, 2))× on "
            + "\(worst.0.corpus) \(worst.0.size) (vs \(worst.1.reference))"
    }

    func acceptance() -> [Verdict] {
        var verdicts: [Verdict] = []
        let covered = speedRuleResults
        let ratios = covered.compactMap { result in ratio(result).map { (result, $0) } }
        let exempt = results.count > covered.count ? " (style_churn and link_churn are not part of this rule)" : ""
        if let worst = ratios.min(by: { $0.1 < $1.1 }) {
            let passing = ratios.filter { $0.1 >= 2 }.count
            verdicts.append(
                Verdict(
                    target: "≥ 2× the fastest reference engine on every corpus and both sizes" + exempt,
                    met: passing == ratios.count && ratios.count == covered.count,
                    detail: "\(passing) of \(covered.count) pass; lowest \(format(worst.1, 2))× on "
                        + "\(worst.0.corpus) \(worst.0.size) (vs \(bestReference(worst.0)?.name ?? "?"))"
                        + bestRoundSummary()))
        }
        if let scrolling = results.first(where: {
            $0.corpus == "scrolling" && $0.size.columns == 80 && $0.size.rows == 24
        }),
            let mine = scrolling.measurement(subject), mine.error == nil
        {
            verdicts.append(
                Verdict(
                    target: "ASCII scrolling at 80×24 ≥ 1 GiB/s", met: mine.mibps >= 1024,
                    detail: "\(format(mine.mibps, 1)) MiB/s"))
        }
        let narrow = results.filter { $0.size.columns == 80 }.compactMap { result in
            result.measurement(subject).flatMap {
                $0.error == nil ? (result.corpus, bytesPerCell($0, result.size)) : nil
            }
        }
        if let worst = narrow.max(by: { $0.1 < $1.1 }) {
            let passing = narrow.filter { $0.1 <= 8.5 }
            let scrolling = narrow.first { $0.0 == "scrolling" }.map { "; scrolling \(format($0.1, 3))" } ?? ""
            verdicts.append(
                Verdict(
                    target: "bytes per cell ≤ 8.5 including row overhead at 80 columns",
                    met: passing.count == narrow.count,
                    detail: "heap after the feed ÷ ((rows + \(runner.scrollback)) × 80), cell stride \(cellStride) B: "
                        + "\(passing.count) of \(narrow.count) corpora pass\(scrolling); highest \(format(worst.1, 3)) on \(worst.0)"
                ))
        }
        let wide = results.filter { $0.size.columns == 200 }.compactMap { result in
            result.measurement(subject).flatMap { $0.error == nil ? (result.corpus, $0) : nil }
        }
        if let largest = wide.max(by: { $0.1.heapBytes < $1.1.heapBytes }) {
            let mib = Double(largest.1.heapBytes) / 1_048_576
            let scrolling =
                wide.first { $0.0 == "scrolling" }.map {
                    "scrolling \(format(Double($0.1.heapBytes) / 1_048_576, 1)) MiB; "
                } ?? ""
            verdicts.append(
                Verdict(
                    target: "10,000 lines × 200 columns of scrollback in about 16 MiB (≤ 17 MiB here)", met: mib <= 17,
                    detail: "heap after the feed at 200×50: \(scrolling)largest \(format(mib, 1)) MiB on \(largest.0)"))
        }
        let all = results.flatMap(\.measurements)
        let unreported = all.filter { $0.error == nil && $0.peakResidentKiB <= 0 }
        verdicts.append(
            Verdict(
                target: "peak memory reported for every run", met: unreported.isEmpty && !all.isEmpty,
                detail: unreported.isEmpty
                    ? "VmHWM and ru_maxrss for all \(all.count) measurements"
                    : "missing for \(unreported.count)"))
        let mine = results.compactMap { result in result.measurement(subject).map { (result, $0) } }
            .filter { $0.1.error == nil }
        // A pass once the scrollback's ring has gone round twice where the
        // feed counted one (`steady_allocs=`), else the second half of the
        // feed; the second half is reported beside it, as it includes the
        // first filling of pages' tables where the scrollback still grows.
        let steady = mine.map { ($0.0, $0.1.steady?.allocations ?? $0.1.allocations) }
        let allocating = steady.filter { $0.1 != 0 }
        let unsettled = mine.filter { $0.1.steady?.reached == false }
        let unsettledDetail =
            unsettled.isEmpty
            ? ""
            : "; not settled when the passes ran out (a count of a still growing scrollback): "
                + unsettled.map { "\($0.0.corpus) \($0.0.size)" }.joined(separator: ", ")
        let fellBack = mine.filter { $0.1.steady == nil }.count
        let fellBackDetail = fellBack == 0 ? "" : "; \(fellBack) with no steady count, their second half read instead"
        let secondHalf = mine.filter { $0.1.allocations != 0 }
        let secondHalfDetail =
            secondHalf.isEmpty
            ? "in the second half of each feed: 0 on all \(mine.count)"
            : "in the second half of each feed: \(secondHalf.count) of \(mine.count), e.g. "
                + secondHalf.prefix(4).map { "\($0.0.corpus) \($0.0.size): \($0.1.allocations)" }
                .joined(separator: ", ")
        verdicts.append(
            Verdict(
                target:
                    "zero heap allocations during steady-state printing (a pass once the scrollback's ring has "
                    + "gone round twice; the second half of the feed where that is not counted)",
                met: allocating.isEmpty && !mine.isEmpty,
                detail: (allocating.isEmpty
                    ? "0 on all \(mine.count) runs"
                    : "\(allocating.count) of \(mine.count) allocate, e.g. "
                        + allocating.prefix(4).map { "\($0.0.corpus) \($0.0.size): \($0.1)" }
                        .joined(separator: ", ")) + unsettledDetail + fellBackDetail + "; " + secondHalfDetail))
        return verdicts + issue17Acceptance()
    }

    /// Issue #17's benchmark targets, for the parts of them this run has.
    func issue17Acceptance() -> [Verdict] {
        var verdicts: [Verdict] = []
        if let baseEngine {
            // The rows the base was measured on (a base from before
            // --chunk is not in the chunked rows).
            let existing = results.filter {
                !Runner.issue17Corpora.contains($0.kind) && $0.measurement(baseEngine) != nil
            }
            let ratios = existing.compactMap { result in baseRatio(result).map { (result, $0) } }
            if let worst = ratios.min(by: { $0.1 < $1.1 }) {
                let passing = ratios.filter { $0.1 >= 0.95 }.count
                verdicts.append(
                    Verdict(
                        target: "against the base commit's build (\(baseEngine)), every existing corpus's median "
                            + "ratio ≥ 0.95 (per-round pairs)",
                        met: passing == existing.count,
                        detail: "\(passing) of \(existing.count) pass; lowest \(format(worst.1, 3)) on "
                            + "\(worst.0.corpus) \(worst.0.size)", issue: 17))
            }
        }
        var churnRatios: [(FileResult, Double)] = []
        for result in results where Runner.churnCorpora.contains(result.kind) {
            guard let mine = result.measurement(subject), mine.error == nil,
                let dense = results.first(where: {
                    $0.kind == "truecolor_dense" && $0.size == result.size && $0.chunk == result.chunk
                })?
                .measurement(subject), dense.error == nil, dense.mibps > 0
            else { continue }
            churnRatios.append((result, mine.mibps / dense.mibps))
        }
        if let worst = churnRatios.min(by: { $0.1 < $1.1 }) {
            let passing = churnRatios.filter { $0.1 >= 0.5 }.count
            verdicts.append(
                Verdict(
                    target: "the churn corpora at ≥ 50% of truecolor_dense's speed",
                    met: passing == churnRatios.count,
                    detail: "\(passing) of \(churnRatios.count) pass; lowest \(format(100 * worst.1, 0))% on "
                        + "\(worst.0.corpus) \(worst.0.size)", issue: 17))
        }
        let churn = results.filter { Runner.churnCorpora.contains($0.kind) }.compactMap {
            $0.measurement(subject)
        }
        if !churn.isEmpty {
            let reported = churn.filter { Set($0.storage.keys).isSuperset(of: Self.storageKeys) }.count
            verdicts.append(
                Verdict(
                    target: "the churn corpora report cell and row bytes, and table bytes per live style, separately",
                    met: reported == churn.count,
                    detail: reported == churn.count
                        ? "reported for all \(churn.count) runs"
                        : "not reported for \(churn.count - reported) of \(churn.count) runs "
                            + "(FeedCommand.storageFields)", issue: 17))
        }
        return verdicts
    }

    /// The storage fields the churn corpora should report (issue #17).
    static let storageKeys: Set<String> = ["cell_bytes", "row_bytes", "table_bytes"]

    /// The engine's cell size, from its layout (the theoretical bytes per cell).
    var cellStride: Int { MemoryLayout<Cell>.stride }

    // MARK: Table

    /// The tables as plain text (`markdown: false`, for the terminal) or as
    /// Markdown (written to latest.md, for docs/PERFORMANCE.md).
    func table(markdown: Bool = false) -> String {
        let heading = markdown ? "\n#### " : "\n== "
        let paragraph = markdown ? "\n" : ""
        func markdownTable(_ lines: [[String]]) -> String {
            guard let header = lines.first else { return "" }
            var text = "\n| " + header.joined(separator: " | ") + " |\n"
            text += "|" + header.indices.map { $0 == 0 ? "---|" : "---:|" }.joined() + "\n"
            for line in lines.dropFirst() { text += "| " + line.joined(separator: " | ") + " |\n" }
            return text
        }

        func align(_ lines: [[String]]) -> String { markdown ? markdownTable(lines) : self.align(lines) }
        var text = ""
        let referenceNames = references
        for size in runner.sizes {
            let rows = results.filter { $0.size == size }
            guard !rows.isEmpty else { continue }
            text += heading + "\(size), \(runner.scrollback) lines of scrollback; median of \(runner.runs) round(s), "
            text += "engines interleaved, \(runner.warmup) warm-up feed per process; MiB/s (higher is better)"
            if let chunked = rows.first(where: { $0.chunk > 0 }) {
                text += "; rows ending \(Runner.chunkSuffix(chunked.chunk)): the same file fed in calls of at most "
                text += "\(chunked.chunk) bytes (one read() of a PTY)"
            }
            text += "\n"
            let baseNames = baseEngine.map { [$0] } ?? []
            var header = ["corpus", subject] + baseNames + referenceNames + ["fastest reference", "×fastest"]
            if baseEngine != nil { header.append("×base") }
            if let limitEngine { header.append(limitEngine) }
            var lines = [header]
            for result in rows {
                var line = [result.corpus, rate(result, subject)]
                line += baseNames.map { rate(result, $0) }
                line += referenceNames.map { rate(result, $0) }
                let best = bestReference(result)
                line.append(best?.name ?? "-")
                line.append(ratio(result).map { format($0, 2) + "×" } ?? "-")
                if baseEngine != nil { line.append(baseRatio(result).map { format($0, 3) + "×" } ?? "-") }
                if let limitEngine { line.append(rate(result, limitEngine)) }
                lines.append(line)
            }
            text += align(lines)

            text +=
                paragraph
                + "\nmemory and allocations at \(size): heap bytes per cell (heap after the feed ÷ cells incl. "
            text +=
                "scrollback), peak RSS of the process (MiB, includes the input file held in memory), heap allocations "
            text +=
                "in the second half of the feed, and \(subject)'s in a pass once its scrollback's ring has gone "
                + "round twice (steady). Process baseline (peak RSS on an empty input): "
            text +=
                measuredEngines.map { name in
                    "\(name) " + (baselines[name].map { format(Double($0) / 1024, 1) } ?? "?") + " MiB"
                }.joined(separator: ", ") + "\n"
            let engineNames = measuredEngines
            var memory = [
                ["corpus"] + engineNames.map { "\($0) B/cell" } + engineNames.map { "\($0) RSS" }
                    + engineNames.map { "\($0) allocs" } + ["\(subject) steady"]
            ]
            for result in rows {
                var line = [result.corpus]
                line += engineNames.map { name in
                    result.measurement(name).flatMap { $0.error == nil ? format(bytesPerCell($0, size), 2) : nil }
                        ?? "-"
                }
                line += engineNames.map { name in
                    result.measurement(name).flatMap {
                        $0.error == nil ? format(Double($0.peakResidentKiB) / 1024, 1) : nil
                    } ?? "-"
                }
                line += engineNames.map { name in
                    result.measurement(name).flatMap {
                        $0.error == nil ? ($0.allocations < 0 ? "?" : String($0.allocations)) : nil
                    } ?? "-"
                }
                line.append(result.measurement(subject)?.steady.map { String($0.allocations) } ?? "-")
                memory.append(line)
            }
            text += align(memory)
            text += storageTable(rows, size: size, markdown: markdown, align: align)

            if rows.contains(where: { !$0.race.isEmpty }) {
                text +=
                    paragraph
                    + "\nwhole-process race at \(size): median wall seconds of \(runner.raceRuns) run(s), start to exit, "
                    + (runner.raceBytes > 0
                        ? "each file repeated to \(runner.raceBytes >> 20) MiB or more "
                        : "each file as it is ")
                let replay = runner.termenginePath.map { "\($0) replay" } ?? "termengine replay"
                text += "(\(replay) --quiet vs each harness with --runs 1; in the rows fed in chunks, "
                text += "both with --chunk N"
                if let base = runner.base, base.termengine != nil, !base.replayFeedsInChunks {
                    text += ", and the base, whose replay has no --chunk, as its termbench feed --chunk N"
                }
                text += ")\n"
                let racers = rows.first { !$0.race.isEmpty }!.race.map(\.engine)
                let baseRaced = baseEngine.map(racers.contains) ?? false
                var race = [
                    ["corpus"] + racers + ["fastest reference ÷ \(subject)"] + (baseRaced ? ["base ÷ \(subject)"] : [])
                ]
                for result in rows {
                    var line = [result.corpus]
                    line += racers.map { name in
                        result.race.first { $0.engine == name }.flatMap {
                            $0.error == nil ? format($0.wallSeconds, 3) : "failed"
                        } ?? "-"
                    }
                    line.append(raceRatio(result).map { format($0, 2) + "×" } ?? "-")
                    if baseRaced { line.append(raceBaseRatio(result).map { format($0, 3) + "×" } ?? "-") }
                    race.append(line)
                }
                text += align(race)
            }
        }
        let mismatches = results.flatMap { result in
            result.measurements.filter { $0.screenMatchesSubject == false }.map {
                "\($0.engine) on \(result.corpus) \(result.size)"
            }
        }
        let failures = results.flatMap { result in
            result.measurements.compactMap { m in
                m.error.map { "\(m.engine) on \(result.corpus) \(result.size): \($0)" }
            }
        }
        text += paragraph + "\n* final screen differs from termengine's: "
        text += mismatches.isEmpty ? "none\n" : mismatches.joined(separator: "; ") + "\n"
        if !failures.isEmpty { text += "failures: " + failures.joined(separator: "; ") + "\n" }
        let verdicts = acceptance()
        for issue in [4, 17] {
            let listed = verdicts.filter { $0.issue == issue }
            guard !listed.isEmpty else { continue }
            text += paragraph + "\nacceptance (issue #\(issue)):\n" + paragraph
            for verdict in listed {
                text +=
                    (markdown ? "- " : "  ")
                    + "[\(verdict.met ? "met" : "NOT MET")] \(verdict.target): \(verdict.detail)\n"
            }
        }
        return text
    }

    /// The side tables after the churn corpora (issue #17): the styles
    /// interned, and the storage split into cell, row and table bytes where
    /// the engine reports it (`FeedCommand.storageFields`; when no engine
    /// of the run does, the table says so instead of showing numbers).
    func storageTable(
        _ rows: [FileResult], size: TerminalSize, markdown: Bool, align: ([[String]]) -> String
    ) -> String {
        let churn = rows.filter { Runner.issue17Corpora.contains($0.kind) }
        let engineNames = [subject] + (baseEngine.map { [$0] } ?? [])
        guard !churn.isEmpty else { return "" }
        let reported = churn.contains { result in
            engineNames.contains { result.measurement($0)?.storage.isEmpty == false }
        }
        var text = (markdown ? "\n" : "") + "\nside tables at \(size): styles interned after the feed "
        text += "(Terminal.styleCount)"
        text +=
            reported
            ? "; cell, row and table bytes as the engine reports them, table bytes per interned style\n"
            : ". Cell, row and table bytes: not reported by any engine of this run\n"
        var header = ["corpus"] + engineNames.map { "\($0) styles" }
        if reported {
            for key in ["cell_bytes", "row_bytes", "table_bytes"] { header += engineNames.map { "\($0) \(key)" } }
            header += engineNames.map { "\($0) table B/style" }
        }
        var lines = [header]
        func figure(_ result: FileResult, _ name: String, _ value: (Measurement) -> String?) -> String {
            result.measurement(name).flatMap { $0.error == nil ? value($0) : nil } ?? "-"
        }
        for result in churn {
            var line = [result.corpus]
            line += engineNames.map { name in figure(result, name) { $0.styles.map(String.init) } }
            if reported {
                for key in ["cell_bytes", "row_bytes", "table_bytes"] {
                    line += engineNames.map { name in figure(result, name) { $0.storage[key].map(String.init) } }
                }
                line += engineNames.map { name in
                    figure(result, name) { m in
                        guard let table = m.storage["table_bytes"], let styles = m.styles, styles > 0 else {
                            return nil
                        }
                        return format(Double(table) / Double(styles), 1)
                    }
                }
            }
            lines.append(line)
        }
        return text + align(lines)
    }

    func rate(_ result: FileResult, _ engine: String) -> String {
        guard let measurement = result.measurement(engine) else { return "-" }
        if measurement.error != nil { return "failed" }
        return format(measurement.mibps, 1) + (measurement.screenMatchesSubject == false ? "*" : "")
    }

    func markdownTable(_ lines: [[String]]) -> String {
        guard let header = lines.first else { return "" }
        var text = "\n| " + header.joined(separator: " | ") + " |\n"
        text += "|" + header.indices.map { $0 == 0 ? "---|" : "---:|" }.joined() + "\n"
        for line in lines.dropFirst() { text += "| " + line.joined(separator: " | ") + " |\n" }
        return text
    }

    func align(_ lines: [[String]]) -> String {
        let widths = (0..<(lines.first?.count ?? 0)).map { column in
            lines.map { $0[column].count }.max() ?? 0
        }
        return lines.map { line in
            line.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    // MARK: JSON

    func json(date: Date) -> [String: Any] {
        var files: [[String: Any]] = []
        for result in results {
            var engineResults: [String: Any] = [:]
            for m in result.measurements {
                var entry: [String: Any] = ["engine": m.engine]
                if let error = m.error {
                    entry["error"] = error
                } else {
                    entry["mibps"] = m.mibps
                    entry["mibps_best"] = m.bestMibps
                    entry["seconds_median"] = m.seconds
                    entry["heap_bytes"] = m.heapBytes
                    entry["bytes_per_cell"] = bytesPerCell(m, result.size)
                    entry["second_half_allocations"] = m.allocations
                    entry["second_half_allocated_bytes"] = m.allocatedBytes
                    if let steady = m.steady {
                        entry["steady_state_allocations"] = steady.allocations
                        entry["steady_state_allocated_bytes"] = steady.allocatedBytes
                        entry["steady_state_passes"] = steady.passesBefore
                        entry["steady_state_reached"] = steady.reached
                    }
                    entry["peak_rss_kib"] = m.peakResidentKiB
                    entry["process_max_rss_kib"] = m.childMaxResidentKiB
                    entry["scrollback_lines"] = m.scrollback
                    entry["screen_fnv1a"] = m.screen
                    if let matches = m.screenMatchesSubject { entry["screen_matches_termengine"] = matches }
                    if let styles = m.styles { entry["styles_interned"] = styles }
                    for (key, value) in m.storage { entry[key] = value }
                }
                engineResults[m.engine] = entry
            }
            var file: [String: Any] = [
                "corpus": result.corpus, "kind": result.kind, "chunk_bytes": result.chunk,
                "size": result.size.description, "bytes": result.bytes,
                "engines": engineResults,
            ]
            if let best = bestReference(result) { file["fastest_reference"] = best.name }
            if let ratio = ratio(result) { file["ratio_vs_fastest_reference"] = ratio }
            if let ratio = baseRatio(result) { file["ratio_vs_base"] = ratio }
            if let ratio = baseRatioOfMedians(result) { file["ratio_vs_base_of_medians"] = ratio }
            if !result.race.isEmpty {
                var race: [String: Any] = [:]
                for entry in result.race {
                    race[entry.engine] =
                        entry.error.map { ["error": $0] as [String: Any] } ?? [
                            "wall_seconds_median": entry.wallSeconds,
                            "wall_mibps": Double(result.bytes) / 1_048_576 / entry.wallSeconds,
                            "max_rss_kib": entry.maxResidentKiB,
                        ]
                }
                file["race"] = race
                if let ratio = raceRatio(result) { file["race_ratio_fastest_reference_over_termengine"] = ratio }
                if let ratio = raceBaseRatio(result) { file["race_ratio_base_over_termengine"] = ratio }
            }
            files.append(file)
        }
        let formatter = ISO8601DateFormatter()
        return [
            "schema": "termbench/1",
            "generated": formatter.string(from: date),
            "command": runner.commandLine,
            "machine": machine(),
            "config": [
                "runs": runner.runs, "warmup": runner.warmup, "race_runs": runner.raceRuns,
                "race_bytes": runner.raceBytes,
                "scrollback": runner.scrollback, "sizes": runner.sizes.map(\.description), "quick": runner.quick,
                "corpus": runner.corpusDirectory, "base": runner.base?.revision ?? NSNull(),
            ] as [String: Any],
            "engines": engines.map { engine -> [String: Any] in
                var entry: [String: Any] = [
                    "name": engine.name, "role": engine.role.rawValue, "version": engine.version,
                ]
                if let baseline = baselines[engine.name] { entry["process_baseline_rss_kib"] = baseline }
                if engine.role == .base, let base = runner.base { entry["commit"] = base.commit }
                return entry
            },
            "results": files,
            "acceptance": acceptance().map {
                ["target": $0.target, "met": $0.met, "detail": $0.detail, "issue": $0.issue] as [String: Any]
            },
        ]
    }

    func machine() -> [String: Any] {
        var info: [String: Any] = ["cores": ProcessInfo.processInfo.activeProcessorCount]
        #if os(Linux)
            if let cpu = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
                let model = cpu.split(separator: "\n").first(where: { $0.hasPrefix("model name") })
            {
                info["cpu"] = model.split(separator: ":", maxSplits: 1).last.map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            }
        #endif
        info["memory_gib"] = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        // Other work on a shared machine shows up here: compare it with the
        // core count before trusting small differences.
        info["loadavg_at_start"] = runner.loadAverageAtStart
        info["loadavg_at_end"] = loadAverage()
        var name = utsname()
        uname(&name)
        info["kernel"] = withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return info
    }
}

/// The first three fields of /proc/loadavg (empty where there is no /proc).
func loadAverage() -> String {
    #if os(Linux)
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    #else
        return ""
    #endif
}

extension FileResult {
    func measurement(_ engine: String) -> Measurement? { measurements.first { $0.engine == engine } }
}

func format(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}
