/// A place in the whole buffer: line 0 is the oldest scrollback line, line
/// `scrollbackCount` the top screen row (the coordinate frame that survives
/// scrolling the viewport).
///
/// Once the scrollback is full, every new line drops the oldest and line 0 is
/// another line: keep a position across output as a ``StablePoint``.
public struct BufferPoint: Hashable, Comparable, Sendable {
    /// The line: scrollback lines first (0 = the oldest), then the screen rows.
    public var line: Int
    /// The column, 0 = the leftmost.
    public var column: Int
    /// A point of the buffer.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    /// Earlier in reading order: by line, then by column.
    public static func < (a: BufferPoint, b: BufferPoint) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// A span of the buffer, both ends included.
public struct BufferRange: Hashable, Sendable {
    /// The first cell.
    public var start: BufferPoint
    /// The last cell (for a wide character, its right half).
    public var end: BufferPoint
    /// A range from `start` to `end`.
    public init(start: BufferPoint, end: BufferPoint) {
        self.start = start
        self.end = end
    }
}

/// What the user selected: from where the press was to where the pointer
/// is, by character, word (double click) or line (triple click).
public struct Selection: Hashable, Sendable {
    /// What a selection's ends expand to.
    public enum Granularity: Sendable {
        /// The cells between the ends (a drag).
        case character
        /// Whole words at both ends (a double click), across soft wraps.
        case word
        /// Whole logical lines (a triple click): soft-wrapped rows together.
        case line
    }

    /// Where the press was.
    public var anchor: BufferPoint
    /// Where the pointer is (the anchor when nil is given).
    public var head: BufferPoint
    /// By character, word or line.
    public var granularity: Granularity

    /// A selection from `anchor` to `head`, in either order.
    public init(anchor: BufferPoint, head: BufferPoint? = nil, granularity: Granularity = .character) {
        self.anchor = anchor
        self.head = head ?? anchor
        self.granularity = granularity
    }
}

extension Terminal: BufferLineSource {
    /// Lines in the whole buffer (scrollback and screen of the primary
    /// screen; only the screen while the alternate screen is shown).
    public var bufferLineCount: Int { (isAlternateScreen ? 0 : scrollbackCount) + rows }

    /// A line of one of the grids, read in place: valid until the next feed.
    struct GridLine: BufferLineCells {
        let cells: UnsafePointer<Cell>
        let isWrapped: Bool
        let tables: PageTables
        func cell(_ column: Int) -> Cell { cells[column] }
        func clusterScalars(_ id: UInt32) -> ClusterScalars { tables.clusters[id] }
    }

    /// The terminal holds every line of its buffer.
    var heldLineRanges: [Range<Int>] { [0..<bufferLineCount] }

    /// Buffer line `index`, nil outside the buffer.
    func heldLine(_ index: Int) -> GridLine? {
        guard (0..<bufferLineCount).contains(index) else { return nil }
        let history = isAlternateScreen ? 0 : scrollbackCount
        if index < history {
            let primary = state.primary
            let line = ScrollbackLine(index)
            return GridLine(
                cells: UnsafePointer(primary.historyRow(line)),
                isWrapped: primary.historyFlags(line).contains(.wrapped),
                tables: primary.tables(ofHistoryLine: line))
        }
        let row = ScreenRow(index - history)
        return GridLine(
            cells: state.active.readRow(row), isWrapped: state.active.flags(row).contains(.wrapped),
            tables: state.active.tables(ofScreenRow: row))
    }

    /// The buffer line of screen row `row`.
    public func bufferLine(ofScreenRow row: Int) -> Int { (isAlternateScreen ? 0 : scrollbackCount) + row }

    /// The range a selection covers after expanding words and lines, its
    /// ends clamped to the buffer.
    /// - Complexity: O(length of the lines at its ends).
    public func range(of selection: Selection) -> BufferRange { selectedRange(selection) }

    /// The selected text: soft-wrapped rows joined, hard line ends as "\n",
    /// trailing blanks of each line trimmed, wide characters once.
    /// ``Snapshot/text(of:)-(Selection)`` gives the same from a snapshot.
    public func text(of selection: Selection) -> String { text(of: selectedRange(selection)) }

    /// The text of a buffer range, joined as ``text(of:)-(Selection)`` does;
    /// its ends are clamped to the buffer.
    public func text(in range: BufferRange) -> String { text(of: range) }

    /// Appends a cell's characters (see `RowText.append(_:cluster:)`);
    /// `tables` are those of its page.
    @inline(__always)
    func appendText(of cell: Cell, tables: PageTables, to text: inout RowText) {
        text.append(cell) { tables.clusters[$0] }
    }
}
