// Selection, search and stable positions on a snapshot: the same algorithm
// as the terminal's (BufferLines.swift), over the rows the snapshot copied,
// so a front end selects and searches on its own thread, off the lock.

extension SnapshotRow: BufferLineCells {
    func cell(_ column: Int) -> Cell { cells[column] }
    func clusterScalars(_ id: UInt32) -> ClusterScalars {
        tables.clusters.scalars(id) ?? []
    }
}

extension Snapshot: BufferLineSource {
    /// Lines in the snapshot's buffer, as ``Terminal/bufferLineCount`` was
    /// when it was taken: the primary screen's scrollback and screen, or
    /// only the screen while the alternate screen is shown. Line 0 is the
    /// oldest scrollback line; the snapshot holds the lines of
    /// ``scrollbackRange`` and the screen (``holdsBufferLine(_:)``).
    public var bufferLineCount: Int { (isAlternateScreen ? 0 : scrollbackCount) + rows }

    /// The buffer line of screen row `row`, as ``Terminal/bufferLine(ofScreenRow:)``.
    public func bufferLine(ofScreenRow row: Int) -> Int { (isAlternateScreen ? 0 : scrollbackCount) + row }

    /// True when the snapshot holds buffer line `line`: a screen row, or a
    /// scrollback line of ``scrollbackRange`` (never one while the alternate
    /// screen is shown). Selection reads other lines as blank; search skips
    /// them.
    public func holdsBufferLine(_ line: Int) -> Bool { heldLine(line) != nil }

    var heldLineRanges: [Range<Int>] {
        let screen = bufferLine(ofScreenRow: 0)..<bufferLineCount
        if isAlternateScreen || scrollbackRange.isEmpty { return [screen] }
        // Adjacent runs are one, so that a match may wrap onto the screen.
        if scrollbackRange.upperBound == screen.lowerBound { return [scrollbackRange.lowerBound..<screen.upperBound] }
        return [scrollbackRange, screen]
    }

    func heldLine(_ index: Int) -> SnapshotRow? {
        let history = isAlternateScreen ? 0 : scrollbackCount
        if index >= history {
            return screenRows.indices.contains(index - history) ? screenRows[index - history] : nil
        }
        return scrollbackRange.contains(index) ? scrollbackRows[index - scrollbackRange.lowerBound] : nil
    }

    /// The range a selection covers after expanding words and lines, as
    /// ``Terminal/range(of:)`` gives it for the same lines.
    /// - Complexity: O(length of the lines at its ends).
    public func range(of selection: Selection) -> BufferRange { selectedRange(selection) }

    /// The selected text, as ``Terminal/text(of:)-(Selection)`` gives it: soft-wrapped
    /// rows joined, hard line ends as "\n", trailing blanks of each line
    /// trimmed, wide characters once. Lines the snapshot does not hold read
    /// as empty lines: take the snapshot with a ``scrollbackRange`` that
    /// covers the selection.
    public func text(of selection: Selection) -> String { text(of: selectedRange(selection)) }

    /// The text of a buffer range, joined as ``text(of:)-(Selection)`` does;
    /// its ends are clamped to the buffer.
    public func text(in range: BufferRange) -> String { text(of: range) }

    /// Every occurrence of `needle` in the lines the snapshot holds (its
    /// ``scrollbackRange`` and its screen), oldest first, found as
    /// ``Terminal/search(_:caseSensitive:limit:)`` finds them. A match never
    /// runs into a line the snapshot does not hold.
    /// - Complexity: O(cells held × needle length) at worst.
    public func search(_ needle: String, caseSensitive: Bool = true, limit: Int = TermCore.Limits.searchMatches)
        -> [BufferRange]
    {
        matches(of: needle, caseSensitive: caseSensitive, limit: limit)
    }

    // MARK: Stable positions

    /// Lines that had left the primary screen's scrollback for good when
    /// the snapshot was taken (``Terminal/evictedLineCount``).
    public var evictedLineCount: Int { lineNumbers.primaryEvicted }

    /// The stable form of `point`: the same line on any later snapshot of
    /// the same terminal, as long as the line is there (see ``StablePoint``).
    public func stablePoint(_ point: BufferPoint) -> StablePoint { lineNumbers.stablePoint(point) }

    /// Where `point`'s line is in this snapshot's buffer, or nil when it is
    /// gone: evicted before the snapshot was taken, retired by a reset or a
    /// resize, or of the other screen.
    public func bufferPoint(_ point: StablePoint) -> BufferPoint? { lineNumbers.bufferPoint(point) }

    /// The stable form of `selection`, made when the user selects, to be
    /// resolved on later snapshots with ``selection(_:)`` or
    /// ``text(of:)-(StableSelection)``.
    public func stableSelection(_ selection: Selection) -> StableSelection {
        lineNumbers.stableSelection(selection, covering: selectedRange(selection))
    }

    /// `selection` in this snapshot's buffer lines, or nil when any of its
    /// lines is gone (the selection is then no longer on the screen or in
    /// the scrollback: drop it).
    public func selection(_ selection: StableSelection) -> Selection? { lineNumbers.selection(selection) }

    /// The text of a stable selection, or nil when any of its lines is gone:
    /// never the text of other lines.
    public func text(of selection: StableSelection) -> String? {
        lineNumbers.selection(selection).map { text(of: $0) }
    }
}
