// Resizing, with reflow of the primary screen (soft-wrapped lines re-wrap at
// the new width) and none of the alternate screen, as kitty, alacritty,
// Ghostty and libvterm with reflow enabled behave (xterm itself cuts rows
// instead; issue #3 asks for reflow). With `reflowsOnResize` off the
// primary screen's rows are cut or padded, as libvterm does without
// `vterm_screen_enable_reflow`.

extension TerminalState {
    /// One logical line: the characters of rows joined by soft wraps, each
    /// with the old page its ids are from.
    private struct LogicalLine {
        var characters: [(cell: Cell, width: Int, page: Int32)] = []
        var mark: SemanticMark?
    }

    /// A row of the resized primary screen or its scrollback, before it is
    /// placed into the new grid: its cells, and for each the page of the old
    /// grid whose ids it names (`place` interns them in the new pages).
    private typealias PhysicalRow = (cells: [Cell], pages: [Int32], flags: RowFlags, mark: SemanticMark?)

    /// Resizes both screens. The primary screen reflows; lines leave for the
    /// scrollback when rows shrink and come back when rows grow; the cursor
    /// stays on the character it was on.
    /// - Complexity: O(cells in the scrollback and on the screen), linear.
    mutating func resize(columns newColumns: Int, rows newRows: Int) {
        guard newColumns != columns || newRows != rows else { return }
        // REP's cluster is named by an id of the cursor's page in the grid
        // about to be replaced: held by its scalars, interned again after.
        let repeatedCluster = lastGraphic.flatMap { graphic in
            graphic.content & Cell.clusterFlag == 0
                ? nil
                : active.tables(ofScreenRow: ScreenRow(cursor.row)).clusters.scalars(graphic.content & Cell.valueMask)
                    .map {
                        (scalars: $0, width: graphic.width)
                    }
        }
        let wasAlternate = isAlternateScreen
        if wasAlternate { swap(&active, &inactive) }  // primary is now `active`
        // On the alternate screen the primary has no cursor of its own (modes
        // 47 and 1047 share one): its saved cursor, which 1049 restores on
        // the way back, is the position that reflow keeps on its character.
        // Clamped first: it may have been saved on a screen larger than this
        // one (a DECSC, then an earlier resize while on the alternate screen).
        var primaryCursor = (wasAlternate ? (savedPrimary?.cursor ?? Cursor()) : cursor).clamped(
            rows: rows, columns: columns)
        var newPrimary =
            reflowsOnResize
            ? reflowPrimary(columns: newColumns, rows: newRows, cursor: &primaryCursor)
            : cutPrimary(columns: newColumns, rows: newRows, cursor: &primaryCursor)
        var alternateCursor = (wasAlternate ? cursor : Cursor()).clamped(rows: rows, columns: columns)
        var newAlternate = resizeAlternate(columns: newColumns, rows: newRows, cursor: &alternateCursor)
        // Reflow re-wraps, joins and drops lines: every line is a new one,
        // numbered after all the old grid had (Navigation/LineNumbering.swift).
        newPrimary.evictedCount = active.retiredLineCount
        newAlternate.evictedCount = inactive.retiredLineCount
        active.addCompactions(to: &counters)  // those of the grids replaced
        inactive.addCompactions(to: &counters)
        active = wasAlternate ? newAlternate : newPrimary
        inactive = wasAlternate ? newPrimary : newAlternate
        columns = newColumns
        rows = newRows
        // With autowrap off no cursor waits to wrap (DECAWM reset ends a
        // pending wrap, and no print makes one): a reflow that puts the
        // cursor one past the new edge leaves it in the last column.
        if !modes.autowrap {
            if wasAlternate { alternateCursor.pendingWrap = false } else { primaryCursor.pendingWrap = false }
        }
        if wasAlternate {
            cursor = alternateCursor
            savedPrimary?.cursor = primaryCursor
        } else {
            cursor = primaryCursor
            // A cursor saved on the primary screen (DECSC, CSI s, 1048) is a
            // screen position: clamped to the new screen, as DECRC would
            // clamp it, so that no later resize or restore starts outside
            // the grid.
            savedPrimary?.cursor.clampAfterResize(rows: rows, columns: columns)
        }
        savedAlternate?.cursor.clampAfterResize(rows: rows, columns: columns)
        // Margins go back to the full screen (xterm); tab stops keep their
        // columns, with the default every 8 in new columns.
        scrollTop = 0
        scrollBottom = rows - 1
        marginLeft = 0
        marginRight = columns - 1
        let oldStops = tabStops
        tabStops = Self.defaultTabStops(columns: columns)
        for col in 0..<min(oldStops.count, columns) { tabStops[col] = oldStops[col] }
        // Both grids are new: rows copied from the old ones (snapshot caches,
        // keyed by slot and change stamp) no longer describe anything, and
        // the pen's ids were those of an old page.
        gridEpoch &+= 1
        unbindPen()
        clusterCacheCompactions = [-1, -1]  // new grids: the cache's ids name nothing
        if lastGraphic.map({ $0.content & Cell.clusterFlag != 0 }) ?? false {
            lastGraphic = repeatedCluster.flatMap { cluster in
                clusterID(for: cluster.scalars, row: cursor.row).map { (Cell.clusterFlag | $0, cluster.width) }
            }
        }
        assert(invariantViolations().isEmpty, "after a resize: \(invariantViolations())")
    }

