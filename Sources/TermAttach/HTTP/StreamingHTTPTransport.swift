import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What ``StreamingHTTPTransport`` has seen (for tests and diagnostics).
struct HTTPTransportStatistics: Equatable, Sendable {
    /// The most body bytes any one request held at once.
    var largestBodyKept = 0
    /// Requests refused because the body passed the limit.
    var refusedOverLimit = 0
}

/// HTTP/1.1 over the package's own sockets (`TCPSocket`, and TLS through
/// the system OpenSSL on Linux): the default transport of
/// ``AttachHTTPClient``.
///
/// The body is read only as fast as it is counted, so one that passes the
/// limit is refused holding no more than the limit, and the server is
/// pushed back by TCP meanwhile. `URLSession` cannot promise that on Linux:
/// swift-corelibs-foundation hands each chunk to its delegate
/// asynchronously, without back-pressure, so an endless body still piled up
/// in its queue (601 MB peak in one run) before the delegate could cancel.
/// The whole exchange has one deadline (``AttachHTTPClient/requestTimeout``),
/// so a body trickled a byte at a time ends too.
///
/// On Apple platforms `https` goes through ``URLSessionHTTPTransport`` (the
/// system's TLS and trust store); plain `http` uses this client everywhere.
public struct StreamingHTTPTransport: HTTPTransport {
    /// The largest response head (status line and headers) read: 16 KiB,
    /// as for the WebSocket upgrade.
    static let maxHead = 16 * 1024
    /// The longest chunk-size line of a chunked body (RFC 9112 §7.1): 1 KiB;
    /// a size is a few hex digits, extensions are never needed here.
    static let maxChunkLine = 1024
    /// Bytes read from the socket per call: 64 KiB.
    static let readChunk = 64 * 1024
    /// Wire bytes allowed beyond the body limit and one head: 1 MiB, for
    /// informational (1xx) heads, chunk-size lines, extensions, CR LFs and
    /// trailers. A real server's framing is a few bytes per chunk of KiBs.
    static let framingAllowance = 1 << 20

    private let counters = Locked(HTTPTransportStatistics())
    private let caFile: String?
    private let timeout: TimeInterval

    /// A transport; `caFile` is a PEM file of CA certificates that `https`
    /// trusts instead of the system's store.
    public init(caFile: String? = nil) { self.init(caFile: caFile, timeout: AttachHTTPClient.requestTimeout) }

    /// A transport whose every exchange must finish within `timeout`
    /// seconds instead of ``AttachHTTPClient/requestTimeout`` (a command
    /// with a deadline of its own gives each request what is left of it).
    public init(caFile: String? = nil, timeout: TimeInterval) {
        self.caFile = caFile
        self.timeout = timeout
    }

    var statistics: HTTPTransportStatistics { counters.withLock { $0 } }

    /// Sends `request` over a new connection (TLS for `https`, on Linux) and
    /// returns the body and response. A `Content-Length` over `maxBodyBytes` is
    /// refused before the body is read, a longer body (chunked or not) as soon
    /// as it passes the limit, and the whole exchange ends at the transport's
    /// timeout.
    public func send(_ request: URLRequest, maxBodyBytes: Int) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var host = components.host, !host.isEmpty
        else { throw AttachError.invalidURL("not an http(s) URL: \(request.url?.absoluteString ?? "?")") }
        // URLComponents keeps an IPv6 literal's brackets; getaddrinfo wants it bare.
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        #if canImport(Darwin)
            if scheme == "https" {
                return try await URLSessionHTTPTransport().send(request, maxBodyBytes: maxBodyBytes)
            }
        #endif
        let exchange = Exchange(
            url: url, method: request.httpMethod ?? "GET", scheme: scheme, host: host, port: components.port,
            path: components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath,
            query: components.percentEncodedQuery, headers: request.allHTTPHeaderFields ?? [:],
            limit: maxBodyBytes, caFile: caFile, seconds: timeout, counters: counters)
        return try await runBlocking { () throws(AttachError) in try exchange.run() }
    }
}

/// One request and its response, blocking, on its own thread.
struct Exchange: Sendable {
    let url: URL
    let method: String
    let scheme: String
    let host: String
    let port: Int?
    let path: String
    let query: String?
    let headers: [String: String]
    let limit: Int
    let caFile: String?
    let seconds: TimeInterval
    let counters: Locked<HTTPTransportStatistics>

