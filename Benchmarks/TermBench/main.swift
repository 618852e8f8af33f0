import CommandLineOptions
import Foundation

// termbench: TermEngine's throughput and memory benchmark (docs/PERFORMANCE.md).
//
//   termbench run ...    every corpus file × size × engine, then the table,
//                        Benchmarks/results/latest.json and latest.svg
//   termbench feed ...   one engine on one file (the harness protocol; the
//                        runner spawns it so each measurement is its own process)
//
// Benchmarks/run.sh installs the reference engines, builds everything,
// generates the corpus and calls `termbench run`.

let usage = """
    usage:
      \(Runner.usage)
      \(FeedCommand.usage)
    """

func main() -> Int32 {
    let command = CommandLine.arguments.dropFirst().first ?? "run"
    var options = Arguments(CommandLine.arguments.dropFirst(2))
    do {
        switch command {
        case "feed":
            try FeedCommand.run(&options)
        case "run":
            var runner = try Runner(&options)
            try runner.prepareBase()
            let engines = runner.engines()
            let started = Date()
            let (results, baselines) = try runner.run()
            let report = Report(runner: runner, engines: engines, results: results, baselines: baselines)
            print(report.table(), terminator: "")
            try FileManager.default.createDirectory(atPath: runner.outputDirectory, withIntermediateDirectories: true)
            let json = try JSONSerialization.data(
                withJSONObject: report.json(date: started), options: [.prettyPrinted, .sortedKeys])
            let jsonPath = runner.outputDirectory + "/latest.json"
            let svgPath = runner.outputDirectory + "/latest.svg"
            let markdownPath = runner.outputDirectory + "/latest.md"
            try json.write(to: URL(fileURLWithPath: jsonPath))
            try Data(report.table(markdown: true).utf8).write(to: URL(fileURLWithPath: markdownPath))
            try Data(Chart(report: report).svg().utf8).write(to: URL(fileURLWithPath: svgPath))
            let elapsed = Date().timeIntervalSince(started)
            log("termbench: wrote \(jsonPath), \(markdownPath) and \(svgPath) in \(Int(elapsed)) s")
        case "help", "--help", "-h":
            print(usage)
        default:
            log("termbench: unknown command '\(command)'\n\(usage)")
            return 2
        }
    } catch is Arguments.HelpRequested {
        print(usage)
    } catch {
        log("termbench \(command): \(error)")
        return 2
    }
    return 0
}

#if os(Linux)
    exit(main())
#else
    // What it measures is Linux's: glibc's allocator (CAllocCounter,
    // MALLOC_MMAP_THRESHOLD_), /proc, GNU time and Debian's packages.
    log("termbench runs on Linux only (docs/PERFORMANCE.md)")
    exit(2)
#endif