    /// Builds the reflowed primary grid; `cursor` comes in and goes out.
    private func reflowPrimary(columns newColumns: Int, rows newRows: Int, cursor: inout Cursor) -> Grid {
        let old = active
        // 1. Logical lines from the scrollback and the screen, up to the last
        //    row with content or the cursor, whichever is lower.
        let lastRow = lastKeptRow(cursor: cursor)
        var lines: [LogicalLine] = []
        var current = LogicalLine()
        var cursorLine = 0
        var cursorOffset = 0  // in columns from the start of the logical line
        var screenTopLine = 0  // where the old screen's first row starts
        var screenTopOffset = 0
        var columnsBefore = 0
        let totalRows = old.historyCount + lastRow + 1
        for index in 0..<totalRows {
            let (cells, flags, mark, page) = old.bufferLine(index)
            let sourcePage = Int32(page)
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
                while end > 0 && cells[end - 1].isEmptyOrWrittenBlank { end -= 1 }
            }
            if index == old.historyCount + cursor.row {
                // A pending wrap means "after the last column".
                cursorLine = lines.count
                cursorOffset = columnsBefore + cursor.col + (cursor.pendingWrap ? 1 : 0)
                end = max(end, min(columns, cursor.col))
            }
            for col in 0..<end {
                switch cells[col].width {
                case .wideTail, .wrapSpacer: continue
                case .wide: current.characters.append((cells[col], 2, sourcePage))
                case .narrow: current.characters.append((cells[col], 1, sourcePage))
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
        var physical: [PhysicalRow] = []
        var newCursorRow = 0
        var newCursorCol = 0
        var newPendingWrap = false
        var newScreenTop = 0
        for (lineIndex, line) in lines.enumerated() {
            var row: [Cell] = []
            row.reserveCapacity(newColumns)
            var rowPages: [Int32] = []
            rowPages.reserveCapacity(newColumns)
            var rowsOfLine = 0
            var column = 0  // columns consumed in the logical line
            var placedCursor = lineIndex != cursorLine
            var placedTop = lineIndex != screenTopLine
            if !placedTop && screenTopOffset == 0 {
                newScreenTop = physical.count
                placedTop = true
            }
            func flush(wrapped: Bool) {
                rowPages += [Int32](repeating: 0, count: newColumns - row.count)
                row += [Cell](repeating: .empty, count: newColumns - row.count)
                physical.append((row, rowPages, wrapped ? .wrapped : [], rowsOfLine == 0 ? line.mark : nil))
                rowsOfLine += 1
                row.removeAll(keepingCapacity: true)
                rowPages.removeAll(keepingCapacity: true)
            }
            for (cell, width, page) in line.characters {
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
                        row.append(Cell(scalar: 0, width: .wrapSpacer, style: .default))
                        rowPages.append(0)
                    }
                    flush(wrapped: true)
                    if placedCursor && newCursorRow == physical.count - 1 && newCursorCol >= newColumns - 1 {
                        // The cursor was on the character that moved to the next row.
                        newCursorRow = physical.count
                        newCursorCol = 0
                    }
                }
                if newColumns < 2 && !fitsOneColumn(cell, width: width, tables: old.pages[Int(page)]) {
                    // A character that cannot be shown goes, as printing
                    // drops it; a blank keeps its place, plain.
                    guard cell.isBlank else { continue }
                    row.append(.empty)
                    rowPages.append(0)
                    column += width
                    continue
                }
                row.append(cell)
                rowPages.append(page)
                if width == 2 {
                    var tail = Cell(scalar: 0, width: .wideTail, style: cell.styleKey)
                    tail.linkID = cell.linkID
                    if cell.isProtected { tail.content |= Cell.protectedFlag }
                    row.append(tail)
                    rowPages.append(page)
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
        if physical.isEmpty {
            physical.append(
                ([Cell](repeating: .empty, count: newColumns), [Int32](repeating: 0, count: newColumns), [], nil))
        }
        // 3. Place the rows on the new screen and in the scrollback.
        cursor = Cursor(row: newCursorRow, col: newCursorCol, pendingWrap: newPendingWrap)
        return place(physical, screenTop: newScreenTop, columns: newColumns, rows: newRows, cursor: &cursor)
    }

    /// Builds the primary grid without reflow: each row (scrollback lines
    /// too) stays one row, cut at the new width or padded with blanks, as
    /// libvterm's `resize_buffer` does with reflow off. The cursor keeps its
    /// row; its column is clamped, except that a pending wrap on a widened
    /// screen becomes the column after the last character (libvterm's
    /// 16state_resize "Resize grow doesn't cancel phantom", and what the
    /// reflowing path does).
    private func cutPrimary(columns newColumns: Int, rows newRows: Int, cursor: inout Cursor) -> Grid {
        let old = active
        let lastRow = lastKeptRow(cursor: cursor)
        let width = min(columns, newColumns)
        var physical: [PhysicalRow] = []
        physical.reserveCapacity(old.historyCount + lastRow + 1)
        for index in 0..<(old.historyCount + lastRow + 1) {
            let (cells, storedFlags, mark, page) = old.bufferLine(index)
            var flags = storedFlags
            var row = [Cell](repeating: .empty, count: newColumns)
            for col in 0..<width { row[col] = cells[col] }
            let tables = old.pages[page]
            if newColumns == 1 && !fitsOneColumn(row[0], width: row[0].width == .wide ? 2 : 1, tables: tables) {
                row[0] = .empty
            } else if width < columns && row[width - 1].width == .wide {
                // A wide character cut at the new edge is blanked.
                row[width - 1] = Cell.blank(style: row[width - 1].styleKey)
            } else if newColumns > columns && row[columns - 1].width == .wrapSpacer {
                // The spacer kept the place of a wide character that wrapped;
                // the column is no longer at the edge.
                row[columns - 1] = .empty
            }
            if newColumns != columns {
                // The row no longer ends where it continued on the next row:
                // joining the two would lose or invent text.
                flags.remove(.wrapped)
            }
            physical.append((row, [Int32](repeating: Int32(page), count: newColumns), flags, mark))
        }
        cursor.keepColumnAfterCut(columns: newColumns)
        cursor.row += old.historyCount
        return place(physical, screenTop: old.historyCount, columns: newColumns, rows: newRows, cursor: &cursor)
    }

    /// Builds the new primary grid from its rows, scrollback first.
    /// `screenTop` is the index in `physical` of the old screen's top row;
    /// `cursor` comes in with its row as an index in `physical` and goes out
    /// on the new screen.
    private func place(
        _ physical: [PhysicalRow], screenTop newScreenTop: Int, columns newColumns: Int, rows newRows: Int,
        cursor: inout Cursor
    ) -> Grid {
        let old = active
        let newCursorRow = cursor.row

        // The screen starts where the old one did (libvterm's choice:
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
        var grid = Grid(
            columns: newColumns, rows: newRows, scrollbackLimit: old.scrollbackLimit, rowsPerPage: rowsPerPage)
        grid.setHistoryCount(historyCount)
        for index in 0..<historyCount {
            let source = physical[historyStart + index]
            let line = ScrollbackLine(index)
            let page = grid.page(ofHistoryLine: line)
            Self.copy(source, from: old, into: &grid, at: grid.historyRow(line), page: page)
            grid.setHistoryFlags(line, source.flags)
            grid.setHistoryMark(line, source.mark)
        }
        for row in 0..<newRows where screenStart + row < physical.count {
            let source = physical[screenStart + row]
            let page = grid.page(ofScreenRow: ScreenRow(row))
            Self.copy(source, from: old, into: &grid, at: grid.row(ScreenRow(row)), page: page)
            grid.setFlags(ScreenRow(row), source.flags)
            grid.setMark(ScreenRow(row), source.mark)
        }
        // Rows below the screen's last one go (as in xterm, which drops the
        // lines below the cursor); a row that continued on one of them now
        // ends the line, or a later reflow would join it to other text.
        let lastShown = screenStart + newRows - 1
        if lastShown + 1 < physical.count && physical[lastShown].flags.contains(.wrapped) {
            var flags = physical[lastShown].flags
            flags.remove(.wrapped)
            grid.setFlags(ScreenRow(newRows - 1), flags)
            // A spacer kept the place of a wide character that went on the
            // next row: with no next row, the column is a plain blank.
            let cells = grid.row(ScreenRow(newRows - 1))
            if cells[newColumns - 1].width == .wrapSpacer { cells[newColumns - 1] = .empty }
        }
        cursor.row = min(max(0, newCursorRow - screenStart), newRows - 1)
        cursor.col = min(cursor.col, newColumns - 1)
        return grid
    }

    /// Stores `source`'s cells, whose ids are those of `old`'s pages, at
    /// `destination` in page `page` of `grid`: cells naming no table entry
    /// as they are, the others interned there.
    private static func copy(
        _ source: PhysicalRow, from old: Grid, into grid: inout Grid, at destination: UnsafeMutablePointer<Cell>,
        page: Int
    ) {
        for (col, cell) in source.cells.enumerated() {
            destination[col] =
                PageTables.namesEntries(cell)
                ? grid.translated(cell, from: old.pages[Int(source.pages[col])], sourcePage: -1, toPage: page) : cell
        }
    }

    /// The last primary row a resize keeps: the last one with content, or the
    /// cursor's row when that is lower. Blank rows below go first when rows
    /// shrink.
    private func lastKeptRow(cursor: Cursor) -> Int {
        for row in stride(from: rows - 1, to: cursor.row, by: -1) where !isBlankRow(active.readRow(ScreenRow(row))) {
            return row
        }
        return cursor.row
    }

    /// The alternate screen keeps its rows as they are, cut or padded; when
    /// rows shrink below the cursor, the top rows go so the cursor stays.
    private func resizeAlternate(columns newColumns: Int, rows newRows: Int, cursor: inout Cursor) -> Grid {
        let old = inactive  // `resize` swapped the primary into `active`
        var grid = Grid(columns: newColumns, rows: newRows, scrollbackLimit: 0, rowsPerPage: rowsPerPage)
        let shift = max(0, cursor.row - (newRows - 1))
        let width = min(columns, newColumns)
        for row in 0..<newRows where row + shift < rows {
            let sourcePage = old.page(ofScreenRow: ScreenRow(row + shift))
            let tables = old.pages[sourcePage]
            let destination = grid.row(ScreenRow(row))
            let source = old.readRow(ScreenRow(row + shift))
            let page = grid.page(ofScreenRow: ScreenRow(row))
            for col in 0..<width {
                destination[col] =
                    PageTables.namesEntries(source[col])
                    ? grid.translated(source[col], from: tables, sourcePage: -1, toPage: page) : source[col]
            }
            if newColumns == 1
                && !fitsOneColumn(
                    destination[0], width: destination[0].width == .wide ? 2 : 1, tables: grid.pages[page])
            {
                destination[0] = .empty
            } else if width < columns && destination[width - 1].width == .wide {
                // A wide character cut at the new edge is blanked.
                destination[width - 1] = Cell.blank(style: destination[width - 1].styleKey)
            }
        }
        cursor.row -= shift
        cursor.keepColumnAfterCut(columns: newColumns)
        return grid
    }

    private func isBlankRow(_ cells: UnsafePointer<Cell>) -> Bool {
        for col in 0..<columns where !cells[col].isEmptyOrWrittenBlank { return false }
        return true
    }

    /// 1 when a soft-wrapped row ends with the spacer of a wide character
    /// that moved to the next row (that column holds no text).
    private func trailingSpacer(_ cells: UnsafePointer<Cell>) -> Int {
        cells[columns - 1].width == .wrapSpacer ? 1 : 0
    }
}

extension TerminalState {
    /// Whether a cell (`width` columns wide) can stay on a screen one column
    /// wide: not a wide character, nor a cluster narrowed by VS15 whose
    /// first scalar is wide, nor a blank with more than a background (the
    /// half of a wide character overwritten). No print or erase makes those
    /// there (printing drops a wide base before its selector comes), so a
    /// resize into one column leaves a plain blank instead: no screen holds
    /// a cell that nothing written into it could make.
    /// `tables` are those of the cell's page.
    func fitsOneColumn(_ cell: Cell, width: Int, tables: PageTables) -> Bool {
        guard width == 1 else { return false }
        if cell.isBlank {
            let style = tables.style(of: cell)
            return style == Style(background: style.background)
        }
        guard cell.isCluster, let first = tables.clusters[cell.value].first else { return true }
        return widths.width(of: first) < 2
    }
}

extension Cursor {
    /// The column a cursor keeps when its rows are cut or padded to
    /// `columns`, both screens alike: a pending wrap means "after the last
    /// column", so on a wider screen the cursor goes to that column with no
    /// wrap pending (a wrap pending left of the last column is a state no
    /// print makes); on a narrower one it stops in the last column.
    mutating func keepColumnAfterCut(columns: Int) {
        let offset = col + (pendingWrap ? 1 : 0)
        if pendingWrap && offset < columns {
            col = offset
            pendingWrap = false
        } else if col >= columns {
            col = columns - 1
            pendingWrap = false
        }
    }
}
