import Foundation
import Testing

@testable import TermAttach

/// A throw-away CA and a server certificate for `localhost`, made with the
/// `openssl` command (Debian package `openssl`, installed by scripts/setup.sh).
struct TestCertificates {
    let directory: URL
    var caFile: String { directory.appendingPathComponent("ca.pem").path }
    var certificate: String { directory.appendingPathComponent("server.pem").path }
    var key: String { directory.appendingPathComponent("server.key").path }

    init() throws {
        directory = temporaryPath("termattach-tls")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".write(
            to: directory.appendingPathComponent("server.ext"), atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(
            ["req", "-x509"] + ec + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=TermAttach test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], in: directory)
        try Self.openssl(
            ["req"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"], in: directory)
        try Self.openssl(
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                "server.pem", "-days", "2", "-extfile", "server.ext",
            ], in: directory)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    static func openssl(_ arguments: [String], in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do {
            try process.run()
        } catch {
            throw TestFailure("the openssl command is missing: run scripts/setup.sh")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("openssl \(arguments.first!) failed") }
    }
}

@Suite("wss:// through OpenSSL against the test peer behind TLS", .serialized, .timeLimit(.minutes(1)))
struct TLSTests {
    func connect(_ url: String, caFile: String?) async throws(AttachError) -> any MessageChannel {
        let endpoint: AttachEndpoint
        do {
            endpoint = try AttachEndpoint(url)
        } catch {
            throw AttachError.invalidURL(error.description)
        }
        return try await WebSocketTransport().connect(to: endpoint, options: ConnectOptions(caFile: caFile))
    }

    @Test("connects with the CA file, fails clearly without it and on a wrong host name")
    func connectsWithTheCAFileFailsClearlyWithoutItAndOnAWrongHostName() async throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let peer = try TestPeer(["--tls-cert", certificates.certificate, "--tls-key", certificates.key], tls: true)
        defer { peer.stop() }

        // Trusted CA, matching name: attach works end to end.
        let session = AttachSession(
            configuration: .init(
                endpoint: try AttachEndpoint("https://localhost:\(peer.port)"),
                connect: ConnectOptions(caFile: certificates.caFile)))
        var events = session.events.makeAsyncIterator()
        await session.start()
        var attached = false
        while let event = await events.next() {
            if case .attached = event {
                attached = true
                break
            }
            if case .stopped = event { break }
        }
        #expect(attached)
        try await session.send(input: "echo tls-ok\r")
        try await PeerTests.waitForLine(session) { $0.hasSuffix("tls-ok") && !$0.contains("echo") }
        await session.close()

        // No CA file: the system store does not know the test CA.
        do {
            _ = try await connect("https://localhost:\(peer.port)", caFile: nil)
            Issue.record("connected without trusting the CA")
        } catch {
            guard case .tlsFailure(let detail) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(detail.contains("certificate verification failed"))
            #expect(error.description.hasPrefix("TLS failed: certificate verification failed"))
            #expect(!error.isRetryable)
        }

        // Trusted CA, but dialled by an address the certificate does not name.
        do {
            _ = try await connect("https://127.0.0.1:\(peer.port)", caFile: certificates.caFile)
            Issue.record("connected to a host the certificate does not name")
        } catch {
            guard case .tlsFailure(let detail) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(detail.contains("mismatch"))
        }

        // A CA file that does not exist is named in the error.
        await #expect(throws: AttachError.self) {
            _ = try await connect("https://localhost:\(peer.port)", caFile: "/nonexistent/ca.pem")
        }
    }
}
