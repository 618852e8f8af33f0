// Cursor movement, line feeds, tab stops (ECMA-48 §8.3, xterm ctlseqs).

extension TerminalState {
    /// The rows the cursor may move within vertically: the scroll region when
    /// the cursor is inside it, else the whole screen (xterm: CUU stops at the
    /// top margin only when it starts below it).
    @inline(__always)
    var verticalBounds: (top: Int, bottom: Int) {
        (cursor.row >= scrollTop ? scrollTop : 0, cursor.row <= scrollBottom ? scrollBottom : rows - 1)
    }

    mutating func cursorUp(_ count: Int) {
        cursor.row = max(verticalBounds.top, cursor.row - count)
        cursor.pendingWrap = false
    }

    mutating func cursorDown(_ count: Int) {
        cursor.row = min(verticalBounds.bottom, cursor.row + count)
        cursor.pendingWrap = false
    }

    /// CUF: stops at the right margin when starting inside the margins.
    mutating func cursorForward(_ count: Int) {
        let limit = min(cursor.col <= rightMargin ? rightMargin : columns - 1, lastColumn(row: cursor.row))
        cursor.col = min(limit, cursor.col + count)
        cursor.pendingWrap = false
    }

    /// CUB: stops at the left margin when starting inside the margins. With
    /// reverse wraparound (45) and autowrap, each column is a BS, wrapping
    /// to the right margin of the row above (xterm before patch 383, whose
    /// results the engine follows: esctest2's CUB and DECSET tests); the
    /// count is at most 65,535 (parameters saturate), so the work is bounded.
    mutating func cursorBackward(_ count: Int) {
        if modes.reverseWrap && modes.autowrap {
            for _ in 0..<count { backspace() }
            return
        }
        let limit = cursor.col >= leftMargin ? leftMargin : 0
        cursor.col = max(limit, cursor.col - count)
        cursor.pendingWrap = false
    }

    /// CHA/HPA: absolute column (0-based), relative to the left margin under
    /// DECOM with DECLRMM.
    @inline(__always)
    mutating func setColumn(_ col: Int) {
        if modes.origin && modes.leftRightMargins {
            cursor.col = min(max(marginLeft, marginLeft + col), marginRight)
        } else {
            cursor.col = min(max(0, col), lastColumn(row: cursor.row))
        }
        cursor.pendingWrap = false
    }

    /// VPA: absolute row (0-based), relative to the scroll region under DECOM.
    @inline(__always)
    mutating func setRow(_ row: Int) {
        if modes.origin {
            cursor.row = min(max(scrollTop, scrollTop + row), scrollBottom)
        } else {
            cursor.row = min(max(0, row), rows - 1)
        }
        cursor.pendingWrap = false
    }

    /// CUP/HVP: absolute position (0-based), origin-relative under DECOM.
    mutating func setPosition(row: Int, col: Int) {
        setRow(row)
        setColumn(col)
    }

    /// DECSWL, DECDWL, DECDHL (`ESC # 5/6/3/4`): the size of the cursor's
    /// row. Making a row double width drops the characters of its right
    /// half, which can no longer be shown (DEC STD 070).
    mutating func setLineSize(_ size: RowFlags) {
        var flags = active.flags(ScreenRow(cursor.row)).subtracting(.doubleSize)
        flags.formUnion(size)
        active.setFlags(ScreenRow(cursor.row), flags)
        if !size.isEmpty {
            let half = max(1, columns / 2)
            let blank = eraseCell(row: cursor.row)
            let cells = active.row(ScreenRow(cursor.row))
            Grid.fill(cells + half, with: blank, count: columns - half)
            // A wide character the half cuts keeps its style as a blank, as
            // an overwritten half does (clearWideOverlap).
            if half < columns && cells[half - 1].width == .wide {
                cells[half - 1] = Cell.blank(style: cells[half - 1].styleKey)
            }
            cursor.col = min(cursor.col, half - 1)
        }
    }

