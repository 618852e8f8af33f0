import TermCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bugs that are known and not fixed yet: a fuzzer that stops on one of them
/// in its first seconds finds nothing else. By default the targets step
/// around each one, in the narrowest way that still runs the code around it;
/// `FUZZ_STRICT=1` turns every workaround off, to check a fix (a fixed bug's
/// workaround is then deleted here and in its target).
///
/// The workarounds of the first runs are gone, their bugs fixed (issue
/// #16): a resize clamps every saved cursor, DECCOLM inside a feed drops
/// the snapshot row caches, JSON numbers past `Int` are malformed, the
/// title cap's cut is trimmed again, the handshake's status line is strict,
/// and the compactor rebuilds the states its first gaps listed. What is
/// left: the compaction target's `knownGap`, three states it does not
/// rebuild yet (Tests/Fuzz/crashes/README.md).
public enum KnownBugs {
    /// True when `FUZZ_STRICT` is set to anything but "" or "0": no
    /// workaround, every known bug traps.
    public static let strict: Bool = {
        guard let value = getenv("FUZZ_STRICT") else { return false }
        let text = String(cString: value)
        return !text.isEmpty && text != "0"
    }()

    /// Whether the targets step around the known bugs.
    public static var workAround: Bool { !strict }
}

extension Terminal {
    /// `resize(columns:rows:)`; the name stays for the targets' call sites.
    public func fuzzResize(columns: Int, rows: Int) { resize(columns: columns, rows: rows) }

    /// `feed(_:)`; the name stays for the targets' call sites.
    public func fuzzFeed(_ bytes: UnsafeBufferPointer<UInt8>) { feed(bytes) }
}