    var name: String { "\(method) \(path)" }

    func run() throws(AttachError) -> (Data, HTTPURLResponse) {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        let isSecure = scheme == "https"
        let port = self.port ?? (isSecure ? 443 : 80)
        let socket = try TCPSocket.connect(host: host, port: port, deadline: deadline, timeoutSeconds: seconds)
        let stream: any ByteStream
        if isSecure {
            #if os(Linux)
                stream = try TLSStream(
                    socket: socket, host: host, caFile: caFile, deadline: deadline, timeoutSeconds: seconds)
            #else
                throw AttachError.tlsFailure("https over POSIX sockets needs OpenSSL, which is used on Linux only")
            #endif
        } else {
            stream = socket
        }
        defer { stream.shutdown() }
        return try exchange(over: stream, port: port, isSecure: isSecure, deadline: deadline)
    }

    /// Writes the request on a connected `stream` and reads the response,
    /// all before `deadline` and within ``wireBudget`` bytes read.
    func exchange(over stream: any ByteStream, port: Int, isSecure: Bool, deadline: ContinuousClock.Instant)
        throws(AttachError) -> (Data, HTTPURLResponse)
    {
        do throws(AttachError) {
            try stream.write(requestBytes(port: port, isSecure: isSecure), deadline: deadline)
            var reader = HTTPReader(stream: stream, deadline: deadline, budget: wireBudget, what: name)
            return try readResponse(&reader)
        } catch {
            if case .timeout = error { throw AttachError.timeout(what: "the HTTP request \(name)", seconds: seconds) }
            throw error
        }
    }

    /// The most bytes read from the wire for one exchange: the body limit,
    /// a head, and 1 MiB for everything else (informational heads, chunk-size
    /// lines and their extensions, CR LFs, trailers). Counting only the body
    /// let `1;<1000 bytes of extension>` CR LF `x` CR LF grow it a byte per
    /// KiB: 16 GiB on the wire before the limit.
    var wireBudget: Int {
        let (sum, overflow) = limit.addingReportingOverflow(
            StreamingHTTPTransport.maxHead + StreamingHTTPTransport.framingAllowance)
        return overflow ? .max : sum
    }

