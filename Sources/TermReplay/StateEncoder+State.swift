import TermCore

// The state that is not cells: saved cursors, kitty keyboard stacks, tab
// stops, and last the live state (margins, modes, cursor, pen, charsets).

extension StateEncoder {
    static let designators = ["(", ")", "*", "+"]

    /// Designations and GL as `sets` has them, from the power-on state.
    func writeCharacterSets(_ sets: CharacterSets, withSingleShift: Bool) {
        for (index, set) in sets.designations.enumerated() where set != .ascii {
            out.esc(Self.designators[index] + String(UnicodeScalar(set.finalByte)))
        }
        switch sets.gl {
        case 1: out.append(0x0E)  // SO
        case 2: out.esc("n")  // LS2
        case 3: out.esc("o")  // LS3
        default: break
        }
        if withSingleShift, let shift = sets.singleShift { out.esc(shift == 2 ? "N" : "O") }
    }

    /// Back to the power-on character sets after ``writeCharacterSets``.
    func resetCharacterSets(_ sets: CharacterSets) {
        if sets.gl != 0 { out.append(0x0F) }  // SI
        for (index, set) in sets.designations.enumerated() where set != .ascii {
            out.esc(Self.designators[index] + "B")
        }
    }

    /// What DECRC would restore from `saved`, or nil when that is the
    /// power-on state (nothing to write). A resize can leave a saved position
    /// off the screen (the engine clamps only some saved cursors); DECRC
    /// clamps it into the screen (xterm's CursorRestore,
    /// TerminalState.restoreCursor), so that is the position that can be
    /// saved and restored again.
    func restorable(_ saved: SavedCursorState?) -> SavedCursorState? {
        guard var saved else { return nil }
        saved.position = ScreenPosition(
            row: min(saved.position.row, rows - 1), column: min(saved.position.column, columns - 1))
        return saved == .powerOn ? nil : saved
    }

    /// DECSC with `stored`'s contents, on the screen being drawn. Nothing
    /// saved and the power-on state restore the same, so neither is written,
    /// unless drawing the screen used DECSC (`printApart`).
    func writeSavedCursor(_ stored: SavedCursorState?, lines: [SnapshotLine?]) {
        defer { savedCursorUsed = false }
        guard let saved = restorable(stored) ?? (savedCursorUsed ? .powerOn : nil) else { return }
        sync()
        // DECRC can put the cursor past the half of a double-width row,
        // where no move reaches: the row is made single width for DECSC and
        // written again after, size and cells.
        let storedSize = lines[saved.position.row]?.size ?? .single
        let pastHalf = storedSize != .single && saved.position.column > lastColumn(storedSize)
        if pastHalf {
            move(row: saved.position.row, column: 0)
            out.esc("#5")  // DECSWL
            sync()
        }
        // A pending wrap in the first column of a row wider than that: only
        // a double-width row one column wide (a screen of two or three
        // columns) makes it. The row is made one for DECSC and written
        // again after.
        let firstColumnEdge =
            saved.pendingWrap && saved.position.column == 0 && !pastHalf && lastColumn(storedSize) > 0
            && columns <= 3
        if firstColumnEdge {
            move(row: saved.position.row, column: 0)
            out.esc("#6")  // DECDWL
            sync()
        }
        let size: LineSize = pastHalf ? .single : firstColumnEdge ? .doubleWidth : storedSize
        // A pending wrap left of the last column (DECSC at a right margin,
        // which holds on double-width rows too): made under a right margin
        // in that column, reset after DECSC.
        let marginEdge =
            saved.pendingWrap && saved.position.column >= 1
                && saved.position.column < lastColumn(size)
            ? saved.position.column : nil
        if let marginEdge {
            out.csi("?69h")
            out.csi("1;\(marginEdge + 1)s")  // DECSLRM homes the cursor
            row = 0
            column = 0
            pendingWrap = false
        }
        if saved.originMode {
            out.csi("?6h")  // homes the cursor; the region is the whole screen
            row = 0
            column = 0
            pendingWrap = false
        }
        let position = saved.position
        let line = lines[position.row]
        move(row: position.row, column: position.column)
        if saved.pendingWrap {
            makePendingWrap(
                line: line, row: position.row, edge: marginEdge ?? lastColumn(size),
                keepsRowWrap: line?.isWrapped ?? false)
        }
        setPen(saved.style)
        setProtected(saved.isProtected)
        writeCharacterSets(saved.characterSets, withSingleShift: true)
        out.esc("7")  // DECSC
        if saved.characterSets.singleShift != nil {
            // Only printing ends a single shift: print, then restore the cell.
            moveToColumn(column)
            out.append(UInt8(ascii: "x"))
        }
        resetCharacterSets(saved.characterSets)
        if saved.originMode { out.csi("?6l") }
        if marginEdge != nil { out.csi("?69l") }
        sync()
        // The cells a pending wrap or a single shift was made with, and the
        // row made single width.
        if saved.pendingWrap || saved.characterSets.singleShift != nil || pastHalf || firstColumnEdge {
            onScreen = lines
            damagedRows = []
            writeRow(position.row, line)
            // A spacer made again there wrote into the row below.
            for damaged in damagedRows.sorted() where damaged != position.row { writeRow(damaged, lines[damaged]) }
            damagedRows = []
        }
    }

