// Erasing, inserting and deleting cells and lines, scrolling, rectangles
// (ECMA-48 §8.3; xterm ctlseqs; the VT510 manual and DEC STD 070 for DECIC,
// DECDC, DECALN, DECSLRM and the rectangle operations). With DECLRMM the
// left and right margins bound every scroll and insert/delete, as in xterm.

extension TerminalState {
    /// The left margin in force (0 without DECLRMM).
    @inline(__always) var leftMargin: Int { modes.leftRightMargins ? marginLeft : 0 }
    /// The right margin in force (the last column without DECLRMM).
    @inline(__always) var rightMargin: Int { modes.leftRightMargins ? marginRight : columns - 1 }
    /// True when the cursor is between the left and right margins.
    @inline(__always) var cursorInHorizontalMargins: Bool { cursor.col >= leftMargin && cursor.col <= rightMargin }
    /// True when the cursor is inside the scroll region (both directions).
    var cursorInScrollRegion: Bool {
        cursor.row >= scrollTop && cursor.row <= scrollBottom && cursorInHorizontalMargins
    }

    // MARK: Scrolling

    /// Scrolls the scroll region up (LF at the bottom margin, SU). On the
    /// primary screen, a full-width region that starts at the top row feeds
    /// the scrollback, as in xterm (its scroll code saves lines when the top
    /// margin is the first row); other regions never do.
    mutating func scrollUp(_ count: Int) {
        scrollRectangleUp(top: scrollTop, bottom: scrollBottom, count: count, intoHistory: !isAlternateScreen)
    }

    mutating func scrollDown(_ count: Int) {
        scrollRectangleDown(top: scrollTop, bottom: scrollBottom, count: count)
    }

    /// Scrolls rows `top...bottom` between the margins up by `count`. Full
    /// width: ring rotation, no cells copied. Between margins: cells move.
    mutating func scrollRectangleUp(top: Int, bottom: Int, count: Int, intoHistory: Bool) {
        let left = leftMargin
        let right = rightMargin
        if left == 0 && right == columns - 1 {
            let fill = eraseFill  // taken first: see `lineFeed()`
            active.scrollUp(top: top, bottom: bottom, count: count, fill: fill, intoHistory: intoHistory)
            return
        }
        let count = min(count, bottom - top + 1)
        guard count > 0 else { return }
        let width = right - left + 1
        for row in top...bottom {
            if row + count <= bottom {
                copyCells(fromRow: row + count, toRow: row, column: left, count: width)
            } else {
                let blank = eraseCell(row: row)
                Grid.fill(active.row(ScreenRow(row)) + left, with: blank, count: width)
            }
            repairWideEdges(row: row, left: left, right: right)
        }
    }

    mutating func scrollRectangleDown(top: Int, bottom: Int, count: Int) {
        let left = leftMargin
        let right = rightMargin
        if left == 0 && right == columns - 1 {
            let fill = eraseFill  // taken first: see `lineFeed()`
            active.scrollDown(top: top, bottom: bottom, count: count, fill: fill)
            return
        }
        let count = min(count, bottom - top + 1)
        guard count > 0 else { return }
        let width = right - left + 1
        for row in stride(from: bottom, through: top, by: -1) {
            if row - count >= top {
                copyCells(fromRow: row - count, toRow: row, column: left, count: width)
            } else {
                let blank = eraseCell(row: row)
                Grid.fill(active.row(ScreenRow(row)) + left, with: blank, count: width)
            }
            repairWideEdges(row: row, left: left, right: right)
        }
    }

    /// Copies `count` cells from column `column` of active screen row
    /// `source` to the same columns of row `target`, their ids made those of
    /// the target row's page.
    mutating func copyCells(fromRow sourceRow: Int, toRow targetRow: Int, column: Int, count: Int) {
        let (source, target) = (ScreenRow(sourceRow), ScreenRow(targetRow))
        let sourcePage = active.page(ofScreenRow: source)
        let tables = active.pages[sourcePage]
        let page = active.page(ofScreenRow: target)
        active.copyCells(
            active.readRow(source) + column, tables: tables, sourcePage: sourcePage, to: active.row(target) + column,
            page: page, count: count)
    }

