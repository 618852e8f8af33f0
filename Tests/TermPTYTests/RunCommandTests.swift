import TestSupport
import Testing

/// `termengine run`'s refusals, which need no terminal; the interactive part
/// runs in tmux (Corpus/tools/run_tmux.py, from scripts/test.sh).
@Suite("termengine run: arguments", .timeLimit(.minutes(1)))
struct RunCommandTests {
    @Test("help lists run") func helpListsRun() throws {
        let run = try PackageExecutable("termengine").run(["help"])
        #expect(run.status == 0)
        #expect(run.output.contains("termengine run [--size COLSxROWS] -- CMD [ARGS]..."))
    }

    @Test("refusals exit 2 with one line naming the problem") func refusalsExit2WithOneLineNamingTheProblem() throws {
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
    import Synchronization
    import TermCore
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
    ///
    /// Each test runs two processes deep (`run`, then its shell) beside the
    /// rest of the suite on a CI machine of two CPUs: its exit is awaited for
    /// up to `exitTimeout`, and the suite has three minutes. Alone a test
    /// takes about a second; in one CI run of the whole suite the first
    /// test's 10 s wait for the exit ran out.
    @Suite("termengine run: modes mirrored on the outer terminal", .timeLimit(.minutes(3)))
    struct RunMirrorTests {
        /// How long a test waits for `run` to exit (see the suite).
        static let exitTimeout = Duration.seconds(60)

        @Test("the kitty keyboard flags are mirrored while the program runs and reset after it")
        func theKittyKeyboardFlagsAreMirroredWhileTheProgramRunsAndResetAfterIt() throws {
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
            #expect(session.waitForExit(timeout: Self.exitTimeout) == .exited(4))
            let after = session.withTerminal { ($0.modes.kittyKeyboardFlags, $0.modes.bracketedPaste) }
            #expect(after.0 == 0 && !after.1)
        }

        /// The mirror's painter writes each run's rendition whole. Expected
        /// bytes: a reset and the attributes in one SGR (ECMA-48 §8.3.117:
        /// 0 resets, 53 is overlined); the underline styles as SGR 4's
        /// sub-parameter (4:3 curly, 4:4 dotted, 4:5 dashed) and the underline
        /// colour as 58 with 38's colour forms (`58;5;n`, `58;2;r;g;b`), as
        /// kitty's underline extension defines them and xterm reads 38.
        @available(macOS 15.0, *)  // Mutex
        @Test("curly, dotted and dashed underlines, underline colours and overline reach the outer terminal")
        func underlineStylesAndColoursAreMirrored() throws {
            let engine = try PackageExecutable("termengine").url.path
            let program =
                #"printf '\033[4:3;58:5:196mA\033[0;4:4;53mB\033[0;4:5;58:2::10:200:30mC\033[0mready'; sleep 1"#
            let painted = Mutex<[UInt8]>([])
            let session = try PTYSession(
                PTYCommand(engine, ["run", "--size", "30x5", "--", "/bin/sh", "-c", program]),
                size: PTYSize(columns: 40, rows: 8), onOutput: { bytes in painted.withLock { $0 += bytes } })
            #expect(waitForScreen(session) { $0.first?.hasPrefix("ABCready") == true })
            #expect(session.waitForExit(timeout: Self.exitTimeout) == .exited(0))
            let row =
                "\u{1B}[0;4:3;58;5;196mA\u{1B}[0;4:4;53mB\u{1B}[0;4:5;58;2;10;200;30mC\u{1B}[0mready\u{1B}[0m\u{1B}[K"
            let bytes = painted.withLock { $0 }
            #expect(
                bytes.firstRange(of: Array(row.utf8)) != nil,
                "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
            // And the outer terminal, fed those bytes, holds what the program set.
            let line = session.snapshot().line(0)
            #expect(line.cell(0).style == Style(underlineColor: .indexed(196), underline: .curly))
            #expect(line.cell(1).style == Style(flags: .overline, underline: .dotted))
            #expect(line.cell(2).style == Style(underlineColor: .rgb(10, 200, 30), underline: .dashed))
            #expect(line.cell(3).style == Style())
        }
    }
#endif