    /// Rebuilds a kitty keyboard flags stack on the screen shown: set the
    /// oldest entry, push the others (each push saves the flags in force).
    func writeKittyStack(_ stack: [UInt8]) {
        guard let first = stack.first else { return }
        out.csi("=\(first)u")
        for flags in stack.dropFirst() { out.csi(">\(flags)u") }
        out.csi(">0u")
    }

    func writeTabStops() {
        guard let stops = capture.tabStops else { return }
        sync()
        out.csi("3g")  // TBC: clear all
        // HTS needs the cursor in the stop's column: on a double-width row
        // only the left half is reachable, so use a single-width row.
        guard let singleRow = (0..<rows).first(where: { shadow.lineSize(row: $0) == .single }) else { return }
        if singleRow != row { move(row: singleRow, column: 0) }
        for stop in stops {
            moveToColumn(stop)
            out.esc("H")  // HTS
        }
    }

    /// DECSTR turns protection off (xterm's `ReallyReset`): when the mode
    /// wanted is off but the cells were drawn with DECSCA, a DECSTR before
    /// the live state (which writes everything else DECSTR resets) turns it
    /// off again. With the mode off only DECRC can protect the pen again, so
    /// a protected saved cursor, or a protected pen, comes from DECRC of a
    /// saved cursor that is protected: the DECSTR goes to the screen whose
    /// saved cursor it can home, and that one is written again after it.
    func resetProtectionMode() {
        sync()
        guard capture.protectionMode == .off && shadow.protectionMode != .off else { return }
        let shown = capture.isAlternateScreen
        func saved(_ alternate: Bool) -> SavedCursorState? {
            restorable(alternate ? capture.savedAlternate : capture.savedPrimary)
        }
        func show(_ alternate: Bool) {
            sync()
            if shadow.isAlternateScreen != alternate { out.csi(alternate ? "?47h" : "?47l") }
        }
        // A screen whose saved cursor is protected (the other one first),
        // and the one the DECSTR homes.
        let source = [!shown, shown].first { saved($0)?.isProtected == true }
        let reset = source.map { !$0 } ?? shown
        func restoreProtection() {
            guard let source else { return }
            show(source)
            out.esc("8")  // DECRC: the pen protected, the mode left off
            sync()
            if shadow.modes.origin { out.csi("?6l") }  // the saved cursors are written without it
            // DECRC brought the saved character sets back too: the live
            // state writes the wanted ones from the power-on sets. Only a
            // print ends a single shift it brought back: one over a blank an
            // erase left, which DECERA makes again without touching the
            // pen's protection.
            resetCharacterSets(shadow.characterSets)
            sync()
            if shadow.characterSets.singleShift != nil {
                let lines = screenLines(alternate: source)
                let blank = (0..<rows).lazy.flatMap { row in (0..<self.columns).lazy.map { (row, $0) } }
                    .first {
                        self.isEraseBlank(self.cell(lines[$0.0], $0.1)) && (lines[$0.0]?.size ?? .single) == .single
                    }
                if let (row, column) = blank {
                    out.csi("\(row + 1);\(column + 1)H")
                    out.append(UInt8(ascii: "x"))
                    sync()
                    pen = shadow.pen
                    eraseInPlace(row: row, column: column, background: cell(lines[row], column).style.background)
                } else if let (printed, copy) = equalNeighbours(lines) {
                    // No such blank (DECALN filled the screen): the print
                    // goes over a cell that has a neighbour equal to it, and
                    // DECCRA (which leaves the pen alone) copies that one back.
                    out.csi("\(printed.row + 1);\(printed.column + 1)H")
                    out.append(UInt8(ascii: "x"))
                    let (from, to) = (copy, printed)
                    out.csi(
                        "\(from.row + 1);\(from.column + 1);\(from.row + 1);\(from.column + 1);1;"
                            + "\(to.row + 1);\(to.column + 1)$v")
                }
                sync()
            }
            pen = shadow.pen
            link = shadow.penHyperlink
            isProtected = shadow.isPenProtected
        }
        show(reset)
        out.csi("!p")  // DECSTR
        sync()
        pen = shadow.pen
        link = shadow.penHyperlink
        isProtected = shadow.isPenProtected
        if let cursor = saved(reset) {
            if cursor.isProtected { restoreProtection() }
            show(reset)
            writeSavedCursor(cursor, lines: screenLines(alternate: reset))
        }
        if capture.penProtected && !isProtected { restoreProtection() }
        show(shown)
    }

