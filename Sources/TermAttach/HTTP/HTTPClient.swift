import Foundation
import TermCore
import TermRender

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one HTTP request; the seam that lets tests replace URLSession.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns its body and response.
    ///
    /// The body must be counted while it arrives: one that would exceed
    /// `maxBodyBytes` throws ``AttachError/responseTooLarge(request:limit:)``
    /// as soon as it does, with never more than `maxBodyBytes` kept.
    func send(_ request: URLRequest, maxBodyBytes: Int) async throws -> (Data, HTTPURLResponse)
}

/// `URLSession` data tasks (they work on Linux, unlike its WebSocket task),
/// with the body streamed to a delegate that counts it: the transport of
/// `https` on Apple platforms (see ``StreamingHTTPTransport``, the default).
///
/// `URLSession.data(for:)` buffers the whole body before returning, so a
/// limit checked afterwards protects nothing: an endless body grew to
/// 23.6 GB. Here each chunk is counted as it arrives, and the task is
/// cancelled the moment the body would pass the limit; never more than the
/// limit is kept. On Linux, though, swift-corelibs-foundation queues chunks
/// for the delegate without back-pressure, so what is in flight is not
/// bounded (601 MB peak in one run against an endless body): there use
/// ``StreamingHTTPTransport``. The whole request also has a deadline
/// (``AttachHTTPClient/requestTimeout``): URLRequest's timeout only bounds
/// the silence between two chunks, so a trickled body would never end.
public struct URLSessionHTTPTransport: HTTPTransport {
    private let counters = Locked(HTTPTransportStatistics())

    /// A transport; each request gets a `URLSession` of its own, whose delegate
    /// counts the body.
    public init() {}

    var statistics: HTTPTransportStatistics { counters.withLock { $0 } }

    /// Sends `request` and returns the body and response, cancelling the task
    /// the moment the body would pass `maxBodyBytes` or the exchange passes
    /// ``AttachHTTPClient/requestTimeout``.
    public func send(_ request: URLRequest, maxBodyBytes: Int) async throws -> (Data, HTTPURLResponse) {
        let collector = BodyCollector(
            limit: maxBodyBytes, name: "\(request.httpMethod ?? "GET") \(request.url?.path ?? "?")", counters: counters)
        // A session of its own: its delegate is this request's collector.
        let session = URLSession(configuration: .ephemeral, delegate: collector, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        let result: Result<(Data, HTTPURLResponse), any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                collector.start(task, deadline: AttachHTTPClient.requestTimeout, continuation: continuation)
            }
        } onCancel: {
            collector.finish(.failure(CancellationError()))
        }
        return try result.get()
    }
}

/// Collects one response body under a byte limit (URLSession's delegate).
private final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Invariant behind @unchecked Sendable: the mutable state lives in
    // `state` (a lock); `limit`, `name` and `counters` are constants.
    private struct State {
        var body = Data()
        var response: HTTPURLResponse?
        var task: URLSessionTask?
        var continuation: CheckedContinuation<Result<(Data, HTTPURLResponse), any Error>, Never>?
        var finished = false
    }

    private let limit: Int
    private let name: String
    private let counters: Locked<HTTPTransportStatistics>
    private let state = Locked(State())

    init(limit: Int, name: String, counters: Locked<HTTPTransportStatistics>) {
        self.limit = limit
        self.name = name
        self.counters = counters
    }

    func start(
        _ task: URLSessionTask, deadline seconds: TimeInterval,
        continuation: CheckedContinuation<Result<(Data, HTTPURLResponse), any Error>, Never>
    ) {
        let alreadyFinished = state.withLock { state -> Bool in
            if state.finished { return true }
            state.task = task
            state.continuation = continuation
            return false
        }
        // A task cancelled before the request began ran onCancel first:
        // finish found no continuation to resume, and a second finish
        // returns at once. So the continuation is resumed here, or the
        // caller would wait for ever (and the session never be invalidated).
        if alreadyFinished {
            continuation.resume(returning: .failure(CancellationError()))
            return
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            finish(.failure(AttachError.timeout(what: "the HTTP request \(name)", seconds: seconds)))
        }
        task.resume()
    }

    /// Ends the request once: resumes the caller, cancels the task, drops the body.
    func finish(_ result: Result<(Data, HTTPURLResponse), any Error>) {
        let (continuation, task) = state.withLock {
            state -> (CheckedContinuation<Result<(Data, HTTPURLResponse), any Error>, Never>?, URLSessionTask?) in
            if state.finished { return (nil, nil) }
            state.finished = true
            defer {
                state.continuation = nil
                state.body = Data()
            }
            return (state.continuation, state.task)
        }
        guard let continuation else { return }
        if case .failure = result { task?.cancel() }
        continuation.resume(returning: result)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // A declared length over the limit is refused before any body arrives.
        if response.expectedContentLength > Int64(limit) {
            completionHandler(.cancel)
            refuse()
            return
        }
        state.withLock { $0.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let kept = state.withLock { state -> Int? in
            if state.finished { return 0 }
            guard state.body.count + data.count <= limit else { return nil }
            state.body.append(data)
            return state.body.count
        }
        guard let kept else {
            refuse()
            return
        }
        counters.withLock { $0.largestBodyKept = max($0.largestBodyKept, kept) }
    }

    private func refuse() {
        counters.withLock { $0.refusedOverLimit += 1 }
        finish(.failure(AttachError.responseTooLarge(request: name, limit: limit)))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            finish(.failure(error))
            return
        }
        let (body, response) = state.withLock { ($0.body, $0.response) }
        guard let response else {
            finish(.failure(AttachError.badResponse("not an HTTP response from \(name)")))
            return
        }
        finish(.success((body, response)))
    }
}

