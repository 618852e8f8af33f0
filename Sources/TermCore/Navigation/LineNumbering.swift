// Line numbers that survive eviction.
//
// A buffer line (`BufferPoint.line`, 0 = the oldest scrollback line) names
// a different line each time a full scrollback drops its oldest: with 20,000
// lines kept, every new line moves every other one down an index. A grid
// counts the lines that left it for good (`Grid.evictedCount`), and
// `evictedCount + buffer line` is the same number for a line as long as it
// exists: its *stable* line number. A line scrolling from the screen into a
// scrollback that still has room keeps its buffer line; into a full one, its
// buffer line goes down by one as the count goes up by one.
//
// What counts as evicted, per screen:
// - the oldest scrollback line dropped for a new one (`Grid.pushTopLine`,
//   both in a scroll and in the plain-lines loop `writeLinesAtBottom`);
//   with no scrollback (`scrollback: 0`, and the alternate screen, whose
//   whole-screen scrolls `Grid.scrollUp` counts) every line scrolled off the
//   top;
// - every scrollback line on ED 3 (`Grid.clearHistory`);
// - every line of both screens on RIS and `Terminal.reset()`, the screen's
//   too (a reset screen shows new lines, not the old ones erased);
// - every line of both screens on a resize (`TerminalState.resize`, from
//   `Terminal.resize` or DECCOLM): reflow re-wraps, joins and drops lines,
//   so no line after it is one from before; the new lines are numbered after
//   all the old ones;
// - the alternate screen's lines when 1047 or 1049 clear it on entry.
// An erase, an insert or delete of lines, or a scroll inside margins
// changes the text of a line in place: its number stays (as a selection on
// any terminal shows the new text there). Rows below a region that feeds
// the scrollback (top margin on the first row) are numbered after it, so
// each line entering the scrollback renumbers them: a known limit, as for
// `BufferPoint`s.
//
// The alternate screen numbers its own lines (its grid's count): a stable
// point says which screen it was made on and resolves only on that one.

/// A place in the buffer that stays with its line while output scrolls it
/// into the scrollback and a full scrollback drops older lines: unlike a
/// ``BufferPoint``, whose line 0 is whatever the oldest line is now.
///
/// Make one from a ``BufferPoint`` with ``Snapshot/stablePoint(_:)`` and
/// turn it back, on the same or any later
/// snapshot, with ``Snapshot/bufferPoint(_:)``: nil once its line is gone.
public struct StablePoint: Hashable, Sendable {
    /// The line's number among every line its screen has had since the
    /// terminal started: the lines evicted before it plus its buffer line.
    public var line: Int
    /// The column, as in ``BufferPoint/column``.
    public var column: Int
    /// True for a line of the alternate screen, whose lines are numbered on
    /// their own: such a point never resolves on the primary screen, nor a
    /// primary one on the alternate screen.
    public var isAlternateScreen: Bool

    /// A stable point (usually made by ``Snapshot/stablePoint(_:)``).
    public init(line: Int, column: Int, isAlternateScreen: Bool = false) {
        self.line = line
        self.column = column
        self.isAlternateScreen = isAlternateScreen
    }
}

/// A ``Selection`` whose ends are ``StablePoint``s: it keeps its text while
/// output scrolls on, and is reported gone (nil) once any of its lines has
/// been evicted, never moved onto other text.
///
/// ```swift
/// let kept = snapshot.stableSelection(selection)   // when the user selects
/// // … more output, a later snapshot …
/// later.text(of: kept)                             // the same text, or nil
/// ```
public struct StableSelection: Hashable, Sendable {
    /// Where the press was.
    public var anchor: StablePoint
    /// Where the pointer is.
    public var head: StablePoint
    /// By character, word or line, as in ``Selection/granularity``.
    public var granularity: Selection.Granularity
    /// The stable number of the first line the selection covered, words and
    /// lines expanded, when it was made from a snapshot or terminal (nil
    /// from ``init(anchor:head:granularity:)``): a word or logical line
    /// that began on a line evicted since is not the one selected, even
    /// though the anchor's line is still there.
    var firstCoveredLine: Int?

    /// A stable selection from its two ends.
    public init(anchor: StablePoint, head: StablePoint? = nil, granularity: Selection.Granularity = .character) {
        self.anchor = anchor
        self.head = head ?? anchor
        self.granularity = granularity
    }
}