    /// Two cells side by side or one above the other that are the same
    /// narrow cell, the first on a single-width row (where a print reaches
    /// it), or nil.
    func equalNeighbours(_ lines: [SnapshotLine?]) -> (ScreenPosition, ScreenPosition)? {
        for row in 0..<rows where (lines[row]?.size ?? .single) == .single {
            for column in 0..<columns {
                let here = cell(lines[row], column)
                guard here.width == .narrow else { continue }
                let position = ScreenPosition(row: row, column: column)
                if column + 1 < columns && cell(lines[row], column + 1) == here {
                    return (position, ScreenPosition(row: row, column: column + 1))
                }
                if row + 1 < rows && cell(lines[row + 1], column) == here {
                    return (position, ScreenPosition(row: row + 1, column: column))
                }
            }
        }
        return nil
    }

    /// The pen's protection and the protection mode, after every cell: the
    /// DECSCA the protected cells were printed with made the mode DEC, and
    /// only SPA makes it ISO (the mode decides which erases keep them).
    func writeProtection() {
        switch capture.protectionMode {
        case .off:
            // EPA ends the pen's protection without setting a mode.
            if isProtected && !capture.penProtected { out.esc("W") } else { setProtected(capture.penProtected) }
        case .dec:
            out.csi(capture.penProtected ? "1\"q" : "0\"q")
        case .iso:
            out.esc("V")  // SPA
            if !capture.penProtected { out.esc("W") }  // EPA
        }
        isProtected = capture.penProtected
    }

