import CommandLineOptions
import Dispatch
import TermCore
import TermEngineCLI
import TermPTY

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `termengine run`: hosts a program on a pseudo-terminal through the engine
/// in this terminal. The program's screen is a ``Terminal`` fed from the
/// PTY and drawn here from its snapshots, from the top-left, with one status
/// row below; keys go to the program raw; the program's mouse, paste, focus
/// and keyboard modes are mirrored on this terminal so that what this
/// terminal sends is what the program asked for.
enum RunCommand {
    static let usage = "termengine run [--size COLSxROWS] -- CMD [ARGS]..."

    static let details = """
        Runs CMD on a pseudo-terminal and draws its screen in this terminal through the engine,
        from the top-left, with a status row below. Keys go to CMD raw; Ctrl-\\ detaches (CMD is
        sent SIGHUP). Exits with CMD's status, or 128 + the signal that ended it. Needs a terminal
        on standard input and output.

          --size COLSxROWS     a fixed size for CMD, each 1…1000 (default: this terminal's size
                               less the status row, following its resizes)

        Everything after -- is CMD and its arguments, options included. The -- may be left out
        when no argument starts with --; then a first -h or --help asks for this text.
        """

    struct Options {
        /// A fixed size for the program; nil follows this terminal.
        var size: PTYSize?
        var command: PTYCommand
    }

