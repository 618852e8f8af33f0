import TermCore

/// Writes an escape stream that rebuilds a ``StateCapture`` in a fresh
/// terminal of the same size.
///
/// The encoder feeds what it writes into a shadow terminal as it goes and
/// reads the shadow back, so it always knows where the cursor is and which
/// cells still differ: each row is written as the difference between the
/// shadow's row and the wanted one, and written again until they agree (a
/// write can disturb a neighbouring half of a wide character). Rows leave the
/// screen for the scrollback only after they agree.
///
/// The order of the stream: titles and the title stack, colours, the primary
/// screen's scrollback and rows (printing lines that scroll off, letting
/// soft-wrapped lines wrap), its saved cursor and kitty stack, the alternate
/// screen (DECSET 47 shows it without clearing), the tab stops, and last the
/// live state: margins, modes, cursor (a pending wrap is made by printing the
/// last column's character last), pen, link, character sets.
package final class StateEncoder {
    let capture: StateCapture
    let shadow: Terminal
    var out = ANSIBytes()
    private var fed = 0

    // What the shadow will be in once `out` is fed: the encoder's model,
    // refreshed from the shadow at every `sync()`.
    var pen = Style()
    var link: Hyperlink?
    var isProtected = false
    var row = 0
    var column = 0
    var pendingWrap = false
    /// False while a scroll region is set, when LF at its bottom would scroll.
    var regionIsFull = true
    /// Mode 2027 in the shadow: cells are printed in the setting that gives
    /// them back whole and as wide as they are (``appendCell(_:width:)``),
    /// and the setting wanted at the end is made last.
    var clustering = false
    /// True while ``drawScreen(_:historyCount:)`` runs: a spacer at the end
    /// of a wrapped row is then made by the wrap into the next row.
    var drawing = false
    /// True once `printApart` used DECSC on the screen being drawn: its
    /// saved cursor must then be written even when it is the power-on one.
    var savedCursorUsed = false
    /// Rows a spacer made after the screen was drawn wrote a placeholder
    /// into (``makeWrapSpacer(row:column:_:line:)``), to be written again.
    var damagedRows: Set<Int> = []
    /// What each screen row should hold now, as far as the stream has got
    /// (rows not drawn yet are empty): a scratch row is restored from it.
    var onScreen: [SnapshotLine?] = []

    /// A character two columns wide in every width table, used to make the
    /// wide-character states that have no direct sequence.
    static let widePlaceholder: Unicode.Scalar = "\u{4E00}"

    /// An encoder for a terminal that starts at `startColumns` (a terminal
    /// that DECCOLM switched to 80 or 132 columns starts elsewhere).
    package init(capture: StateCapture, scrollback: Int, startColumns: Int? = nil) {
        self.capture = capture
        shadow = Terminal(columns: startColumns ?? capture.columns, rows: capture.rows, scrollback: scrollback)
    }

    var columns: Int { capture.columns }
    var rows: Int { capture.rows }

    /// Feeds what was written since the last call into the shadow and takes
    /// the cursor from it.
    func sync() {
        feedShadow()
        let cursor = shadow.cursor
        row = cursor.position.row
        column = cursor.position.column
        pendingWrap = cursor.pendingWrap
        clustering = shadow.modes.graphemeClustering
    }

    /// Feeds what was written since the last call into the shadow, leaving
    /// the encoder's model as it is.
    func feedShadow() {
        if fed < out.bytes.count {
            shadow.feed(out.bytes[fed...])
            fed = out.bytes.count
        }
    }

    /// Appends the scalars of one cell `width` columns wide. A cell printed
    /// with mode 2027 on or off is as wide as that mode made it (VS16 widens
    /// a cluster only with the mode on, VS15 narrows one only then, a flag or
    /// a ZWJ sequence is one cell only then): the mode is switched when the
    /// one in force would print the scalars otherwise. With the mode on, a
    /// first scalar that would continue the character left of the cursor
    /// (TermCore judges from that cell's scalars) is kept apart from it.
    func appendCell(_ scalars: [Unicode.Scalar], width: Int) {
        let runs = printRuns(for: scalars, width: width)
        setClustering(runs[0].clustering)
        if clustering, let first = scalars.first, let left = characterLeftOfShadowCursor(),
            Terminal.joinsCluster(first, afterCell: left.content.scalars)
        {
            if Terminal.printedWidth(of: scalars, graphemeClustering: false) == width {
                // Printed with the mode off, where it joins nothing.
                setClustering(false)
                for scalar in scalars { out.append(scalar: scalar) }
                return
            }
            if drawing && printApart({ self.append(scalars, in: runs) }, from: left) { return }
        }
        append(scalars, in: runs)
    }

    /// The runs of a cell's scalars with the setting of mode 2027 each is
    /// printed with: all in the setting in force when it prints them as
    /// the cell holds them, else all in the other, else the fewest
    /// switches (`Terminal.printRuns`).
    func printRuns(for scalars: [Unicode.Scalar], width: Int) -> [(clustering: Bool, count: Int)] {
        let off = Terminal.printedWidth(of: scalars, graphemeClustering: false) == width
        let on = Terminal.printedWidth(of: scalars, graphemeClustering: true) == width
        if clustering ? on : off { return [(clustering, scalars.count)] }
        if on || off { return [(on, scalars.count)] }
        return Terminal.printRuns(of: scalars, width: width, clustering: clustering) ?? [(clustering, scalars.count)]
    }

    /// Writes `scalars`, switching mode 2027 before each run.
    func append(_ scalars: [Unicode.Scalar], in runs: [(clustering: Bool, count: Int)]) {
        var index = 0
        for run in runs {
            setClustering(run.clustering)
            for scalar in scalars[index..<(index + run.count)] { out.append(scalar: scalar) }
            index += run.count
        }
    }

    func setClustering(_ on: Bool) {
        guard on != clustering else { return }
        out.csi(on ? "?2027h" : "?2027l")
        clustering = on
    }

    /// The character a print at the shadow's cursor would join (the
    /// cursor's own cell under a pending wrap, else the cell left of it, the
    /// left half of a wide one), or nil over a blank.
    func characterLeftOfShadowCursor() -> (position: ScreenPosition, content: CellContent)? {
        feedShadow()
        let cursor = shadow.cursor
        var position = cursor.position
        if !cursor.pendingWrap { position.column -= 1 }
        guard position.column >= 0 else { return nil }
        var content = shadow.cell(at: position)
        if content.width == .wideTail && position.column > 0 {
            position.column -= 1
            content = shadow.cell(at: position)
        }
        return content.scalars.isEmpty ? nil : (position, content)
    }

    /// Prints a cell (`print`, mode 2027 on) where it would join `left`: `left`
    /// is erased first (ECH; under a pending wrap a space blanked by
    /// DECERA, which keeps the wrap), the scalars printed, and `left`
    /// printed again between DECSC and DECRC, which bring back the cursor,
    /// its pending wrap and the pen. Only while the screens are drawn, when
    /// the saved cursors are still to be written. False, having written
    /// nothing, where that cannot be done (DECOM in force).
    func printApart(_ print: () -> Void, from left: (position: ScreenPosition, content: CellContent)) -> Bool {
        guard !shadow.modes.origin else { return false }
        let cursor = shadow.cursor
        var left = left
        if cursor.pendingWrap {
            // The print wraps; at the bottom of the screen it scrolls the
            // row up, and off a screen of one row, where it cannot be
            // written again (nor is it known where a scroll region would
            // leave it).
            guard regionIsFull && rows > 1 else { return false }
            let cell = "\(left.position.row + 1);\(left.position.column + 1)"
            out.csi(cell + "H")
            out.append(0x20)
            out.csi(cell + ";" + cell + "$z")
        } else {
            erase(left)
            out.csi("\(cursor.position.row + 1);\(cursor.position.column + 1)H")
            if left.content.width == .wide && left.position.column + 1 == cursor.position.column {
                // The print lands on the right half of `left`, which it
                // would cut anyway: the row is written again after.
                print()
                return true
            }
        }
        print()
        if cursor.pendingWrap && left.position.row == rows - 1 { left.position.row -= 1 }
        let (savedPen, savedLink, savedProtection) = (pen, link, isProtected)
        savedCursorUsed = true
        out.esc("7")
        reprint(left)
        out.esc("8")
        pen = savedPen
        isProtected = savedProtection
        setLink(savedLink)
        return true
    }

    /// Erases a character's cells with ECH, the cursor then on its first.
    private func erase(_ character: (position: ScreenPosition, content: CellContent)) {
        out.csi("\(character.position.row + 1);\(character.position.column + 1)H")
        out.csi(character.content.width == .wide ? "2X" : "X")
    }

    /// Prints a character erased by `printApart` again in its place. When
    /// it would join the one left of it (that one was printed apart too),
    /// that one is erased and printed again after it, and so on leftwards:
    /// at most the row's width of steps.
    private func reprint(_ character: (position: ScreenPosition, content: CellContent)) {
        var next: (position: ScreenPosition, content: CellContent)? = character
        while let current = next {
            out.csi("\(current.position.row + 1);\(current.position.column + 1)H")
            next = nil
            let scalars = current.content.scalars
            let runs = printRuns(for: scalars, width: current.content.width == .wide ? 2 : 1)
            setClustering(runs[0].clustering)
            if clustering, let first = scalars.first, let left = characterLeftOfShadowCursor(),
                Terminal.joinsCluster(first, afterCell: left.content.scalars)
            {
                erase(left)
                out.csi("\(current.position.row + 1);\(current.position.column + 1)H")
                next = left
            }
            setAttributes(of: current.content)
            append(scalars, in: runs)
        }
    }

    /// The whole stream.
    package func encode() -> [UInt8] {
        if shadow.columns != capture.columns && (capture.columns == 80 || capture.columns == 132) {
            // DECCOLM, allowed by mode 40 (reset at the end if it was off).
            out.csi(capture.columns == 132 ? "?40;3h" : "?40h\u{1B}[?3l")
            sync()
        }
        writeTitles()
        writePalette()
        if let directory = capture.workingDirectory {
            out.osc("7;" + directory)
        }
        // HTS reaches only the left half of a double-width row: when every
        // row of the screen shown at the end is one, the stops are set now,
        // on the fresh screen (nothing after this resets them).
        let shownLines = screenLines(alternate: capture.isAlternateScreen)
        let tabStopsFirst = !shownLines.contains { ($0?.size ?? .single) == .single }
        if tabStopsFirst { writeTabStops() }

        drawPrimary()
        writeSavedCursor(capture.savedPrimary, lines: screenLines(alternate: false))
        writeKittyStack(capture.kittyPrimary)

        let needsAlternate =
            capture.isAlternateScreen || capture.alternate != nil || restorable(capture.savedAlternate) != nil
            || !capture.kittyAlternate.isEmpty
        if needsAlternate {
            out.csi("?47h")
            if let alternate = capture.alternate {
                drawScreen(alternate.map { Optional($0) }, historyCount: 0)
            }
            writeSavedCursor(capture.savedAlternate, lines: screenLines(alternate: true))
            writeKittyStack(capture.kittyAlternate)
            if !capture.isAlternateScreen { out.csi("?47l") }
        }
        if !tabStopsFirst { writeTabStops() }
        writeLiveState()
        sync()
        return out.bytes
    }

    /// The wanted rows of a screen (nil = empty).
    func screenLines(alternate: Bool) -> [SnapshotLine?] {
        if alternate {
            guard let lines = capture.alternate else { return Array(repeating: nil, count: rows) }
            return lines
        }
        let screen = Array(capture.primary.dropFirst(capture.historyCount))
        return (0..<rows).map { $0 < screen.count ? screen[$0] : nil }
    }

    func drawPrimary() {
        let history = capture.primary.prefix(capture.historyCount).map { Optional($0) }
        drawScreen(history + screenLines(alternate: false), historyCount: capture.historyCount)
    }

    // MARK: Titles, colours

    private var currentTitle: String?
    private var currentIconName: String?

    func setTitles(title: String?, iconName: String?) {
        if (title == nil && currentTitle != nil) || (iconName == nil && currentIconName != nil) {
            // Only RIS brings a title back to "none"; nothing is drawn yet,
            // and RIS keeps the title stack.
            out.esc("c")
            currentTitle = nil
            currentIconName = nil
        }
        if let title, let iconName, title == iconName, title != currentTitle || iconName != currentIconName {
            out.osc("0;" + title)
        } else {
            if let title, title != currentTitle { out.osc("2;" + title) }
            if let iconName, iconName != currentIconName {
                out.osc("1;" + iconName)
            }
        }
        currentTitle = title
        currentIconName = iconName
    }

    func writeTitles() {
        for entry in capture.titleStack {
            // XTWINOPS 22 ; 1 pushes no title, 22 ; 2 no icon name.
            switch (entry.title, entry.iconName) {
            case (nil, nil):
                setTitles(title: nil, iconName: nil)
                out.csi("22t")
            case (nil, let icon):
                setTitles(title: currentTitle, iconName: icon)
                out.csi("22;1t")
            case (let title, nil):
                setTitles(title: title, iconName: currentIconName)
                out.csi("22;2t")
            case (let title, let icon):
                setTitles(title: title, iconName: icon)
                out.csi("22t")
            }
        }
        setTitles(title: capture.title, iconName: capture.iconName)
    }

    func writePalette() {
        let base = Palette.xterm
        let palette = capture.palette
        var entries: [String] = []
        for index in 0..<256 where palette.colors[index] != base.colors[index] {
            entries.append("\(index);" + Palette.hex(palette.colors[index]))
        }
        if !entries.isEmpty { out.osc("4;" + entries.joined(separator: ";")) }
        if palette.defaultForeground != base.defaultForeground {
            out.osc("10;" + Palette.hex(palette.defaultForeground))
        }
        if palette.defaultBackground != base.defaultBackground {
            out.osc("11;" + Palette.hex(palette.defaultBackground))
        }
        if palette.cursor != base.cursor { out.osc("12;" + Palette.hex(palette.cursor)) }
        let specials = (0..<Palette.specialColorCount).filter { palette.specialColors[$0] != base.specialColors[$0] }
        if !specials.isEmpty {
            out.osc("5;" + specials.map { "\($0);" + Palette.hex(palette.specialColors[$0]) }.joined(separator: ";"))
        }
    }

    // MARK: Pen

    func setPen(_ style: Style) {
        if let body = SGRWriter.transitionBody(from: pen, to: style) {
            out.csi(body)
            pen = style
        }
    }

    func setLink(_ newLink: Hyperlink?) {
        guard newLink != link else { return }
        if let newLink {
            out.osc("8;" + (newLink.id.map { "id=" + $0 } ?? "") + ";" + newLink.uri)
        } else {
            out.osc("8;;")
        }
        link = newLink
    }

    func setProtected(_ on: Bool) {
        guard on != isProtected else { return }
        out.csi(on ? "1\"q" : "0\"q")
        isProtected = on
    }

    /// The pen, link and protection a cell was printed with.
    func setAttributes(of cell: CellContent) {
        setPen(cell.style)
        setLink(cell.hyperlink)
        setProtected(cell.isProtected)
    }

    // MARK: Cursor

    /// The last column a character can take on a row of this size.
    func lastColumn(_ size: LineSize) -> Int { size == .single ? columns - 1 : max(0, columns / 2 - 1) }

    /// Moves to `target` on the cursor's row, clearing a pending wrap.
    func moveToColumn(_ target: Int) {
        if target == column && !pendingWrap { return }
        if target == 0 {
            out.append(0x0D)  // CR
        } else if target == column - 1 && !pendingWrap {
            out.append(0x08)  // BS
        } else if target > column && !pendingWrap {
            let distance = target - column
            out.csi(distance == 1 ? "C" : "\(distance)C")
        } else {
            out.csi("\(target + 1)G")  // CHA
        }
        column = target
        pendingWrap = false
    }

    /// Moves anywhere (no margins or origin mode in force).
    func move(row target: Int, column targetColumn: Int) {
        if target != row {
            if targetColumn == 0 && target == row + 1 && row < rows - 1 && regionIsFull {
                out.append(0x0D)
                out.append(0x0A)
                row = target
                column = 0
                pendingWrap = false
                return
            }
            out.csi(targetColumn == 0 ? "\(target + 1)H" : "\(target + 1);\(targetColumn + 1)H")
            row = target
            column = targetColumn
            pendingWrap = false
            return
        }
        moveToColumn(targetColumn)
    }

    /// Prints a cell's scalars at the cursor with the cell's attributes.
    func printCell(_ cell: CellContent, edge: Int) {
        setAttributes(of: cell)
        printScalars(cell.scalars, width: cell.width == .wide ? 2 : 1, edge: edge)
    }

    func printScalars(_ scalars: [Unicode.Scalar], width: Int, edge: Int) {
        if pendingWrap {
            pendingWrap = false
            column = 0
            if row < rows - 1 { row += 1 }
        }
        appendCell(scalars, width: width)
        if column + width > edge {
            column = edge
            pendingWrap = true
        } else {
            column += width
        }
    }
}