    /// Margins, modes, cursor, pen, link, protection, character sets, and
    /// the modes that would change how the stream above is read.
    func writeLiveState() {
        resetProtectionMode()
        sync()
        let modes = capture.modes
        let region = capture.scrollRegion
        if region != 0...(rows - 1) { out.csi("\(region.lowerBound + 1);\(region.upperBound + 1)r") }
        let margins = capture.horizontalMargins
        if modes.leftRightMargins {
            out.csi("?69h")
            if margins != 0...(columns - 1) { out.csi("\(margins.lowerBound + 1);\(margins.upperBound + 1)s") }
        }
        var set: [Int] = []
        if modes.applicationCursorKeys { set.append(1) }
        if modes.smoothScroll { set.append(4) }
        if modes.reverseVideo { set.append(5) }
        if modes.printFormFeed { set.append(18) }
        if modes.printFullScreen { set.append(19) }
        if modes.backarrowSendsBackspace { set.append(67) }
        if modes.allowColumnSwitch { set.append(40) }
        if modes.reverseWrap { set.append(45) }
        switch modes.mouseTracking {
        case .none: break
        case .x10: set.append(9)
        case .normal: set.append(1000)
        case .buttonEvent: set.append(1002)
        case .anyEvent: set.append(1003)
        }
        switch modes.mouseEncoding {
        case .legacy: break
        case .utf8: set.append(1005)
        case .sgr: set.append(1006)
        case .urxvt: set.append(1015)
        case .sgrPixels: set.append(1016)
        }
        if modes.focusEvents { set.append(1004) }
        if modes.alternateScroll { set.append(1007) }
        if modes.bracketedPaste { set.append(2004) }
        if modes.synchronizedOutput { set.append(2026) }
        if !set.isEmpty { out.csi("?" + set.map(String.init).joined(separator: ";") + "h") }
        var reset: [Int] = []
        if !modes.cursorVisible { reset.append(25) }
        if !modes.allowColumnSwitch && shadow.modes.allowColumnSwitch { reset.append(40) }
        switch (modes.cursorShape, modes.cursorBlink) {
        case (.block, true): break
        case (.block, false): reset.append(12)
        case (.underline, let blink): out.csi(blink ? "3 q" : "4 q")
        case (.bar, let blink): out.csi(blink ? "5 q" : "6 q")
        }
        if !reset.isEmpty { out.csi("?" + reset.map(String.init).joined(separator: ";") + "l") }
        if modes.applicationKeypad { out.esc("=") }
        if modes.kittyKeyboardFlags != 0 { out.csi("=\(modes.kittyKeyboardFlags)u") }
        if modes.origin { out.csi("?6h") }
        // Autowrap off before the cursor: DECAWM reset ends a pending wrap,
        // which then only DECRC brings back (writeCursor).
        if !modes.autowrap { out.csi("?7l") }
        writeCursor()
        setPen(capture.pen)
        setLink(capture.penLink)
        writeProtection()
        writeCharacterSets(capture.characterSets, withSingleShift: true)
        // Cells were printed in the mode 2027 setting each needed (the
        // cursor's pending wrap too): the one wanted comes last.
        if modes.graphemeClustering != clustering { out.csi(modes.graphemeClustering ? "?2027h" : "?2027l") }
        var ansi: [Int] = []
        if modes.keyboardLocked { ansi.append(2) }  // KAM
        if modes.insert { ansi.append(4) }
        if modes.newline { ansi.append(20) }
        if !ansi.isEmpty { out.csi(ansi.map(String.init).joined(separator: ";") + "h") }
        if !modes.sendReceive { out.csi("12l") }  // SRM is set at power-on
    }

