import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connected byte stream under the WebSocket: a TCP socket, or TLS over one.
///
/// Reads and writes may come from different threads at once (the reader
/// thread and the writer queue); `shutdown()` wakes a blocked read.
protocol ByteStream: AnyObject, Sendable {
    /// Reads at least one byte, waiting until `deadline` (nil: no deadline).
    /// Returns 0 at the end of the stream. A deadline already passed throws
    /// ``AttachError/timeout(what:seconds:)`` even when data is waiting.
    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant?) throws(AttachError) -> Int
    /// Writes all of `bytes` or throws; gives up at `deadline`.
    func write(_ bytes: UnsafeRawBufferPointer, deadline: ContinuousClock.Instant) throws(AttachError)
    /// Ends the stream in both directions and wakes any blocked read. Idempotent.
    func shutdown()
}

/// Milliseconds until `deadline` for poll(2): -1 for none, 0 when passed.
func pollTimeout(_ deadline: ContinuousClock.Instant?) -> Int32 {
    guard let deadline else { return -1 }
    let left = ContinuousClock.now.duration(to: deadline)
    if left <= .zero { return 0 }
    let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
    return Int32(clamping: milliseconds)
}

/// Waits until `fd` is ready for `events` (POLLIN/POLLOUT) or the deadline
/// passes; returns false on timeout.
func waitReady(_ fd: Int32, events: Int16, deadline: ContinuousClock.Instant?) throws(AttachError) -> Bool {
    while true {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let result = poll(&entry, 1, pollTimeout(deadline))
        if result > 0 { return true }
        if result == 0 { return false }
        if errno == EINTR { continue }
        throw AttachError.connectionLost("poll failed: \(String(cString: strerror(errno)))")
    }
}

/// A non-blocking TCP socket with deadlines on every wait.
final class TCPSocket: ByteStream {
    let fd: Int32
    private let isShutDown = Locked(false)

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// Resolves `host` and connects to the first address that answers.
    static func connect(host: String, port: Int, deadline: ContinuousClock.Instant, timeoutSeconds: Double)
        throws(AttachError) -> TCPSocket
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        // glibc declares the socket types as an enum; musl and Apple as macros.
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #elseif canImport(Musl) || canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw AttachError.hostNotFound(host: host, detail: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var lastError = AttachError.connectionRefused(host: host, port: port)
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            if fd < 0 { continue }
            let candidate = TCPSocket(fd: fd)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var one: Int32 = 1
            // Keystrokes are small writes: send them at once (no Nagle delay).
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
                _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            if systemConnect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return candidate }
            guard errno == EINPROGRESS else {
                lastError = connectError(errno, host: host, port: port)
                continue
            }
            guard try waitReady(fd, events: Int16(POLLOUT), deadline: deadline) else {
                throw AttachError.timeout(what: "connecting to \(host):\(port)", seconds: timeoutSeconds)
            }
            var socketError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length)
            if socketError == 0 { return candidate }
            lastError = connectError(socketError, host: host, port: port)
        }
        throw lastError
    }

    private static func connectError(_ code: Int32, host: String, port: Int) -> AttachError {
        if code == ECONNREFUSED { return .connectionRefused(host: host, port: port) }
        return .connectionLost("cannot connect to \(host):\(port): \(String(cString: strerror(code)))")
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant?) throws(AttachError) -> Int
    {
        while true {
            // A passed deadline ends the read even with data queued: waitReady
            // is consulted only when a read would block, so a server that
            // keeps sending would never be timed out.
            if let deadline, ContinuousClock.now >= deadline {
                throw AttachError.timeout(what: "waiting for the server", seconds: 0)
            }
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                guard try waitReady(fd, events: Int16(POLLIN), deadline: deadline) else {
                    throw AttachError.timeout(what: "waiting for the server", seconds: 0)
                }
            default:
                throw AttachError.connectionLost(String(cString: strerror(errno)))
            }
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer, deadline: ContinuousClock.Instant) throws(AttachError) {
        var offset = 0
        while offset < bytes.count {
            // Linux has MSG_NOSIGNAL per send; Apple has SO_NOSIGPIPE on the socket (set at connect).
            #if canImport(Glibc) || canImport(Musl)
                let flags = Int32(MSG_NOSIGNAL)
            #elseif canImport(Darwin)
                let flags: Int32 = 0
            #endif
            let count = send(fd, bytes.baseAddress! + offset, bytes.count - offset, flags)
            if count >= 0 {
                offset += count
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                guard try waitReady(fd, events: Int16(POLLOUT), deadline: deadline) else {
                    throw AttachError.timeout(what: "sending to the server", seconds: 0)
                }
            default:
                throw AttachError.connectionLost(String(cString: strerror(errno)))
            }
        }
    }

    func shutdown() {
        guard !isShutDown.testAndSet() else { return }
        #if canImport(Glibc)
            _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
        #elseif canImport(Musl)
            _ = Musl.shutdown(fd, SHUT_RDWR)
        #elseif canImport(Darwin)
            _ = Darwin.shutdown(fd, SHUT_RDWR)
        #endif
    }
}

#if canImport(Glibc)
    private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
        Glibc.connect(fd, address, length)
    }
#elseif canImport(Musl)
    private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
        Musl.connect(fd, address, length)
    }
#elseif canImport(Darwin)
    private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
        Darwin.connect(fd, address, length)
    }
#endif
