import TermCore

// Drawing rows: the difference between the shadow's row and the wanted one,
// soft wraps made by printing across the row end, and the wide-character
// tricks for the cell states no sequence sets directly.

extension StateEncoder {
    static let emptyCell = CellContent.empty

    func cell(_ line: SnapshotLine?, _ column: Int) -> CellContent {
        guard let line else { return Self.emptyCell }
        return line.cell(column)
    }

    /// True for a blank that an erase with the right background leaves.
    func isEraseBlank(_ cell: CellContent) -> Bool {
        cell.scalars.isEmpty && cell.width == .narrow && cell.hyperlink == nil && !cell.isProtected
            && cell.style == Style(background: cell.style.background)
    }

    func isPrintable(_ cell: CellContent) -> Bool {
        !cell.scalars.isEmpty && (cell.width == .narrow || cell.width == .wide)
    }

    /// Sets only the pen's background, which is all an erase takes.
    func setEraseBackground(_ background: TerminalColor) {
        var style = pen
        style.background = background
        setPen(style)
    }

    /// Draws a screen's lines top to bottom: the first `historyCount` scroll
    /// off into the scrollback, the last `rows` stay on the screen.
    func drawScreen(_ lines: [SnapshotLine?], historyCount: Int) {
        drawing = true
        defer { drawing = false }
        sync()
        onScreen = Array(repeating: nil, count: rows)
        damagedRows = []
        for index in lines.indices {
            let line = lines[index]
            let screenRow = min(index, rows - 1)
            if index >= rows {
                onScreen.removeFirst()
                onScreen.append(line)
            } else {
                onScreen[index] = line
            }
            if index > 0, let previous = lines[index - 1], previous.isWrapped {
                wrapIn(from: previous, previousRow: index > rows - 1 ? rows - 1 : screenRow - 1, next: line)
            } else if index >= rows {
                // The line scrolls in at the bottom: the new row is filled
                // with the pen's background (xterm's background colour erase).
                move(row: rows - 1, column: column)
                let last = cell(line, columns - 1)
                setEraseBackground(isEraseBlank(last) ? last.style.background : .default)
                out.append(0x0A)
                pendingWrap = false
            } else if (line == nil || line!.isEmpty) && !damagedRows.contains(screenRow) {
                // Nothing to write, unless a spacer made on the row above
                // put its placeholder here.
                continue
            }
            damagedRows.remove(screenRow)
            writeRow(screenRow, line)
        }
        if let last = lines.last ?? nil, last.isWrapped {
            wrapBottomRow(last, above: lines.count >= 2 ? lines[lines.count - 2] : nil)
        }
        // A last pass over the rows that stayed: anything still different.
        let screen = lines.suffix(rows)
        onScreen = Array(screen)
        for (screenRow, line) in screen.enumerated() { writeRow(screenRow, line) }
    }

    /// Makes the cursor wait in the last column of `previousRow` with a
    /// pending wrap, then prints the first character of `next`: the row is
    /// marked as wrapped, as autowrap marks it.
    func wrapIn(from previous: SnapshotLine, previousRow: Int, next: SnapshotLine?) {
        let edge = lastColumn(previous.size)
        let last = previous.cell(edge)
        let first = cell(next, 0)
        if last.width == .wrapSpacer {
            // A wide character that did not fit leaves a spacer (the pen's
            // erase style) and wraps; when the next row does not start with
            // one any more, a placeholder is written over by that row.
            if columns == 1 {
                printWrapSpacer(row: previousRow, column: 0, background: last.style.background)
                return
            }
            move(row: previousRow, column: edge)
            let wide = first.width == .wide && isPrintable(first)
            var style = wide ? first.style : Style()
            style.background = last.style.background
            setPen(style)
            setLink(wide ? first.hyperlink : nil)
            setProtected(wide && first.isProtected)
            appendCell(wide ? first.scalars : [Self.widePlaceholder], width: 2)
            sync()
            return
        }
        let needsFix = makePendingWrap(line: previous, row: previousRow, edge: edge)
        if isPrintable(first) {
            printCell(first, edge: columns - 1)
        } else {
            printScalars([" "], width: 1, edge: columns - 1)
        }
        sync()
        if needsFix { fixEndAfterPlaceholder(previous, row: max(0, row - 1), edge: edge) }
    }