    /// CUP to the cursor (relative to the margins under DECOM); a pending
    /// wrap is made by printing the character under the cursor again, last.
    func writeCursor() {
        let cursor = capture.cursor
        let modes = capture.modes
        let rowOffset = modes.origin ? capture.scrollRegion.lowerBound : 0
        let columnOffset = modes.origin && modes.leftRightMargins ? capture.horizontalMargins.lowerBound : 0
        func cup(_ target: ScreenPosition) {
            let rowParameter = target.row - rowOffset + 1
            let columnParameter = target.column - columnOffset + 1
            if rowParameter == 1 && columnParameter == 1 {
                out.csi("H")
            } else if columnParameter == 1 {
                out.csi("\(rowParameter)H")
            } else {
                out.csi("\(rowParameter);\(columnParameter)H")
            }
        }
        let position = cursor.position
        let lines = screenLines(alternate: capture.isAlternateScreen)
        let line = lines[position.row]
        // A pending wrap is made by printing the character under the cursor
        // again (the left half of a wide one), so the cursor goes there.
        var target = position
        var reprint: CellContent?
        if cursor.pendingWrap {
            var character = cell(line, position.column)
            if character.width == .wideTail && position.column > 0 {
                target.column -= 1
                character = cell(line, target.column)
            }
            if isPrintable(character) { reprint = character } else { target = position }
        }
        // A blank under a pending wrap: a space waits there, and DECERA
        // (which keeps the wrap, unlike ECH and EL) blanks it again, unless
        // that would also clear the row's wrap flag (DECERA to the last
        // column does).
        let under = cell(line, position.column)
        let margins = capture.horizontalMargins
        var edge =
            modes.leftRightMargins && position.column <= margins.upperBound
            ? margins.upperBound : lastColumn(line?.size ?? .single)
        // A pending wrap left of the last column with no margins in force
        // (DECLRMM was reset after it): made under a right margin in that
        // column, reset again.
        let marginEdge =
            cursor.pendingWrap && !modes.leftRightMargins && position.column >= 1 && position.column < edge
        if marginEdge { edge = position.column }
        // DECERA's rectangle is relative to the region and margins under
        // DECOM: it cannot name a cell outside them.
        let erasable =
            !modes.origin
            || (capture.scrollRegion.contains(position.row)
                && (!modes.leftRightMargins || margins.contains(position.column)))
        let blankWrap =
            cursor.pendingWrap && reprint == nil && isEraseBlank(under) && position.column == edge && erasable
            && !(position.column == columns - 1 && (line?.isWrapped ?? false))
        // Else the other screen's character in that place, printed there
        // again (DECSET/DECRST 47 keep the cursor and its pending wrap).
        var otherReprint: CellContent?
        if cursor.pendingWrap && reprint == nil && !blankWrap && position.column == edge && !marginEdge {
            let otherLine = screenLines(alternate: !capture.isAlternateScreen)[position.row]
            var character = cell(otherLine, position.column)
            var otherTarget = position
            if character.width == .wideTail && position.column > 0 {
                otherTarget.column -= 1
                character = cell(otherLine, otherTarget.column)
            }
            if (otherLine?.size ?? .single) == (line?.size ?? .single) && isPrintable(character)
                && !needsRoomToNarrow(character)
            {
                otherReprint = character
                target = otherTarget
            }
        }
        // Else a blank in that place on the other screen, made as a blank
        // under the cursor is: how a pending wrap over a wrap spacer (SD
        // keeps the pending wrap as it scrolls a wrapped row under it, as in
        // xterm and Ghostty) is made, since no print leaves one there.
        let otherLine = screenLines(alternate: !capture.isAlternateScreen)[position.row]
        let otherUnder = cell(otherLine, position.column)
        let otherBlankWrap =
            cursor.pendingWrap && reprint == nil && !blankWrap && otherReprint == nil && position.column == edge
            && !marginEdge && erasable && (otherLine?.size ?? .single) == (line?.size ?? .single)
            && isEraseBlank(otherUnder) && !(position.column == columns - 1 && (otherLine?.isWrapped ?? false))
        let wrapMade = reprint != nil || blankWrap || otherReprint != nil || otherBlankWrap
        // A cluster VS15 narrowed from a wide base needs two columns to be
        // printed: printed one column left, a space waits under the cursor,
        // DECCRA copies the cluster over it (keeping the pending wrap) and
        // the column left is made again in place (as makePendingWrap does).
        let leftOfCursor = target.column >= 1 ? cell(line, target.column - 1) : Self.emptyCell
        let narrowedCopy =
            reprint.map(needsRoomToNarrow) == true && !modes.origin && target.column >= 1
            && target.column - 1 >= (modes.leftRightMargins ? margins.lowerBound : 0)
            && (leftOfCursor == reprint || restoresInPlace(leftOfCursor))
        func finish() {
            if let reprint, narrowedCopy {
                out.csi("D")  // CUB
                setAttributes(of: reprint)
                appendCell(reprint.scalars, width: 1)
                setAttributes(of: Self.emptyCell)
                appendCell([" "], width: 1)
                let (row, column) = (target.row + 1, target.column + 1)
                out.csi("\(row);\(column - 1);\(row);\(column - 1);1;\(row);\(column)$v")
                if leftOfCursor != reprint { restoreInPlace(leftOfCursor, row: target.row, column: target.column - 1) }
            } else if let reprint {
                setAttributes(of: reprint)
                appendCell(reprint.scalars, width: reprint.width == .wide ? 2 : 1)
            } else if blankWrap {
                waitOverBlank(background: under.style.background)
            } else if let otherReprint {
                onOtherScreen {
                    setAttributes(of: otherReprint)
                    appendCell(otherReprint.scalars, width: otherReprint.width == .wide ? 2 : 1)
                }
            } else if otherBlankWrap {
                onOtherScreen { waitOverBlank(background: otherUnder.style.background) }
            }
        }
        /// A space under the cursor makes the pending wrap, and DECERA blanks
        /// it again with `background`.
        func waitOverBlank(background: TerminalColor) {
            setAttributes(of: Self.emptyCell)
            appendCell([" "], width: 1)
            setEraseBackground(background)
            let row = position.row - rowOffset + 1
            let column = position.column - columnOffset + 1
            out.csi("\(row);\(column);\(row);\(column)$z")
        }
        /// `body` on the screen not shown (DECSET/DECRST 47 keep the cursor).
        func onOtherScreen(_ body: () -> Void) {
            out.csi(capture.isAlternateScreen ? "?47l" : "?47h")
            body()
            out.csi(capture.isAlternateScreen ? "?47h" : "?47l")
        }
        // A cursor that CUP cannot reach (DECRC put it outside the scroll
        // region under DECOM, or past the half of a double-width row):
        // DECRC puts the cursor back on the saved cell whatever the region,
        // and CUU, CUD, CUF and CUB from there reach the cells that do not
        // lie across the region or a margin (TermCore's verticalBounds).
        let region = capture.scrollRegion
        // A pending wrap left of the edge under margins in force cannot be
        // made by printing either (DECSLRM would home the cursor after it),
        // nor one with autowrap off: only DECRC of a cursor saved exactly so
        // brings it back.
        let wrapUnmakeable =
            cursor.pendingWrap && ((modes.leftRightMargins && position.column != edge) || !modes.autowrap)
        let unreachable =
            (modes.origin && !region.contains(target.row)) || target.column > lastColumn(line?.size ?? .single)
            || (modes.origin && modes.leftRightMargins && !capture.horizontalMargins.contains(target.column))
            || wrapUnmakeable
        // The saved cursor of the screen shown, or else the other screen's:
        // DECSET/DECRST 47 around DECRC switch screens and keep the cursor.
        let candidates = [
            (capture.isAlternateScreen ? capture.savedAlternate : capture.savedPrimary, false),
            (capture.isAlternateScreen ? capture.savedPrimary : capture.savedAlternate, true),
        ]
        for (stored, otherScreen) in candidates where unreachable {
            let saved = restorable(stored) ?? .powerOn
            guard saved.originMode == modes.origin else { continue }
            // DECRC restores a pending single shift, which only a print
            // ends: the print that makes a pending wrap, or else the cell
            // left of the cursor printed again (into G2/G3 as ASCII, so the
            // same character).
            var endsShift: (cell: CellContent, width: Int, column: Int)?
            if let shift = saved.characterSets.singleShift, capture.characterSets.singleShift == nil {
                guard saved.characterSets.designations[shift] == .ascii, !wrapUnmakeable else { continue }
                if !wrapMade {
                    // The character left of the cursor (its left half when
                    // wide), which a print there ends on the cursor: after
                    // it, or on its right half in the last column with
                    // autowrap off.
                    var head = target.column - 1
                    var left = head >= 0 ? cell(line, head) : Self.emptyCell
                    if left.width == .wideTail && head >= 1 {
                        head -= 1
                        left = cell(line, head)
                    }
                    var width = left.width == .wide ? 2 : 1
                    let endsOnCursor =
                        head + width == target.column
                        || (!modes.autowrap && head + 1 == target.column && target.column == edge)
                    if !(left.width == .wide || left.width == .narrow) || !isPrintable(left) || !endsOnCursor {
                        // In the last column with autowrap off, a print of
                        // the cursor's own character leaves the cursor there.
                        let own = cell(line, target.column)
                        guard !modes.autowrap, target.column == edge, own.width == .narrow, isPrintable(own) else {
                            continue
                        }
                        (left, head, width) = (own, target.column, 1)
                    }
                    endsShift = (left, width, head)
                }
            }
            let exact = saved.position == position && saved.pendingWrap == cursor.pendingWrap && endsShift == nil
            var stop = target
            if let endsShift { stop.column = endsShift.column }
            guard exact || !wrapUnmakeable,
                let moves = exact
                    ? []
                    : relativeMoves(
                        from: saved, to: stop, line: line,
                        clearsWrap: !wrapMade)
            else { continue }
            let toggle = capture.isAlternateScreen ? "?47l" : "?47h"
            if otherScreen { out.csi(toggle) }
            out.esc("8")
            if otherScreen { out.csi(capture.isAlternateScreen ? "?47h" : "?47l") }
            pen = saved.style
            isProtected = saved.isProtected
            resetCharacterSets(saved.characterSets)
            for move in moves { out.csi(move) }
            if let (left, width, column) = endsShift {
                // Only a print through the charsets ends a shift: an ASCII
                // first scalar is that print (marks after it join the cell
                // again); else an ASCII letter is, and the character is
                // printed over it, as UTF-8 no charset maps.
                setAttributes(of: left)
                if let first = left.scalars.first, width == 1, (0x20..<0x7F).contains(first.value) {
                    appendCell(left.scalars, width: 1)
                } else {
                    out.append(UInt8(ascii: "x"))
                    if column < edge { out.csi("D") }  // in the last column with autowrap off it stays
                    appendCell(left.scalars, width: width)
                }
            }
            if !exact { finish() }
            return
        }
        // Past the half of a double-width row (CUU, CUD, LF and VPA keep the
        // column, CUP and CHA stop at the half): CUP to that column on a
        // single-width row, then CUU or CUD, which keep it.
        if !cursor.pendingWrap, target.column > lastColumn(line?.size ?? .single),
            let start = singleWidthRow(reaching: target, lines: lines)
        {
            cup(ScreenPosition(row: start, column: target.column))
            if start > target.row { out.csi("\(start - target.row)A") }
            if start < target.row { out.csi("\(target.row - start)B") }
            return
        }
        if marginEdge {
            out.csi("?69h")
            out.csi("1;\(edge + 1)s")
        }
        if cursor.pendingWrap && position.column == 0 && edge > 0 && columns <= 3 && !modes.leftRightMargins
            && (line?.size ?? .single) == .single
        {
            waitInFirstColumn(line: line, position: position, cup: cup, waitOverBlank: waitOverBlank)
            return
        }
        cup(target)
        finish()
        if marginEdge { out.csi("?69l") }
    }

