/// A place in the whole buffer: line 0 is the oldest scrollback line, line
/// `scrollbackCount` the top screen row (the coordinate frame that survives
/// scrolling the viewport).
public struct BufferPoint: Hashable, Comparable, Sendable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public static func < (a: BufferPoint, b: BufferPoint) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// A span of the buffer, both ends included.
public struct BufferRange: Hashable, Sendable {
    public var start: BufferPoint
    public var end: BufferPoint
    public init(start: BufferPoint, end: BufferPoint) {
        self.start = start
        self.end = end
    }
}

/// What the user selected: from where the press was to where the pointer
/// is, by character, word (double click) or line (triple click).
public struct Selection: Hashable, Sendable {
    public enum Granularity: Sendable {
        case character, word, line
    }

    public var anchor: BufferPoint
    public var head: BufferPoint
    public var granularity: Granularity

    public init(anchor: BufferPoint, head: BufferPoint? = nil, granularity: Granularity = .character) {
        self.anchor = anchor
        self.head = head ?? anchor
        self.granularity = granularity
    }
}

extension Terminal {
    /// Lines in the whole buffer (scrollback and screen of the primary
    /// screen; only the screen while the alternate screen is shown).
    public var bufferLineCount: Int { (isAlternateScreen ? 0 : scrollbackCount) + rows }

    /// The cells and wrap flag of buffer line `index`.
    func bufferLine(_ index: Int) -> (cells: UnsafePointer<Cell>, wrapped: Bool, tables: PageTables) {
        let history = isAlternateScreen ? 0 : scrollbackCount
        if index < history {
            let primary = state.primary
            let line = ScrollbackLine(index)
            return (
                UnsafePointer(primary.historyRow(line)), primary.historyFlags(line).contains(.wrapped),
                primary.tables(ofHistoryLine: line)
            )
        }
        let row = ScreenRow(index - history)
        return (
            state.active.readRow(row), state.active.flags(row).contains(.wrapped), state.active.tables(ofScreenRow: row)
        )
    }

    /// The buffer line of screen row `row`.
    public func bufferLine(ofScreenRow row: Int) -> Int { (isAlternateScreen ? 0 : scrollbackCount) + row }

    /// The range a selection covers after expanding words and lines.
    /// - Complexity: O(length of the lines at its ends).
    public func range(of selection: Selection) -> BufferRange {
        var start = min(selection.anchor, selection.head)
        var end = max(selection.anchor, selection.head)
        start.line = max(0, min(start.line, bufferLineCount - 1))
        end.line = max(0, min(end.line, bufferLineCount - 1))
        start.column = max(0, min(start.column, columns - 1))
        end.column = max(0, min(end.column, columns - 1))
        switch selection.granularity {
        case .character:
            break
        case .word:
            start = wordBoundary(from: start, forward: false)
            end = wordBoundary(from: end, forward: true)
        case .line:
            // Whole logical lines: soft-wrapped rows belong together.
            while start.line > 0 && bufferLine(start.line - 1).wrapped { start.line -= 1 }
            while end.line < bufferLineCount - 1 && bufferLine(end.line).wrapped { end.line += 1 }
            start.column = 0
            end.column = columns - 1
        }
        return BufferRange(start: start, end: end)
    }

    /// The selected text: soft-wrapped rows joined, hard line ends as "\n",
    /// trailing blanks of each line trimmed, wide characters once.
    public func text(of selection: Selection) -> String { text(in: range(of: selection)) }

    /// The text of a buffer range, joined as ``text(of:)`` does.
    public func text(in range: BufferRange) -> String {
        var result = ""
        var pending = RowText(capacity: columns)
        for line in range.start.line...range.end.line {
            let (cells, wrapped, tables) = bufferLine(line)
            let first = line == range.start.line ? range.start.column : 0
            let last = line == range.end.line ? range.end.column : columns - 1
            var col = first
            while col <= last {
                appendText(of: cells[col], tables: tables, to: &pending)
                col += 1
            }
            if line < range.end.line && !wrapped {
                result += pending.droppingTrailingSpaces() + "\n"
                pending.removeAll()
            }
        }
        return result + pending.droppingTrailingSpaces()
    }

    /// Appends a cell's characters (see `RowText.append(_:cluster:)`);
    /// `tables` are those of its page.
    @inline(__always)
    func appendText(of cell: Cell, tables: PageTables, to text: inout RowText) {
        text.append(cell) { tables.clusters[$0] }
    }

    /// Characters that belong to a word for double-click selection: letters,
    /// digits and the punctuation of paths and URLs (as xterm's default
    /// character classes treat them, roughly).
    static func isWordCharacter(_ cell: Cell, clusters: ClusterTable) -> Bool {
        guard !cell.isBlank else { return false }
        let value = cell.isCluster ? clusters[cell.value][0] : cell.value
        guard let scalar = Unicode.Scalar(value) else { return false }
        if scalar.properties.isAlphabetic || scalar.properties.numericType != nil { return true }
        return "_-./~:@%+#?=&".unicodeScalars.contains(scalar)
    }

    /// Walks from `point` while cells are word characters, following soft wraps.
    func wordBoundary(from point: BufferPoint, forward: Bool) -> BufferPoint {
        var current = point
        func cell(at point: BufferPoint) -> (Cell, ClusterTable) {
            let line = bufferLine(point.line)
            var cell = line.cells[point.column]
            if cell.width == .wideTail && point.column > 0 { cell = line.cells[point.column - 1] }
            return (cell, line.tables.clusters)
        }
        func isWordCharacter(_ point: BufferPoint) -> Bool {
            let (cell, clusters) = cell(at: point)
            return Self.isWordCharacter(cell, clusters: clusters)
        }
        guard isWordCharacter(current) else { return current }
        while true {
            var next = current
            if forward {
                if next.column + 1 < columns {
                    next.column += 1
                } else if next.line + 1 < bufferLineCount && bufferLine(next.line).wrapped {
                    next = BufferPoint(line: next.line + 1, column: 0)
                } else {
                    return current
                }
            } else {
                if next.column > 0 {
                    next.column -= 1
                } else if next.line > 0 && bufferLine(next.line - 1).wrapped {
                    next = BufferPoint(line: next.line - 1, column: columns - 1)
                } else {
                    return current
                }
            }
            guard isWordCharacter(next) else { return current }
            current = next
        }
    }
}
