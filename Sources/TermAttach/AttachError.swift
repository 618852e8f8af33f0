import Foundation

/// Everything that can go wrong while attaching, each with a one-line,
/// actionable description (`String(describing:)` is what the CLI prints).
public enum AttachError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The base URL could not be used.
    case invalidURL(String)
    /// The host name did not resolve.
    case hostNotFound(host: String, detail: String)
    /// Nothing listens on that port.
    case connectionRefused(host: String, port: Int)
    /// A step did not finish in time; `what` names it.
    case timeout(what: String, seconds: Double)
    /// The server answered the upgrade with 401: the Origin is not allowed.
    case originRejected(origin: String)
    /// The server answered the upgrade with another status than 101.
    case handshakeRejected(status: Int, reason: String)
    /// The server's 101 answer broke RFC 6455 (e.g. a wrong `Sec-WebSocket-Accept`).
    case handshakeInvalid(String)
    /// TLS failed: certificate verification, host name, or the handshake.
    case tlsFailure(String)
    /// A WebSocket message exceeded the client's limit (any message but the replay).
    case messageTooLarge(limit: Int)
    /// The replay (or any message) exceeded the message limit: the server's
    /// scrollback is larger than this client accepts. Not retryable.
    case replayTooLarge(limit: Int)
    /// The server closed the WebSocket with a close frame.
    case closedByServer(code: UInt16?, reason: String)
    /// The connection dropped without a close frame (reset, EOF, I/O error).
    case connectionLost(String)
    /// The server broke the WebSocket protocol (RFC 6455), e.g. a masked frame.
    case protocolViolation(String)
    /// Two pings in a row went unanswered.
    case pingTimeout
    /// The session's program failed to start (`exit` with code −1). Not retryable.
    case spawnFailed(reason: String?)
    /// An HTTP call answered with a status that is not 2xx.
    case httpStatus(code: Int, method: String, path: String, body: String)
    /// An HTTP answer could not be read as the expected JSON.
    case badResponse(String)
    /// An HTTP answer's body passed the limit (``AttachHTTPClient/maxResponseBytes``)
    /// while it arrived; `request` is "METHOD /path". Not retryable.
    case responseTooLarge(request: String, limit: Int)
    /// The connection was closed by this client.
    case closedLocally
    /// An argument the protocol does not allow (resize range, relative cwd …).
    case invalidArgument(String)

    /// True when waiting and connecting again may help. Origin rejection,
    /// TLS verification, an over-limit replay and a failed spawn will fail
    /// the same way every time, so they stop the session instead of looping.
    public var isRetryable: Bool {
        switch self {
        case .hostNotFound, .connectionRefused, .timeout, .closedByServer, .connectionLost, .pingTimeout,
            .protocolViolation, .handshakeInvalid:
            return true
        case .handshakeRejected(let status, _):
            return status >= 500
        case .invalidURL, .originRejected, .tlsFailure, .messageTooLarge, .replayTooLarge, .spawnFailed,
            .httpStatus, .badResponse, .responseTooLarge, .closedLocally, .invalidArgument:
            return false
        }
    }

    /// One line, with every server-provided part (reasons, bodies, details)
    /// passed through ``ServerText/sanitized(_:)``: the CLI prints it to a
    /// terminal as it is.
    public var description: String { ServerText.sanitized(unsanitizedDescription) }

    private var unsanitizedDescription: String {
        switch self {
        case .invalidURL(let detail): return detail
        case .hostNotFound(let host, let detail): return "cannot resolve host \(host): \(detail)"
        case .connectionRefused(let host, let port):
            return "connection refused by \(host):\(port): is the web-terminal server running on that port?"
        case .timeout(let what, let seconds):
            return "\(what) timed out after \(formatSeconds(seconds)) s"
        case .originRejected(let origin):
            return "the server refused the WebSocket upgrade (401): the server's ALLOWED_ORIGINS must contain \(origin)"
        case .handshakeRejected(let status, let reason):
            return "the server refused the WebSocket upgrade with HTTP \(status)\(reason.isEmpty ? "" : ": \(reason)")"
        case .handshakeInvalid(let detail): return "invalid WebSocket handshake from the server: \(detail)"
        case .tlsFailure(let detail): return "TLS failed: \(detail)"
        case .messageTooLarge(let limit):
            return "a message from the server is larger than the limit of \(formatBytes(limit))"
        case .replayTooLarge(let limit):
            return "the replay is larger than the client's message limit of \(formatBytes(limit)): "
                + "lower the server's SCROLLBACK_BYTES or raise the client's limit (--max-message)"
        case .closedByServer(let code, let reason):
            let codeText = code.map { " with code \($0)" } ?? ""
            return "the server closed the connection\(codeText)\(reason.isEmpty ? "" : ": \(reason)")"
        case .connectionLost(let detail): return "connection lost: \(detail)"
        case .protocolViolation(let detail): return "the server broke the WebSocket protocol: \(detail)"
        case .pingTimeout: return "the server did not answer two pings in a row: connection considered lost"
        case .spawnFailed(let reason):
            return "the session's program failed to start\(reason.map { ": \($0)" } ?? "")"
        case .httpStatus(let code, let method, let path, let body):
            var text = "\(method) \(path) answered HTTP \(code)"
            if code == 403 { text += " (the server's ALLOWED_ORIGINS must contain the Origin sent)" }
            if !body.isEmpty { text += ": \(body.prefix(200))" }
            return text
        case .badResponse(let detail): return "unexpected answer from the server: \(detail)"
        case .responseTooLarge(let request, let limit):
            return "\(request) answered more than the limit of \(formatBytes(limit)): refused "
                + "(a web-terminal server's answers are a few KiB: is this the right server?)"
        case .closedLocally: return "the connection was closed by this client"
        case .invalidArgument(let detail): return detail
        }
    }
}

func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
}

func formatBytes(_ bytes: Int) -> String {
    if bytes % (1024 * 1024) == 0 { return "\(bytes / (1024 * 1024)) MiB" }
    if bytes % 1024 == 0 { return "\(bytes / 1024) KiB" }
    return "\(bytes) bytes"
}