    /// A pending wrap in the first column of a single-width row two or
    /// three columns wide: only a double-width row (then one column wide)
    /// makes it, and DECSWL keeps it (xterm's repaint_line keeps the wrap
    /// state; so does TermCore). DECDWL erases the rest of the row with the
    /// pen's background, made that of the blank after the cursor; the cells
    /// there that differ are made again by DECERA and DECFRA, which keep the
    /// pending wrap. A cell neither makes (not one Latin-1 character) stays
    /// blank.
    func waitInFirstColumn(
        line: SnapshotLine?, position: ScreenPosition, cup: (ScreenPosition) -> Void,
        waitOverBlank: (TerminalColor) -> Void
    ) {
        let under = cell(line, 0)
        guard (isPrintable(under) && under.width == .narrow) || isEraseBlank(under) else {
            cup(position)
            return
        }
        let next = cell(line, 1)
        let erased = isEraseBlank(next) ? next.style.background : .default
        cup(position)
        setEraseBackground(erased)
        out.esc("#6")  // DECDWL: the cursor's column is now the last
        if isPrintable(under) {
            setAttributes(of: under)
            appendCell(under.scalars, width: 1)
        } else {
            waitOverBlank(under.style.background)
        }
        out.esc("#5")  // DECSWL
        let row = position.row - (capture.modes.origin ? capture.scrollRegion.lowerBound : 0) + 1
        for index in 1..<columns {
            let want = cell(line, index)
            if isEraseBlank(want) {
                guard want.style.background != erased else { continue }
                setEraseBackground(want.style.background)
                out.csi("\(row);\(index + 1);\(row);\(index + 1)$z")  // DECERA
            } else if want.width == .narrow, want.hyperlink == nil, !want.isProtected, want.scalars.count == 1,
                let value = want.scalars.first?.value, (33...126).contains(value) || (160...255).contains(value)
            {
                setPen(want.style)
                setProtected(false)
                out.csi("\(value);\(row);\(index + 1);\(row);\(index + 1)$x")  // DECFRA
            }
        }
    }