    /// After cells moved between columns `left` and `right`, a wide character
    /// cut by either edge is blanked, both halves.
    mutating func repairWideEdges(row rowIndex: Int, left: Int, right: Int) {
        let row = active.row(ScreenRow(rowIndex))
        if row[left].width == .wideTail {
            row[left] = Cell.blank(style: row[left].styleKey)
        }
        if left > 0 && row[left - 1].width == .wide {
            row[left - 1] = Cell.blank(style: row[left - 1].styleKey)
        }
        if row[right].width == .wide {
            row[right] = Cell.blank(style: row[right].styleKey)
        }
        if right + 1 < columns && row[right + 1].width == .wideTail {
            row[right + 1] = Cell.blank(style: row[right + 1].styleKey)
        }
    }

    // MARK: Erasing

    /// Blanks cells `start..<end` of screen row `rowIndex`, widened to whole
    /// wide characters so that no half is left behind. With `keepProtected`
    /// protected cells stay (which erases keep them depends on the
    /// protection mode: see ``ProtectionMode``). With `written`, and always
    /// for a selective erase (DECSED, DECSEL, DECSERA), the blanks are
    /// marked as written (`Cell.writtenBlankFlag`); so are those before a
    /// protected cell that stays, as xterm clears the stretch up to it as an
    /// erase inside the line (its `ClearInLine` marks such cells drawn).
    mutating func eraseCells(
        row rowIndex: Int, from start: Int, to end: Int, selective: Bool = false, written: Bool = false,
        keepProtected: Bool = false
    ) {
        guard start < end else { return }
        let (row, _, page) = active.rowAndFlags(ScreenRow(rowIndex))
        let key = eraseKey(page: page)
        let erased = Cell.blank(style: key)
        let writtenBlank = Cell.writtenBlank(style: key)
        var first = start
        var last = end
        if row[first].width == .wideTail && first > 0 { first -= 1 }
        if row[last - 1].width == .wide && last < columns { last += 1 }
        // A selective erase writes its blanks whatever the range, as xterm
        // 379 reads them back (esctest2 DECSED 0 and DECSEL 2 with protection).
        let blank = written || selective ? writtenBlank : erased
        if keepProtected {
            var lastProtected = first - 1
            for col in first..<last where row[col].isProtected { lastProtected = col }
            let inside = writtenBlank
            for col in first..<last where !row[col].isProtected { row[col] = col < lastProtected ? inside : blank }
        } else {
            Grid.fill(row + first, with: blank, count: last - first)
        }
        if end == columns { active.removeFlags(.wrapped, from: ScreenRow(rowIndex)) }
    }

    /// ED / DECSED: 0 below (from the cursor), 1 above (to the cursor), 2 all,
    /// 3 the scrollback (xterm's "erase saved lines"). The blanks ED 1 leaves
    /// are written ones, as xterm 379's DECRQCRA counts them; ED 0 and 2 leave
    /// never-written cells.
    mutating func eraseDisplay(_ mode: Int, selective: Bool = false) {
        cursor.pendingWrap = false
        let keep = selective ? selectiveEraseKeepsProtected : normalEraseKeepsProtected
        switch mode {
        case 0:
            eraseCells(row: cursor.row, from: cursor.col, to: columns, selective: selective, keepProtected: keep)
            for row in (cursor.row + 1)..<rows {
                eraseCells(row: row, from: 0, to: columns, selective: selective, keepProtected: keep)
            }
        case 1:
            for row in 0..<cursor.row {
                eraseCells(row: row, from: 0, to: columns, selective: selective, written: true, keepProtected: keep)
            }
            eraseCells(
                row: cursor.row, from: 0, to: cursor.col + 1, selective: selective, written: true, keepProtected: keep)
        case 2:
            for row in 0..<rows {
                eraseCells(row: row, from: 0, to: columns, selective: selective, keepProtected: keep)
            }
        case 3:
            if isAlternateScreen { inactive.clearHistory() } else { active.clearHistory() }
        default:
            break
        }
    }