    /// Runs the program and returns its status for `exit`: its exit code, or
    /// 128 + the signal that ended it (129 after the detach key's SIGHUP).
    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try parse(arguments)
        guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
            throw Arguments.Failure(description: "run needs a terminal on standard input and output")
        }
        return try Host.run(options)
    }

    static func parse(_ arguments: [String]) throws -> Options {
        // Everything after the first `--` is the command, flags included.
        let split = arguments.firstIndex(of: "--")
        var flags = Arguments(split.map { arguments[..<$0] } ?? arguments[...])
        let sizeText = try flags.values("--size").last
        // Without `--`, the command's own -h is the command's: only a
        // leading one asks for run's usage.
        let before = try flags.positionals(helpOnlyLeading: split == nil)
        let command = split.map { Array(arguments[($0 + 1)...]) } ?? before
        guard split == nil || before.isEmpty, let program = command.first else {
            throw Arguments.Failure(description: "run takes a command after --\nusage: \(usage)")
        }
        var size: PTYSize?
        if let sizeText {
            let parts = sizeText.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
                Terminal.Limits.dimensions.contains(columns), Terminal.Limits.dimensions.contains(rows)
            else { throw Arguments.Failure(description: "--size must be COLSxROWS, each 1…1000, got '\(sizeText)'") }
            size = PTYSize(columns: columns, rows: rows)
        }
        return Options(size: size, command: PTYCommand(program, Array(command.dropFirst())))
    }

    /// The escape sequences that move this terminal's input modes from `old`
    /// to `new`: mouse tracking (DECSET 9, 1000, 1002, 1003) and its
    /// encoding (1005, 1006, 1015, 1016), bracketed paste (2004), focus
    /// events (1004), application cursor keys (DECCKM, 1) and keypad
    /// (DECKPAM/DECKPNM), the kitty keyboard flags, and the cursor's shape
    /// (DECSCUSR). These decide
    /// what this terminal sends for the keys, clicks and pastes passed on
    /// raw, so they must be the program's.
    static func mirror(from old: TerminalModes, to new: TerminalModes) -> String {
        var out = ""
        func set(_ mode: Int, _ on: Bool) { out += "\u{1B}[?\(mode)\(on ? "h" : "l")" }
        if old.mouseTracking != new.mouseTracking {
            if let mode = trackingMode(old.mouseTracking) { set(mode, false) }
            if let mode = trackingMode(new.mouseTracking) { set(mode, true) }
        }
        if old.mouseEncoding != new.mouseEncoding {
            if let mode = encodingMode(old.mouseEncoding) { set(mode, false) }
            if let mode = encodingMode(new.mouseEncoding) { set(mode, true) }
        }
        if old.bracketedPaste != new.bracketedPaste { set(2004, new.bracketedPaste) }
        if old.focusEvents != new.focusEvents { set(1004, new.focusEvents) }
        if old.applicationCursorKeys != new.applicationCursorKeys { set(1, new.applicationCursorKeys) }
        if old.applicationKeypad != new.applicationKeypad { out += new.applicationKeypad ? "\u{1B}=" : "\u{1B}>" }
        // The kitty keyboard protocol's flags, set whole (`CSI = flags ; 1 u`):
        // with them the outer terminal sends the key reports the program
        // asked for (its pushes and pops are the engine's to keep).
        if old.kittyKeyboardFlags != new.kittyKeyboardFlags { out += "\u{1B}[=\(new.kittyKeyboardFlags);1u" }
        if old.cursorShape != new.cursorShape || old.cursorBlink != new.cursorBlink {
            let base: Int
            switch new.cursorShape {
            case .block: base = 1
            case .underline: base = 3
            case .bar: base = 5
            }
            // 0 is the terminal's own default (xterm: a blinking block).
            let isDefault = new.cursorShape == .block && new.cursorBlink
            out += "\u{1B}[\(isDefault ? 0 : base + (new.cursorBlink ? 0 : 1)) q"
        }
        return out
    }

    private static func trackingMode(_ tracking: TerminalModes.MouseTracking) -> Int? {
        switch tracking {
        case .none: return nil
        case .x10: return 9
        case .normal: return 1000
        case .buttonEvent: return 1002
        case .anyEvent: return 1003
        }
    }

    private static func encodingMode(_ encoding: TerminalModes.MouseEncoding) -> Int? {
        switch encoding {
        case .legacy: return nil
        case .utf8: return 1005
        case .sgr: return 1006
        case .urxvt: return 1015
        case .sgrPixels: return 1016
        }
    }

    /// Puts every mirrored mode back to its power-on value, whatever was
    /// mirrored (a program killed mid-update leaves its modes set).
    static let resetModes =
        "\u{1B}[?9l\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1005l\u{1B}[?1006l\u{1B}[?1015l\u{1B}[?1016l"
        + "\u{1B}[?2004l\u{1B}[?1004l\u{1B}[?1l\u{1B}>\u{1B}[=0;1u\u{1B}[0 q"

    /// The display side: the painter, the mirrored modes and the outer size,
    /// all owned by `queue` (the `@unchecked Sendable` is that confinement).
    final class Host: @unchecked Sendable {
        let queue = DispatchQueue(label: "termengine.run.display")
        let options: Options
        let label: String
        var viewport: ScreenPainter.Viewport
        var painter = ScreenPainter()
        var mirrored = TerminalModes()
        var session: PTYSession?
        var result: Int32?
        var sources: [DispatchSourceProtocol] = []
        let finished = DispatchSemaphore(value: 0)
        /// Output updates, coalesced: a flood of reads makes one redraw per
        /// turn of the display queue, not one per read.
        let redraws: DispatchSourceUserDataAdd

        init(_ options: Options, viewport: ScreenPainter.Viewport) {
            self.options = options
            self.viewport = viewport
            label = ([options.command.executable] + options.command.arguments).joined(separator: " ")
            redraws = DispatchSource.makeUserDataAddSource(queue: queue)
        }

        /// From any thread: the program's screen changed.
        func requestRedraw() { redraws.add(data: 1) }

        static func run(_ options: Options) throws -> Int32 {
            let outer = Interactive.windowSize() ?? (80, 25)
            let host = Host(options, viewport: .init(columns: outer.0, rows: outer.1))
            host.redraws.setEventHandler { host.redraw() }
            // Started before the terminal changes, so that "cannot start" is
            // printed on a terminal left as it was.
            let session = try PTYSession(
                options.command, size: options.size ?? host.innerSize,
                onUpdate: { host.requestRedraw() },
                onExit: { status in host.queue.async { host.end(status: status.shellStatus) } })

            var saved = termios()
            tcgetattr(STDIN_FILENO, &saved)
            var raw = saved
            cfmakeraw(&raw)
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
            host.queue.sync {
                host.session = session
                host.sources.append(host.redraws)
                host.redraws.resume()
                for signalNumber in [SIGWINCH, SIGHUP, SIGTERM, SIGINT, SIGQUIT] {
                    signal(signalNumber, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: host.queue)
                    source.setEventHandler {
                        if signalNumber == SIGWINCH { host.outerResized() } else { host.detach() }
                    }
                    source.resume()
                    host.sources.append(source)
                }
                host.redraw()
            }
            startReading(host: host, session: session)
            host.finished.wait()
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            return host.queue.sync { host.result ?? 129 }
        }

        /// The program's size when it follows this terminal: all of it but
        /// the status row.
        var innerSize: PTYSize { PTYSize(columns: viewport.columns, rows: max(1, viewport.rows - 1)) }

        func statusLine(_ snapshot: Snapshot) -> String {
            // The fixed parts first: a long command is what gets cut.
            var parts = ["\(snapshot.columns)x\(snapshot.rows)", "^\\ detach", label]
            // Titles are sanitized by the terminal (TitleSanitizer): no controls.
            if let title = snapshot.title, !title.isEmpty { parts.append(title) }
            return " " + parts.joined(separator: " · ")
        }

        func redraw() {
            guard result == nil, let session else { return }
            let snapshot = session.snapshot()
            var out = RunCommand.mirror(from: mirrored, to: snapshot.modes)
            mirrored = snapshot.modes
            // Synchronized output (DECSET 2026): the program is mid-frame;
            // its end brings another update.
            if !snapshot.modes.synchronizedOutput {
                out += painter.update(to: snapshot, status: statusLine(snapshot), within: viewport)
            }
            if !out.isEmpty { Interactive.writeOut(out) }
        }

        func outerResized() {
            guard result == nil, let (columns, rows) = Interactive.windowSize() else { return }
            viewport = .init(columns: columns, rows: rows)
            if options.size == nil { try? session?.resize(columns: innerSize.columns, rows: innerSize.rows) }
            painter.invalidate()
            redraw()
        }

        /// The detach key or a signal to this process: the program is sent
        /// SIGHUP and its terminal hung up, as when a terminal window closes.
        func detach() {
            guard result == nil, let session else { return }
            session.send(signal: SIGHUP)
            session.hangUp()
            let status = session.waitForExit(timeout: .seconds(2))
            end(status: status?.shellStatus ?? 128 + SIGHUP)
        }

        /// Puts this terminal back as the program found it, at once: modes
        /// reset, cursor shown; the program's last screen is left in place
        /// with the cursor where the program left it, or cleared when that
        /// was its alternate screen (as its own exit would have done).
        func end(status: Int32) {
            guard result == nil, let session else { return }
            redraw()
            result = status
            for source in sources { source.cancel() }
            let snapshot = session.snapshot()
            var out = RunCommand.resetModes + "\u{1B}[0m"
            if snapshot.isAlternateScreen {
                out += "\u{1B}[H\u{1B}[2J"
            } else {
                let statusRow = max(0, min(snapshot.rows, viewport.rows - 1))
                let cursor = snapshot.cursor.position
                out += "\u{1B}[\(statusRow + 1);1H\u{1B}[2K"
                out += "\u{1B}[\(min(cursor.row, statusRow) + 1);\(min(cursor.column, viewport.columns - 1) + 1)H"
            }
            out += "\u{1B}[?25h"
            Interactive.writeOut(out)
            finished.signal()
        }
    }

    /// Keys typed go to the program as they come, but for the detach key.
    static func startReading(host: Host, session: PTYSession) {
        Interactive.readKeys(
            { keys in
                guard let key = keys.firstIndex(of: Interactive.detachKey) else {
                    session.send(keys)
                    return true
                }
                if key > 0 { session.send(Array(keys[..<key])) }
                return false
            }, onEnd: { host.queue.async { host.detach() } })
    }
}
