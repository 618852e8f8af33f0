import TermCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bugs that are known and being fixed by others (issue #16): a fuzzer that
/// stops on one of them in its first seconds finds nothing else. By default
/// the targets step around each one, in the narrowest way that still runs the
/// code around it; `FUZZ_STRICT=1` turns every workaround off, to check a fix
/// (a fixed bug's workaround is then deleted here and in its target).
///
/// The workarounds, each named where a target uses it:
/// - `savedCursorResize`: a resize does not clamp a saved cursor (DECSC)
///   (Grid reads out of bounds after DECSC + resize + alternate screen;
///   StateEncoder.writeSavedCursor traps after a resize). The targets never
///   resize below a saved cursor's row or column.
/// - `deccolmRowCache`: DECCOLM inside a feed leaves the snapshot's row caches
///   of the old width, and the next snapshot's accessors index out of range.
///   After a feed that may have run DECCOLM, the target resizes to the size
///   in force, which drops the caches and changes nothing else. When the
///   switch goes to 132 columns and back in one feed, no index is out of
///   range: the next snapshot silently shows the rows from before.
/// - `previewHugeNumber`: a JSON number of 2^63 or more (or 1e400) traps in
///   Preview.swift's Double-to-Int conversion. The target skips inputs with
///   such a number.
/// - `titleTrailingSpace` (found by the title target, Tests/Fuzz/crashes/title):
///   the cap can cut just after white space, so the result ends in white space
///   and sanitizing it again trims it. The idempotence check is skipped for a
///   result that ends in white space.
/// - `handshakeStatusDigits` (found by the websocket target,
///   crashes/websocket): the upgrade response's status is read with Int(), so
///   `HTTP/1.1 0101` and `HTTP/1.1 +101` pass as 101, and the version is only
///   prefix-checked (`HTTP/1.1garbage 101` passes). The target accepts what
///   validate's own reading accepts.
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
    /// `resize(columns:rows:)`, kept above both saved cursors unless strict
    /// (`savedCursorResize`).
    public func fuzzResize(columns: Int, rows: Int) {
        var columns = columns
        var rows = rows
        if KnownBugs.workAround {
            for alternate in [false, true] {
                guard let saved = savedCursor(alternateScreen: alternate) else { continue }
                columns = max(columns, min(saved.position.column + 1, Terminal.Limits.dimensions.upperBound))
                rows = max(rows, min(saved.position.row + 1, Terminal.Limits.dimensions.upperBound))
            }
        }
        resize(columns: columns, rows: rows)
    }

    /// `feed(_:)`, then, unless strict, a resize to the size in force when
    /// DECCOLM may have run during the feed (`deccolmRowCache`): the width
    /// changed, or mode 40 (which DECCOLM needs) was on before or after. A
    /// switch to 132 columns and back within one feed leaves the width as it
    /// was, yet the caches stale (crashes/terminal/deccolm-round-trip-stale-text).
    public func fuzzFeed(_ bytes: UnsafeBufferPointer<UInt8>) {
        let before = columns
        let allowedBefore = modes.allowColumnSwitch
        feed(bytes)
        if KnownBugs.workAround && (columns != before || allowedBefore || modes.allowColumnSwitch) {
            resize(columns: columns, rows: rows)
        }
    }
}
