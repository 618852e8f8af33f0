import TestSupport
import Testing

/// `termengine run`'s refusals, which need no terminal; the interactive part
/// runs in tmux (Corpus/tools/run_tmux.py, from scripts/test.sh).
@Suite("termengine run: arguments", .timeLimit(.minutes(1)))
struct RunCommandTests {
    @Test func `help lists run`() throws {
        let run = try PackageExecutable("termengine").run(["help"])
        #expect(run.status == 0)
        #expect(run.output.contains("termengine run [--size COLSxROWS] -- CMD [ARGS]..."))
    }

    @Test func `refusals exit 2 with one line naming the problem`() throws {
        let engine = try PackageExecutable("termengine")
        let cases: [([String], String)] = [
            (
                ["run"],
                "termengine run: run takes a command after --\nusage: termengine run [--size COLSxROWS] -- CMD [ARGS]...\n"
            ),
            (
                ["run", "--size", "0x5", "--", "true"],
                "termengine run: --size must be COLSxROWS, each 1…1000, got '0x5'\n"
            ),
            (["run", "--bogus", "--", "true"], "termengine run: unknown option --bogus\n"),
            (["run", "--", "true"], "termengine run: run needs a terminal on standard input and output\n"),
        ]
        for (arguments, errors) in cases {
            let run = try engine.run(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.errors == errors)
            #expect(run.output == "")
        }
    }
}