    /// LF, VT, FF and IND: down one row, scrolling the region at its bottom.
    mutating func lineFeed() {
        cursor.pendingWrap = false
        if cursor.row == scrollBottom {
            if scrollTop == 0 && scrollBottom == rows - 1 && !modes.leftRightMargins && !isAlternateScreen {
                // The hot case: plain output scrolling. The fill is taken
                // first: read in the call's arguments, it made the grid be
                // copied for every line. A default or palette background is
                // one cell for every page, passed as such (callgrind: 16
                // fewer instructions a line than the whole fill).
                if let cell = eraseFill.sharedCell {
                    active.scrollWholeScreenUpOneLine(sharedFill: cell)
                } else {
                    let fill = eraseFill
                    active.scrollWholeScreenUpOneLine(fill: fill)
                }
            } else if cursorInHorizontalMargins {
                scrollUp(1)  // outside the left/right margins nothing scrolls (xterm)
            }
        } else if cursor.row < rows - 1 {
            cursor.row += 1
        }
    }

    /// RI: up one row, scrolling the region down at its top.
    mutating func reverseIndex() {
        cursor.pendingWrap = false
        if cursor.row == scrollTop {
            if cursorInHorizontalMargins { scrollDown(1) }
        } else if cursor.row > 0 {
            cursor.row -= 1
        }
    }

    /// CR: to the left margin, or the first column when left of it.
    mutating func carriageReturn() {
        cursor.col = cursor.col >= leftMargin ? leftMargin : 0
        cursor.pendingWrap = false
    }

    /// BS: one column left, stopping at the left margin. From a pending wrap
    /// it moves left of the last column (xterm). With reverse wraparound (45)
    /// and autowrap, BS at the left margin goes to the right margin of the
    /// row above, and from the top row to the bottom one, and BS from a
    /// pending wrap only cancels it, the cursor staying in the last column
    /// (xterm; esctest2 `DECSET_ReverseWraparoundLastCol_BS`).
    mutating func backspace() {
        if cursor.pendingWrap {
            cursor.pendingWrap = false
            if cursor.col > 0 && !(modes.reverseWrap && modes.autowrap) { cursor.col -= 1 }
            return
        }
        let left = cursor.col >= leftMargin ? leftMargin : 0
        if cursor.col > left {
            cursor.col -= 1
        } else if modes.reverseWrap && modes.autowrap {
            cursor.col = rightMargin
            cursor.row = cursor.row > verticalBounds.top ? cursor.row - 1 : verticalBounds.bottom
        }
    }

    /// HT / CHT: forward to the `count`-th next tab stop, or the last column.
    /// In the last column nothing moves and a pending wrap stays pending, so
    /// the next character still wraps (xterm, captured in xterm.js's t0080).
    mutating func tabForward(_ count: Int) {
        let last = min(cursor.col <= rightMargin ? rightMargin : columns - 1, lastColumn(row: cursor.row))
        guard cursor.col < last else { return }
        var col = cursor.col
        for _ in 0..<count {
            col += 1
            while col < last && !tabStops[col] { col += 1 }
            if col >= last {
                col = last
                break
            }
        }
        cursor.col = col
        cursor.pendingWrap = false
    }

    /// CBT: back to the `count`-th previous tab stop, or the first column.
    mutating func tabBackward(_ count: Int) {
        let first = cursor.col >= leftMargin ? leftMargin : 0
        var col = cursor.col
        for _ in 0..<count {
            col -= 1
            while col > first && !tabStops[col] { col -= 1 }
            if col <= first {
                col = first
                break
            }
        }
        cursor.col = col
        cursor.pendingWrap = false
    }

    /// TBC: 0 clears the stop at the cursor, 3 clears them all.
    mutating func clearTabStops(_ mode: Int) {
        switch mode {
        case 0: tabStops[cursor.col] = false
        case 3: tabStops = [Bool](repeating: false, count: columns)
        default: break
        }
    }

    /// DECSC.
    mutating func saveCursor() {
        let saved = SavedCursor(
            cursor: cursor, pen: pen, charsets: charsets, originMode: modes.origin, protected: protectedPen)
        if isAlternateScreen { savedAlternate = saved } else { savedPrimary = saved }
    }

    /// DECRC: restores what DECSC saved, or the power-on state (home,
    /// default rendition) when nothing was saved.
    mutating func restoreCursor() {
        let saved =
            (isAlternateScreen ? savedAlternate : savedPrimary)
            ?? SavedCursor(
                cursor: Cursor(), pen: Style(), charsets: CharsetState(), originMode: false, protected: false)
        cursor = saved.cursor.clamped(rows: rows, columns: columns)
        setPen(saved.pen)
        charsets = saved.charsets
        modes.origin = saved.originMode
        protectedPen = saved.protected
    }
}
