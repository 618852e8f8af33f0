#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a child program with posix_spawn and collects its output.
///
/// The tests used Foundation's `Process`, whose `run()` leaves a weak
/// reference in the run loop's child monitor until exit: LeakSanitizer
/// reported it in every test process that started a child, and the
/// AddressSanitizer step needed a suppression for Foundation besides
/// XCTest's own (issue #16 allows XCTest's alone). This is the few lines of
/// POSIX the tests need instead: standard input from /dev/null, standard
/// output and error read together with poll(2) so that neither pipe fills
/// and blocks the child.
public enum ChildProcess {
    /// What a run left.
    public struct Result {
        public var status: Int32
        /// True when the program ended by a signal (a crash), not an exit.
        public var crashed: Bool
        public var output: [UInt8]
        public var errors: [UInt8]
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `path` with `arguments` (not including the program name) in the
    /// test's environment, waiting for it to end. `path` is looked up on
    /// `PATH` when it has no slash.
    public static func run(_ path: String, _ arguments: [String]) throws -> Result {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw SpawnError(description: "pipe failed: errno \(errno)")
        }
        defer {
            for fd in [outPipe[0], errPipe[0]] where fd >= 0 { close(fd) }
        }

        // glibc's and musl's posix_spawn_file_actions_t is a struct, Apple's a pointer.
        #if canImport(Glibc) || canImport(Musl)
            var actions = posix_spawn_file_actions_t()
        #elseif canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in [outPipe[0], outPipe[1], errPipe[0], errPipe[1]] { posix_spawn_file_actions_addclose(&actions, fd) }

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        #if canImport(Glibc) || canImport(Musl)
            let environment = environ
        #elseif canImport(Darwin)
            let environment = _NSGetEnviron().pointee  // Apple's headers do not declare `environ`
        #endif
        var pid: pid_t = 0
        let spawned =
            path.contains("/")
            ? posix_spawn(&pid, path, &actions, nil, argv, environment)
            : posix_spawnp(&pid, path, &actions, nil, argv, environment)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else { throw SpawnError(description: "posix_spawn \(path) failed: error \(spawned)") }

        var output: [UInt8] = []
        var errors: [UInt8] = []
        var open = [outPipe[0], errPipe[0]]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            for entry in fds where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if entry.fd == outPipe[0] {
                        output += buffer[..<count]
                    } else {
                        errors += buffer[..<count]
                    }
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }

        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // The wait status: low 7 bits the signal (0 for an exit), then the
        // exit code (POSIX WIFEXITED/WEXITSTATUS, macros Swift does not import).
        let signal = status & 0x7F
        return Result(
            status: signal == 0 ? (status >> 8) & 0xFF : signal, crashed: signal != 0, output: output,
            errors: errors)
    }
}
