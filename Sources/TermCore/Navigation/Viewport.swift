/// A window of `rows` lines over the buffer, scrolled back from the bottom
/// by `offset` lines (0 follows the live screen).
public struct Viewport: Hashable, Sendable {
    /// Lines scrolled back from the live screen.
    public private(set) var offset: Int = 0

    public init() {}

    /// Scrolls by `lines` (positive = back in history), clamped to what exists.
    public mutating func scroll(by lines: Int, scrollbackCount: Int) {
        offset = max(0, min(offset + lines, scrollbackCount))
    }

    /// Back to the live screen (when output arrives, or on a key press).
    public mutating func scrollToBottom() { offset = 0 }

    /// Keeps the same content in view after `newLines` lines entered the
    /// scrollback while scrolled back.
    public mutating func follow(newScrollbackLines newLines: Int, scrollbackCount: Int) {
        guard offset > 0 else { return }
        offset = min(offset + newLines, scrollbackCount)
    }

    /// The scrollback lines the viewport shows at its top.
    public func scrollbackRange(rows: Int, scrollbackCount: Int) -> Range<Int> {
        let offset = min(self.offset, scrollbackCount)
        let start = scrollbackCount - offset
        return start..<min(scrollbackCount, start + rows)
    }

    /// The lines to draw, top to bottom, from a snapshot taken with
    /// ``Terminal/snapshot(viewport:)`` (or ``LockedTerminal/snapshot(viewport:)``),
    /// which copies the lines this needs in the same call. From a snapshot
    /// that lacks some of them (taken with another range), those lines are
    /// blank: never a trap.
    public func lines(of snapshot: Snapshot) -> [SnapshotLine] {
        let range = scrollbackRange(rows: snapshot.rows, scrollbackCount: snapshot.scrollbackCount)
        var lines = range.map { snapshot.scrollbackLine($0) }
        var row = 0
        while lines.count < snapshot.rows {
            lines.append(snapshot.line(row))
            row += 1
        }
        return lines
    }
}
