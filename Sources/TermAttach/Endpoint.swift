import Foundation

/// A web-terminal server, named by its base URL `http(s)://host[:port]`, and
/// everything derived from it: the WebSocket URL and the `Origin` header.
///
/// `Origin` is derived here and only here, never hand-built: the server
/// compares it with its allow-list exactly (scheme, host, port), and a
/// browser leaves out the port when it is the scheme's default, so this does
/// too.
///
/// ```swift
/// let endpoint = try AttachEndpoint("http://127.0.0.1:3000")
/// endpoint.origin          // "http://127.0.0.1:3000"
/// endpoint.webSocketURL    // ws://127.0.0.1:3000/term
/// ```
public struct AttachEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// Why a base URL was refused.
    public struct InvalidURL: Error, CustomStringConvertible, Sendable {
        /// What was wrong with the URL (its scheme, host or port), in a sentence.
        public let description: String
    }

    /// True for `https` (and so `wss`).
    public let isSecure: Bool
    /// The host as dialled: lower case, IPv6 literals without brackets.
    public let host: String
    /// The port to connect to: the explicit one or the scheme's default.
    public let port: Int
    /// True when the URL named the port and it is not the default.
    public let hasExplicitPort: Bool

    /// Parses `http://host[:port]` or `https://host[:port]`, with an optional
    /// trailing "/". `ws://` and `wss://` are accepted as the same servers.
    public init(_ baseURL: String) throws(InvalidURL) {
        guard let components = URLComponents(string: baseURL.trimmingCharacters(in: .whitespaces)),
            let scheme = components.scheme?.lowercased()
        else {
            throw InvalidURL(description: "'\(baseURL)' is not a URL; expected http://host:port or https://host:port")
        }
        switch scheme {
        case "http", "ws": isSecure = false
        case "https", "wss": isSecure = true
        default:
            throw InvalidURL(description: "'\(baseURL)': the scheme must be http or https (ws, wss), not \(scheme)")
        }
        guard var host = components.host?.lowercased(), !host.isEmpty else {
            throw InvalidURL(description: "'\(baseURL)' has no host")
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil
        else {
            throw InvalidURL(description: "'\(baseURL)': give only scheme://host[:port], without a path or query")
        }
        guard components.user == nil, components.password == nil else {
            throw InvalidURL(description: "'\(baseURL)': user names and passwords in the URL are not supported")
        }
        let defaultPort = isSecure ? 443 : 80
        if let explicit = components.port {
            guard (1...65535).contains(explicit) else { throw InvalidURL(description: "'\(baseURL)': bad port") }
            port = explicit
        } else {
            port = defaultPort
        }
        hasExplicitPort = port != defaultPort
        self.host = host
    }

    /// The host as it appears in a URL (IPv6 literals in brackets).
    public var hostForURL: String { host.contains(":") ? "[\(host)]" : host }

    /// `host[:port]`, the port only when it is not the scheme's default; this
    /// is also the `Host` header.
    public var authority: String { hasExplicitPort ? "\(hostForURL):\(port)" : hostForURL }

    /// The `Origin` the server's allow-list must contain: `scheme://host[:port]`.
    public var origin: String { "\(isSecure ? "https" : "http")://\(authority)" }

    /// The base URL, normalised.
    public var baseURL: URL { URL(string: origin)! }

    /// `ws(s)://host[:port]/term`.
    public var webSocketURL: URL {
        URL(string: "\(isSecure ? "wss" : "ws")://\(authority)\(WireLimits.webSocketPath)")!
    }

    /// An HTTP URL on this server; `path` begins with "/" and is already escaped.
    public func url(path: String) -> URL { URL(string: origin + path)! }

    /// The endpoint's ``origin``: the base URL as the server sees it.
    public var description: String { origin }
}
