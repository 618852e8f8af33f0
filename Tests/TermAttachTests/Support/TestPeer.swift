import Foundation
import TermAttach

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The Python test peer (TestPeer/peer.py) on a free port, ended by its PID.
///
/// A missing prerequisite fails the test with what to run; it is never
/// skipped silently.
final class TestPeer: @unchecked Sendable {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The peer must print its port within this time.
    static let startTimeout: TimeInterval = 20

    let process = Process()
    let port: Int
    let scheme: String
    private let output: Pipe

    /// Starts `peer.py` (or another server script of TestPeer/, such as
    /// `hostile.py`) with `arguments` (faults, TLS files …).
    init(_ arguments: [String] = [], tls: Bool = false, script: String = "peer.py") throws {
        try Self.checkPrerequisites()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", Self.repositoryRoot.appendingPathComponent("TestPeer/\(script)").path, "--max-lifetime", "300"]
            + arguments
        output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        scheme = tls ? "https" : "http"
        let handle = output.fileHandleForReading
        let deadline = Date().addingTimeInterval(Self.startTimeout)
        var text = ""
        var found: Int?
        while found == nil && Date() < deadline && process.isRunning {
            var entry = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) > 0 else { continue }
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PEER-PORT ") }) {
                found = Int(line.dropFirst("PEER-PORT ".count))
            }
        }
        guard let found else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw TestFailure("the test peer did not start (output: \(text)); run scripts/setup.sh")
        }
        port = found
    }

    /// TestPeer/hostile.py with one fault (see its doc string) and its options.
    static func hostile(_ fault: String, _ arguments: [String] = []) throws -> TestPeer {
        try TestPeer(["--fault", fault] + arguments, script: "hostile.py")
    }

    deinit { stop() }

    /// Ends the peer by its PID (it kills its shells on SIGTERM).
    func stop() {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        // Bounded: 5 s for a clean exit, then SIGKILL. (Process.waitUntilExit
        // spins a run loop off the main thread.)
        var status: Int32 = 0
        for _ in 0..<500 {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno == ECHILD) { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
    }

    var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }
    var endpoint: AttachEndpoint { try! AttachEndpoint(baseURL) }

    /// Runs a /_peer/ control command (test-only faults and status pushes).
    func control(_ command: String) async throws {
        let url = URL(string: "http://127.0.0.1:\(port)/_peer/\(command)")!
        let (_, response) = try await URLSession.shared.data(from: url)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw TestFailure("peer control \(command) failed: \(response)")
        }
    }

    static func checkPrerequisites() throws {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = [
            "python3", "-c",
            "import sys, websockets, websockets.asyncio.server; sys.exit(int(websockets.__version__.split('.')[0]) < 17)",
        ]
        check.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do {
            try check.run()
        } catch {
            throw TestFailure("python3 is missing: run scripts/setup.sh")
        }
        check.waitUntilExit()
        guard check.terminationStatus == 0 else {
            throw TestFailure("the Python package websockets (>= 17) is missing or too old: run scripts/setup.sh")
        }
    }
}