    /// Leaves the cursor in column `edge` of `row` with a pending wrap by
    /// printing the character there again. A blank there takes a wide
    /// placeholder over the last two columns; the caller then rewrites the
    /// column before it, which blanks the placeholder's right half with its
    /// style (``fixEndAfterPlaceholder(_:row:edge:)``). Returns whether that
    /// fix is needed.
    @discardableResult
    func makePendingWrap(line: SnapshotLine?, row target: Int, edge: Int, keepsRowWrap: Bool = false) -> Bool {
        if pendingWrap && row == target && column == edge { return false }
        let last = cell(line, edge)
        if isPrintable(last) && last.width == .narrow && !needsRoomToNarrow(last) {
            move(row: target, column: edge)
            printCell(last, edge: edge)
            return false
        }
        if last.width == .wideTail && edge >= 1 {
            let head = cell(line, edge - 1)
            if head.width == .wide && isPrintable(head) {
                move(row: target, column: edge - 1)
                printCell(head, edge: edge)
                return false
            }
        }
        if needsRoomToNarrow(last) && edge >= 1, cell(line, edge - 1) == last || restoresInPlace(cell(line, edge - 1)) {
            // A VS15 emoji narrowed under mode 2027: printed one column left
            // (its wide base needs two), a space waits at the edge, DECCRA
            // copies the emoji over the space (keeping the pending wrap, as
            // DECERA and DECFRA do), and the column left is made again.
            move(row: target, column: edge - 1)
            printCell(last, edge: edge)
            setAttributes(of: Self.emptyCell)
            printScalars([" "], width: 1, edge: edge)
            out.csi("\(target + 1);\(edge);\(target + 1);\(edge);1;\(target + 1);\(edge + 1)$v")
            if cell(line, edge - 1) != last { restoreInPlace(cell(line, edge - 1), row: target, column: edge - 1) }
            return false
        }
        if edge == 0 || (isEraseBlank(last) && !(keepsRowWrap && edge == columns - 1)) {
            // A space waits in the column, and DECERA, which keeps a pending
            // wrap (ECH and EL end it), blanks it again with the erase
            // background; in the last column it also clears the row's wrap
            // flag, so not where that must stay (`keepsRowWrap`). In one
            // column there is no room for the placeholder below either.
            move(row: target, column: edge)
            setAttributes(of: Self.emptyCell)
            printScalars([" "], width: 1, edge: edge)
            if isEraseBlank(last) {
                // One column wide, where the row must stay wrapped: copied
                // from an equal blank instead (DECCRA leaves the flag).
                if !(keepsRowWrap && edge == columns - 1 && copyBlank(last, toRow: target, column: edge)) {
                    eraseInPlace(row: target, column: edge, background: last.style.background)
                }
            }
            return false
        }
        if needsRoomToNarrow(last) && edge >= 1 {
            // The same emoji with a column left that only a print makes:
            // a space waits at the edge, and the emoji is made there after
            // the wrap (fixEndAfterPlaceholder), the row still on the screen.
            move(row: target, column: edge)
            setAttributes(of: Self.emptyCell)
            printScalars([" "], width: 1, edge: edge)
            return true
        }
        move(row: target, column: edge - 1)
        setPen(last.style)
        setLink(nil)
        setProtected(false)
        printScalars([Self.widePlaceholder], width: 2, edge: edge)
        return true
    }

    /// Rewrites column `edge - 1` after a wide placeholder: a narrow write
    /// over the placeholder's left half blanks its right half, which keeps
    /// the placeholder's style (the blank the row should end with). After
    /// the space that stood for an emoji VS15 narrowed, the emoji first.
    func fixEndAfterPlaceholder(_ line: SnapshotLine, row target: Int, edge: Int) {
        if needsRoomToNarrow(line.cell(edge)) {
            // The emoji a space stood for (makePendingWrap): printed one
            // column left, copied right with DECCRA, and the column left
            // written again below.
            move(row: target, column: edge - 1)
            printCell(line.cell(edge), edge: edge)
            out.csi("\(target + 1);\(edge);\(target + 1);\(edge);1;\(target + 1);\(edge + 1)$v")
        }
        let before = line.cell(edge - 1)
        if before.width == .wideTail && edge >= 2 {
            // The right half of a wide character: printing it again over
            // the placeholder's left half blanks the right half the same way
            // (the placeholder had cut it).
            let head = line.cell(edge - 2)
            if head.width == .wide && isPrintable(head) {
                move(row: target, column: edge - 2)
                printCell(head, edge: edge)
                sync()
                return
            }
        }
        if before.width == .narrow && !isPrintable(before) && !isEraseBlank(before) && edge >= 2 {
            // A blank with more than a background, made the same way: a
            // placeholder one column left, whose print over this one's left
            // half blanks the edge, and its own left half fixed in turn (so
            // a run of such blanks is made right to left).
            move(row: target, column: edge - 2)
            setPen(before.style)
            setLink(nil)
            setProtected(false)
            printScalars([Self.widePlaceholder], width: 2, edge: edge)
            fixEndAfterPlaceholder(line, row: target, edge: edge - 1)
            return
        }
        move(row: target, column: edge - 1)
        if isPrintable(before) && before.width == .narrow {
            printCell(before, edge: edge)
        } else {
            printScalars([" "], width: 1, edge: edge)
            moveToColumn(edge - 1)
            if isEraseBlank(before) {
                setEraseBackground(before.style.background)
                out.csi("X")
            }
        }
        sync()
    }

