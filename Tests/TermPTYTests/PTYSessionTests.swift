#if os(Linux) || os(macOS)
    import Synchronization
    import TermCore
    import TermPTY
    import Testing

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The screen's rows as text, trailing blanks trimmed, blank rows at the end dropped.
    func screenText(_ session: PTYSession) -> [String] {
        let snapshot = session.snapshot()
        var lines = (0..<snapshot.rows).map { snapshot.line($0).text }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Polls until `condition` holds for the session's screen, for up to `seconds`.
    func waitForScreen(_ session: PTYSession, seconds: Double = 10, _ condition: ([String]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition(screenText(session)) { return true }
            usleep(10_000)
        }
        return condition(screenText(session))
    }

    func sh(_ script: String) -> PTYCommand { PTYCommand("/bin/sh", ["-c", script]) }

    @Suite("TermPTY: programs on a pseudo-terminal", .timeLimit(.minutes(1)))
    struct PTYSessionTests {
        @Test("a program sees its window size, its output reaches the screen, its exit code is reported")
        func aProgramSeesItsWindowSizeItsOutputReachesTheScreenItsExitCodeIsReported() throws {
            let session = try PTYSession(sh("stty size; printf hi; exit 3"), size: PTYSize(columns: 57, rows: 13))
            #expect(session.waitForExit(timeout: .seconds(10)) == .exited(3))
            #expect(screenText(session) == ["13 57", "hi"])
            #expect(session.snapshot().columns == 57 && session.snapshot().rows == 13)
            #expect(session.exitStatus?.shellStatus == 3)
        }

        @Test("the program gets TERM=xterm-256color and COLORTERM=truecolor, and its own variables")
        func theProgramGetsTERMXterm256colorAndCOLORTERMTruecolorAndItsOwnVariables() throws {
            let command = PTYCommand(
                "/bin/sh", ["-c", "printf '%s %s %s' \"$TERM\" \"$COLORTERM\" \"$EXTRA\""], environment: ["EXTRA": "x1"]
            )
            let session = try PTYSession(command, size: PTYSize(columns: 80, rows: 5))
            #expect(session.waitForExit(timeout: .seconds(10)) == .exited(0))
            #expect(screenText(session) == ["xterm-256color truecolor x1"])
        }

        @Test("a resize reaches the program as SIGWINCH and stty size follows")
        func aResizeReachesTheProgramAsSIGWINCHAndSttySizeFollows() throws {
            let script = "trap 'stty size' WINCH; echo ready; while :; do sleep 0.05; done"
            let session = try PTYSession(sh(script), size: PTYSize(columns: 80, rows: 24))
            #expect(waitForScreen(session) { $0.contains("ready") })
            try session.resize(columns: 100, rows: 30)
            #expect(waitForScreen(session) { $0.contains("30 100") })
            #expect(session.process.size == PTYSize(columns: 100, rows: 30))
            try session.resize(columns: 41, rows: 12)
            #expect(waitForScreen(session) { $0.contains("12 41") })
            #expect(session.snapshot().columns == 41)
            session.send(signal: SIGKILL)
            #expect(session.waitForExit(timeout: .seconds(10)) == .signaled(SIGKILL))
        }

        @Test("input written reaches the program: cat echoes a line") func inputWrittenReachesTheProgramCatEchoesALine()
            throws
        {
            let session = try PTYSession(PTYCommand("cat"), size: PTYSize(columns: 80, rows: 24))
            session.send(Array("hello pty\r".utf8))
            // The line discipline echoes "hello pty", then cat writes it back.
            #expect(waitForScreen(session) { $0 == ["hello pty", "hello pty"] })
            session.send([0x04])  // ^D at the start of a line: end of file, cat exits
            #expect(session.waitForExit(timeout: .seconds(10)) == .exited(0))
            #expect(session.statistics.bytesWritten == 11)
        }

        @Test("the terminal's replies are written back to the program")
        func theTerminalsRepliesAreWrittenBackToTheProgram() throws {
            // DSR 6 asks for the cursor position; the terminal answers ESC [ 3 ; 5 R.
            let script =
                "stty raw -echo; printf '\\033[3;5H\\033[6n'; dd bs=1 count=6 2>/dev/null | od -An -c | tr -s ' '"
            let session = try PTYSession(sh(script), size: PTYSize(columns: 80, rows: 24))
            #expect(session.waitForExit(timeout: .seconds(10)) == .exited(0))
            #expect(screenText(session).joined().contains("033 [ 3 ; 5 R"))
        }

        @Test("a program that does not exist throws a typed error naming it")
        func aProgramThatDoesNotExistThrowsATypedErrorNamingIt() {
            #expect {
                _ = try PTYSession(PTYCommand("termengine-no-such-program"), size: PTYSize(columns: 80, rows: 24))
            } throws: { error in
                guard let error = error as? PTYError else { return false }
                return error.kind == .spawnFailed && error.code == ENOENT
                    && error.description == "cannot start 'termengine-no-such-program': No such file or directory"
            }
            #expect(throws: PTYError.self) {
                _ = try PTYSession(PTYCommand("/nonexistent/prog"), size: PTYSize(columns: 80, rows: 24))
            }
            #expect(throws: PTYError.self) { _ = try PTYSession(PTYCommand(""), size: PTYSize(columns: 80, rows: 24)) }
        }

        @Test("SIGHUP ends the program and the signal is reported") func sighupEndsTheProgramAndTheSignalIsReported()
            throws
        {
            let session = try PTYSession(sh("echo up; exec sleep 60"), size: PTYSize(columns: 80, rows: 24))
            #expect(waitForScreen(session) { $0 == ["up"] })
            #expect(session.send(signal: SIGHUP))
            let status = session.waitForExit(timeout: .seconds(10))
            #expect(status == .signaled(SIGHUP))
            #expect(status?.shellStatus == 129)
            #expect(!session.send(signal: SIGHUP))  // gone: no signal to a recycled id
        }

        @Test("hanging up the terminal sends SIGHUP to the program") func hangingUpTheTerminalSendsSIGHUPToTheProgram()
            throws
        {
            let session = try PTYSession(sh("echo up; exec sleep 60"), size: PTYSize(columns: 80, rows: 24))
            #expect(waitForScreen(session) { $0 == ["up"] })
            session.hangUp()
            #expect(session.waitForExit(timeout: .seconds(10)) == .signaled(SIGHUP))
        }

        @Test("the program's signals are at their defaults even when this process ignores them")
        func theProgramsSignalsAreAtTheirDefaultsEvenWhenThisProcessIgnoresThem() throws {
            signal(SIGWINCH, SIG_IGN)  // as `termengine run` does, to catch it with a dispatch source
            defer { signal(SIGWINCH, SIG_DFL) }
            let session = try PTYSession(sh("exec sleep 60"), size: PTYSize(columns: 80, rows: 24))
            usleep(100_000)
            session.send(signal: SIGWINCH)  // default: ignored; then SIGTERM must still end it
            session.send(signal: SIGTERM)
            #expect(session.waitForExit(timeout: .seconds(10)) == .signaled(SIGTERM))
        }

        @available(macOS 15.0, *)  // Mutex
        @Test("output larger than every buffer arrives complete, in bounded reads")
        func outputLargerThanEveryBufferArrivesCompleteInBoundedReads() async throws {
            let total = Mutex(0)
            let ys = Mutex(0)
            let session = try PTYSession(
                sh("yes | head -c 5000000; printf END"), size: PTYSize(columns: 80, rows: 24), scrollback: 100,
                onOutput: { bytes in
                    total.withLock { $0 += bytes.count }
                    ys.withLock { count in count += bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "y") ? 1 : 0) } }
                })
            let status = await session.waitForExit()
            #expect(status == .exited(0))
            // 2,500,000 lines of "y\n", each LF sent as CR LF by the PTY (onlcr), then END.
            #expect(ys.withLock { $0 } == 2_500_000)
            #expect(total.withLock { $0 } == 7_500_003)
            let statistics = session.statistics
            #expect(statistics.bytesRead == 7_500_003)
            #expect(statistics.largestRead <= PTYLimits.readChunk)
            #expect(screenText(session).suffix(2) == ["y", "END"])
            #expect(session.withTerminal { $0.scrollbackCount } == 100)
        }

        @Test("input past the pending limit is dropped whole and counted, never held")
        func inputPastThePendingLimitIsDroppedWholeAndCountedNeverHeld() throws {
            // The program never reads; the kernel's input buffer fills, then ours.
            let session = try PTYSession(sh("stty raw -echo; exec sleep 60"), size: PTYSize(columns: 80, rows: 24))
            usleep(200_000)
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 65_536)
            for _ in 0..<40 { session.send(chunk) }
            let statistics = session.statistics
            #expect(statistics.droppedInputBytes > 0)
            #expect(statistics.largestPendingInput <= PTYLimits.maxPendingInput)
            #expect(
                statistics.bytesWritten + statistics.droppedInputBytes + statistics.largestPendingInput >= 40 * 65_536)
            session.hangUp()
            #expect(session.waitForExit(timeout: .seconds(10)) == .signaled(SIGHUP))
        }

        @Test("a background job holding the terminal does not delay the exit past the grace period")
        func aBackgroundJobHoldingTheTerminalDoesNotDelayTheExitPastTheGracePeriod() throws {
            let session = try PTYSession(sh("sleep 5 & printf done; exit 7"), size: PTYSize(columns: 80, rows: 24))
            let start = ContinuousClock.now
            #expect(session.waitForExit(timeout: .seconds(4)) == .exited(7))
            #expect(ContinuousClock.now - start < .seconds(3))
            #expect(screenText(session) == ["done"])
        }
    }
#endif
