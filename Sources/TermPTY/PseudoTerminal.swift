#if os(Linux) || os(macOS)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif
    #if os(Linux)
        import CPTYShim
    #endif

    /// A window size in character cells, as the program on a PTY sees it
    /// (`TIOCGWINSZ`, `stty size`).
    public struct PTYSize: Equatable, Sendable {
        /// Cells across. The kernel stores it in 16 bits: a value past 65,535 is
        /// clamped when the size is set.
        public var columns: Int
        /// Cells down, clamped like ``columns``.
        public var rows: Int

        /// A size of `columns` × `rows` cells.
        public init(columns: Int, rows: Int) {
            self.columns = columns
            self.rows = rows
        }
    }

    /// How a program ended: what a shell reports as `$?`.
    public enum ExitStatus: Equatable, Sendable, CustomStringConvertible {
        /// It called `exit` with this code (0…255).
        case exited(Int32)
        /// A signal ended it (`SIGHUP` is 1, `SIGKILL` 9).
        case signaled(Int32)

        /// The status a shell gives for it: the code, or 128 + the signal.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let code): return code
            case .signaled(let signal): return 128 + signal
            }
        }

        /// `exit N` or `signal N`, for messages and logs.
        public var description: String {
            switch self {
            case .exited(let code): return "exit \(code)"
            case .signaled(let signal): return "signal \(signal)"
            }
        }

        /// Decodes a `waitpid` status word: the low 7 bits are the signal (0
        /// for an exit), the next 8 the exit code (POSIX `WIFEXITED` and
        /// `WEXITSTATUS`, macros Swift does not import).
        init(waitStatus status: Int32) {
            let signal = status & 0x7F
            self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
        }
    }

    /// What to run on a pseudo-terminal.
    public struct PTYCommand: Sendable {
        /// The program: a path, or a name looked up on `PATH`.
        public var executable: String
        /// The arguments after the program's name.
        public var arguments: [String]
        /// Variables set for the program over this process's environment
        /// (which it inherits). `TERM=xterm-256color` and
        /// `COLORTERM=truecolor` are set unless given here: they tell the
        /// program it talks to an xterm-compatible terminal with 24-bit
        /// colour, which is what TermCore emulates. `LINES` and `COLUMNS`
        /// are removed, as they would lie after the first resize.
        public var environment: [String: String]

        /// A command: `executable` (a path, or a name looked up on `PATH`) with
        /// `arguments` after its name, and `environment` set over the inherited one.
        public init(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:]) {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
        }

        /// The environment the program gets, as `NAME=value` entries.
        func environmentEntries() -> [String] {
            var overrides = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]
            overrides.merge(environment) { _, given in given }
            var entries: [String] = []
            #if os(Linux)
                var pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
            #else
                // Apple's headers do not declare `environ`.
                var pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = _NSGetEnviron().pointee
            #endif
            while let entry = pointer?.pointee {
                let text = String(cString: entry)
                let name = String(text.prefix { $0 != "=" })
                if overrides[name] == nil && name != "LINES" && name != "COLUMNS" { entries.append(text) }
                pointer = pointer?.advanced(by: 1)
            }
            for (name, value) in overrides.sorted(by: { $0.key < $1.key }) { entries.append("\(name)=\(value)") }
            return entries
        }
    }

    #if os(Linux)
        /// The PTY functions of the C library, through CPTYShim: glibc
        /// declares them only for `_XOPEN_SOURCE`, which Swift's Glibc
        /// module does not define; the Darwin module declares them.
        enum PTYCalls {
            static func openpt(_ flags: Int32) -> Int32 { cpty_openpt(flags) }
            static func grantpt(_ fd: Int32) -> Int32 { cpty_grantpt(fd) }
            static func unlockpt(_ fd: Int32) -> Int32 { cpty_unlockpt(fd) }
            static func ptsname(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int32 {
                cpty_ptsname(fd, buffer, count)
            }
        }
    #else
        enum PTYCalls {
            static func openpt(_ flags: Int32) -> Int32 { posix_openpt(flags) }
            static func grantpt(_ fd: Int32) -> Int32 { Darwin.grantpt(fd) }
            static func unlockpt(_ fd: Int32) -> Int32 { Darwin.unlockpt(fd) }
            static func ptsname(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int32 {
                Darwin.ptsname_r(fd, buffer, count)
            }
        }
    #endif

    /// A program running on a pseudo-terminal: the master side's descriptor
    /// and the program's process id, with the system calls that act on them.
    ///
    /// This is the POSIX layer under ``PTYSession``, for an embedder that
    /// wants to do its own reading. The program is a session leader with the
    /// PTY as its controlling terminal (so it gets `SIGWINCH` on a resize and
    /// `SIGHUP` when the master closes), every signal at its default
    /// disposition and none blocked, whatever this process ignores.
    ///
    /// One owner calls ``closeMaster()`` once and ``waitForExit()`` once; the
    /// other calls may come from any thread.
    public final class PseudoTerminal: Sendable {
        /// The master side, non-blocking and close-on-exec.
        public let master: Int32
        /// The program's process id, also its session and process group id.
        public let pid: pid_t

        private init(master: Int32, pid: pid_t) {
            self.master = master
            self.pid = pid
        }

        /// Opens a PTY of `size` and starts `command` on it.
        /// - Throws: ``PTYError``: `.spawnFailed` with the system's reason
        ///   ("cannot start 'foo': No such file or directory"), `.openFailed`
        ///   when no PTY can be had, `.invalidCommand` for an empty program.
        public static func spawn(_ command: PTYCommand, size: PTYSize) throws(PTYError) -> PseudoTerminal {
            let name = command.executable
            let strings = [name] + command.arguments + command.environmentEntries()
            guard !name.isEmpty else { throw PTYError(.invalidCommand, "cannot start a program with an empty name") }
            #if os(Linux)
                guard cpty_spawn_setsid_flag() != 0 else {
                    throw PTYError(
                        .spawnFailed,
                        "cannot start '\(name)': this C library has no POSIX_SPAWN_SETSID (glibc 2.26 or later)")
                }
            #endif
            if let bad = strings.first(where: { $0.utf8.contains(0) || $0.utf8.count > PTYLimits.maxArgumentBytes }) {
                throw PTYError(
                    .invalidCommand,
                    "cannot start '\(name)': an argument or variable holds a NUL byte or is over "
                        + "\(PTYLimits.maxArgumentBytes) bytes (\(bad.prefix(40))…)")
            }

            let master = PTYCalls.openpt(O_RDWR | O_NOCTTY)
            guard master >= 0 else {
                throw PTYError(.openFailed, code: errno, "cannot open a pseudo-terminal: \(PTYError.text(errno))")
            }
            var keep = false
            defer { if !keep { close(master) } }
            _ = fcntl(master, F_SETFD, FD_CLOEXEC)
            guard PTYCalls.grantpt(master) == 0, PTYCalls.unlockpt(master) == 0 else {
                throw PTYError(.openFailed, code: errno, "cannot unlock a pseudo-terminal: \(PTYError.text(errno))")
            }
            var nameBuffer = [CChar](repeating: 0, count: 128)
            let named = PTYCalls.ptsname(master, &nameBuffer, nameBuffer.count)
            guard named == 0 else {
                let code = named > 0 ? named : errno
                throw PTYError(.openFailed, code: code, "cannot name a pseudo-terminal: \(PTYError.text(code))")
            }
            let slavePath = String(decoding: nameBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            try setSize(master, size)

            #if os(Linux)
                var actions = posix_spawn_file_actions_t()
                var attributes = posix_spawnattr_t()
            #else
                var actions: posix_spawn_file_actions_t? = nil
                var attributes: posix_spawnattr_t? = nil
            #endif
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            // The child is a new session's leader (POSIX_SPAWN_SETSID, done
            // before the file actions), so opening the slave without
            // O_NOCTTY makes it the controlling terminal and the child's
            // group its foreground group: SIGWINCH and SIGHUP reach it.
            posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
            posix_spawn_file_actions_adddup2(&actions, 0, 1)
            posix_spawn_file_actions_adddup2(&actions, 0, 2)
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // Ignored signals survive exec: a front end that ignores SIGWINCH
            // (to catch it with a dispatch source) or SIGPIPE would hand its
            // program a terminal whose resizes never arrive.
            var all = sigset_t()
            sigfillset(&all)
            posix_spawnattr_setsigdefault(&attributes, &all)
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setflags(&attributes, Int16(spawnFlags))

            let argv = ([name] + command.arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            let envp = command.environmentEntries().map { strdup($0) } + [nil]
            defer { for pointer in envp { free(pointer) } }
            var pid: pid_t = 0
            let spawned =
                name.contains("/")
                ? posix_spawn(&pid, name, &actions, &attributes, argv, envp)
                : posix_spawnp(&pid, name, &actions, &attributes, argv, envp)
            guard spawned == 0 else {
                throw PTYError(.spawnFailed, code: spawned, "cannot start '\(name)': \(PTYError.text(spawned))")
            }
            let flags = fcntl(master, F_GETFL)
            _ = fcntl(master, F_SETFL, flags | O_NONBLOCK)
            keep = true
            return PseudoTerminal(master: master, pid: pid)
        }

        #if os(Linux)
            /// glibc's POSIX_SPAWN_SETSID (2.26 and later, a GNU extension
            /// the Glibc module leaves out) and the signal flags.
            private static let spawnFlags =
                Int32(cpty_spawn_setsid_flag()) | Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)
        #else
            private static let spawnFlags =
                Int32(POSIX_SPAWN_SETSID) | Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)
        #endif

        private static func setSize(_ fd: Int32, _ size: PTYSize) throws(PTYError) {
            // The kernel keeps the size with the terminal; set on the master,
            // it signals SIGWINCH to the foreground process group of the
            // slave (Linux pty_resize, BSD ttioctl TIOCSWINSZ).
            var window = winsize(
                ws_row: UInt16(clamping: size.rows), ws_col: UInt16(clamping: size.columns), ws_xpixel: 0,
                ws_ypixel: 0)
            guard ioctl(fd, UInt(TIOCSWINSZ), &window) == 0 else {
                throw PTYError(
                    .resizeFailed, code: errno,
                    "cannot set the window size to \(size.columns)x\(size.rows): \(PTYError.text(errno))")
            }
        }

        /// Sets the window size; the kernel sends `SIGWINCH` to the
        /// program's foreground process group.
        public func resize(_ size: PTYSize) throws(PTYError) {
            try Self.setSize(master, size)
        }

        /// The window size the kernel holds for the PTY.
        public var size: PTYSize? {
            var window = winsize()
            guard ioctl(master, UInt(TIOCGWINSZ), &window) == 0 else { return nil }
            return PTYSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
        }

        /// Sends `signal` to the program (to its whole process group with
        /// `group`, as a hang-up reaches a shell's jobs). Returns false when
        /// the process is gone. Call it only before ``waitForExit()`` has
        /// returned: after that the id may belong to another process.
        @discardableResult
        public func send(signal: Int32, group: Bool = false) -> Bool {
            kill(group ? -pid : pid, signal) == 0
        }

        /// Blocks until the program has exited, without reaping it: the
        /// process id stays reserved (a zombie), so a signal sent meanwhile
        /// cannot reach a stranger. Call ``waitForExit()`` next.
        public func waitUntilExited() {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        }

        /// Blocks until the program has exited, reaps it and says how it
        /// ended. Call it once.
        public func waitForExit() -> ExitStatus {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                if errno != EINTR { return .exited(-1) }
            }
            return ExitStatus(waitStatus: status)
        }

        /// Closes the master side: the kernel hangs the terminal up, sending
        /// `SIGHUP` to the program's session. Call it once.
        public func closeMaster() {
            close(master)
        }
    }
#endif