    private func requestBytes(port: Int, isSecure: Bool) throws(AttachError) -> [UInt8] {
        let hostForURL = host.contains(":") ? "[\(host)]" : host
        let authority = port == (isSecure ? 443 : 80) ? hostForURL : "\(hostForURL):\(port)"
        var lines = [
            "\(method) \(path)\(query.map { "?\($0)" } ?? "") HTTP/1.1", "Host: \(authority)",
            "User-Agent: termengine-attach", "Accept: application/json", "Accept-Encoding: identity",
            "Connection: close",
        ]
        if method != "GET" { lines.append("Content-Length: 0") }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            // A header must stay one line: no CR or LF may be smuggled in.
            guard !(name + value).contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw AttachError.invalidArgument("an HTTP header with a line break: \(name)")
            }
            lines.append("\(name): \(value)")
        }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    private func readResponse(_ reader: inout HTTPReader) throws(AttachError) -> (Data, HTTPURLResponse) {
        // 1xx answers (100 Continue, 103 Early Hints) come before the real one; a few at most.
        for _ in 0..<8 {
            let head = try reader.head(maxBytes: StreamingHTTPTransport.maxHead, what: name)
            let (status, fields) = try parseHead(head)
            if (100..<200).contains(status) { continue }
            let body = try readBody(&reader, status: status, fields: fields)
            guard
                let response = HTTPURLResponse(
                    url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
            else { throw AttachError.badResponse("\(name): cannot represent the response") }
            return (Data(body), response)
        }
        throw AttachError.badResponse("\(name) answered only informational (1xx) responses")
    }

    private func parseHead(_ head: [UInt8]) throws(AttachError) -> (Int, [String: String]) {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw AttachError.badResponse("\(name): an empty response") }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        // RFC 9112 §4: status-code = 3DIGIT. Int("+20") would take a sign.
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].utf8.count == 3,
            parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }), let status = Int(parts[1])
        else {
            throw AttachError.badResponse("\(name): not an HTTP/1.1 response")
        }
        var fields: [String: String] = [:]
        for line in lines {
            // RFC 9112 §5.2: obsolete line folding (a line that begins with
            // white space) may be rejected; it is, rather than guessed at.
            if line.hasPrefix(" ") || line.hasPrefix("\t") {
                throw AttachError.badResponse("\(name): a folded header line (obs-fold)")
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[key] = fields[key].map { $0 + ", " + value } ?? value
        }
        return (status, fields)
    }

    private func readBody(_ reader: inout HTTPReader, status: Int, fields: [String: String]) throws(AttachError)
        -> [UInt8]
    {
        // RFC 9112 §6.3: no body after 204 or 304; chunked wins over a length.
        if status == 204 || status == 304 || method == "HEAD" { return [] }
        var body: [UInt8] = []
        if let coding = fields["transfer-encoding"]?.lowercased() {
            guard coding.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) == "chunked" else {
                throw AttachError.badResponse("\(name): transfer coding '\(coding.prefix(40))' is not supported")
            }
            while true {
                let line = try reader.line(maxBytes: StreamingHTTPTransport.maxChunkLine, what: name)
                guard let size = Self.chunkSize(line) else {
                    throw AttachError.badResponse("\(name): a bad chunk size")
                }
                if size == 0 { break }
                try take(size, from: &reader, into: &body)
                guard try reader.line(maxBytes: 2, what: name).isEmpty else {
                    throw AttachError.badResponse("\(name): a chunk not followed by CR LF")
                }
            }
            // Trailer fields, bounded like a head, then the end.
            _ = try reader.head(maxBytes: StreamingHTTPTransport.maxHead, what: name, allowEmpty: true)
            return body
        }
        if let lengthText = fields["content-length"] {
            guard let length = Self.contentLength(lengthText) else {
                throw AttachError.badResponse("\(name): a bad Content-Length")
            }
            // A declared length over the limit is refused before any body is read.
            if length > limit { throw refuse() }
            body.reserveCapacity(length)
            try take(length, from: &reader, into: &body)
            return body
        }
        // Neither: the body runs to the end of the connection.
        while let chunk = try reader.available() {
            try append(chunk, to: &body)
        }
        return body
    }

    /// The size of a chunk-size line (RFC 9112 §7.1: `chunk-size
    /// [ chunk-ext ]`), or nil when it is not one.
    ///
    /// The size is 1 to 15 ASCII hex digits and nothing else: `Int(_:radix:)`
    /// also takes a sign, and `-1` read no bytes and looped for ever. 15
    /// digits cannot overflow Int. After it only optional white space (BWS)
    /// and a `;` that starts extensions, which are ignored (§7.1.1 lets a
    /// recipient ignore them) and bounded by the line's length.
    static func chunkSize(_ line: [UInt8]) -> Int? {
        var size = 0
        var digits = 0
        var index = 0
        while index < line.count, let digit = hexValue(line[index]) {
            digits += 1
            if digits > 15 { return nil }
            size = size << 4 | digit
            index += 1
        }
        guard digits > 0 else { return nil }
        while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
        guard index == line.count || line[index] == UInt8(ascii: ";") else { return nil }
        return size
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    /// The length of a Content-Length field's value (duplicates already
    /// joined with ", "), or nil when it is not one.
    ///
    /// RFC 9110 §8.6: a list of identical values (`5, 5`: a field repeated
    /// by a proxy) may be taken as that value; differing ones are an error,
    /// since two readers could then frame the body differently. Each value
    /// has at most 18 digits, so it fits an Int.
    static func contentLength(_ text: String) -> Int? {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard let first = values.first, values.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 18,
            first.allSatisfy(\.isASCIIDigit)
        else { return nil }
        return Int(first)
    }

    /// Reads exactly `count` body bytes.
    private func take(_ count: Int, from reader: inout HTTPReader, into body: inout [UInt8]) throws(AttachError) {
        if body.count + count > limit { throw refuse() }
        var left = count
        while left > 0 {
            guard let chunk = try reader.available(maxBytes: left) else {
                throw AttachError.connectionLost("the server ended the connection in the middle of \(name)'s body")
            }
            try append(chunk, to: &body)
            left -= chunk.count
        }
    }

    private func append(_ chunk: ArraySlice<UInt8>, to body: inout [UInt8]) throws(AttachError) {
        guard body.count + chunk.count <= limit else { throw refuse() }
        body += chunk
        let kept = body.count
        counters.withLock { $0.largestBodyKept = max($0.largestBodyKept, kept) }
    }

    private func refuse() -> AttachError {
        counters.withLock { $0.refusedOverLimit += 1 }
        return AttachError.responseTooLarge(request: name, limit: limit)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// Buffered reads from a byte stream, all under one deadline and one budget
/// of wire bytes.
struct HTTPReader {
    let stream: any ByteStream
    let deadline: ContinuousClock.Instant
    /// Wire bytes that may still be read (see ``Exchange/wireBudget``).
    private var budget: Int
    private let what: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    init(stream: any ByteStream, deadline: ContinuousClock.Instant, budget: Int, what: String) {
        self.stream = stream
        self.deadline = deadline
        self.budget = budget
        self.what = what
    }

    /// Reads more from the stream; false at its end.
    private mutating func fill() throws(AttachError) -> Bool {
        if ended { return false }
        // The deadline is checked before every read, not only when one would
        // block: a server that keeps data flowing must end at it too.
        if ContinuousClock.now >= deadline { throw AttachError.timeout(what: what, seconds: 0) }
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        // One byte more than the budget: a response that ends exactly at it
        // still reads its end of stream.
        var chunk = [UInt8](repeating: 0, count: min(StreamingHTTPTransport.readChunk, max(budget, 0) + 1))
        let count = try stream.readChunk(&chunk, deadline: deadline)
        if count == 0 {
            ended = true
            return false
        }
        budget -= count
        if budget < 0 {
            throw AttachError.badResponse(
                "\(what): more bytes on the wire than its body limit allows for (chunk framing or padding): refused")
        }
        buffer += chunk[..<count]
        return true
    }

    /// Up to `maxBytes` buffered or newly read bytes; nil at the end.
    mutating func available(maxBytes: Int = .max) throws(AttachError) -> ArraySlice<UInt8>? {
        if start == buffer.count {
            guard try fill() else { return nil }
        }
        let end = start + min(maxBytes, buffer.count - start)
        defer { start = end }
        return buffer[start..<end]
    }

    /// The bytes up to the next CR LF (without it), at most `maxBytes` long.
    mutating func line(maxBytes: Int, what: String) throws(AttachError) -> [UInt8] {
        var searched = start
        while true {
            if let crlf = findCRLF(from: searched) {
                // Also when the CR LF came in the same read as the line.
                if crlf - start > maxBytes {
                    throw AttachError.badResponse("\(what): a line over \(maxBytes) bytes")
                }
                defer { start = crlf + 2 }
                return Array(buffer[start..<crlf])
            }
            if buffer.count - start > maxBytes + 1 {
                throw AttachError.badResponse("\(what): a line over \(maxBytes) bytes")
            }
            searched = max(start, buffer.count - 1)
            let base = start
            guard try fill() else {
                throw AttachError.connectionLost("the server ended the connection in the middle of \(what)")
            }
            searched -= base
        }
    }

    /// The head up to and without the blank line, at most `maxBytes` long.
    /// With `allowEmpty`, an immediate blank line (no trailer fields) is fine.
    mutating func head(maxBytes: Int, what: String, allowEmpty: Bool = false) throws(AttachError) -> [UInt8] {
        var head: [UInt8] = []
        var strayLines = 0
        while true {
            let line = try self.line(maxBytes: maxBytes, what: what)
            if line.isEmpty {
                // RFC 9112 §2.2: ignore an empty line or two before a status line.
                if head.isEmpty && !allowEmpty {
                    strayLines += 1
                    if strayLines > 4 { throw AttachError.badResponse("\(what): empty lines instead of a response") }
                    continue
                }
                return head
            }
            head += line + [0x0D, 0x0A]
            if head.count > maxBytes {
                throw AttachError.badResponse("\(what): a response head over \(maxBytes) bytes")
            }
        }
    }

    private func findCRLF(from index: Int) -> Int? {
        var position = max(index, start)
        while position + 1 < buffer.count {
            if buffer[position] == 0x0D && buffer[position + 1] == 0x0A { return position }
            position += 1
        }
        return nil
    }
}
