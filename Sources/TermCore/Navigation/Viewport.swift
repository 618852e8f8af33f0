/// A window of `rows` lines over the buffer, scrolled back from the bottom
/// by `offset` lines (0 follows the live screen).
public struct Viewport: Hashable, Sendable {
    /// Lines scrolled back from the live screen.
    public private(set) var offset: Int = 0
    /// The terminal's line count and grids when ``Terminal/snapshot(following:)``
    /// last laid the viewport out, or nil before: what the next call
    /// measures new lines against.
    var followed: FollowMark?

    /// A viewport on the live screen.
    public init() {}

    /// Scrolls by `lines` (positive = back in history), clamped to what exists.
    public mutating func scroll(by lines: Int, scrollbackCount: Int) {
        offset = Self.offset(offset, movedBy: lines, within: scrollbackCount)
    }

    /// `offset` moved by `lines` and kept within 0…`count`, whatever the
    /// embedder passes (`Int.max` lines saturates, it does not trap).
    static func offset(_ offset: Int, movedBy lines: Int, within count: Int) -> Int {
        let (sum, overflow) = offset.addingReportingOverflow(lines)
        let moved = overflow ? (lines > 0 ? Int.max : 0) : sum
        return max(0, min(moved, count))
    }

    /// Back to the live screen (when output arrives, or on a key press).
    public mutating func scrollToBottom() { offset = 0 }

    /// Keeps the same content in view after `newLines` lines entered the
    /// scrollback while scrolled back, with `scrollbackCount` the scrollback's
    /// length now.
    ///
    /// `newLines` counts every line that entered, those that pushed the
    /// oldest out of a full scrollback too: the growth of
    /// ``Terminal/evictedLineCount`` + ``Terminal/scrollbackCount``, not of
    /// the scrollback count, which stays the same once the scrollback is
    /// full. ``follow(from:to:)`` takes both from two snapshots and cannot
    /// get it wrong.
    public mutating func follow(newScrollbackLines newLines: Int, scrollbackCount: Int) {
        guard offset > 0 else { return }
        offset = Self.offset(offset, movedBy: newLines, within: scrollbackCount)
    }

    /// Keeps the same content in view from `older`, the snapshot drawn last,
    /// to `newer`, the one about to be drawn (both of the same terminal).
    ///
    /// Every line that entered the scrollback in between moves the view back
    /// by one: the lines evicted from a full scrollback count
    /// (``Snapshot/evictedLineCount``), as the scrollback count no longer
    /// grows. When the lines in view were evicted, the view stops at the
    /// oldest line left. Following the live screen (offset 0), it stays
    /// there. After a resize or reset between them (which renumbers every
    /// line), the offset is kept as far as the new scrollback allows.
    public mutating func follow(from older: Snapshot, to newer: Snapshot) {
        guard older.lineNumbers.gridEpoch == newer.lineNumbers.gridEpoch else {
            offset = min(offset, newer.scrollbackCount)
            return
        }
        let entered =
            (newer.evictedLineCount + newer.scrollbackCount) - (older.evictedLineCount + older.scrollbackCount)
        follow(newScrollbackLines: entered, scrollbackCount: newer.scrollbackCount)
    }

    /// Follows the terminal from the moment it was last followed to `now`
    /// (``Terminal/snapshot(following:)``), as ``follow(from:to:)`` does.
    mutating func follow(_ now: LineNumbers, scrollbackCount: Int) {
        let mark = FollowMark(lines: now.primaryEvicted + scrollbackCount, gridEpoch: now.gridEpoch)
        defer { followed = mark }
        guard let before = followed, before.gridEpoch == mark.gridEpoch else {
            offset = min(offset, scrollbackCount)
            return
        }
        follow(newScrollbackLines: mark.lines - before.lines, scrollbackCount: scrollbackCount)
    }

    /// The scrollback lines the viewport shows at its top.
    public func scrollbackRange(rows: Int, scrollbackCount: Int) -> Range<Int> {
        let offset = min(self.offset, scrollbackCount)
        let start = scrollbackCount - offset
        return start..<min(scrollbackCount, start + rows)
    }

    /// The buffer line shown in row `row` of the view (0 = top) of a
    /// snapshot taken for it: where a click in the view lands, for a
    /// ``Selection``. Scroll back only on the primary screen: the alternate
    /// screen's buffer is its screen alone.
    public func bufferLine(ofRow row: Int, in snapshot: Snapshot) -> Int {
        let range = scrollbackRange(rows: snapshot.rows, scrollbackCount: snapshot.scrollbackCount)
        return row < range.count ? range.lowerBound + row : snapshot.bufferLine(ofScreenRow: row - range.count)
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

/// Every line that has entered the primary screen's scrollback (evicted
/// ones included) and the grids then (`TerminalState.gridEpoch`).
struct FollowMark: Hashable, Sendable {
    var lines: Int
    var gridEpoch: Int
}

extension Terminal {
    /// Moves `viewport` back by the lines that entered the scrollback since
    /// it was last passed here (those evicted from a full scrollback too),
    /// so that it shows the same lines, then takes the snapshot it shows
    /// (``snapshot(viewport:)``): one call, so no output comes between.
    /// Pass the same viewport every frame; a viewport at the live screen
    /// stays there.
    public func snapshot(following viewport: inout Viewport) -> Snapshot {
        viewport.follow(lineNumbers, scrollbackCount: scrollbackCount)
        return snapshot(viewport: viewport)
    }
}