    /// The nearest single-width row CUP can reach (inside the scroll region
    /// under DECOM) from which CUU or CUD reach `target`'s row: they stop at
    /// the region's margin when they start inside it (`verticalBounds`).
    func singleWidthRow(reaching target: ScreenPosition, lines: [SnapshotLine?]) -> Int? {
        let region = capture.scrollRegion
        let candidates = (0..<rows).filter { (lines[$0]?.size ?? .single) == .single }
            .filter { !capture.modes.origin || region.contains($0) }
            .filter { row in
                let top = row >= region.lowerBound ? region.lowerBound : 0
                let bottom = row <= region.upperBound ? region.upperBound : rows - 1
                return (top...bottom).contains(target.row)
            }
        return candidates.min { abs($0 - target.row) < abs($1 - target.row) }
    }

    /// CUU, CUD, CUF and CUB that take the cursor from the saved cell to
    /// `target` under the margins in force at the end, or nil when the
    /// bounds those moves keep to (xterm, TermCore's `verticalBounds`,
    /// `cursorForward`, `cursorBackward`) stop them short. `clearsWrap`: the
    /// moves must end a pending wrap DECRC restores, even with no distance
    /// to go.
    func relativeMoves(from saved: SavedCursorState, to target: ScreenPosition, line: SnapshotLine?, clearsWrap: Bool)
        -> [String]?
    {
        let region = capture.scrollRegion
        let margins = capture.modes.leftRightMargins ? capture.horizontalMargins : 0...(columns - 1)
        var moves: [String] = []
        let from = saved.position
        let top = from.row >= region.lowerBound ? region.lowerBound : 0
        let bottom = from.row <= region.upperBound ? region.upperBound : rows - 1
        guard (top...bottom).contains(target.row) else { return nil }
        if target.row < from.row { moves.append("\(from.row - target.row)A") }
        if target.row > from.row { moves.append("\(target.row - from.row)B") }
        let forwardLimit = min(
            from.column <= margins.upperBound ? margins.upperBound : columns - 1, lastColumn(line?.size ?? .single))
        let backwardLimit = from.column >= margins.lowerBound ? margins.lowerBound : 0
        if target.column > from.column {
            guard target.column <= forwardLimit else { return nil }
            moves.append("\(target.column - from.column)C")
        } else if target.column < from.column {
            guard target.column >= backwardLimit else { return nil }
            moves.append("\(from.column - target.column)D")
        } else if moves.isEmpty && saved.pendingWrap && clearsWrap {
            // No distance: a move that stays where it is ends the wrap.
            if from.column >= forwardLimit {
                moves.append("C")
            } else if from.column <= backwardLimit {
                moves.append("D")
            } else {
                moves += ["D", "C"]
            }
        }
        return moves
    }
}
