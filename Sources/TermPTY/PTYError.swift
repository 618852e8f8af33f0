#if os(Linux) || os(macOS)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Why a program could not be started on a pseudo-terminal or a PTY
    /// operation failed, with a message a user can act on ("cannot start
    /// 'foo': No such file or directory"). Thrown typed, so a caller can tell
    /// a missing program from a machine out of PTYs without parsing text.
    public struct PTYError: Error, CustomStringConvertible, Equatable, Sendable {
        /// What failed.
        public enum Kind: Equatable, Sendable {
            /// The system would not give a new pseudo-terminal (`posix_openpt`,
            /// `grantpt`, `unlockpt`, `ptsname`): usually all PTYs are in use
            /// or /dev/pts is not mounted.
            case openFailed
            /// The program could not be started: not found, not executable,
            /// or the system refused a new process.
            case spawnFailed
            /// The command was empty or an argument could not be passed
            /// (an empty program name, a NUL byte, a string over
            /// ``PTYLimits/maxArgumentBytes``).
            case invalidCommand
            /// The window size could not be set.
            case resizeFailed
        }

        /// What failed, for a caller that acts on the cause rather than the text.
        public let kind: Kind
        /// The `errno` value behind the failure, 0 when there is none.
        public let code: Int32
        /// The message for the user: what was attempted and why it failed, with
        /// the system's reason (`strerror`) where there is one.
        public let description: String

        init(_ kind: Kind, code: Int32 = 0, _ description: String) {
            self.kind = kind
            self.code = code
            self.description = description
        }

        /// The system's text for an `errno` value ("No such file or directory").
        static func text(_ code: Int32) -> String {
            guard let text = strerror(code) else { return "error \(code)" }
            return String(cString: text)
        }
    }
#endif
