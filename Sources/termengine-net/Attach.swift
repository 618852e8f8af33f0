import CommandLineOptions
import Foundation
import TermAttach
import TermCore
import TermEngineCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `termengine attach`: mirrors a web-terminal session in this terminal, or
/// (with `--send`, `--until`, `--dump`, or without a terminal on standard
/// input) drives it from a script.
enum AttachCommand {
    static let usage = NetworkCommands.attachUsage

    static let details = """
        Mirrors a session of the web-terminal server at URL (http://host:port or https://host:port)
        in this terminal: Ctrl-\\ detaches, Ctrl-] then a, d or r answers a pending gate (approve,
        approve with default, reject). With --send, --until or --dump, or when standard input is not
        a terminal, runs a script instead: waits for the replay, sends each TEXT in order, waits
        until a screen line matches REGEX (without --until: until the output has been quiet for
        0.3 s), prints the screen as vtdump/1 JSON with --dump, and detaches.

          --session ID         the session to attach to (a UUID v4)
          --new                a new session (also what attach does without --session)
          --cwd DIR            the new session's working directory (an absolute path)
          --origin O           the Origin header (default: the URL's, scheme://host[:port], no default port)
          --ca-file PEM        the CA certificates to trust for https
          --max-message BYTES  the largest WebSocket message accepted, 1024…1073741824
                               (default \(WireLimits.defaultMessageLimit))
          --size COLSxROWS     the terminal's size, each 1…1000 (default 80x24; interactively,
                               this terminal's size less the status row)
          --send TEXT          input to send (repeatable); \\r \\n \\t \\e \\\\ \\xHH \\uXXXX are understood
          --until REGEX        wait for a screen line that matches REGEX
          --timeout S          seconds for the whole script (default 30, at most 86400)
          --dump               print the final screen as vtdump/1 JSON
        """
    /// The gate chord prefix: Ctrl-] (GS), then a = approve (plan: with
    /// acceptEdits), d = approve with default, r = reject.
    static let chordKey: UInt8 = 0x1D
    /// Without --until, a script ends once output has been quiet this long.
    static let quietPeriod: Duration = .milliseconds(300)

    struct Options {
        var configuration: AttachSession.Configuration
        var sends: [String]
        var until: String?
        var timeout: Double
        var dump: Bool
        var scripted: Bool
    }

    static func run(_ arguments: inout Arguments) throws {
        let options = try parse(&arguments)
        if options.scripted {
            try runAsync { try await runScript(options) }
        } else {
            try Interactive.run(options.configuration)
        }
    }