    /// True when `cell` can be made without moving the cursor: a blank an
    /// erase leaves (DECERA), or a printable ASCII or Latin-1 character with
    /// no link (DECFRA fills with the pen and the protection in force).
    func restoresInPlace(_ cell: CellContent) -> Bool {
        if isEraseBlank(cell) { return true }
        guard cell.width == .narrow, cell.hyperlink == nil, cell.scalars.count == 1, let scalar = cell.scalars.first
        else { return false }
        return (0x20...0x7E).contains(scalar.value) || (0xA0...0xFF).contains(scalar.value)
    }

    /// Makes `cell` at `column` of `target` with DECERA or DECFRA, which
    /// keep the cursor and a pending wrap (``restoresInPlace(_:)``).
    func restoreInPlace(_ cell: CellContent, row target: Int, column: Int) {
        if isEraseBlank(cell) {
            eraseInPlace(row: target, column: column, background: cell.style.background)
            return
        }
        guard let scalar = cell.scalars.first else { return }
        setAttributes(of: cell)
        out.csi("\(scalar.value);\(target + 1);\(column + 1);\(target + 1);\(column + 1)$x")
    }

    /// DECERA over one cell, which blanks it with the pen's background and,
    /// unlike ECH and EL, keeps a pending wrap (no origin mode in force).
    func eraseInPlace(row target: Int, column: Int, background: TerminalColor) {
        setEraseBackground(background)
        out.csi("\(target + 1);\(column + 1);\(target + 1);\(column + 1)$z")
    }

    /// Makes the erase blank `want` at `column` of `target` without moving
    /// the cursor or touching the row's wrap flag (which ECH and DECERA in
    /// the last column clear): DECCRA from an equal cell elsewhere on the
    /// screen, or else from one ECH makes in a row that does not wrap, which
    /// is then written again (`damagedRows`, and the draw's last pass).
    /// False when there is no such row. No origin mode may be in force.
    @discardableResult
    func copyBlank(_ want: CellContent, toRow target: Int, column: Int) -> Bool {
        sync()
        let positions = (0..<rows).lazy.flatMap { row in (0..<self.columns).lazy.map { (row, $0) } }
        var source = positions.first {
            ($0.0 != target || $0.1 != column) && self.shadow.cell(at: ScreenPosition(row: $0.0, column: $0.1)) == want
        }
        if source == nil, let scratch = (0..<rows).first(where: { $0 != target && !shadow.isWrapped(row: $0) }) {
            // DECSC/DECRC around the ECH keep the cursor and its pending
            // wrap, and bring the pen back.
            let savedPen = pen
            out.esc("7")
            out.csi("\(scratch + 1);1H")
            setEraseBackground(want.style.background)
            out.csi("X")
            out.esc("8")
            pen = savedPen
            savedCursorUsed = true
            damagedRows.insert(scratch)
            source = (scratch, 0)
        }
        if source == nil, columns == 1 {
            return copyBlankThroughWrappedRow(want, toRow: target)
        }
        guard let (sourceRow, sourceColumn) = source else { return false }
        out.csi(
            "\(sourceRow + 1);\(sourceColumn + 1);\(sourceRow + 1);\(sourceColumn + 1);1;\(target + 1);\(column + 1)$v")
        sync()
        return true
    }