    /// EL / DECSEL: 0 to the right of the cursor, 1 to the left (written
    /// blanks, as ED 1), 2 the whole row.
    mutating func eraseLine(_ mode: Int, selective: Bool = false) {
        cursor.pendingWrap = false
        let keep = selective ? selectiveEraseKeepsProtected : normalEraseKeepsProtected
        let row = cursor.row
        switch mode {
        case 0: eraseCells(row: row, from: cursor.col, to: columns, selective: selective, keepProtected: keep)
        case 1:
            eraseCells(row: row, from: 0, to: cursor.col + 1, selective: selective, written: true, keepProtected: keep)
        case 2: eraseCells(row: row, from: 0, to: columns, selective: selective, keepProtected: keep)
        default: break
        }
    }

    /// ECH: blanks `count` cells from the cursor without moving anything
    /// (written blanks); ISO-protected cells stay, DEC-protected ones do not
    /// (xterm erases characters as EL does: `do_erase_char`).
    mutating func eraseCharacters(_ count: Int) {
        cursor.pendingWrap = false
        eraseCells(
            row: cursor.row, from: cursor.col, to: min(columns, cursor.col + count), written: true,
            keepProtected: normalEraseKeepsProtected)
    }

    // MARK: Inserting and deleting

    /// Inserts `count` blanks (written ones) at `col` of a row, shifting the
    /// cells up to `right` (inclusive) right; cells pushed past `right` are
    /// lost.
    mutating func insertCells(row rowIndex: Int, at col: Int, count: Int, right: Int) {
        let blank = writtenBlank(row: rowIndex)
        let row = active.row(ScreenRow(rowIndex))
        let count = min(count, right - col + 1)
        guard count > 0 else { return }
        if row[col].width == .wideTail && col > 0 {
            row[col - 1] = Cell.blank(style: row[col - 1].styleKey)
            row[col] = Cell.blank(style: row[col].styleKey)
        }
        let keep = right - col + 1 - count
        if keep > 0 && row[col + keep - 1].width == .wide {
            row[col + keep - 1] = Cell.blank(style: row[col + keep - 1].styleKey)
        }
        if right + 1 < columns && row[right + 1].width == .wideTail {
            row[right] = Cell.blank(style: row[right].styleKey)
            row[right + 1] = Cell.blank(style: row[right + 1].styleKey)
        }
        if keep > 0 { (row + col + count).update(from: row + col, count: keep) }
        Grid.fill(row + col, with: blank, count: count)
        active.removeFlags(.wrapped, from: ScreenRow(rowIndex))
    }

    /// Deletes `count` cells at `col` of a row, shifting the cells up to
    /// `right` left and blanking those that enter at `right`.
    mutating func deleteCells(row rowIndex: Int, at col: Int, count: Int, right: Int) {
        let blank = eraseCell(row: rowIndex)
        let row = active.row(ScreenRow(rowIndex))
        let count = min(count, right - col + 1)
        guard count > 0 else { return }
        if row[col].width == .wideTail && col > 0 {
            row[col - 1] = Cell.blank(style: row[col - 1].styleKey)
        }
        let keep = right - col + 1 - count
        if keep > 0 && row[col + count].width == .wideTail {
            row[col + count] = Cell.blank(style: row[col + count].styleKey)
        }
        if right + 1 < columns && row[right].width == .wide {
            row[right] = Cell.blank(style: row[right].styleKey)
            row[right + 1] = Cell.blank(style: row[right + 1].styleKey)
        }
        if keep > 0 { (row + col).update(from: row + col + count, count: keep) }
        Grid.fill(row + col + keep, with: blank, count: count)
        active.removeFlags(.wrapped, from: ScreenRow(rowIndex))
    }

