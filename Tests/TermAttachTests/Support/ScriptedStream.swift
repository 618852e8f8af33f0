import Foundation

@testable import TermAttach

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``ByteStream`` that serves a fixed head and then a pattern repeated
/// for ever (or until `servedFor`), as fast as it is read: the server that
/// never lets a read block. It counts the bytes it served, which is the
/// outside view of how much the client read.
final class ScriptedStream: ByteStream {
    private let head: [UInt8]
    private let pattern: [UInt8]
    private let pause: Duration
    private let endAfter: Duration
    private let started = ContinuousClock.now
    private let offset = Locked<Int>(0)
    private let served = Locked<Int>(0)

    /// `head` first, then `pattern` over and over; each read waits `pause`
    /// and returns at most `readSize` bytes; after `endAfter` the stream ends.
    init(head: String, pattern: String = "", pause: Duration = .zero, endAfter: Duration = .seconds(10)) {
        self.head = Array(head.utf8)
        self.pattern = Array(pattern.utf8)
        self.pause = pause
        self.endAfter = endAfter
    }

    /// Bytes handed to the client so far.
    var bytesServed: Int { served.withLock { $0 } }

    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant?) throws(AttachError) -> Int
    {
        if pause > .zero { Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18) }
        if started.duration(to: .now) > endAfter { return 0 }
        let count = offset.withLock { position -> Int in
            var written = 0
            while written < buffer.count {
                let byte: UInt8
                if position < head.count {
                    byte = head[position]
                } else if !pattern.isEmpty {
                    byte = pattern[(position - head.count) % pattern.count]
                } else {
                    break
                }
                buffer[written] = byte
                written += 1
                position += 1
            }
            return written
        }
        served.withLock { $0 += count }
        return count
    }

    func write(_ bytes: UnsafeRawBufferPointer, deadline: ContinuousClock.Instant) throws(AttachError) {}

    func shutdown() {}
}

extension Exchange {
    /// A GET of `/live-sessions` with `limit` and `seconds`, for parser tests.
    static func listing(limit: Int = 16 << 20, seconds: TimeInterval = 15) -> Exchange {
        Exchange(
            url: URL(string: "http://127.0.0.1:1/live-sessions")!, method: "GET", scheme: "http", host: "127.0.0.1",
            port: 1, path: "/live-sessions", query: nil, headers: [:], limit: limit, caFile: nil, seconds: seconds,
            counters: Locked(HTTPTransportStatistics()))
    }

    /// Runs the exchange over `stream` with its own deadline.
    func run(over stream: ScriptedStream) throws(AttachError) -> (Data, HTTPURLResponse) {
        try exchange(
            over: stream, port: 1, isSecure: false,
            deadline: ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000))))
    }
}