    /// One column, every other row wrapped and none holding the blank: ECH
    /// makes it on a wrapped row (clearing that row's flag), DECCRA copies
    /// it, and the row is printed again with the row below it, whose print
    /// wraps into it and marks it again. Rows above the bottom two only:
    /// the wrap must not reach the target nor scroll the region
    /// (``wrapBottomRow(_:above:)`` ends it above the bottom row).
    func copyBlankThroughWrappedRow(_ want: CellContent, toRow target: Int) -> Bool {
        func printable(_ row: Int) -> CellContent? {
            let cell = shadow.cell(at: ScreenPosition(row: row, column: 0))
            return isPrintable(cell) && cell.width == .narrow ? cell : nil
        }
        guard
            let scratch = (0..<max(0, rows - 2)).first(where: { row in
                row + 1 != target && shadow.isWrapped(row: row) && printable(row) != nil && printable(row + 1) != nil
            }), let own = printable(scratch), let next = printable(scratch + 1)
        else { return false }
        // DECSC/DECRC around keep the cursor and its pending wrap, and bring
        // the pen and its protection back (not the link: it is tracked).
        let (savedPen, savedProtection) = (pen, isProtected)
        out.esc("7")
        out.csi("\(scratch + 1);1H")
        setEraseBackground(want.style.background)
        out.csi("X")
        out.csi("\(scratch + 1);1;\(scratch + 1);1;1;\(target + 1);1$v")
        out.csi("\(scratch + 1);1H")
        sync()
        printCell(own, edge: 0)
        printCell(next, edge: 0)
        out.esc("8")
        (pen, isProtected) = (savedPen, savedProtection)
        savedCursorUsed = true
        sync()
        return true
    }

    /// Marks the bottom row as wrapped without scrolling: with a scroll
    /// region that ends above it, a wrap there stays on the row (xterm), so
    /// the wrap rewrites the row's first cell in place. Two rows leave no
    /// such region: the wrap is made on the top row, which SD then moves
    /// down with its flags, and the top row (`above`) is drawn again.
    func wrapBottomRow(_ line: SnapshotLine, above: SnapshotLine?) {
        sync()
        if shadow.isWrapped(row: rows - 1) { return }
        if rows == 1 {
            // One row: a wrap at a right margin scrolls only the margins'
            // columns, so the row keeps its flag (xterm); margins on the
            // first two columns, two spaces printed at the right one, then
            // the row written again.
            guard columns >= 2 else { return }
            out.csi("?69h")
            out.csi("1;2s")  // DECSLRM homes the cursor
            setPen(Style())
            setLink(nil)
            setProtected(false)
            let edge = lastColumn(line.size)
            if line.size == .single && edge >= 2 && line.cell(edge).width == .wrapSpacer {
                // A spacer in the last column: a wide placeholder printed
                // there, right of the margins, leaves it and wraps onto the
                // same row (a line feed outside the margins scrolls nothing).
                out.csi("\(edge + 1)G")
                setEraseBackground(line.cell(edge).style.background)
                appendCell([Self.widePlaceholder], width: 2)
            } else {
                out.csi("2G")
                out.append("  ")
            }
            out.csi("?69l")
            sync()
            writeRow(0, line)
            return
        }
        if rows == 2 {
            // SD first: row 0 starts clean (no mark left by the top line).
            out.csi("T")
            sync()
            writeRow(0, line)
            let edge = lastColumn(line.size)
            if line.cell(edge).width == .wrapSpacer {
                printWrapSpacer(row: 0, column: edge, background: line.cell(edge).style.background)
            } else {
                let needsFix = makePendingWrap(line: line, row: 0, edge: edge)
                printScalars([" "], width: 1, edge: edge)
                sync()
                if needsFix { fixEndAfterPlaceholder(line, row: 0, edge: edge) }
            }
            out.csi("T")  // SD: row 0 becomes row 1, flags and all
            sync()
            if let above, above.isWrapped { wrapIn(from: above, previousRow: 0, next: line) }
            return
        }
        out.csi("1;\(rows - 1)r")  // DECSTBM homes the cursor
        regionIsFull = false
        defer { regionIsFull = true }
        row = 0
        column = 0
        pendingWrap = false
        let edge = lastColumn(line.size)
        if line.cell(edge).width == .wrapSpacer {
            // The wide character's placeholder lands at the start of the
            // same row, which the last pass writes again.
            printWrapSpacer(row: rows - 1, column: edge, background: line.cell(edge).style.background)
            out.csi("r")
            sync()
            return
        }
        let needsFix = makePendingWrap(line: line, row: rows - 1, edge: edge)
        let first = line.cell(0)
        if isPrintable(first) {
            printCell(first, edge: edge)
        } else {
            printScalars([" "], width: 1, edge: edge)
            moveToColumn(0)
            if isEraseBlank(first) && columns > 1 {
                setEraseBackground(first.style.background)
                out.csi("X")
            } else if isEraseBlank(first) {
                // One column: ECH there reaches the row's end and clears the
                // wrap flag just made; DECCRA copies the blank from another
                // row instead (it leaves flags alone).
                copyBlank(first, toRow: rows - 1, column: 0)
            }
        }
        sync()
        if needsFix { fixEndAfterPlaceholder(line, row: rows - 1, edge: edge) }
        out.csi("r")
        sync()
    }

