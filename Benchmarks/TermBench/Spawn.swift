import CommandLineOptions
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a finished child process left behind.
struct ChildResult {
    /// Exit status, or 128 + signal number when a signal ended it.
    var status: Int32
    var output: String
    var errors: String
    /// Wall time from spawn to reaping, in seconds.
    var seconds: Double
    /// Peak resident set of the child (`wait4` rusage `ru_maxrss`), KiB.
    var maxResidentKiB: Int
    var timedOut: Bool
}

/// GNU time, which reports its child's peak RSS truthfully (see below).
let gnuTime = "/usr/bin/time"
let maxResidentMarker = "termbench-maxrss-kib="

/// Runs `argv` (argv[0] a path) with stdout and stderr captured, killing it
/// after `timeout` seconds. Timing covers the whole process, start to exit:
/// this is what the whole-process races measure.
///
/// Peak RSS: `wait4`'s `ru_maxrss` for a child started by posix_spawn is at
/// least the parent's own RSS, because Linux folds the high-water mark of the
/// memory the child ran on before exec (the parent's, shared by vfork) into
/// the child's. Started through GNU time, a 1 MiB process, the engine's
/// figure is its own; time adds about a millisecond to the wall time.
///
/// Every engine process also gets `MALLOC_MMAP_THRESHOLD_=131072` (glibc):
/// allocations of 128 KiB and more are then always fresh mappings, returned
/// to the system when freed. Without it glibc raises its threshold after the
/// first large free, serves the next run's preallocated grid or scrollback
/// from the heap and clears it with memset, so from the third run on the
/// whole scrollback is resident even for a file that never scrolls, and peak
/// RSS would describe the harness's repetitions rather than the engine.
func spawnAndWait(_ argv: [String], timeout: Double) throws -> ChildResult {
    let environment = ["MALLOC_MMAP_THRESHOLD_": "131072"]
    guard FileManager.default.isExecutableFile(atPath: gnuTime) else {
        return try spawnDirect(argv, timeout: timeout, environment: environment)
    }
    var result = try spawnDirect(
        [gnuTime, "-f", maxResidentMarker + "%M", "--"] + argv, timeout: timeout, environment: environment)
    var lines = result.errors.split(separator: "\n", omittingEmptySubsequences: false)
    if let index = lines.lastIndex(where: { $0.hasPrefix(maxResidentMarker) }) {
        result.maxResidentKiB = Int(lines[index].dropFirst(maxResidentMarker.count)) ?? result.maxResidentKiB
        lines.remove(at: index)
        result.errors = lines.joined(separator: "\n")
    }
    // GNU time reports a child killed by a signal as "Command terminated by
    // signal N" and exits with 128 + N, as spawnDirect does.
    return result
}

#if os(Linux)
    /// Runs `argv` with the runner's environment plus `environment`.
    func spawnDirect(_ argv: [String], timeout: Double, environment: [String: String] = [:]) throws -> ChildResult {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw Arguments.Failure("pipe failed: \(errno)") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }

        // A process group of its own, so that a timeout ends the engine too and
        // not only GNU time in front of it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        let cEnvironment = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in cEnvironment { free(pointer) } }

        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawned = cArguments.withUnsafeBufferPointer { arguments in
            cEnvironment.withUnsafeBufferPointer { environment in
                posix_spawn(&pid, argv[0], &actions, &attributes, arguments.baseAddress!, environment.baseAddress!)
            }
        }
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw Arguments.Failure("cannot start \(argv[0]): \(String(cString: strerror(spawned)))")
        }

        var output: [UInt8] = []
        var errors: [UInt8] = []
        var open = [outPipe[0], errPipe[0]]
        var timedOut = false
        let deadline = start.advanced(by: .milliseconds(Int(timeout * 1000)))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero {
                timedOut = true
                kill(-pid, SIGKILL)
                break
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let waitMs = Int32(min(1000, max(1, remaining.components.seconds * 1000 + 1)))
            let ready = poll(&fds, nfds_t(fds.count), waitMs)
            if ready < 0 && errno != EINTR { break }
            for entry in fds where entry.revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if entry.fd == outPipe[0] {
                        output.append(contentsOf: chunk[0..<count])
                    } else {
                        errors.append(contentsOf: chunk[0..<count])
                    }
                } else if count == 0 || (count < 0 && errno != EINTR) {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        for fd in open { close(fd) }

        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = seconds(start.duration(to: .now))
        // The <sys/wait.h> macros are not imported: the low 7 bits hold the
        // signal that ended the process, bits 8–15 the exit code.
        let signal = status & 0x7F
        let exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        return ChildResult(
            status: exitStatus, output: String(decoding: output, as: UTF8.self),
            errors: String(decoding: errors, as: UTF8.self), seconds: elapsed,
            maxResidentKiB: Int(usage.ru_maxrss), timedOut: timedOut)
    }
#else
    /// Runs `argv` with the runner's environment plus `environment`.
    func spawnDirect(_ argv: [String], timeout: Double, environment: [String: String] = [:]) throws -> ChildResult {
        // glibc's posix_spawn types are structs (Apple's are pointers), and
        // wait4's ru_maxrss is in KiB on Linux only: termbench is Linux's.
        throw Arguments.Failure("termbench runs on Linux only")
    }
#endif

/// The `key=value` fields of the last line of `text` that has `bytes=`.
func resultFields(_ text: String) -> [String: String]? {
    guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("bytes=") }) else { return nil }
    var fields: [String: String] = [:]
    for field in line.split(separator: " ") {
        let parts = field.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
    }
    return fields
}