/// A session as `GET /live-sessions` lists it.
public struct LiveSession: Equatable, Sendable {
    /// The id as the server wrote it, checked to be a UUID v4 (see
    /// ``SessionID``) before the listing hands it out: it becomes a file name
    /// and a URL path, so anything else (`../../x`, escapes) is skipped.
    public var id: String
    /// What the session's program is doing; ``ActivityState/unknown`` when the
    /// server sent no status, or one this client does not know.
    public var status: ActivityState
    /// True while a permission gate waits for an answer.
    public var pending: Bool
    /// The kind of the gate that waits, or nil.
    public var gate: GateKind?
    /// The session's last telemetry, or nil when it has none (or it had no
    /// `at`).
    public var telemetry: Telemetry?
    /// The session's width in cells (`cols`) as the server wrote it, or nil.
    public var columns: Int?
    /// The session's height in cells as the server wrote it, or nil.
    public var rows: Int?
    /// True when the session's program has ended (the session is still
    /// listed).
    public var exited: Bool
    /// The session's working directory, as the server wrote it: text from the
    /// server, to pass through ``ServerText`` before it is printed.
    public var cwd: String?
}

/// What `GET /live-sessions` answered: the sessions with a valid id, and
/// how many entries were skipped for lacking one.
public struct LiveSessionListing: Equatable, Sendable {
    /// The sessions with a valid id, in the server's order.
    public var sessions: [LiveSession]
    /// Entries whose id is missing or not a UUID v4 (or that are not objects):
    /// never used as a path or in a URL. The CLI warns with this count.
    public var skippedInvalidIDs: Int
}

/// One entry of a session's timeline (`GET /live-sessions/:id/events`).
public struct TimelineEvent: Equatable, Sendable {
    /// The classes this client knows; entries of any other class are skipped.
    public enum Kind: String, Sendable, CaseIterable {
        /// The server's classes of timeline entries: a tool use, waiting,
        /// working, idle, done, stuck, an error.
        case tool, waiting, working, idle, done, stuck, error
    }

    /// Milliseconds since 1970.
    public var at: Int
    /// The entry's class (`class` in the JSON).
    public var kind: Kind
    /// The tool an entry of kind ``Kind/tool`` is about, when the server named
    /// it.
    public var toolName: String?
    /// The entry's text as the server wrote it ("" when missing): pass it
    /// through ``ServerText`` before printing.
    public var label: String
}

/// The server's HTTP API. Read-only GETs carry no `Origin`; mutating calls
/// (DELETE) carry the endpoint's, as the server's guard requires.
public struct AttachHTTPClient: Sendable {
    /// Answers larger than this are refused, counted while they stream:
    /// 16 MiB. A listing is a few KiB and a preview ~24 KB of output (up to
    /// ~6× as JSON); 16 MiB leaves room for very many sessions or events and
    /// keeps the CLI well under 100 MiB resident.
    public static let maxResponseBytes = 16 * 1024 * 1024
    /// A preview larger than this is refused: 1 MiB. It is ~24 KB of output,
    /// at most ~6× that as JSON (144 KB); TermRender's preview reader keeps
    /// every key of the object, so its input stays small.
    public static let maxPreviewBytes = 1024 * 1024
    /// The most pixels a thumbnail may have: 3,072,000, a 240×100 session at
    /// 8×16 pixels a cell (3 MB as palette indices, 12 MB as the 32-bit
    /// pixels of a screen of more than 256 colours). That is ~24,000 cells
    /// (240×100, 300×80), larger than real windows; a larger session is
    /// drawn with fewer pixels a cell.
    public static let maxThumbnailPixels = 3_072_000
    /// Time allowed for one whole request, body included: 15 s.
    public static let requestTimeout: TimeInterval = 15