    /// Prints a wide placeholder at `column` of `target`, the edge it
    /// wraps at: the column takes a spacer with the pen's background (xterm,
    /// Ghostty), the row is marked as wrapped and the placeholder goes to
    /// the next row. In one column a wide character prints nothing, but a
    /// narrow heart that VS16 widens under mode 2027 still leaves its
    /// spacer and wraps (TermCore's extendPreviousCluster); the widened
    /// cluster is then dropped.
    func printWrapSpacer(row target: Int, column: Int, background: TerminalColor) {
        move(row: target, column: column)
        var style = Style()
        style.background = background
        setPen(style)
        setLink(nil)
        setProtected(false)
        if columns == 1 {
            if !clustering { out.csi("?2027h") }
            clustering = true
            appendCell(["\u{2764}", "\u{FE0F}"], width: 2)
        } else {
            appendCell([Self.widePlaceholder], width: 2)
        }
        sync()
    }

    /// Makes a spacer at column `wanted` of row `target` that is
    /// not where a wrap into the next row leaves one: a right margin in
    /// that column makes the placeholder wrap there, and a scroll region
    /// that ends above the bottom row keeps the wrap on it. The placeholder
    /// lands at the start of the next row (or this one at the bottom),
    /// which is written after it; the row's wrap flag is set, and taken off
    /// again by ``writeRow(_:_:)`` when it should not be. False when no
    /// spacer can be made there (the first column of a row that wraps, the
    /// last column of a row that must not wrap on a screen of fewer than 3
    /// columns, the bottom row of a screen of fewer than 3 rows).
    /// `onScratch`: the row is single-width scratch for the right half of
    /// `line` (``copyRightHalf(_:_:)``), written again after.
    @discardableResult
    func makeWrapSpacer(
        row target: Int, column wanted: Int, _ want: CellContent, line: SnapshotLine?, onScratch: Bool = false
    ) -> Bool {
        let wrapped = !onScratch && (line?.isWrapped ?? false)
        let size = onScratch ? .single : line?.size ?? .single
        // The first column: made in the second and moved left by DCH, which
        // also clears the row's wrap flag (not for a row that wraps).
        let shifted = wanted == 0 && columns >= 2 && !wrapped
        let index = shifted ? 1 : wanted
        // On a double-width row the right margin holds at its column too.
        guard index <= lastColumn(size), index >= 1 || columns == 1,
            index < columns - 1 || wrapped || shifted || columns >= 3, target < rows - 1 || rows >= 2
        else { return false }
        // The bottom row of two, which no region leaves out: made on the top
        // row, copied down with DECCRA (spacers copy as they are), and the
        // top row written again.
        let copied = target == rows - 1 && rows == 2
        let made = copied ? 0 : target
        if made < rows - 1 { damagedRows.insert(made + 1) }
        let margin = index < columns - 1
        let region = made == rows - 1 && rows > 1
        if margin {
            out.csi("?69h")
            out.csi("1;\(index + 1)s")  // homes the cursor
        }
        if region { out.csi("1;\(rows - 1)r") }  // homes the cursor
        if margin || region {
            row = 0
            column = 0
            pendingWrap = false
            regionIsFull = !region
        }
        printWrapSpacer(row: made, column: index, background: want.style.background)
        if margin { out.csi("?69l") }
        if region { out.csi("r") }
        regionIsFull = true
        sync()
        if shifted {
            move(row: made, column: 0)
            out.csi("P")
            sync()
        }
        if copied {
            out.csi("1;\(wanted + 1);1;\(wanted + 1);1;2;\(wanted + 1)$v")
            sync()
            writeRow(0, onScreen[0])
        }
        return true
    }

    // MARK: One row

