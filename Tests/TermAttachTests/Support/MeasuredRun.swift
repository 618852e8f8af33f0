import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the termengine binary as its own process and measures what the
/// hardening tests check: exit status, wall time, and the child's peak
/// resident memory: VmHWM of /proc/PID/status (the high-water mark of its
/// address space), read every millisecond while it runs.
///
/// Not wait4's `ru_maxrss`: posix_spawn's child shares the parent's address
/// space until exec (CLONE_VM), and Linux's exec folds the old address
/// space's high-water mark into the child's maxrss, so the test process's
/// own size would be counted. A zombie's status has no VmHWM (its address
/// space is gone), so the last read while it ran is the figure; a run whose
/// VmHWM was never read reports 0, which ``HostileTests/expectResources``
/// refuses. Output goes to files, so a chatty child never blocks on a full
/// pipe.
///
/// The wait runs on a thread of its own, not on the cooperative pool, and
/// the time is counted from the return of posix_spawn to the first poll
/// that finds the child exited (1 ms apart).
struct MeasuredRun: Sendable {
    var status: Int32
    /// Set when the child was killed at the deadline.
    var timedOut: Bool
    var seconds: Double
    /// Peak resident memory in bytes.
    var peakResidentBytes: Int
    var output: String
    var errors: String

    /// Runs `arguments`, killing the child (SIGKILL) after `deadline` seconds.
    static func termengine(_ arguments: [String], deadline: Double = 60) async throws -> MeasuredRun {
        #if os(Linux)
            let binary = try PackageExecutable("termengine").url.path
            let result: Result<MeasuredRun, TestFailure> = await withCheckedContinuation { continuation in
                let thread = Thread {
                    do {
                        continuation.resume(returning: .success(try linuxRun(binary, arguments, deadline: deadline)))
                    } catch let failure as TestFailure {
                        continuation.resume(returning: .failure(failure))
                    } catch {
                        continuation.resume(returning: .failure(TestFailure("\(error)")))
                    }
                }
                thread.name = "MeasuredRun"
                thread.start()
            }
            return try result.get()
        #else
            // VmHWM comes from /proc, and posix_spawn's types differ on Apple
            // platforms: fail loudly rather than pass a memory check unmeasured.
            throw TestFailure("MeasuredRun reads /proc/PID/status: Linux only")
        #endif
    }

    #if os(Linux)
        private static func linuxRun(_ binary: String, _ arguments: [String], deadline: Double) throws -> MeasuredRun {
            let directory = temporaryPath("run")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let outPath = directory.appendingPathComponent("out").path
            let errPath = directory.appendingPathComponent("err").path

            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            let argv = ([binary] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid: pid_t = 0
            let result = posix_spawn(&pid, binary, &actions, nil, argv, environ)
            guard result == 0 else { throw TestFailure("posix_spawn failed: \(result)") }
            let started = ContinuousClock.now

            var status: Int32 = 0
            var timedOut = false
            var peak = 0
            var elapsed = Duration.zero
            while true {
                peak = max(peak, highWaterMark(pid))
                let waited = waitpid(pid, &status, WNOHANG)
                if waited == pid {
                    elapsed = started.duration(to: .now)
                    break
                }
                if waited < 0 && errno != EINTR { throw TestFailure("waitpid failed: \(errno)") }
                if started.duration(to: .now) > .seconds(deadline) && !timedOut {
                    timedOut = true
                    kill(pid, SIGKILL)
                }
                usleep(1_000)
            }
            let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            return MeasuredRun(
                status: exitStatus, timedOut: timedOut,
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                peakResidentBytes: peak,
                output: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                errors: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
        }

        /// VmHWM of a running process in bytes (0 once it has exited).
        static func highWaterMark(_ pid: pid_t) -> Int {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
            else { return 0 }
            let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
            return (kilobytes.flatMap { Int($0) } ?? 0) * 1024
        }
    #endif
}
