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

#if os(Linux) || os(macOS)
    import TermPTY
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// `termengine run` hosted on a pseudo-terminal whose terminal is a
    /// TermCore `Terminal`: what `run` sets on its outer terminal shows in
    /// that terminal's modes.
    @Suite("termengine run: modes mirrored on the outer terminal", .timeLimit(.minutes(1)))
    struct RunMirrorTests {
        @Test func `the kitty keyboard flags are mirrored while the program runs and reset after it`() throws {
            let engine = try PackageExecutable("termengine").url.path
            let program = "printf '\\033[=5;1u\\033[?2004h'; printf ready; sleep 1; exit 4"
            let session = try PTYSession(
                PTYCommand(engine, ["run", "--size", "30x5", "--", "/bin/sh", "-c", program]),
                size: PTYSize(columns: 40, rows: 8))
            #expect(waitForScreen(session) { $0.contains { $0.contains("ready") } })
            var flags: UInt8 = 0
            var paste = false
            for _ in 0..<200 where flags != 5 || !paste {
                (flags, paste) = session.withTerminal { ($0.modes.kittyKeyboardFlags, $0.modes.bracketedPaste) }
                if flags != 5 || !paste { usleep(10_000) }
            }
            #expect(flags == 5 && paste)
            #expect(session.waitForExit(timeout: .seconds(10)) == .exited(4))
            let after = session.withTerminal { ($0.modes.kittyKeyboardFlags, $0.modes.bracketedPaste) }
            #expect(after.0 == 0 && !after.1)
        }
    }
#endif
