import Foundation
import TermCore
import TermRender

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one HTTP request; the seam that lets tests replace URLSession.
public protocol HTTPTransport: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// `URLSession` data tasks (they work on Linux, unlike its WebSocket task).
public struct URLSessionHTTPTransport: HTTPTransport {
    public init() {}

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw AttachError.badResponse("not an HTTP response from \(request.url?.absoluteString ?? "?")")
        }
        return (data, http)
    }
}

/// A session as `GET /live-sessions` lists it.
public struct LiveSession: Equatable, Sendable {
    /// The id as the server wrote it, checked to be a UUID v4 (see
    /// ``SessionID``) before the listing hands it out: it becomes a file name
    /// and a URL path, so anything else (`../../x`, escapes) is skipped.
    public var id: String
    public var status: ActivityState
    public var pending: Bool
    public var gate: GateKind?
    public var telemetry: Telemetry?
    public var columns: Int?
    public var rows: Int?
    public var exited: Bool
    public var cwd: String?
}

/// What `GET /live-sessions` answered: the sessions with a valid id, and
/// how many entries were skipped for lacking one.
public struct LiveSessionListing: Equatable, Sendable {
    public var sessions: [LiveSession]
    /// Entries whose id is missing or not a UUID v4 (or that are not objects):
    /// never used as a path or in a URL. The CLI warns with this count.
    public var skippedInvalidIDs: Int
}

/// One entry of a session's timeline (`GET /live-sessions/:id/events`).
public struct TimelineEvent: Equatable, Sendable {
    /// The classes this client knows; entries of any other class are skipped.
    public enum Kind: String, Sendable, CaseIterable {
        case tool, waiting, working, idle, done, stuck, error
    }

    /// Milliseconds since 1970.
    public var at: Int
    public var kind: Kind
    public var toolName: String?
    public var label: String
}

/// The server's HTTP API. Read-only GETs carry no `Origin`; mutating calls
/// (DELETE) carry the endpoint's, as the server's guard requires.
public struct AttachHTTPClient: Sendable {
    /// Answers larger than this are refused (a listing is a few KiB).
    public static let maxResponseBytes = 16 * 1024 * 1024
    /// Time allowed for one request.
    public static let requestTimeout: TimeInterval = 15

    public let endpoint: AttachEndpoint
    /// The `Origin` sent on mutating calls (the endpoint's unless overridden).
    public let origin: String
    private let transport: any HTTPTransport

    public init(
        endpoint: AttachEndpoint, origin: String? = nil, transport: any HTTPTransport = URLSessionHTTPTransport()
    ) {
        self.endpoint = endpoint
        self.origin = origin ?? endpoint.origin
        self.transport = transport
    }

    /// `GET /live-sessions`: the sessions running on the server whose id
    /// is a UUID v4 (others are skipped: see ``liveSessionListing()``).
    public func liveSessions() async throws(AttachError) -> [LiveSession] {
        try await liveSessionListing().sessions
    }

    /// `GET /live-sessions`, with the count of entries skipped because their
    /// id is not a UUID v4 (the protocol's only form of id).
    public func liveSessionListing() async throws(AttachError) -> LiveSessionListing {
        guard case .array(let items) = try await get("/live-sessions") else {
            throw AttachError.badResponse(
                "GET /live-sessions did not answer a JSON array: is this a web-terminal server?")
        }
        let sessions = items.compactMap(Self.liveSession)
        return LiveSessionListing(sessions: sessions, skippedInvalidIDs: items.count - sessions.count)
    }

    /// `GET /live-sessions/:id/preview`: the tail of the session's output,
    /// decoded by TermRender's tolerant reader (the cut may fall inside an
    /// escape, a UTF-8 sequence or a surrogate pair).
    /// - Throws: ``AttachError/invalidArgument(_:)`` without a request when
    ///   `id` is not a UUID v4.
    public func preview(id: String) async throws(AttachError) -> Preview {
        let path = "/live-sessions/\(try checked(id))/preview"
        let data = try await request("GET", path, origin: nil)
        do {
            return try Preview(json: data)
        } catch {
            throw AttachError.badResponse("GET \(path) did not answer {id, cols, rows, data}: \(error)")
        }
    }

    /// The session's preview drawn as a PNG thumbnail (TermRender's
    /// renderer; `.minimap` is 2×4 pixels a cell, `.full` uses the font).
    public func thumbnailPNG(id: String, size: ThumbnailRenderer.Size = .full) async throws(AttachError) -> [UInt8] {
        let preview = try await preview(id: id)
        return ThumbnailRenderer.png(preview.terminal().snapshot(), size: size)
    }

    /// `GET /live-sessions/:id/events`; entries of unknown class are skipped.
    public func events(id: String) async throws(AttachError) -> [TimelineEvent] {
        let path = "/live-sessions/\(try checked(id))/events"
        guard case .array(let items) = try await get(path) else {
            throw AttachError.badResponse("GET \(path) did not answer a JSON array")
        }
        return items.compactMap { item in
            guard case .object(let fields) = item, let at = fields["at"]?.integer,
                let kind = fields["class"]?.string.flatMap(TimelineEvent.Kind.init(rawValue:))
            else { return nil }
            return TimelineEvent(
                at: at, kind: kind, toolName: fields["toolName"]?.string, label: fields["label"]?.string ?? "")
        }
    }

