/// An immutable picture of the terminal that any thread can read while the
/// terminal goes on: the visible screen with resolved styles, the cursor,
/// the modes a front end needs, the title and working directory, and the
/// scrollback lines that were asked for.
///
/// Snapshots share rows: a row nobody changed since the previous snapshot is
/// the same object in both, so taking one costs in proportion to the rows
/// that changed, and ``changedRows(since:)`` compares identities.
public struct Snapshot: Sendable {
    /// Screen size.
    public let columns: Int
    /// Screen height in rows (``columns`` is its width).
    public let rows: Int
    /// The cursor, in screen coordinates.
    public let cursor: CursorState
    /// Modes a front end needs: mouse reporting, bracketed paste, cursor keys
    /// and style, synchronized output in progress, reverse video…
    public let modes: TerminalModes
    /// Sanitized window title and icon name (OSC 0/1/2), or nil.
    public let title: String?
    /// The sanitized icon name (OSC 0/1), or nil; xterm shows it for an
    /// iconified window, most front ends ignore it.
    public let iconName: String?
    /// The working directory the shell reported (OSC 7), or nil.
    public let workingDirectory: String?
    /// True while the alternate screen is shown.
    public let isAlternateScreen: Bool
    /// The colours in force (the embedder's theme plus OSC 4/10/11/12 changes).
    public let palette: Palette
    /// Lines in the primary screen's scrollback when the snapshot was taken.
    public let scrollbackCount: Int
    /// The scrollback lines this snapshot holds (see ``Terminal/snapshot(scrollback:)``).
    public let scrollbackRange: Range<Int>
    /// ``Terminal/generation`` when the snapshot was taken: snapshots of
    /// the same generation show the same thing.
    public let generation: UInt64
    /// True when the snapshot was taken inside a synchronized update that
    /// had not timed out (``Terminal/isHoldingFrame``): a front end keeps
    /// showing the frame it drew before and draws again when the update
    /// ends, or after ``Terminal/frameHoldRemaining``.
    public let isHoldingFrame: Bool

    let screenRows: [SnapshotRow]
    let scrollbackRows: [SnapshotRow]
    /// How the terminal numbered its lines when the snapshot was taken
    /// (Navigation/Snapshot+Selection.swift).
    var lineNumbers = LineNumbers()

    /// Screen row `row` (0 = top); a blank line for a row outside the screen.
    public func line(_ row: Int) -> SnapshotLine {
        guard screenRows.indices.contains(row) else { return blankLine }
        return SnapshotLine(row: screenRows[row], columns: columns)
    }

    /// Scrollback line `index` (0 = oldest), if it lies in
    /// ``scrollbackRange``; a blank line for any other index (the snapshot
    /// holds only the lines it was taken with).
    public func scrollbackLine(_ index: Int) -> SnapshotLine {
        guard scrollbackRange.contains(index) else { return blankLine }
        return SnapshotLine(row: scrollbackRows[index - scrollbackRange.lowerBound], columns: columns)
    }

    /// A line of empty cells, what a row or line the snapshot does not hold
    /// reads as.
    var blankLine: SnapshotLine {
        let row = SnapshotRow(
            cells: [Cell](repeating: .empty, count: columns), isWrapped: false, size: .single, mark: nil,
            tables: SnapshotTables(PageTables()))
        return SnapshotLine(row: row, columns: columns)
    }

    /// Screen rows whose content differs from `older`'s (all of them when the
    /// size or screen changed).
    /// - Complexity: O(rows): rows are compared by identity.
    public func changedRows(since older: Snapshot) -> [Int] {
        guard older.columns == columns, older.rows == rows, older.isAlternateScreen == isAlternateScreen else {
            return Array(0..<rows)
        }
        return (0..<rows).filter { screenRows[$0] !== older.screenRows[$0] }
    }
}

/// One row's cells, shared between snapshots that saw it unchanged, with the
/// tables of its page as they were when it was copied (which go on naming
/// the same styles, links and clusters, whatever the page does after).
final class SnapshotRow: Sendable {
    let cells: [Cell]
    let isWrapped: Bool
    let size: LineSize
    let mark: SemanticMark?
    let tables: SnapshotTables

    init(cells: [Cell], isWrapped: Bool, size: LineSize, mark: SemanticMark?, tables: SnapshotTables) {
        self.cells = cells
        self.isWrapped = isWrapped
        self.size = size
        self.mark = mark
        self.tables = tables
    }
}

/// The side tables of a page as they were when rows of it were copied: the
/// arrays are shared with the page until it next changes them.
final class SnapshotTables: Sendable {
    let styles: [Style]
    let clusters: ClusterTable
    let links: HyperlinkTable

    init(_ tables: PageTables) {
        styles = tables.styles.styles
        clusters = tables.clusters
        links = tables.links
    }
}

/// A run of consecutive cells with the same style and link: what a front end
/// draws in one call.
public struct StyleRun: Sendable, Equatable {
    /// The first column of the run.
    public var column: Int
    /// Columns the run covers (wide characters count twice).
    public var width: Int
    /// The run's text: one entry per character, a blank as a space.
    public var text: String
    /// The style every cell of the run has; ``Snapshot/colors(of:)`` turns it
    /// into the colours to draw.
    public var style: Style
    /// The OSC 8 link every cell of the run belongs to, or nil.
    public var hyperlink: Hyperlink?
}

/// A row of a snapshot, resolved on demand.
public struct SnapshotLine: Sendable {
    let row: SnapshotRow
    let columns: Int
    var tables: SnapshotTables { row.tables }

    /// True when the row continues on the next one (soft wrap).
    public var isWrapped: Bool { row.isWrapped }
    /// The row's DEC size attribute.
    public var size: LineSize { row.size }
    /// The OSC 133 mark of the row, if any.
    public var semanticMark: SemanticMark? { row.mark }

    /// The cell at `column`.
    public func cell(_ column: Int) -> CellContent {
        let cell = row.cells[column]
        let tables = tables
        return CellContent(cell, style: cell.styleKey.style(in: tables.styles), hyperlink: tables.links[cell.linkID]) {
            tables.clusters[$0]
        }
    }

    /// The row's text: a blank cell as a space, a wide character once,
    /// trailing spaces trimmed.
    public var text: String {
        var text = RowText(capacity: columns)
        appendText(of: 0..<columns, to: &text)
        return text.droppingTrailingSpaces()
    }

    func appendText(of range: Range<Int>, to text: inout RowText) {
        for column in range {
            text.append(row.cells[column]) { tables.clusters[$0] }
        }
    }

    /// The row as runs of equal style and link, left to right, covering every
    /// column (default-styled blanks included, so a renderer can paint the
    /// background in the same pass).
    /// - Complexity: O(columns).
    public var runs: [StyleRun] {
        var runs: [StyleRun] = []
        var start = 0
        let cells = row.cells
        while start < columns {
            let styleKey = cells[start].styleKey
            let linkID = cells[start].linkID
            var end = start + 1
            while end < columns && cells[end].styleKey == styleKey && cells[end].linkID == linkID { end += 1 }
            var text = RowText(capacity: end - start)
            appendText(of: start..<end, to: &text)
            runs.append(
                StyleRun(
                    column: start, width: end - start, text: text.string, style: styleKey.style(in: tables.styles),
                    hyperlink: tables.links[linkID]))
            start = end
        }
        return runs
    }
}
