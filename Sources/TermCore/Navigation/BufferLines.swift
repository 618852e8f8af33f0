// Selection and search, written once over a source of buffer lines: the
// terminal's grids (`Terminal`) or the rows a snapshot copied (`Snapshot`),
// so that a front end gets the same answers off the lock as under it
// (`SnapshotSelectionTests` compares them on random sessions).

/// One line of a buffer as selection and search read it.
protocol BufferLineCells {
    /// True when the line continues on the next one (soft wrap).
    var isWrapped: Bool { get }
    /// The cell at `column` (in 0..<columns).
    func cell(_ column: Int) -> Cell
    /// The scalars of the cluster `id` names in this line's page.
    func clusterScalars(_ id: UInt32) -> ClusterScalars
}

/// The lines of a buffer (0 = the oldest scrollback line), of which the
/// source may hold only some: a snapshot holds its screen and the scrollback
/// lines it was taken with. A line not held reads as a blank line that does
/// not wrap, so that no walk leaves what is held, and search skips it.
protocol BufferLineSource {
    associatedtype Line: BufferLineCells
    /// Columns of every line.
    var columns: Int { get }
    /// Lines in the buffer.
    var bufferLineCount: Int { get }
    /// The runs of lines held, oldest first, within 0..<bufferLineCount.
    var heldLineRanges: [Range<Int>] { get }
    /// Line `index`, or nil when it is not held (or does not exist).
    func heldLine(_ index: Int) -> Line?
}

extension BufferLineSource {
    /// The cell at `point`, the empty cell where no line is held; the head
    /// of a wide character for its tail.
    func cell(at point: BufferPoint) -> (cell: Cell, line: Line?) {
        guard let line = heldLine(point.line), (0..<columns).contains(point.column) else { return (.empty, nil) }
        var cell = line.cell(point.column)
        if cell.width == .wideTail && point.column > 0 { cell = line.cell(point.column - 1) }
        return (cell, line)
    }

    func isWrapped(_ index: Int) -> Bool { heldLine(index)?.isWrapped ?? false }

    /// `point` moved into the buffer (line and column clamped).
    func clamped(_ point: BufferPoint) -> BufferPoint {
        BufferPoint(
            line: max(0, min(point.line, bufferLineCount - 1)), column: max(0, min(point.column, columns - 1)))
    }

    /// The range `selection` covers once words and lines are expanded.
    func selectedRange(_ selection: Selection) -> BufferRange {
        var start = clamped(min(selection.anchor, selection.head))
        var end = clamped(max(selection.anchor, selection.head))
        switch selection.granularity {
        case .character:
            break
        case .word:
            start = wordBoundary(from: start, forward: false)
            end = wordBoundary(from: end, forward: true)
        case .line:
            // Whole logical lines: soft-wrapped rows belong together.
            while start.line > 0 && isWrapped(start.line - 1) { start.line -= 1 }
            while end.line < bufferLineCount - 1 && isWrapped(end.line) { end.line += 1 }
            start.column = 0
            end.column = columns - 1
        }
        return BufferRange(start: start, end: end)
    }

    /// The text of `range` (ends clamped to the buffer, taken in order):
    /// soft-wrapped rows joined, hard line ends as "\n", trailing blanks of
    /// each line trimmed, wide characters once.
    func text(of range: BufferRange) -> String {
        guard bufferLineCount > 0 else { return "" }
        let start = clamped(min(range.start, range.end))
        let end = clamped(max(range.start, range.end))
        var result = ""
        var pending = RowText(capacity: columns)
        for index in start.line...end.line {
            let line = heldLine(index)
            if let line {
                let first = index == start.line ? start.column : 0
                let last = index == end.line ? end.column : columns - 1
                for column in first...last { pending.append(line.cell(column)) { line.clusterScalars($0) } }
            }
            if index < end.line && !(line?.isWrapped ?? false) {
                result += pending.droppingTrailingSpaces() + "\n"
                pending.removeAll()
            }
        }
        return result + pending.droppingTrailingSpaces()
    }

    /// Characters that belong to a word for double-click selection: letters,
    /// digits and the punctuation of paths and URLs (as xterm's default
    /// character classes treat them, roughly).
    func isWordCharacter(_ point: BufferPoint) -> Bool {
        let (cell, line) = cell(at: point)
        guard let line, !cell.isBlank else { return false }
        let value = cell.isCluster ? line.clusterScalars(cell.value).first ?? 0 : cell.value
        guard let scalar = Unicode.Scalar(value) else { return false }
        if scalar.properties.isAlphabetic || scalar.properties.numericType != nil { return true }
        return "_-./~:@%+#?=&".unicodeScalars.contains(scalar)
    }

    /// Walks from `point` while cells are word characters, following soft wraps.
    func wordBoundary(from point: BufferPoint, forward: Bool) -> BufferPoint {
        var current = point
        guard isWordCharacter(current) else { return current }
        while true {
            var next = current
            if forward {
                if next.column + 1 < columns {
                    next.column += 1
                } else if next.line + 1 < bufferLineCount && isWrapped(next.line) {
                    next = BufferPoint(line: next.line + 1, column: 0)
                } else {
                    return current
                }
            } else {
                if next.column > 0 {
                    next.column -= 1
                } else if next.line > 0 && isWrapped(next.line - 1) {
                    next = BufferPoint(line: next.line - 1, column: columns - 1)
                } else {
                    return current
                }
            }
            guard isWordCharacter(next) else { return current }
            current = next
        }
    }

    /// Every occurrence of `needle` in the lines held, oldest first, at most
    /// `limit`. A logical line (soft-wrapped rows) is searched as one string;
    /// matches never cross a hard line end nor a line not held.
    func matches(of needle: String, caseSensitive: Bool, limit: Int) -> [BufferRange] {
        let pattern = Array((caseSensitive ? needle : needle.lowercased()).unicodeScalars)
        guard !pattern.isEmpty else { return [] }
        var matches: [BufferRange] = []
        for held in heldLineRanges {
            var index = held.lowerBound
            while index < held.upperBound && matches.count < limit {
                // Gather one logical line: characters with the cell each starts at.
                var characters: [(scalars: [Unicode.Scalar], at: BufferPoint)] = []
                var current = index
                while let line = heldLine(current) {
                    for column in 0..<columns where line.cell(column).width != .wideTail {
                        var cellText = RowText(capacity: 4)
                        cellText.append(line.cell(column)) { line.clusterScalars($0) }
                        var text = cellText.string
                        if !caseSensitive { text = text.lowercased() }
                        characters.append((Array(text.unicodeScalars), BufferPoint(line: current, column: column)))
                    }
                    if !line.isWrapped || current + 1 >= held.upperBound { break }
                    current += 1
                }
                // A flat scalar array with, for each scalar, the character it belongs to.
                var flat: [Unicode.Scalar] = []
                var owner: [Int] = []
                for (position, character) in characters.enumerated() {
                    flat += character.scalars
                    owner += [Int](repeating: position, count: character.scalars.count)
                }
                var start = 0
                while start + pattern.count <= flat.count && matches.count < limit {
                    if flat[start] == pattern[0] && flat[start..<(start + pattern.count)].elementsEqual(pattern) {
                        let first = characters[owner[start]].at
                        var end = characters[owner[start + pattern.count - 1]].at
                        // A wide character's match covers both its cells.
                        if cell(at: end).cell.width == .wide { end.column += 1 }
                        matches.append(BufferRange(start: first, end: end))
                        start += pattern.count
                    } else {
                        start += 1
                    }
                }
                index = current + 1
            }
        }
        return matches
    }
}