    static func parse(_ arguments: inout Arguments) throws -> Options {
        let sessionText = try arguments.values("--session").last
        let isNew = arguments.flag("--new")
        let cwd = try arguments.values("--cwd").last
        let origin = try arguments.values("--origin").last
        let caFile = try arguments.values("--ca-file").last
        let maxMessage = try arguments.integer(
            "--max-message", in: 1024...(1 << 30), default: WireLimits.defaultMessageLimit)
        let sizeText = try arguments.values("--size").last
        let sends = try arguments.values("--send").map(unescape)
        let until = try arguments.values("--until").last
        let timeoutText = try arguments.values("--timeout").last
        let dump = arguments.flag("--dump")
        let positionals = try arguments.positionals()
        guard positionals.count == 1 else {
            throw Arguments.Failure(description: "attach takes one URL\nusage: \(usage)")
        }
        if sessionText != nil && isNew { throw Arguments.Failure(description: "give --session ID or --new, not both") }
        var sessionID: SessionID?
        if let sessionText {
            guard let id = SessionID(sessionText) else {
                throw Arguments.Failure(description: "--session must be a UUID v4, got '\(sessionText)'")
            }
            sessionID = id
        }
        if let cwd, !WireCodec.isAbsolutePath(cwd) {
            throw Arguments.Failure(description: "--cwd must be an absolute path, got '\(cwd)'")
        }
        var columns = 80
        var rows = 24
        if let sizeText {
            let parts = sizeText.lowercased().split(separator: "x")
            guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]), WireLimits.dimensions.contains(c),
                WireLimits.dimensions.contains(r)
            else { throw Arguments.Failure(description: "--size must be COLSxROWS, each 1…1000, got '\(sizeText)'") }
            (columns, rows) = (c, r)
        }
        var timeout = 30.0
        if let timeoutText {
            guard let value = Double(timeoutText), value > 0, value <= 86_400 else {
                throw Arguments.Failure(description: "--timeout must be seconds in (0, 86400], got '\(timeoutText)'")
            }
            timeout = value
        }
        if let until {
            do { _ = try Regex(until) } catch {
                throw Arguments.Failure(description: "--until is not a valid regular expression: \(until)")
            }
        }
        let configuration = AttachSession.Configuration(
            endpoint: try parseEndpoint(positionals[0]), sessionID: sessionID, cwd: cwd, columns: columns, rows: rows,
            connect: ConnectOptions(origin: origin, messageLimit: maxMessage, caFile: caFile))
        let scripted = !sends.isEmpty || until != nil || dump || isatty(STDIN_FILENO) == 0
        return Options(
            configuration: configuration, sends: sends, until: until, timeout: timeout, dump: dump, scripted: scripted)
    }

    /// `\r`, `\n`, `\t`, `\e`, `\\`, `\xHH` and `\uXXXX` in --send text.
    static func unescape(_ text: String) throws -> String {
        var out = String.UnicodeScalarView()
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\", let next = scalars.popFirst() else {
                out.append(scalar)
                continue
            }
            switch next {
            case "r": out.append("\r")
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "e": out.append("\u{1B}")
            case "\\": out.append("\\")
            case "x", "u":
                let count = next == "x" ? 2 : 4
                let digits = String(String.UnicodeScalarView(scalars.prefix(count)))
                guard digits.count == count, let value = UInt32(digits, radix: 16), let decoded = Unicode.Scalar(value)
                else { throw Arguments.Failure(description: "bad \\\(next) escape in --send '\(text)'") }
                scalars = scalars.dropFirst(count)
                out.append(decoded)
            default: throw Arguments.Failure(description: "unknown escape \\\(next) in --send '\(text)'")
            }
        }
        return String(out)
    }

    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    /// Waits for the replay, sends the texts, waits for --until (or quiet
    /// output), prints the dump; fails with one line on any error.
    static func runScript(_ options: Options) async throws {
        let session = AttachSession(configuration: options.configuration)
        await session.start()
        let waitingFor = options.until.map { "a screen line matching /\($0)/" } ?? "the replay and quiet output"
        let timeout = Timeout(description: "timed out after \(formatted(options.timeout)) s waiting for \(waitingFor)")
        do {
            try await first(within: .seconds(options.timeout), orThrow: timeout) { try await script(session, options) }
        } catch {
            try? await first(within: closeGrace) { await session.close() }
            throw error
        }
        if options.dump {
            print(await session.withTerminal { DumpCommand.render($0, withAttributes: false) })
        }
        try? await first(within: closeGrace) { await session.close() }
    }

    /// How long a script waits for the detach to finish before it exits
    /// anyway: 0.5 s (the WebSocket's close is bounded the same way, but the
    /// session may be busy feeding a message of up to 16 MiB first).
    static let closeGrace: Duration = .milliseconds(500)

    /// Runs `body` until it ends or `limit` passes, whichever is first;
    /// then throws `timeout` (if given). Unlike a task group, it does not
    /// wait for a body that ignores cancellation (a send blocked on a server
    /// that does not read): `--timeout` bounds the run, whatever the server does.
    static func first(
        within limit: Duration, orThrow timeout: (any Error)? = nil, _ body: @escaping @Sendable () async throws -> Void
    ) async throws {
        let outcome: Result<Void, any Error>? = await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            let work = Task {
                do {
                    try await body()
                    once.resume(.success(()))
                } catch {
                    once.resume(.failure(error))
                }
            }
            Task {
                try? await Task.sleep(for: limit)
                // The timeout's outcome first, then the cancel: cancelled
                // first, a body that stops at once could resume with its
                // CancellationError before it, and `attach --timeout`
                // failed with "CancellationError()" instead of saying what
                // it waited for (seen under load in CLITests).
                once.resume(timeout.map { .failure($0) })
                work.cancel()
            }
        }
        try outcome?.get()
    }

    /// Resumes a continuation once, from whichever task gets there first.
    final class ResumeOnce: @unchecked Sendable {
        // Invariant behind @unchecked Sendable: `continuation` is only touched under `lock`.
        private var continuation: CheckedContinuation<Result<Void, any Error>?, Never>?
        private let lock = NSLock()

        init(_ continuation: CheckedContinuation<Result<Void, any Error>?, Never>) { self.continuation = continuation }

        func resume(_ value: Result<Void, any Error>?) {
            lock.lock()
            let pending = continuation
            continuation = nil
            lock.unlock()
            pending?.resume(returning: value)
        }
    }

    private static func script(_ session: AttachSession, _ options: Options) async throws {
        // The session ends the event stream when it stops; a stop is a failure.
        var events = session.events.makeAsyncIterator()
        replay: while let event = await events.next() {
            switch event {
            case .replayed: break replay
            case .stopped(let error): throw error ?? AttachError.closedLocally
            case .disconnected(let error, _):
                // A script fails at once when the first attach does not succeed.
                throw error
            default: continue
            }
        }
        for text in options.sends { try await session.send(input: text) }
        let watcher = Task {
            while let event = await events.next() {
                if case .stopped(let error) = event { return error }
            }
            return nil
        }
        defer { watcher.cancel() }
        if let until = options.until {
            let regex = try Regex(until)
            var updates = session.screenUpdates.makeAsyncIterator()
            while true {
                let lines = await session.withTerminal { terminal in (0..<terminal.rows).map { terminal.screenLine($0) }
                }
                if lines.contains(where: { $0.contains(regex) }) { return }
                guard await updates.next() != nil else {
                    try Task.checkCancellation()  // the timeout won
                    throw await watcher.value ?? AttachError.closedLocally
                }
            }
        } else {
            // No condition: wait until output has been quiet for a moment.
            let tracker = QuietTracker()
            let consumer = Task {
                for await _ in session.screenUpdates { await tracker.touch() }
            }
            defer { consumer.cancel() }
            while true {
                try await Task.sleep(for: .milliseconds(50))
                if await tracker.isQuiet(for: quietPeriod) { return }
                if case .stopped(let error) = await session.state { throw error ?? AttachError.closedLocally }
            }
        }
    }

    /// When the screen last changed.
    actor QuietTracker {
        private var last = ContinuousClock.now
        func touch() { last = .now }
        func isQuiet(for period: Duration) -> Bool { last.duration(to: .now) >= period }
    }

    static func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
