#if os(Linux)
    import CTLSShim
    import Foundation
    import Glibc

    /// The text of a NUL-terminated C buffer.
    private func cMessage(_ buffer: [CChar]) -> String {
        buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// TLS over a `TCPSocket` through the system OpenSSL (the `CTLSShim`
    /// target): the certificate is verified against the system's trust store or
    /// a given CA file, and its name (or IP address) against the host dialled.
    ///
    /// OpenSSL connections are not safe to use from two threads at once, so
    /// every shim call holds a lock; waiting happens outside it, with poll(2).
    final class TLSStream: ByteStream, @unchecked Sendable {
        private let socket: TCPSocket
        // Invariant behind @unchecked Sendable: `handle` is used only while
        // `lock` is held, and freed in deinit when no other reference remains.
        private let handle: OpaquePointer
        private let lock = NSLock()

        /// A TLS client connection over `socket`, handshake done.
        init(
            socket: TCPSocket, host: String, caFile: String?, deadline: ContinuousClock.Instant, timeoutSeconds: Double
        )
            throws(AttachError)
        {
            // OpenSSL writes with write(2): a peer that has gone would raise
            // SIGPIPE and end the process. Ignore it; the write reports EPIPE.
            signal(SIGPIPE, SIG_IGN)
            self.socket = socket
            var error = [CChar](repeating: 0, count: 512)
            guard let handle = tls_shim_new(socket.fd, host, caFile, &error, error.count) else {
                throw AttachError.tlsFailure(cMessage(error))
            }
            self.handle = handle
            while true {
                let result = lock.withLock { tls_shim_handshake(handle, &error, error.count) }
                if result == 1 { break }
                let events: Int16
                switch result {
                case Int32(TLS_SHIM_WANT_READ): events = Int16(POLLIN)
                case Int32(TLS_SHIM_WANT_WRITE): events = Int16(POLLOUT)
                default: throw AttachError.tlsFailure("\(cMessage(error)) (host \(host))")
                }
                guard try waitReady(socket.fd, events: events, deadline: deadline) else {
                    throw AttachError.timeout(what: "the TLS handshake with \(host)", seconds: timeoutSeconds)
                }
            }
        }

        deinit { tls_shim_free(handle) }

        func read(into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant?) throws(AttachError)
            -> Int
        {
            var error = [CChar](repeating: 0, count: 512)
            while true {
                // As for TCPSocket: the deadline holds even while data flows.
                if let deadline, ContinuousClock.now >= deadline {
                    throw AttachError.timeout(what: "waiting for the server", seconds: 0)
                }
                let result = lock.withLock {
                    tls_shim_read(handle, buffer.baseAddress, buffer.count, &error, error.count)
                }
                if result >= 0 { return result }
                let events: Int16
                switch Int32(result) {
                case Int32(TLS_SHIM_WANT_READ): events = Int16(POLLIN)
                case Int32(TLS_SHIM_WANT_WRITE): events = Int16(POLLOUT)
                default: throw AttachError.connectionLost(cMessage(error))
                }
                guard try waitReady(socket.fd, events: events, deadline: deadline) else {
                    throw AttachError.timeout(what: "waiting for the server", seconds: 0)
                }
            }
        }

        func write(_ bytes: UnsafeRawBufferPointer, deadline: ContinuousClock.Instant) throws(AttachError) {
            var error = [CChar](repeating: 0, count: 512)
            var offset = 0
            while offset < bytes.count {
                let result = lock.withLock {
                    tls_shim_write(handle, bytes.baseAddress! + offset, bytes.count - offset, &error, error.count)
                }
                if result > 0 {
                    offset += result
                    continue
                }
                let events: Int16
                switch Int32(result) {
                case Int32(TLS_SHIM_WANT_READ): events = Int16(POLLIN)
                case Int32(TLS_SHIM_WANT_WRITE): events = Int16(POLLOUT)
                default: throw AttachError.connectionLost(cMessage(error))
                }
                guard try waitReady(socket.fd, events: events, deadline: deadline) else {
                    throw AttachError.timeout(what: "sending to the server", seconds: 0)
                }
            }
        }

        func shutdown() {
            lock.withLock { tls_shim_shutdown(handle) }
            socket.shutdown()
        }
    }
#endif
