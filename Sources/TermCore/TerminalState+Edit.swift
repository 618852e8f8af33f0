// Erasing, inserting and deleting cells and lines, scrolling (ECMA-48 §8.3,
// xterm ctlseqs; DEC STD 070 for DECIC/DECDC/DECALN).

extension TerminalState {
    /// Scrolls the scroll region up (LF at the bottom margin, SU). Only a
    /// region covering the whole primary screen feeds the scrollback, as in
    /// xterm, tmux and alacritty.
    mutating func scrollUp(_ count: Int) {
        active.scrollUp(
            top: scrollTop, bottom: scrollBottom, count: count, fill: eraseCell, intoHistory: !isAlternateScreen)
    }

    mutating func scrollDown(_ count: Int) {
        active.scrollDown(top: scrollTop, bottom: scrollBottom, count: count, fill: eraseCell)
    }

    /// Blanks cells `start..<end` of screen row `rowIndex`, widened to whole
    /// wide characters so that no half is left behind.
    mutating func eraseCells(row rowIndex: Int, from start: Int, to end: Int) {
        guard start < end else { return }
        let row = active.row(rowIndex)
        var first = start
        var last = end
        if row[first].width == .wideTail && first > 0 { first -= 1 }
        if row[last - 1].width == .wide && last < columns { last += 1 }
        (row + first).update(repeating: eraseCell, count: last - first)
        if end == columns { active.setFlags(rowIndex, active.flags(rowIndex).subtracting(.wrapped)) }
    }

    /// ED: 0 below (from the cursor), 1 above (to the cursor), 2 all,
    /// 3 the scrollback (xterm's "erase saved lines").
    mutating func eraseDisplay(_ mode: Int) {
        cursor.pendingWrap = false
        switch mode {
        case 0:
            eraseCells(row: cursor.row, from: cursor.col, to: columns)
            for row in (cursor.row + 1)..<rows { active.clearRow(row, with: eraseCell) }
        case 1:
            for row in 0..<cursor.row { active.clearRow(row, with: eraseCell) }
            eraseCells(row: cursor.row, from: 0, to: cursor.col + 1)
        case 2:
            for row in 0..<rows { active.clearRow(row, with: eraseCell) }
        case 3:
            if isAlternateScreen { inactive.clearHistory() } else { active.clearHistory() }
        default:
            break
        }
    }

    /// EL: 0 to the right of the cursor, 1 to the left, 2 the whole row.
    mutating func eraseLine(_ mode: Int) {
        cursor.pendingWrap = false
        switch mode {
        case 0: eraseCells(row: cursor.row, from: cursor.col, to: columns)
        case 1: eraseCells(row: cursor.row, from: 0, to: cursor.col + 1)
        case 2: eraseCells(row: cursor.row, from: 0, to: columns)
        default: break
        }
    }

    /// ECH: blanks `count` cells from the cursor without moving anything.
    mutating func eraseCharacters(_ count: Int) {
        cursor.pendingWrap = false
        eraseCells(row: cursor.row, from: cursor.col, to: min(columns, cursor.col + count))
    }

    /// Inserts `count` blanks at `col` of a row, shifting the rest right;
    /// cells pushed past the right edge are lost.
    mutating func insertCells(row rowIndex: Int, at col: Int, count: Int) {
        let row = active.row(rowIndex)
        let count = min(count, columns - col)
        guard count > 0 else { return }
        if row[col].width == .wideTail && col > 0 {
            row[col - 1] = Cell.blank(styleID: row[col - 1].styleID)
            row[col] = Cell.blank(styleID: row[col].styleID)
        }
        let keep = columns - col - count
        if keep > 0 && row[col + keep - 1].width == .wide {
            row[col + keep - 1] = Cell.blank(styleID: row[col + keep - 1].styleID)
        }
        if keep > 0 { (row + col + count).update(from: row + col, count: keep) }
        (row + col).update(repeating: eraseCell, count: count)
        active.setFlags(rowIndex, active.flags(rowIndex).subtracting(.wrapped))
    }

    /// Deletes `count` cells at `col` of a row, shifting the rest left and
    /// blanking the cells that enter at the right edge.
    mutating func deleteCells(row rowIndex: Int, at col: Int, count: Int) {
        let row = active.row(rowIndex)
        let count = min(count, columns - col)
        guard count > 0 else { return }
        if row[col].width == .wideTail && col > 0 {
            row[col - 1] = Cell.blank(styleID: row[col - 1].styleID)
        }
        let keep = columns - col - count
        if keep > 0 && row[col + count].width == .wideTail {
            row[col + count] = Cell.blank(styleID: row[col + count].styleID)
        }
        if keep > 0 { (row + col).update(from: row + col + count, count: keep) }
        (row + col + keep).update(repeating: eraseCell, count: count)
        active.setFlags(rowIndex, active.flags(rowIndex).subtracting(.wrapped))
    }

    /// ICH, and IRM's insertion before printing.
    mutating func insertBlankCells(_ count: Int) {
        cursor.pendingWrap = false
        insertCells(row: cursor.row, at: cursor.col, count: count)
    }

    /// DCH.
    mutating func deleteCharacters(_ count: Int) {
        cursor.pendingWrap = false
        deleteCells(row: cursor.row, at: cursor.col, count: count)
    }

    /// IL: inserts blank lines at the cursor row, within the scroll region;
    /// the cursor goes to the first column. Outside the region it does nothing.
    mutating func insertLines(_ count: Int) {
        guard cursor.row >= scrollTop && cursor.row <= scrollBottom else { return }
        active.scrollDown(top: cursor.row, bottom: scrollBottom, count: count, fill: eraseCell)
        carriageReturn()
    }

    /// DL: deletes lines at the cursor row, within the scroll region. Deleted
    /// lines never enter the scrollback.
    mutating func deleteLines(_ count: Int) {
        guard cursor.row >= scrollTop && cursor.row <= scrollBottom else { return }
        active.scrollUp(top: cursor.row, bottom: scrollBottom, count: count, fill: eraseCell, intoHistory: false)
        carriageReturn()
    }

    /// SL / DECDC: columns `col...` of every row in the scroll region move
    /// left by `count` (SL from the first column, DECDC from the cursor).
    mutating func deleteColumns(at col: Int, count: Int) {
        for row in scrollTop...scrollBottom { deleteCells(row: row, at: col, count: count) }
    }

    /// SR / DECIC: columns move right by `count` from `col`.
    mutating func insertColumns(at col: Int, count: Int) {
        for row in scrollTop...scrollBottom { insertCells(row: row, at: col, count: count) }
    }

    /// DECALN: fills the screen with `E`, resets the margins and homes the
    /// cursor (DEC STD 070, screen alignment).
    mutating func screenAlignment() {
        let filled = Cell(scalar: UInt32(UInt8(ascii: "E")), width: .narrow, styleID: 0)
        for row in 0..<rows { active.clearRow(row, with: filled) }
        scrollTop = 0
        scrollBottom = rows - 1
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
}
