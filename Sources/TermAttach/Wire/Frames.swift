/// The protocol's constants and limits, each with where it comes from
/// (PROTOCOL.md, the design digest of the web-terminal server).
public enum WireLimits {
    /// Columns and rows in a `resize` frame: integers 1…1000 (the server's rule).
    public static let dimensions: ClosedRange<Int> = 1...1000
    /// The largest WebSocket message accepted by default: 16 MiB. The replay is
    /// one `output` frame of the server's scrollback ring (2 MiB by default),
    /// which JSON escaping can grow up to about 6× (`ESC` becomes `\u001b`),
    /// plus the envelope. A larger message is the non-retryable `replayTooLarge`.
    public static let defaultMessageLimit = 16 * 1024 * 1024
    /// The exit code with which the server reports that a session failed to
    /// spawn: retrying cannot help.
    public static let spawnFailedExitCode = -1
    /// The longest string a server frame may carry outside `output`'s data
    /// (a status detail, an exit reason, a telemetry model name): 4 KiB.
    /// They are one-line labels; a longer one makes the frame malformed
    /// (dropped and counted), so the 1024 events a session may buffer
    /// (``AttachSession/eventBufferLimit``) hold at most ~4 MiB of text, not
    /// 1024 messages of 16 MiB.
    public static let maxFieldBytes = 4096
    /// The WebSocket path on the server.
    public static let webSocketPath = "/term"
    /// Telemetry older than this (milliseconds) is shown as stale.
    public static let telemetryStaleAfterMilliseconds = 30_000
}

/// A session id: a UUID version 4 in its canonical 36-character text form,
/// the only shape the server accepts (other ids are dropped as malformed).
public struct SessionID: Hashable, Sendable, CustomStringConvertible {
    /// The id in lower case, as the server writes it.
    public let text: String

    /// The id, or nil when `text` is not a canonical UUID v4
    /// (`xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx`, hex digits in any case).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return nil }
            case 14:
                guard byte == UInt8(ascii: "4") else { return nil }
            case 19:
                guard "89abAB".utf8.contains(byte) else { return nil }
            default:
                guard byte.isHexDigit else { return nil }
            }
        }
        self.text = text.lowercased()
    }

    /// A fresh random id (for tests and fakes).
    public static func random() -> SessionID {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
        let characters = Array(hex)
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }
        return SessionID(groups.joined(separator: "-"))!
    }

    /// The canonical 36-character form.
    public var description: String { text }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

/// The permission mode an `approve` frame may carry.
public enum ApproveMode: String, Sendable, CaseIterable {
    /// The permission modes by their names on the wire. On a plan gate,
    /// `acceptEdits` is "Approve + Auto" and `default` "Approve + Review".
    case `default`, acceptEdits, plan, auto
}

/// What the session's program is doing, as the server classifies it.
public enum ActivityState: String, Sendable, CaseIterable {
    /// The server's classes: working, waiting (for the user), idle, unknown,
    /// stuck. A listed session without a known status is `unknown` too.
    case working, waiting, idle, unknown, stuck
}

/// The kind of permission gate that is pending.
public enum GateKind: String, Sendable, CaseIterable {
    /// A tool call waits for approval: approve or reject.
    case tool
    /// A plan waits for approval: approve with `acceptEdits`, with `default`, or reject.
    case plan
}

/// The body of a `status` frame.
public struct SessionStatus: Equatable, Sendable {
    /// What the program is doing.
    public var state: ActivityState
    /// The server's detail line, as it wrote it, or nil.
    public var detail: String?
    /// True while a permission gate waits for an answer.
    public var pending: Bool
    /// The kind of gate that waits, when ``pending``; nil when none or not
    /// said.
    public var gate: GateKind?

    /// A status with no gate pending unless told.
    public init(state: ActivityState, detail: String? = nil, pending: Bool = false, gate: GateKind? = nil) {
        self.state = state
        self.detail = detail
        self.pending = pending
        self.gate = gate
    }
}

/// The body of a `telemetry` frame: every field optional except `at`.
public struct Telemetry: Equatable, Sendable {
    /// When the server took it, in milliseconds since 1970.
    public var at: Int
    /// What the session has cost so far, in US dollars.
    public var costUsd: Double?
    /// How much of the model's context window is in use, in per cent (0–100).
    public var contextUsedPct: Double?
    /// Lines of code the session has added.
    public var linesAdded: Int?
    /// Lines of code the session has removed.
    public var linesRemoved: Int?
    /// The model's name, as the server wrote it.
    public var model: String?
    /// The model's effort setting, as the server wrote it.
    public var effort: String?

    /// Telemetry taken at `at` (milliseconds since 1970), with the fields the
    /// server sent.
    public init(
        at: Int, costUsd: Double? = nil, contextUsedPct: Double? = nil, linesAdded: Int? = nil,
        linesRemoved: Int? = nil, model: String? = nil, effort: String? = nil
    ) {
        self.at = at
        self.costUsd = costUsd
        self.contextUsedPct = contextUsedPct
        self.linesAdded = linesAdded
        self.linesRemoved = linesRemoved
        self.model = model
        self.effort = effort
    }

    /// True when the telemetry is older than
    /// ``WireLimits/telemetryStaleAfterMilliseconds`` at `nowMilliseconds`.
    public func isStale(nowMilliseconds: Int) -> Bool {
        nowMilliseconds - at > WireLimits.telemetryStaleAfterMilliseconds
    }
}

/// A frame the client sends.
public enum ClientFrame: Equatable, Sendable {
    /// The first frame on every connection: `sessionID` nil asks for a new
    /// session; `cwd`, when given, must be an absolute path.
    case attach(sessionID: SessionID?, cwd: String?)
    /// Keyboard bytes, passed through untouched.
    case input(String)
    /// The window size, each 1…1000.
    case resize(columns: Int, rows: Int)
    /// Approves the pending gate, optionally switching the permission mode.
    case approve(mode: ApproveMode?)
    /// Rejects the pending gate.
    case reject
}

/// A frame the server sends, validated.
public enum ServerFrame: Equatable, Sendable {
    /// The session this connection is attached to: always adopt it (an
    /// unknown id gets a new session and a new id).
    case attached(SessionID)
    /// Terminal bytes. The first `output` after `attached` is the whole
    /// scrollback ring and replaces the local screen; later ones are live.
    /// The slice usually shares the received message's storage.
    case output(ArraySlice<UInt8>)
    /// The session's program ended; `code` −1 means it never started.
    case exit(code: Int, reason: String?)
    /// The program's activity and whether a gate waits.
    case status(SessionStatus)
    /// Cost, context and other figures of the session.
    case telemetry(Telemetry)
}