    /// `DELETE /live-sessions/:id` (with `Origin`): kills the session; its
    /// attached clients see their sockets close.
    public func kill(id: String) async throws(AttachError) {
        _ = try await request("DELETE", "/live-sessions/\(try checked(id))", origin: origin)
    }

    /// `id` if it is a UUID v4: hex digits and dashes only, so it needs no
    /// escaping in a path, and `../` or `%2F` can never reach a URL.
    private func checked(_ id: String) throws(AttachError) -> String {
        guard SessionID(id) != nil else { throw AttachError.invalidArgument("not a session id (a UUID v4)") }
        return id
    }

    private func get(_ path: String) async throws(AttachError) -> JSONTree {
        let data = try await request("GET", path, origin: nil)
        guard let tree = JSONTree.parse(Array(data)) else {
            throw AttachError.badResponse("GET \(path) did not answer JSON")
        }
        return tree
    }

    private func request(_ method: String, _ path: String, origin: String?) async throws(AttachError) -> Data {
        var request = URLRequest(url: endpoint.url(path: path), timeoutInterval: Self.requestTimeout)
        request.httpMethod = method
        if let origin { request.setValue(origin, forHTTPHeaderField: "Origin") }
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(request)
        } catch let error as AttachError {
            throw error
        } catch {
            throw Self.map(error, endpoint: endpoint)
        }
        guard data.count <= Self.maxResponseBytes else {
            throw AttachError.badResponse("\(method) \(path) answered more than \(formatBytes(Self.maxResponseBytes))")
        }
        guard (200..<300).contains(response.statusCode) else {
            throw AttachError.httpStatus(
                code: response.statusCode, method: method, path: path,
                body: String(decoding: data.prefix(200), as: UTF8.self))
        }
        return data
    }

    private static func map(_ error: any Error, endpoint: AttachEndpoint) -> AttachError {
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            switch nsError.code {
            case NSURLErrorCannotConnectToHost: return .connectionRefused(host: endpoint.host, port: endpoint.port)
            case NSURLErrorTimedOut:
                return .timeout(what: "the HTTP request to \(endpoint.origin)", seconds: requestTimeout)
            case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
                return .hostNotFound(host: endpoint.host, detail: nsError.localizedDescription)
            case NSURLErrorServerCertificateUntrusted, NSURLErrorSecureConnectionFailed,
                NSURLErrorServerCertificateHasBadDate, NSURLErrorServerCertificateHasUnknownRoot:
                return .tlsFailure(nsError.localizedDescription)
            default: break
            }
        }
        return .connectionLost(nsError.localizedDescription)
    }
}

/// A JSON document with owned strings, for small, non-hot answers.
enum JSONTree: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    static func parse(_ bytes: [UInt8]) -> JSONTree? {
        var bytes = bytes
        return bytes.withUnsafeMutableBufferPointer { buffer -> JSONTree? in
            guard let value = try? JSONReader.read(buffer) else { return nil }
            return JSONTree(value, buffer: UnsafeBufferPointer(buffer))
        }
    }

    private init(_ value: JSONValue, buffer: UnsafeBufferPointer<UInt8>) {
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
        }
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(number)
        case .string(let range): self = .string(text(range))
        case .array(let items): self = .array(items.map { JSONTree($0, buffer: buffer) })
        case .object(let members):
            var fields: [String: JSONTree] = [:]
            for member in members where fields[text(member.key)] == nil {
                fields[text(member.key)] = JSONTree(member.value, buffer: buffer)
            }
            self = .object(fields)
        }
    }

    var string: String? { if case .string(let text) = self { text } else { nil } }
    var bool: Bool? { if case .bool(let flag) = self { flag } else { nil } }
    var number: Double? { if case .number(let number) = self { number } else { nil } }
    var integer: Int? {
        guard let number, number == number.rounded(), abs(number) <= 9_007_199_254_740_992 else { return nil }
        return Int(number)
    }

    subscript(key: String) -> JSONTree? { if case .object(let fields) = self { fields[key] } else { nil } }
}

extension AttachHTTPClient {
    static func liveSession(_ item: JSONTree) -> LiveSession? {
        guard case .object(let fields) = item, let id = fields["id"]?.string, SessionID(id) != nil else { return nil }
        var telemetry: Telemetry?
        if case .object(let values)? = fields["telemetry"], let at = values["at"]?.integer {
            telemetry = Telemetry(
                at: at, costUsd: values["costUsd"]?.number, contextUsedPct: values["contextUsedPct"]?.number,
                linesAdded: values["linesAdded"]?.integer, linesRemoved: values["linesRemoved"]?.integer,
                model: values["model"]?.string, effort: values["effort"]?.string)
        }
        return LiveSession(
            id: id, status: fields["status"]?.string.flatMap(ActivityState.init(rawValue:)) ?? .unknown,
            pending: fields["pending"]?.bool ?? false, gate: fields["gate"]?.string.flatMap(GateKind.init(rawValue:)),
            telemetry: telemetry, columns: fields["cols"]?.integer, rows: fields["rows"]?.integer,
            exited: fields["exited"]?.bool ?? false, cwd: fields["cwd"]?.string)
    }
}