    /// The server every request goes to.
    public let endpoint: AttachEndpoint
    /// The `Origin` sent on mutating calls (the endpoint's unless overridden).
    public let origin: String
    private let transport: any HTTPTransport

    /// A client of `endpoint`'s HTTP API.
    /// - Parameters:
    ///   - endpoint: the server.
    ///   - origin: the `Origin` for mutating calls; nil derives it from
    ///     `endpoint` (what the server's allow-list must contain).
    ///   - transport: how requests go out; ``StreamingHTTPTransport`` by
    ///     default.
    public init(
        endpoint: AttachEndpoint, origin: String? = nil, transport: any HTTPTransport = StreamingHTTPTransport()
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
    /// decoded by ``Preview`` (the cut may fall inside an
    /// escape, a UTF-8 sequence or a surrogate pair).
    /// - Throws: ``AttachError/invalidArgument(_:)`` without a request when
    ///   `id` is not a UUID v4.
    public func preview(id: String) async throws(AttachError) -> Preview {
        let path = "/live-sessions/\(try checked(id))/preview"
        let data = try await request("GET", path, origin: nil, maxBytes: Self.maxPreviewBytes)
        do {
            return try Preview(json: data)
        } catch {
            throw AttachError.badResponse("GET \(path) did not answer {id, cols, rows, data}: \(error)")
        }
    }

    /// The session's preview drawn as a PNG thumbnail (TermRender's
    /// renderer; `.minimap` is 2×4 pixels a cell, `.full` uses the font).
    ///
    /// A session larger than ``maxThumbnailPixels`` allows at `size` is drawn
    /// at the largest of `.minimap` (2×4), 1×2 and 1×1 pixels a cell that fits:
    /// the server chooses the size (up to 1000×1000 cells, which at `.full`
    /// took 1.26 GB and 15 s).
    public func thumbnailPNG(id: String, size: ThumbnailRenderer.Size = .full) async throws(AttachError) -> [UInt8] {
        let preview = try await preview(id: id)
        let fitting = Self.thumbnailSize(size, columns: preview.columns, rows: preview.rows)
        return ThumbnailRenderer.png(preview.terminal().snapshot(), size: fitting)
    }

    /// `requested`, or the largest smaller cell size whose picture of
    /// `columns`×`rows` cells has at most ``maxThumbnailPixels`` pixels.
    static func thumbnailSize(_ requested: ThumbnailRenderer.Size, columns: Int, rows: Int) -> ThumbnailRenderer.Size {
        func pixels(_ size: ThumbnailRenderer.Size) -> Int {
            switch size {
            // ThumbnailRenderer's full-size cell: 8×16.
            case .full: return columns * 8 * rows * 16
            case .minimap(let width, let height): return columns * width * rows * height
            }
        }
        let candidates: [ThumbnailRenderer.Size] = [
            requested, .minimap, .minimap(cellWidth: 1, cellHeight: 2), .minimap(cellWidth: 1, cellHeight: 1),
        ]
        return candidates.first { pixels($0) <= maxThumbnailPixels && pixels($0) <= pixels(requested) }
            ?? .minimap(cellWidth: 1, cellHeight: 1)
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

    private func request(_ method: String, _ path: String, origin: String?, maxBytes: Int = maxResponseBytes)
        async throws(AttachError) -> Data
    {
        var request = URLRequest(url: endpoint.url(path: path), timeoutInterval: Self.requestTimeout)
        request.httpMethod = method
        if let origin { request.setValue(origin, forHTTPHeaderField: "Origin") }
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(request, maxBodyBytes: maxBytes)
        } catch let error as AttachError {
            throw error
        } catch {
            throw Self.map(error, endpoint: endpoint)
        }
        // Any transport must refuse while streaming; this catches one that did not.
        guard data.count <= maxBytes else {
            throw AttachError.responseTooLarge(request: "\(method) \(path)", limit: maxBytes)
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
