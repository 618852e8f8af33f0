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

    // The TermPTY recipe of docs/EMBEDDING.md ("Running a local program"),
    // compiled and run here. Keep the two in step.

    /// A view's model for a program run locally: keys in, frames out.
    final class LocalTerminal: Sendable {
        let session: PTYSession

        /// `redraw` is called (on the session's queue) when the screen changed.
        init(_ command: PTYCommand, columns: Int, rows: Int, redraw: @escaping @Sendable () -> Void) throws(PTYError) {
            session = try PTYSession(
                command, size: PTYSize(columns: columns, rows: rows), onUpdate: redraw,
                onExit: { status in print("exited with \(status.shellStatus)") })
        }

        /// A key from the UI, encoded for the modes the program set (DECCKM…).
        func keyDown(_ event: KeyEvent) {
            session.send(session.withTerminal { $0.inputEncoder.encode(event) })
        }

        /// The view's size in cells changed: the terminal reflows, the program gets SIGWINCH.
        func viewResized(columns: Int, rows: Int) {
            try? session.resize(columns: columns, rows: rows)
        }

        /// The window closed: SIGHUP to the program, then the terminal hung up
        /// (which alone may let a program reading it see the end of input first).
        func close() {
            session.send(signal: SIGHUP)
            session.hangUp()
        }

        /// What to draw (see "The part that is not UI" for the dirty rows).
        func frame() -> Snapshot { session.snapshot() }
    }

    @Suite("TermPTY: the embedding recipe", .timeLimit(.minutes(1)))
    struct EmbeddingRecipeTests {
        @available(macOS 15.0, *)  // Atomic
        @Test("the LocalTerminal recipe runs a program, sends keys, resizes and closes")
        func theLocalTerminalRecipeRunsAProgramSendsKeysResizesAndCloses() throws {
            let redraws = Atomic(0)
            // A trapped SIGWINCH interrupts `read`, so the loop does not end on its status.
            let script =
                "stty -echo; trap 'stty size' WINCH; echo ready; while :; do read -r line && echo \"got $line\"; done"
            let local = try LocalTerminal(PTYCommand("/bin/sh", ["-c", script]), columns: 60, rows: 10) {
                redraws.add(1, ordering: .relaxed)
            }
            #expect(waitForScreen(local.session) { $0 == ["ready"] })
            for scalar in "ab".unicodeScalars { local.keyDown(KeyEvent(.character(scalar), text: String(scalar))) }
            local.keyDown(KeyEvent(.enter))
            #expect(waitForScreen(local.session) { $0 == ["ready", "got ab"] })
            local.viewResized(columns: 70, rows: 12)
            #expect(waitForScreen(local.session) { $0.last == "12 70" })
            #expect(local.frame().columns == 70)
            #expect(redraws.load(ordering: .relaxed) > 0)
            local.close()
            #expect(local.session.waitForExit(timeout: .seconds(10)) == .signaled(SIGHUP))
        }

        @Test("a missing program fails with the reason a user can act on")
        func aMissingProgramFailsWithTheReasonAUserCanActOn() {
            #expect(throws: PTYError.self) {
                _ = try LocalTerminal(PTYCommand("no-such-editor"), columns: 80, rows: 24) {}
            }
        }
    }
#endif
