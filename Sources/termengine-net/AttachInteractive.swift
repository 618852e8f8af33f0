import CommandLineOptions
import Dispatch
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

/// The interactive side of `attach`: raw mode, keys forwarded as `input`,
/// the window size sent as `resize` (and on SIGWINCH), the screen drawn with
/// minimal redraws, a status bar, the gate chords and the detach key.
extension Interactive {
    /// Actions from the keyboard and signals waiting to be handled; past
    /// this, the oldest wait and new ones are dropped (a paste of megabytes).
    static let maxPendingActions = 4096

    enum Action: Sendable {
        case keys([UInt8])
        case resize
        case detach
    }

    static func run(_ base: AttachSession.Configuration) throws {
        guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
            throw Arguments.Failure(description: "attach needs a terminal (or use --send/--until/--dump for scripts)")
        }
        var configuration = base
        if let (columns, rows) = windowSize() {
            configuration.columns = columns
            configuration.rows = max(1, rows - 1)  // the last row is the status bar
        }
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var raw = saved
        cfmakeraw(&raw)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        writeOut("\u{1B}[?1049h\u{1B}[H\u{1B}[2J")
        defer {
            writeOut("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        }
        let final = configuration
        try runAsync { try await loop(final) }
    }

    /// The state drawn around the terminal, and the painter.
    actor Display {
        var painter = ScreenPainter()
        var connection = "connecting"
        var status: SessionStatus?
        var gate: PendingGate?
        var telemetry: Telemetry?
        var chordArmed = false

        func apply(_ event: AttachSession.Event) {
            switch event {
            case .connecting(let attempt): connection = attempt > 1 ? "connecting (attempt \(attempt))" : "connecting"
            case .attached(let id): connection = "attached \(id.text.prefix(8))"
            case .replayed: break
            case .status(let status): self.status = status
            case .gate(let gate): self.gate = gate
            case .telemetry(let telemetry): self.telemetry = telemetry
            case .exited(let code, _): connection = "exited (\(code))"
            case .disconnected(let error, let delay):
                connection = "reconnecting in \(delay.components.seconds) s: \(error)"
            case .stopped: connection = "stopped"
            }
        }

        func setChord(_ armed: Bool) { chordArmed = armed }

        func statusLine(width: Int) -> String {
            var parts = [connection]
            // The detail is the server's text: sanitized before it reaches the terminal.
            if let status {
                parts.append(status.state.rawValue + (status.detail.map { " \(ServerText.sanitized($0))" } ?? ""))
            }
            if let telemetry {
                var text = [
                    telemetry.costUsd.map { String(format: "$%.2f", $0) },
                    telemetry.contextUsedPct.map { String(format: "ctx %.0f%%", $0) },
                ]
                .compactMap { $0 }.joined(separator: " ")
                if telemetry.isStale(nowMilliseconds: Int(Date().timeIntervalSince1970 * 1000)) { text += " (stale)" }
                if !text.isEmpty { parts.append(text) }
            }
            if let gate {
                let kind = gate.kind?.rawValue ?? "?"
                let keys = gate.kind == .plan ? "a=acceptEdits d=default r=reject" : "a=approve r=reject"
                parts.append("! \(kind) gate #\(gate.epoch): ^] \(keys)")
            }
            if chordArmed { parts.append("gate key?") }
            parts.append("^\\ detach")
            let line = " " + parts.joined(separator: " · ")
            return String(line.unicodeScalars.prefix(width).map(Character.init))
        }

        func invalidate() { painter.invalidate() }

        func redraw(_ session: AttachSession) async {
            let snapshot = await session.snapshot()
            writeOut(painter.update(to: snapshot, status: statusLine(width: snapshot.columns)))
        }
    }

    static func loop(_ configuration: AttachSession.Configuration) async throws {
        let session = AttachSession(configuration: configuration)
        let display = Display()
        let (actions, sink) = AsyncStream.makeStream(
            of: Action.self, bufferingPolicy: .bufferingOldest(maxPendingActions))

        readKeys(
            { keys in
                sink.yield(.keys(keys))
                return true
            }, onEnd: { sink.yield(.detach) })
        signal(SIGWINCH, SIG_IGN)
        let winch = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        winch.setEventHandler { sink.yield(.resize) }
        winch.resume()
        defer { winch.cancel() }

        await session.start()
        let eventsTask = Task {
            var failure: AttachError?
            for await event in session.events {
                await display.apply(event)
                await display.redraw(session)
                if case .stopped(let error) = event { failure = error }
            }
            sink.yield(.detach)
            return failure
        }
        let screenTask = Task {
            for await _ in session.screenUpdates { await display.redraw(session) }
        }

        var chordEpoch: Int?
        var chordArmed = false
        actionLoop: for await action in actions {
            switch action {
            case .detach:
                break actionLoop
            case .resize:
                if let (columns, rows) = windowSize() {
                    await display.invalidate()
                    try? await session.resize(columns: columns, rows: max(1, rows - 1))
                    await display.redraw(session)
                }
            case .keys(let bytes):
                var pending: [UInt8] = []
                for byte in bytes {
                    if chordArmed {
                        chordArmed = false
                        await display.setChord(false)
                        if let epoch = chordEpoch { await answerGate(byte, epoch: epoch, session: session) }
                        continue
                    }
                    if byte == Interactive.detachKey {
                        if !pending.isEmpty { try? await session.send(input: String(decoding: pending, as: UTF8.self)) }
                        break actionLoop
                    }
                    if byte == AttachCommand.chordKey {
                        // The chord is aimed at the gate showing now: its epoch
                        // goes with it, so a gate that changes meanwhile is safe.
                        chordArmed = true
                        chordEpoch = await session.pendingGate?.epoch
                        await display.setChord(true)
                        await display.redraw(session)
                        continue
                    }
                    pending.append(byte)
                }
                if !pending.isEmpty { try? await session.send(input: String(decoding: pending, as: UTF8.self)) }
            }
        }
        await session.close()
        screenTask.cancel()
        let failure = await eventsTask.value
        if let failure { throw failure }
    }

    /// The second key of a gate chord: a approve (plan: acceptEdits), d approve
    /// with default, r reject. Dropped by the session if the gate changed.
    static func answerGate(_ key: UInt8, epoch: Int, session: AttachSession) async {
        let kind = await session.pendingGate?.kind
        switch key {
        case UInt8(ascii: "a"): _ = try? await session.approve(mode: kind == .plan ? .acceptEdits : nil, epoch: epoch)
        case UInt8(ascii: "d"): _ = try? await session.approve(mode: kind == .plan ? .default : nil, epoch: epoch)
        case UInt8(ascii: "r"): _ = try? await session.reject(epoch: epoch)
        default: break
        }
    }
}
