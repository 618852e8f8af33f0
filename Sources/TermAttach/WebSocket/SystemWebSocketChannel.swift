#if canImport(Darwin)
    import Foundation
    import Security

    /// `wss://` on Apple platforms: the system's `URLSessionWebSocketTask`
    /// (and so the system's TLS and trust store) behind ``MessageChannel``.
    /// Plain `ws://` uses the same POSIX client as Linux.
    ///
    /// Not compiled on the Linux machines this package is developed on; keep
    /// it small and close to the documented API.
    final class SystemWebSocketChannel: NSObject, MessageChannel, URLSessionWebSocketDelegate,
        @unchecked Sendable
    {
        // Invariant behind @unchecked Sendable: `task` and `session` are set
        // once in connect() before the channel is shared, then only read;
        // mutable state lives in `state` (a lock) and `queue`.
        private var task: URLSessionWebSocketTask?
        private var session: URLSession?
        private let queue: MessageQueue
        private let anchors: [SecCertificate]
        private let origin: String
        private let state = Locked<(opened: CheckedContinuation<Result<Void, AttachError>, Never>?, closing: Bool)>(
            (nil, false))

        private init(messageLimit: Int, anchors: [SecCertificate], origin: String) {
            queue = MessageQueue(byteLimit: 2 * messageLimit)
            self.anchors = anchors
            self.origin = origin
        }

        static func connect(to endpoint: AttachEndpoint, options: ConnectOptions) async throws(AttachError)
            -> SystemWebSocketChannel
        {
            var anchors: [SecCertificate] = []
            if let caFile = options.caFile {
                anchors = try loadCertificates(caFile)
            }
            let origin = options.origin ?? endpoint.origin
            let channel = SystemWebSocketChannel(messageLimit: options.messageLimit, anchors: anchors, origin: origin)
            let seconds = Double(options.connectTimeout.components.seconds)
            let session = URLSession(configuration: .ephemeral, delegate: channel, delegateQueue: nil)
            var request = URLRequest(url: endpoint.webSocketURL, timeoutInterval: max(seconds, 1))
            request.setValue(origin, forHTTPHeaderField: "Origin")
            let task = session.webSocketTask(with: request)
            task.maximumMessageSize = options.messageLimit
            channel.task = task
            channel.session = session
            let opened: Result<Void, AttachError> = await withCheckedContinuation { continuation in
                channel.state.withLock { $0.opened = continuation }
                task.resume()
            }
            if case .failure(let error) = opened {
                session.invalidateAndCancel()
                throw error
            }
            channel.receiveNext()
            return channel
        }

        /// The certificates of a PEM file.
        private static func loadCertificates(_ path: String) throws(AttachError) -> [SecCertificate] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw AttachError.tlsFailure("cannot load the CA file \(path)")
            }
            var certificates: [SecCertificate] = []
            var body = ""
            var inside = false
            for line in text.split(whereSeparator: \.isNewline) {
                if line.hasPrefix("-----BEGIN CERTIFICATE-----") {
                    inside = true
                    body = ""
                } else if line.hasPrefix("-----END CERTIFICATE-----") {
                    inside = false
                    if let der = Data(base64Encoded: body),
                        let certificate = SecCertificateCreateWithData(nil, der as CFData)
                    {
                        certificates.append(certificate)
                    }
                } else if inside {
                    body += line.trimmingCharacters(in: .whitespaces)
                }
            }
            guard !certificates.isEmpty else { throw AttachError.tlsFailure("no certificate in the CA file \(path)") }
            return certificates
        }

        private func finishOpening(_ result: Result<Void, AttachError>) {
            let continuation = state.withLock { state -> CheckedContinuation<Result<Void, AttachError>, Never>? in
                defer { state.opened = nil }
                return state.opened
            }
            continuation?.resume(returning: result)
        }

        private func receiveNext() {
            task?.receive { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(.string(let text)):
                    if queue.push(.text(Array(text.utf8))) { receiveNext() }
                case .success(.data(let data)):
                    if queue.push(.binary(Array(data))) { receiveNext() }
                case .success:
                    receiveNext()
                case .failure(let error):
                    queue.finish(.failure(mapReceiveError(error)))
                }
            }
        }

        private func mapReceiveError(_ error: any Error) -> AttachError {
            if state.withLock({ $0.closing }) { return .closedLocally }
            let nsError = error as NSError
            // Over maximumMessageSize, receive fails with EMSGSIZE (40), not a clean 1009 close.
            if nsError.domain == NSPOSIXErrorDomain && nsError.code == 40 {
                return .messageTooLarge(limit: task?.maximumMessageSize ?? 0)
            }
            if let task, task.closeCode != .invalid {
                let reason = task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
                return .closedByServer(code: UInt16(task.closeCode.rawValue), reason: reason)
            }
            return .connectionLost(nsError.localizedDescription)
        }

        func receive() async throws(AttachError) -> ChannelMessage { try await queue.receive() }

        func send(text: [UInt8]) async throws(AttachError) {
            guard let task else { throw AttachError.closedLocally }
            do {
                try await task.send(.string(String(decoding: text, as: UTF8.self)))
            } catch {
                throw mapReceiveError(error)
            }
        }

        func sendPing() async throws(AttachError) {
            task?.sendPing { [weak self] error in
                if error == nil { self?.queue.push(.pong) }
            }
        }

        func close(code: UInt16, reason: String) async {
            let already = state.withLock { state -> Bool in
                defer { state.closing = true }
                return state.closing
            }
            guard !already else { return }
            task?.cancel(
                with: URLSessionWebSocketTask.CloseCode(rawValue: Int(code)) ?? .normalClosure,
                reason: Data(reason.utf8))
            session?.invalidateAndCancel()
            queue.cancel(.closedLocally)
        }

        // MARK: URLSession delegate

        func urlSession(
            _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?
        ) {
            finishOpening(.success(()))
        }

        func urlSession(
            _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
            didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
        ) {
            let text = reason.map { String(decoding: $0, as: UTF8.self) } ?? ""
            queue.finish(.success(.closed(code: UInt16(closeCode.rawValue), reason: text)))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let opening = state.withLock { $0.opened != nil }
            guard opening else {
                queue.finish(.failure(error.map(mapReceiveError) ?? .connectionLost("the connection ended")))
                return
            }
            let status = (task.response as? HTTPURLResponse)?.statusCode
            let url = task.originalRequest?.url
            let failure: AttachError
            if status == 401 {
                failure = .originRejected(origin: origin)
            } else if let status, status != 101 {
                failure = .handshakeRejected(status: status, reason: "")
            } else if let error {
                let nsError = error as NSError
                switch nsError.code {
                case NSURLErrorCannotConnectToHost:
                    failure = .connectionRefused(host: url?.host ?? "", port: url?.port ?? 0)
                case NSURLErrorTimedOut:
                    failure = .timeout(
                        what: "connecting to \(url?.absoluteString ?? "")",
                        seconds: task.originalRequest?.timeoutInterval ?? 0)
                case NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot,
                    NSURLErrorServerCertificateHasBadDate, NSURLErrorServerCertificateNotYetValid,
                    NSURLErrorSecureConnectionFailed, NSURLErrorCancelled:
                    // A refused server trust cancels the task: that is a TLS failure too.
                    failure = .tlsFailure(nsError.localizedDescription)
                default:
                    failure = .connectionLost(nsError.localizedDescription)
                }
            } else {
                failure = .connectionLost("the connection ended during the upgrade")
            }
            finishOpening(.failure(failure))
        }

        func urlSession(
            _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                let trust = challenge.protectionSpace.serverTrust, !anchors.isEmpty
            else {
                completionHandler(.performDefaultHandling, nil)
                return
            }
            // A given CA file replaces the system's anchors; the host name is
            // still checked by the default SSL policy of the trust object.
            SecTrustSetAnchorCertificates(trust, anchors as CFArray)
            SecTrustSetAnchorCertificatesOnly(trust, true)
            if SecTrustEvaluateWithError(trust, nil) {
                completionHandler(.useCredential, URLCredential(trust: trust))
            } else {
                completionHandler(.cancelAuthenticationChallenge, nil)
            }
        }
    }
#endif
