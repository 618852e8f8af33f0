// Resizing, with reflow of the primary screen (soft-wrapped lines re-wrap at
// the new width) and none of the alternate screen, as xterm, kitty and
// alacritty behave.

extension TerminalState {
    /// One logical line: the characters of rows joined by soft wraps.
    private struct LogicalLine {
        var characters: [(cell: Cell, width: Int)] = []
        var mark: SemanticMark?
    }

    /// Resizes both screens. The primary screen reflows; lines leave for the
    /// scrollback when rows shrink and come back when rows grow; the cursor
    /// stays on the character it was on.
    /// - Complexity: O(cells in the scrollback and on the screen), linear.
    mutating func resize(columns newColumns: Int, rows newRows: Int) {
        guard newColumns != columns || newRows != rows else { return }
        let wasAlternate = isAlternateScreen
        if wasAlternate { swap(&active, &inactive) }  // primary is now `active`
        var primaryCursor = wasAlternate ? (savedPrimary?.cursor ?? Cursor()) : cursor
        let newPrimary = reflowPrimary(columns: newColumns, rows: newRows, cursor: &primaryCursor)
        var alternateCursor = wasAlternate ? cursor : Cursor()
        let newAlternate = resizeAlternate(columns: newColumns, rows: newRows, cursor: &alternateCursor)
        active = wasAlternate ? newAlternate : newPrimary
        inactive = wasAlternate ? newPrimary : newAlternate
        columns = newColumns
        rows = newRows
        if wasAlternate {
            cursor = alternateCursor
            savedPrimary?.cursor = primaryCursor
        } else {
            cursor = primaryCursor
        }
        if var saved = savedAlternate {
            saved.cursor.row = min(saved.cursor.row, rows - 1)
            saved.cursor.col = min(saved.cursor.col, columns - 1)
            savedAlternate = saved
        }
        // Margins go back to the full screen (xterm); tab stops keep their
        // columns, with the default every 8 in new columns.
        scrollTop = 0
        scrollBottom = rows - 1
        marginLeft = 0
        marginRight = columns - 1
        let oldStops = tabStops
        tabStops = Self.defaultTabStops(columns: columns)
        for col in 0..<min(oldStops.count, columns) { tabStops[col] = oldStops[col] }
    }