    /// ICH, and IRM's insertion before printing: up to the right margin when
    /// the cursor is inside the margins, else to the screen edge.
    mutating func insertBlankCells(_ count: Int) {
        cursor.pendingWrap = false
        let right = cursor.col <= rightMargin ? rightMargin : columns - 1
        guard cursor.col >= leftMargin || !modes.leftRightMargins else { return }
        insertCells(row: cursor.row, at: cursor.col, count: count, right: right)
    }

    /// DCH.
    mutating func deleteCharacters(_ count: Int) {
        cursor.pendingWrap = false
        let right = cursor.col <= rightMargin ? rightMargin : columns - 1
        guard cursor.col >= leftMargin || !modes.leftRightMargins else { return }
        deleteCells(row: cursor.row, at: cursor.col, count: count, right: right)
    }

    /// IL: inserts blank lines at the cursor row, within the scroll region;
    /// the cursor goes to the left margin. Outside the region nothing happens.
    mutating func insertLines(_ count: Int) {
        guard cursorInScrollRegion else { return }
        scrollRectangleDown(top: cursor.row, bottom: scrollBottom, count: count)
        cursor.col = leftMargin
        cursor.pendingWrap = false
    }

    /// DL: deletes lines at the cursor row, within the scroll region. Deleted
    /// lines never enter the scrollback.
    mutating func deleteLines(_ count: Int) {
        guard cursorInScrollRegion else { return }
        scrollRectangleUp(top: cursor.row, bottom: scrollBottom, count: count, intoHistory: false)
        cursor.col = leftMargin
        cursor.pendingWrap = false
    }

    /// SL / DECDC: columns from `col` to the right margin, in every row of the
    /// scroll region, move left by `count`.
    mutating func deleteColumns(at col: Int, count: Int) {
        for row in scrollTop...scrollBottom { deleteCells(row: row, at: col, count: count, right: rightMargin) }
    }

    /// SR / DECIC: columns move right by `count` from `col`.
    mutating func insertColumns(at col: Int, count: Int) {
        for row in scrollTop...scrollBottom { insertCells(row: row, at: col, count: count, right: rightMargin) }
    }

    /// DECBI, back index (VT420; DEC STD 070): one column left; at the
    /// left margin the scroll area's columns move right one instead, a
    /// blank column entering at the margin. Left of the margin, at the
    /// screen's edge, nothing happens.
    mutating func backIndex() {
        cursor.pendingWrap = false
        if cursor.col == leftMargin {
            if cursorInScrollRegion { insertColumns(at: leftMargin, count: 1) }
        } else if cursor.col > 0 {
            cursor.col -= 1
        }
    }

    /// DECFI, forward index (VT420; DEC STD 070): one column right; at the
    /// right margin the scroll area's columns move left one instead, a
    /// blank column entering at the margin. Right of the margin, at the
    /// screen's edge, nothing happens.
    mutating func forwardIndex() {
        cursor.pendingWrap = false
        if cursor.col == rightMargin {
            if cursorInScrollRegion { deleteColumns(at: leftMargin, count: 1) }
        } else if cursor.col < columns - 1 {
            cursor.col += 1
        }
    }

    /// DECALN: fills the screen with `E`, resets the margins and homes the
    /// cursor (DEC STD 070, screen alignment).
    mutating func screenAlignment() {
        let filled = Cell(scalar: UInt32(UInt8(ascii: "E")), width: .narrow, style: .default)
        for row in 0..<rows { active.clearRow(ScreenRow(row), with: BlankFill(style: Style(), sharedCell: filled)) }
        scrollTop = 0
        scrollBottom = rows - 1
        marginLeft = 0
        marginRight = columns - 1
        modes.origin = false
        cursor = Cursor()
    }

    /// DECSTBM: top and bottom margins (1-based, 0 = default); ignored unless
    /// top < bottom. Homes the cursor.
    mutating func setScrollRegion(top: Int, bottom: Int) {
        let newTop = max(1, top) - 1
        let newBottom = (bottom == 0 ? rows : min(bottom, rows)) - 1
        guard newTop < newBottom else { return }
        scrollTop = newTop
        scrollBottom = newBottom
        setPosition(row: 0, col: 0)
    }

