import Foundation

/// A message from a ``MessageChannel``.
public enum ChannelMessage: Equatable, Sendable {
    /// A text message (valid UTF-8): a JSON frame of the protocol.
    case text([UInt8])
    /// A binary message, which the protocol does not use.
    case binary([UInt8])
    /// The answer to a ping.
    case pong
    /// The server's close frame (code nil when it had no body). Every
    /// `receive()` after this returns it again.
    case closed(code: UInt16?, reason: String)
}

/// A connected message channel: the WebSocket, seen from the session.
///
/// ``AttachSession`` depends only on this and ``AttachTransport``, so tests
/// drive it with an in-memory channel, and Apple platforms may put their own
/// WebSocket stack behind it.
public protocol MessageChannel: Sendable {
    /// The next message. Throws ``AttachError`` when the connection failed
    /// (reset, protocol violation, message over the limit, local close).
    func receive() async throws(AttachError) -> ChannelMessage
    /// Sends one text message (UTF-8). A failed send ends the connection:
    /// `receive()` then returns what had already arrived, and throws.
    func send(text: [UInt8]) async throws(AttachError)
    /// Sends a ping; the server's pong arrives as ``ChannelMessage/pong``.
    func sendPing() async throws(AttachError)
    /// Sends a close frame and ends the connection; a pending `receive()`
    /// throws ``AttachError/closedLocally``. Idempotent.
    func close(code: UInt16, reason: String) async
}

/// How to open a connection.
public struct ConnectOptions: Sendable, Equatable {
    /// The `Origin` header to send; nil derives it from the endpoint (the
    /// normal case: the server's allow-list must contain it).
    public var origin: String?
    /// The largest message accepted (default 16 MiB). See ``WireLimits/defaultMessageLimit``.
    public var messageLimit: Int
    /// Time allowed to connect, finish TLS and the upgrade.
    public var connectTimeout: Duration
    /// A PEM file of CA certificates that `wss://` trusts instead of the
    /// system's store (for a private or test CA).
    public var caFile: String?

    /// Options with the derived origin, a 16 MiB message limit, 10 s to connect
    /// and the system's CA store, unless told otherwise.
    public init(
        origin: String? = nil, messageLimit: Int = WireLimits.defaultMessageLimit,
        connectTimeout: Duration = .seconds(10), caFile: String? = nil
    ) {
        self.origin = origin
        self.messageLimit = messageLimit
        self.connectTimeout = connectTimeout
        self.caFile = caFile
    }
}

/// Opens message channels to a server.
public protocol AttachTransport: Sendable {
    /// Connects to `endpoint`'s WebSocket URL and finishes the upgrade.
    func connect(to endpoint: AttachEndpoint, options: ConnectOptions) async throws(AttachError) -> any MessageChannel
}

/// The RFC 6455 client over POSIX sockets (and OpenSSL for `wss://` on Linux).
///
/// On Apple platforms, `wss://` goes through the system's own WebSocket
/// stack (`URLSessionWebSocketTask`) behind the same ``MessageChannel``.
public struct WebSocketTransport: AttachTransport {
    /// The POSIX (and OpenSSL) client.
    public init() {}

    /// Connects to `endpoint`'s WebSocket URL within
    /// ``ConnectOptions/connectTimeout``, checks the server's upgrade answer
    /// (RFC 6455 §4.1) and returns the open channel; a refused connection,
    /// failed TLS or refused upgrade throws its ``AttachError``.
    public func connect(to endpoint: AttachEndpoint, options: ConnectOptions) async throws(AttachError)
        -> any MessageChannel
    {
        #if canImport(Darwin)
            if endpoint.isSecure {
                return try await SystemWebSocketChannel.connect(to: endpoint, options: options)
            }
        #endif
        return try await runBlocking { () throws(AttachError) in
            try WebSocketConnection.open(endpoint: endpoint, options: options)
        }
    }
}

/// Runs blocking work on its own thread so that it never holds one of the
/// few threads of Swift's cooperative pool.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () throws(AttachError) -> T) async throws(AttachError) -> T {
    let result: Result<T, AttachError> = await withCheckedContinuation { continuation in
        let thread = Thread {
            do throws(AttachError) {
                continuation.resume(returning: .success(try body()))
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        thread.name = "TermAttach.connect"
        thread.start()
    }
    return try result.get()
}
