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

/// Runs `argv` (argv[0] a path) with stdout and stderr captured, killing it
/// after `timeout` seconds. Timing covers the whole process, start to exit:
/// this is what the whole-process races measure.
func spawnAndWait(_ argv: [String], timeout: Double) throws -> ChildResult {
    var outPipe: [Int32] = [0, 0]
    var errPipe: [Int32] = [0, 0]
    guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw Options.Failure("pipe failed: \(errno)") }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
    for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }

    let cArguments = argv.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }

    var pid: pid_t = 0
    let start = ContinuousClock.now
    let spawned = cArguments.withUnsafeBufferPointer { arguments in
        posix_spawn(&pid, argv[0], &actions, nil, arguments.baseAddress!, environ)
    }
    close(outPipe[1])
    close(errPipe[1])
    guard spawned == 0 else {
        close(outPipe[0])
        close(errPipe[0])
        throw Options.Failure("cannot start \(argv[0]): \(String(cString: strerror(spawned)))")
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
            kill(pid, SIGKILL)
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