    /// Makes screen row `target` equal `line` (nil: an empty row): line size,
    /// mark, then the cells that differ, written again until they agree.
    func writeRow(_ target: Int, _ line: SnapshotLine?) {
        let size = line?.size ?? .single
        let edge = lastColumn(size)
        for _ in 0..<4 {
            sync()
            if shadow.lineSize(row: target) != size {
                move(row: target, column: 0)
                // A double size erases the right half with the pen's
                // background: make it the one the half should keep.
                let end = cell(line, columns - 1)
                if size != .single && isEraseBlank(end) { setEraseBackground(end.style.background) }
                switch size {
                case .single: out.esc("#5")
                case .doubleWidth: out.esc("#6")
                case .doubleHeightTop: out.esc("#3")
                case .doubleHeightBottom: out.esc("#4")
                }
                sync()
            }
            if let mark = line?.semanticMark, shadow.semanticMark(row: target) != mark {
                move(row: target, column: column)
                switch mark {
                case .prompt: out.osc("133;A")
                case .input: out.osc("133;B")
                case .output: out.osc("133;C")
                case .commandEnd(let status): out.osc("133;D" + (status.map { ";\($0)" } ?? ""))
                }
            }
            let wantsWrap = line?.isWrapped ?? false
            if !wantsWrap && shadow.isWrapped(row: target) {
                // DCH clears the wrap flag wherever it deletes; the cells it
                // moves are written again below. In the last column, unless
                // that holds a spacer (which only a wrap makes): then in the
                // first, under margins that keep the spacer out of reach.
                if cell(line, edge).width == .wrapSpacer && columns >= 3 {
                    out.csi("?69h")
                    out.csi("1;2s")  // homes the cursor
                    row = 0
                    column = 0
                    pendingWrap = false
                    move(row: target, column: 0)
                    out.csi("P")
                    out.csi("?69l")
                } else {
                    move(row: target, column: columns - 1)
                    out.csi("P")
                }
                sync()
            }
            let keepWrap = wantsWrap && shadow.isWrapped(row: target)
            var current: [CellContent] = []
            current.reserveCapacity(edge + 1)
            for index in 0...edge { current.append(shadow.cell(at: ScreenPosition(row: target, column: index))) }
            var index = 0
            var forced = false
            var wrote = false
            while index <= edge {
                let want = cell(line, index)
                if !forced && (want == current[index] || (size != .single && index == edge && want.width == .wide)) {
                    // A wide character in the last column of a double-size
                    // row has its right half past the half: it goes with
                    // the cells there (copyRightHalf).
                    index += 1
                    continue
                }
                wrote = true
                (index, forced) = writeCell(
                    row: target, column: index, want, line: line, edge: edge, forced: forced, keepWrap: keepWrap)
            }
            if size != .single {
                for index in rightHalfStart(line, edge: edge)..<columns
                where cell(line, index) != shadow.cell(at: ScreenPosition(row: target, column: index)) {
                    if !copyRightHalf(target, line) { insertRow(target, line) }
                    wrote = true
                    break
                }
            }
            if !wrote { return }
        }
    }

    /// The right half of a double-size row cannot be printed on (ICH and
    /// DECFRA can still fill it): write it on another row and copy it over
    /// with DECCRA, then restore that row. False when no other row is of
    /// single size (``insertRow(_:_:)`` builds the half in place then).
    func copyRightHalf(_ target: Int, _ line: SnapshotLine?) -> Bool {
        guard let line else { return true }
        let edge = lastColumn(line.size)
        let start = rightHalfStart(line, edge: edge)
        // Not a row ending in a wrap spacer: writing it again after would not
        // make the spacer (only the wrap into the next row does, while the
        // screen is drawn).
        func usable(_ row: Int) -> Bool {
            row != target && (onScreen[row]?.size ?? .single) == .single && shadow.lineSize(row: row) == .single
        }
        func endsInSpacer(_ row: Int) -> Bool { cell(onScreen[row], columns - 1).width == .wrapSpacer }
        guard
            let scratch = (0..<rows).first(where: { usable($0) && !endsInSpacer($0) })
                ?? (0..<rows).first(where: usable)
        else { return false }
        let damagedBefore = damagedRows
        var index = start
        var forced = true
        while index < columns {
            (index, forced) = writeCell(
                row: scratch, column: index, line.cell(index), line: line, edge: columns - 1, forced: forced,
                keepWrap: true, onScratch: true)
        }
        out.csi("\(scratch + 1);\(start + 1);\(scratch + 1);\(columns);1;\(target + 1);\(start + 1)$v")
        sync()
        // Written again as a row already drawn: the wrap that made a spacer
        // at its end is past, so writeCell makes the spacer itself. A spacer
        // made in the half put its placeholder on the row below the scratch
        // row, which may be drawn already: written again too (and still
        // drawn when the draw reaches it).
        let wasDrawing = drawing
        drawing = false
        writeRow(scratch, onScreen[scratch])
        for damaged in damagedRows.subtracting(damagedBefore).sorted() where damaged != target && damaged != scratch {
            writeRow(damaged, onScreen[damaged])
        }
        drawing = wasDrawing
        return true
    }

