#if os(Linux) || os(macOS)
    import Dispatch

    /// Every bound of TermPTY in one place (STYLE.md rule 12), each with its
    /// reason. A program can write without end and a user can paste without
    /// end; neither may make this process hold more than these.
    public enum PTYLimits {
        /// Bytes read from the PTY in one `read(2)`, the one read buffer of a
        /// session. Linux hands out at most 4 KiB per read from a PTY (its
        /// line discipline's buffer) and macOS 1 KiB, so a larger buffer buys
        /// nothing; 64 KiB leaves room for other kernels.
        public static let readChunk = 65_536
        /// Reads per wake-up of the reader: after this many (1 MiB at most)
        /// the queue turns to the input, resizes and snapshots waiting
        /// behind a flood of output before it reads on (`yes` would starve
        /// them otherwise). The kernel's PTY buffer holds the rest and
        /// blocks the program: output never piles up in this process.
        public static let readsPerWakeup = 16
        /// Bytes of input (keys, pastes, the terminal's replies) waiting for
        /// a program that does not read them. Past it a chunk is dropped
        /// whole and counted (``PTYSession/Counters/droppedInputBytes``): a
        /// paste of a megabyte into a stopped program is lost rather than
        /// held without bound.
        public static let maxPendingInput = 1 << 20
        /// How long a session waits, after its program has exited, for the
        /// last output to arrive before it reports the exit. The end of the
        /// output (EIO on the PTY) normally comes at once; it never comes
        /// while a background job of the program still holds the terminal
        /// open, and the exit is then reported after this.
        public static let exitDrainGrace: DispatchTimeInterval = .milliseconds(200)
        /// Bytes of one argument or environment entry passed to a program,
        /// the kernel's own limit for one string (Linux MAX_ARG_STRLEN).
        public static let maxArgumentBytes = 131_072
    }
#endif