/// How a terminal numbered its lines at one moment: what a snapshot keeps to
/// turn buffer lines into stable ones and back.
struct LineNumbers: Hashable, Sendable {
    /// Lines evicted from the primary screen (its grid's `evictedCount`).
    var primaryEvicted = 0
    /// The stable number of buffer line 0 of the screen shown: the count
    /// of that screen's grid.
    var firstLine = 0
    /// The screen shown.
    var isAlternateScreen = false
    /// Lines of the buffer (``Terminal/bufferLineCount``).
    var bufferLineCount = 0
    /// `TerminalState.gridEpoch`: changes when a resize or reset replaced the grids.
    var gridEpoch = 0

    func stablePoint(_ point: BufferPoint) -> StablePoint {
        StablePoint(line: firstLine + point.line, column: point.column, isAlternateScreen: isAlternateScreen)
    }

    /// Nil when the point's line was evicted, is of the other screen, or is
    /// past the buffer's last line (a line numbered after a reset or resize).
    func bufferPoint(_ point: StablePoint) -> BufferPoint? {
        guard point.isAlternateScreen == isAlternateScreen else { return nil }
        let line = point.line - firstLine
        guard (0..<bufferLineCount).contains(line) else { return nil }
        return BufferPoint(line: line, column: point.column)
    }

    /// `selection`, with `covered` the range it covers (words and lines
    /// expanded) in the same buffer.
    func stableSelection(_ selection: Selection, covering covered: BufferRange) -> StableSelection {
        var stable = StableSelection(
            anchor: stablePoint(selection.anchor), head: stablePoint(selection.head),
            granularity: selection.granularity)
        stable.firstCoveredLine = firstLine + covered.start.line
        return stable
    }

    /// Nil when either end's line is gone, or the first line it covered.
    /// Every line between them is then there too: lines are evicted oldest
    /// first (and all at once by a reset or resize).
    func selection(_ selection: StableSelection) -> Selection? {
        guard let anchor = bufferPoint(selection.anchor), let head = bufferPoint(selection.head) else { return nil }
        if let first = selection.firstCoveredLine, first < firstLine { return nil }
        return Selection(anchor: anchor, head: head, granularity: selection.granularity)
    }
}

extension Grid {
    /// The number the first line after this grid's will have: every line it
    /// has had (a resize or a reset numbers the new grid's lines from here).
    var retiredLineCount: Int { evictedCount + historyCount + rows }
}

extension TerminalState {
    /// After a reset (`Terminal.reset()` builds a new state): every line of
    /// `previous` is gone, the new ones numbered after them.
    mutating func continueLineNumbers(from previous: TerminalState) {
        let (primary, alternate) =
            previous.isAlternateScreen ? (previous.inactive, previous.active) : (previous.active, previous.inactive)
        // A new state shows the primary screen.
        active.evictedCount = primary.retiredLineCount
        inactive.evictedCount = alternate.retiredLineCount
    }
}

extension Terminal {
    /// Lines that have left the primary screen's scrollback for good since
    /// the terminal started: dropped from a full scrollback for newer ones,
    /// cleared (ED 3), or retired by a reset (RIS, ``reset()``) or a
    /// ``resize(columns:rows:)``, which renumber every line (see
    /// ``StablePoint``). With ``scrollbackCount`` it tells how many lines
    /// entered the scrollback between two moments, which the scrollback
    /// count alone does not once it is full.
    public var evictedLineCount: Int { state.primary.evictedCount }

    /// How lines are numbered now.
    var lineNumbers: LineNumbers {
        LineNumbers(
            primaryEvicted: state.primary.evictedCount, firstLine: state.active.evictedCount,
            isAlternateScreen: isAlternateScreen, bufferLineCount: bufferLineCount, gridEpoch: state.gridEpoch)
    }

    /// The stable form of `selection`, which keeps its text while output
    /// scrolls on (as ``Snapshot/stableSelection(_:)`` makes it; a snapshot
    /// also turns stable points and selections back into buffer ones).
    public func stableSelection(_ selection: Selection) -> StableSelection {
        lineNumbers.stableSelection(selection, covering: selectedRange(selection))
    }

    /// The text of a stable selection (as ``text(of:)-(Selection)``), or nil
    /// when any of its lines is gone: never the text of other lines.
    public func text(of selection: StableSelection) -> String? {
        lineNumbers.selection(selection).map { text(of: $0) }
    }
}