    /// The right half of the double-size row of a one-row screen, where no
    /// other row can hold it: the whole row is built from its last cell to
    /// its first, each put in column 0 after ICH moved the ones before it
    /// right (ICH reaches the hidden half). A cell that cannot be made in
    /// column 0 (a spacer, a wide character when column 1 is hidden) still
    /// takes its columns, as a blank: in the visible half ``writeRow(_:_:)``
    /// writes it again after; in the hidden half, a spacer is made at the
    /// visible edge and copied over (``copyHiddenSpacers(_:_:)``).
    func insertRow(_ target: Int, _ line: SnapshotLine?) {
        guard let line else { return }
        defer { copyHiddenSpacers(target, line) }
        let edge = lastColumn(line.size)
        for index in stride(from: columns - 1, through: 0, by: -1) {
            let want = line.cell(index)
            if want.width == .wideTail { continue }  // made with its left half
            let width = want.width == .wide ? 2 : 1
            move(row: target, column: 0)
            if isEraseBlank(want) {
                setEraseBackground(want.style.background)
                out.csi("@")
            } else if isPrintable(want) && (width == 1 || edge >= 1) {
                setAttributes(of: Self.emptyCell)
                out.csi(width == 2 ? "2@" : "@")
                printCell(want, edge: edge)
            } else if want.width == .narrow && want.scalars.isEmpty && index >= 1 && edge >= 1 {
                // A blank with more than a background, the half of a wide
                // character that an overwrite left (clearWideOverlap): a
                // placeholder with its style over two inserted columns, its
                // right half overwritten, and that column deleted again.
                setAttributes(of: Self.emptyCell)
                out.csi("2@")
                setPen(want.style)
                setLink(nil)
                setProtected(false)
                printScalars([Self.widePlaceholder], width: 2, edge: edge)
                moveToColumn(1)
                setAttributes(of: Self.emptyCell)
                printScalars([" "], width: 1, edge: edge)
                moveToColumn(1)
                out.csi("P")
            } else {
                setAttributes(of: Self.emptyCell)
                out.csi(width == 2 ? "2@" : "@")
            }
            sync()
        }
    }

    /// Spacers in the hidden half of a double-size row on a one-row
    /// screen: each made at the visible edge, right of margins on the first
    /// two columns, where a wide placeholder that does not fit leaves it
    /// and wraps onto the same row (a line feed outside the margins scrolls
    /// nothing), then copied over with DECCRA (spacers copy as they are).
    /// That wrap marks the row; when it should not be, DCH and ICH in the
    /// first column take the mark off and keep the cells after it. The
    /// visible cells this writes over are written again by
    /// ``writeRow(_:_:)``.
    func copyHiddenSpacers(_ target: Int, _ line: SnapshotLine) {
        let edge = lastColumn(line.size)
        let spacers = (edge + 1..<columns).filter { line.cell($0).width == .wrapSpacer }
        guard !spacers.isEmpty, edge >= 2 else { return }
        sync()
        for index in spacers where shadow.cell(at: ScreenPosition(row: target, column: index)) != line.cell(index) {
            out.csi("?69h")
            out.csi("1;2s")  // DECSLRM homes the cursor
            out.csi("\(target + 1);\(edge + 1)H")
            var style = Style()
            style.background = line.cell(index).style.background
            setPen(style)
            setLink(nil)
            setProtected(false)
            appendCell([Self.widePlaceholder], width: 2)
            out.csi("?69l")
            out.csi("\(target + 1);\(edge + 1);\(target + 1);\(edge + 1);1;\(target + 1);\(index + 1)$v")
            sync()
        }
        if !line.isWrapped && shadow.isWrapped(row: target) {
            move(row: target, column: 0)
            setAttributes(of: Self.emptyCell)
            out.csi("P")
            out.csi("@")
            sync()
        }
    }