    /// Builds the reflowed primary grid; `cursor` comes in and goes out.
    private func reflowPrimary(columns newColumns: Int, rows newRows: Int, cursor: inout Cursor) -> Grid {
        let old = active
        // 1. Logical lines from the scrollback and the screen, up to the last
        //    row with content or the cursor, whichever is lower.
        var lastRow = cursor.row
        for row in stride(from: rows - 1, to: cursor.row, by: -1) where !isBlankRow(old.readRow(row)) {
            lastRow = row
            break
        }
        var lines: [LogicalLine] = []
        var current = LogicalLine()
        var cursorLine = 0
        var cursorOffset = 0  // in columns from the start of the logical line
        var screenTopLine = 0  // where the old screen's first row starts
        var screenTopOffset = 0
        var columnsBefore = 0
        let totalRows = old.historyCount + lastRow + 1
        for index in 0..<totalRows {
            let isScreen = index >= old.historyCount
            let cells = isScreen ? old.readRow(index - old.historyCount) : UnsafePointer(old.historyRow(index))
            let flags = isScreen ? old.flags(index - old.historyCount) : old.historyFlags(index)
            let mark = isScreen ? old.mark(index - old.historyCount) : old.historyMark(index)
            if index == old.historyCount {
                screenTopLine = lines.count
                screenTopOffset = columnsBefore
            }
            if current.characters.isEmpty && current.mark == nil { current.mark = mark }
            let wrapped = flags.contains(.wrapped)
            // A soft-wrapped row keeps all its cells; a hard end drops
            // trailing default blanks.
            var end = columns
            if !wrapped {
                while end > 0 && cells[end - 1] == Cell.empty { end -= 1 }
            }
            if isScreen && index - old.historyCount == cursor.row {
                // A pending wrap means "after the last column".
                cursorLine = lines.count
                cursorOffset = columnsBefore + cursor.col + (cursor.pendingWrap ? 1 : 0)
                end = max(end, min(columns, cursor.col))
            }
            for col in 0..<end {
                switch cells[col].width {
                case .wideTail, .wrapSpacer: continue
                case .wide: current.characters.append((cells[col], 2))
                case .narrow: current.characters.append((cells[col], 1))
                }
            }
            columnsBefore += wrapped ? columns - trailingSpacer(cells) : end
            if !wrapped {
                lines.append(current)
                current = LogicalLine()
                columnsBefore = 0
            }
        }
        if !current.characters.isEmpty || current.mark != nil { lines.append(current) }

        // 2. Re-wrap every logical line at the new width.
        var physical: [(cells: [Cell], wrapped: Bool, mark: SemanticMark?)] = []
        var newCursorRow = 0
        var newCursorCol = 0
        var newPendingWrap = false
        var newScreenTop = 0
        for (lineIndex, line) in lines.enumerated() {
            var row: [Cell] = []
            row.reserveCapacity(newColumns)
            var rowsOfLine = 0
            var column = 0  // columns consumed in the logical line
            var placedCursor = lineIndex != cursorLine
            var placedTop = lineIndex != screenTopLine
            if !placedTop && screenTopOffset == 0 {
                newScreenTop = physical.count
                placedTop = true
            }
            func flush(wrapped: Bool) {
                row += [Cell](repeating: .empty, count: newColumns - row.count)
                physical.append((row, wrapped, rowsOfLine == 0 ? line.mark : nil))
                rowsOfLine += 1
                row.removeAll(keepingCapacity: true)
            }
            for (cell, width) in line.characters {
                if !placedTop && column >= screenTopOffset {
                    newScreenTop = physical.count + (row.count + width > newColumns ? 1 : 0)
                    placedTop = true
                }
                if !placedCursor && column >= cursorOffset {
                    newCursorRow = physical.count
                    newCursorCol = row.count
                    placedCursor = true
                }
                if row.count + width > newColumns {
                    if width == 2 && row.count == newColumns - 1 {
                        row.append(Cell(scalar: 0, width: .wrapSpacer, styleID: 0))
                    }
                    flush(wrapped: true)
                    if placedCursor && newCursorRow == physical.count - 1 && newCursorCol >= newColumns - 1 {
                        // The cursor was on the character that moved to the next row.
                        newCursorRow = physical.count
                        newCursorCol = 0
                    }
                }
                if width == 2 && newColumns < 2 { continue }  // cannot be shown
                row.append(cell)
                if width == 2 {
                    var tail = Cell(scalar: 0, width: .wideTail, styleID: cell.styleID)
                    tail.linkID = cell.linkID
                    row.append(tail)
                }
                column += width
            }
            if !placedCursor {
                // The cursor is past the text: it stays on the line's last
                // row, its distance from the text kept where it fits; exactly
                // one past the edge is a pending wrap.
                let col = row.count + (cursorOffset - column)
                newCursorRow = physical.count
                newCursorCol = min(col, newColumns - 1)
                newPendingWrap = col == newColumns
            }
            flush(wrapped: false)
        }
        if physical.isEmpty { physical.append(([Cell](repeating: .empty, count: newColumns), false, nil)) }

        // 3. The screen starts where the old one did (libvterm's choice:
        //    widening leaves blank rows at the bottom rather than pulling
        //    history down), moved up by the rows gained (lines come
        //    back from the scrollback) and down as far as needed to keep the
        //    last content row and the cursor on screen (lines go into the
        //    scrollback). The rest is scrollback, trimmed to the limit.
        let bottom = max(physical.count, newCursorRow + 1)
        var screenStart = newScreenTop
        if newRows > rows { screenStart -= min(newRows - rows, screenStart) }
        screenStart = max(screenStart, bottom - newRows)
        screenStart = max(0, min(screenStart, newCursorRow))
        let historyCount = min(screenStart, old.scrollbackLimit)
        let historyStart = screenStart - historyCount
        var grid = Grid(columns: newColumns, rows: newRows, scrollbackLimit: old.scrollbackLimit)
        grid.setHistoryCount(historyCount)
        for index in 0..<historyCount {
            let source = physical[historyStart + index]
            source.cells.withUnsafeBufferPointer {
                grid.historyRow(index).update(from: $0.baseAddress!, count: newColumns)
            }
            grid.setHistoryFlags(index, source.wrapped ? .wrapped : [])
            grid.setHistoryMark(index, source.mark)
        }
        for row in 0..<newRows where screenStart + row < physical.count {
            let source = physical[screenStart + row]
            source.cells.withUnsafeBufferPointer { grid.row(row).update(from: $0.baseAddress!, count: newColumns) }
            grid.setFlags(row, source.wrapped ? .wrapped : [])
            grid.setMark(row, source.mark)
        }
        cursor.row = min(max(0, newCursorRow - screenStart), newRows - 1)
        cursor.col = min(newCursorCol, newColumns - 1)
        cursor.pendingWrap = newPendingWrap
        return grid
    }

    /// The alternate screen keeps its rows as they are, cut or padded; when
    /// rows shrink below the cursor, the top rows go so the cursor stays.
    private func resizeAlternate(columns newColumns: Int, rows newRows: Int, cursor: inout Cursor) -> Grid {
        let old = inactive  // `resize` swapped the primary into `active`
        let grid = Grid(columns: newColumns, rows: newRows, scrollbackLimit: 0)
        let shift = max(0, cursor.row - (newRows - 1))
        let width = min(columns, newColumns)
        for row in 0..<newRows where row + shift < rows {
            let destination = grid.row(row)
            destination.update(from: old.readRow(row + shift), count: width)
            // A wide character cut at the new edge is blanked.
            if width < columns && destination[width - 1].width == .wide {
                destination[width - 1] = Cell.blank(styleID: destination[width - 1].styleID)
            }
        }
        cursor.row -= shift
        cursor.col = min(cursor.col, newColumns - 1)
        return grid
    }

    private func isBlankRow(_ cells: UnsafePointer<Cell>) -> Bool {
        for col in 0..<columns where cells[col] != Cell.empty { return false }
        return true
    }

    /// 1 when a soft-wrapped row ends with the spacer of a wide character
    /// that moved to the next row (that column holds no text).
    private func trailingSpacer(_ cells: UnsafePointer<Cell>) -> Int {
        cells[columns - 1].width == .wrapSpacer ? 1 : 0
    }
}