    /// DECSLRM (`CSI Pl ; Pr s` with DECLRMM): left and right margins
    /// (1-based, 0 = default); ignored unless left < right. Homes the cursor.
    mutating func setLeftRightMargins(left: Int, right: Int) {
        let newLeft = max(1, left) - 1
        let newRight = (right == 0 ? columns : min(right, columns)) - 1
        guard newLeft < newRight else { return }
        marginLeft = newLeft
        marginRight = newRight
        setPosition(row: 0, col: 0)
    }

    // MARK: Rectangles (VT420)

    /// DECFRA: fills `area` with `character` (a code in GL 32–126, mapped by
    /// the character set there, or GR 160–255) in the pen's rendition;
    /// any other code fills nothing.
    mutating func fillRectangle(_ area: ScreenRectangle, with character: Int) {
        // Only printable characters fill (GL 32–126 and GR 160–255).
        guard (32...126).contains(character) || (160...255).contains(character) else { return }
        let content = character < 127 ? charsets.designations[charsets.gl].map(UInt8(character)) : UInt32(character)
        for row in area.top...area.bottom {
            // The erase first: interning its style can compact the
            // page's table, which renumbers the pen.
            eraseCells(row: row, from: area.left, to: area.right + 1)
            bindPen(toRow: row)
            var cell = Cell(content: content, style: penKey, linkID: 0)
            if protectedPen { cell.content |= Cell.protectedFlag }
            Grid.fill(active.row(ScreenRow(row)) + area.left, with: cell, count: area.right - area.left + 1)
        }
    }

    /// DECERA, and DECSERA (`selective`): erases `area`, leaving written
    /// blanks. DECSERA keeps protected cells in DEC mode only (xterm's
    /// ScrnWipeRectangle); DECERA erases them all.
    mutating func eraseRectangle(_ area: ScreenRectangle, selective: Bool) {
        for row in area.top...area.bottom {
            eraseCells(
                row: row, from: area.left, to: area.right + 1, selective: selective, written: true,
                keepProtected: selective && rectangleEraseKeepsProtected)
        }
    }

    /// DECCRA: copies `source` so that its top left corner lands at row
    /// `top`, column `left` (0-based screen positions), clipped to the
    /// screen; overlapping areas copy as if through a buffer.
    mutating func copyRectangle(_ source: ScreenRectangle, toRow top: Int, column left: Int) {
        guard top < rows && left < columns else { return }
        let height = min(source.bottom - source.top + 1, rows - top)
        let width = min(source.right - source.left + 1, columns - left)
        // Read whole first (the areas may overlap), each row with its page's
        // tables as they are now: writing can compact a page's tables.
        var copied: [Cell] = []
        copied.reserveCapacity(height * width)
        var sources: [(page: Int, tables: PageTables)] = []
        sources.reserveCapacity(height)
        for row in 0..<height {
            let cells = active.readRow(ScreenRow(source.top + row))
            for col in 0..<width { copied.append(cells[source.left + col]) }
            let page = active.page(ofScreenRow: ScreenRow(source.top + row))
            sources.append((page, active.pages[page]))
        }
        for row in 0..<height {
            let page = active.page(ofScreenRow: ScreenRow(top + row))
            copied.withUnsafeBufferPointer { buffer in
                active.copyCells(
                    buffer.baseAddress! + row * width, tables: sources[row].tables, sourcePage: sources[row].page,
                    to: active.row(ScreenRow(top + row)) + left, page: page, count: width)
            }
            repairWideEdges(row: top + row, left: left, right: left + width - 1)
        }
    }
}

/// An area of the screen for the rectangle operations (VT420), clamped to
/// the screen: rows and columns 0-based, both ends included.
struct ScreenRectangle: Equatable {
    var top: Int
    var left: Int
    var bottom: Int
    var right: Int
}