    /// The first column ``copyRightHalf(_:_:)`` writes: the one after the
    /// last column of a double-size row, or that column when it holds a
    /// wide character (no print there fits its two cells).
    func rightHalfStart(_ line: SnapshotLine?, edge: Int) -> Int {
        cell(line, edge).width == .wide ? edge : edge + 1
    }

    /// True for a narrow cell that only mode 2027 prints so (VS15 after a
    /// wide emoji), which takes two columns until the selector comes.
    func needsRoomToNarrow(_ cell: CellContent) -> Bool {
        cell.width == .narrow && isPrintable(cell)
            && Terminal.printedWidth(of: cell.scalars, graphemeClustering: false) != 1
            && Terminal.printedWidth(of: [cell.scalars[0]], graphemeClustering: true) == 2
    }

    /// Writes one cell that differs; returns the next column to look at and
    /// whether it must be written whatever it holds (it is the right half of
    /// a placeholder).
    func writeCell(
        row target: Int, column index: Int, _ want: CellContent, line: SnapshotLine?, edge: Int, forced: Bool,
        keepWrap: Bool, onScratch: Bool = false
    ) -> (Int, Bool) {
        switch want.width {
        case .wideTail:
            if index > 0 {
                let head = cell(line, index - 1)
                if head.width == .wide && isPrintable(head) {
                    move(row: target, column: index - 1)
                    printCell(head, edge: edge)
                }
            }
            return (index + 1, false)
        case .wrapSpacer:
            // At the end of a wrapped row, made by the wrap into the next
            // row (wrapIn, wrapBottomRow) while the screen is drawn;
            // anywhere else, or once it is drawn, here.
            if onScratch || !(drawing && index == edge && (line?.isWrapped ?? false)) {
                makeWrapSpacer(row: target, column: index, want, line: line, onScratch: onScratch)
            }
            return (index + 1, false)
        case .narrow, .wide:
            break
        }
        if isPrintable(want) {
            if index == edge && needsRoomToNarrow(want) {
                // Mode 2027 narrows this cluster (VS15) only once its wide
                // base is printed, for which the edge has no room: printed
                // one column left, then copied right with DECCRA (which
                // keeps the row's wrap flag and the cursor); the column
                // left is written again after.
                guard index == columns - 1 && index >= 1 && (line?.size ?? .single) == .single else {
                    return (index + 1, false)
                }
                move(row: target, column: index - 1)
                printCell(want, edge: edge)
                out.csi("\(target + 1);\(index);\(target + 1);\(index);1;\(target + 1);\(index + 1)$v")
                return (index + 1, false)
            }
            move(row: target, column: index)
            printCell(want, edge: edge)
            return (index + (want.width == .wide ? 2 : 1), false)
        }
        let lastErasable = keepWrap ? min(edge, columns - 2) : edge
        if isEraseBlank(want) && index <= lastErasable {
            var end = index + 1
            while end <= lastErasable && cell(line, end) == want { end += 1 }
            move(row: target, column: index)
            if forced {
                // The right half of a placeholder: a narrow character first,
                // or the erase would widen to the left half.
                printScalars([" "], width: 1, edge: edge)
                moveToColumn(index)
            }
            setEraseBackground(want.style.background)
            if end == columns && !keepWrap {
                out.csi("K")
            } else {
                out.csi(end - index == 1 ? "X" : "\(end - index)X")
            }
            return (end, false)
        }
        // A blank with more than a background: the left half of a wide
        // character whose right half was overwritten keeps the character's
        // style (clearWideOverlap). Print a placeholder and overwrite its
        // right half with the next cell.
        if index + 1 <= edge {
            move(row: target, column: index)
            setPen(want.style)
            setLink(nil)
            setProtected(false)
            printScalars([Self.widePlaceholder], width: 2, edge: edge)
            moveToColumn(index + 1)
            return (index + 1, true)
        }
        if index >= 1 {
            // The last column: the placeholder's right half is blanked by a
            // narrow write over its left half instead.
            move(row: target, column: index - 1)
            setPen(want.style)
            setLink(nil)
            setProtected(false)
            printScalars([Self.widePlaceholder], width: 2, edge: edge)
            if let line { fixEndAfterPlaceholder(line, row: target, edge: index) }
        }
        return (index + 1, false)
    }
}
