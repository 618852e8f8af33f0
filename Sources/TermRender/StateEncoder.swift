import TermCore

/// Writes an escape stream that rebuilds a ``TerminalImage`` in a fresh
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
final class StateEncoder {
    let image: TerminalImage
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
    /// The scalars printed since the last byte that was not part of a print,
    /// which ends at `runEnd` in `out`: with mode 2027 on, the next one may
    /// join them.
    private var run: [Unicode.Scalar] = []
    private var runEnd = -1
    /// True while ``drawScreen(_:historyCount:)`` runs: a spacer at the end
    /// of a wrapped row is then made by the wrap into the next row.
    var drawing = false
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
    init(image: TerminalImage, scrollback: Int, startColumns: Int? = nil) {
        self.image = image
        shadow = Terminal(columns: startColumns ?? image.columns, rows: image.rows, scrollback: scrollback)
    }

    var columns: Int { image.columns }
    var rows: Int { image.rows }

    /// Feeds what was written since the last call into the shadow and takes
    /// the cursor from it.
    func sync() {
        if fed < out.bytes.count {
            shadow.feed(out.bytes[fed...])
            fed = out.bytes.count
        }
        let cursor = shadow.cursor
        row = cursor.position.row
        column = cursor.position.column
        pendingWrap = cursor.pendingWrap
        clustering = shadow.modes.graphemeClustering
    }

    /// Appends the scalars of one cell `width` columns wide. A cell printed
    /// with mode 2027 on or off is as wide as that mode made it (VS16 widens
    /// a cluster only with the mode on, VS15 narrows one only then, a flag or
    /// a ZWJ sequence is one cell only then): the mode is switched when the
    /// one in force would print the scalars otherwise, and with the mode on a
    /// sequence in between keeps them from joining the cell printed before.
    func appendCell(_ scalars: [Unicode.Scalar], width: Int) {
        let off = Terminal.printedWidth(of: scalars, graphemeClustering: false) == width
        let on = Terminal.printedWidth(of: scalars, graphemeClustering: true) == width
        if clustering && !on && off {
            out.csi("?2027l")
            clustering = false
        } else if !clustering && on && !off {
            out.csi("?2027h")
            clustering = true
        }
        if out.bytes.count != runEnd { run = [] }
        if clustering, let first = scalars.first, Terminal.joinsCluster(first, after: run) {
            out.csi("?2027h")  // any sequence ends the run
            run = []
        }
        for scalar in scalars { out.append(scalar: scalar) }
        run += scalars
        runEnd = out.bytes.count
    }

    /// The whole stream.
    func encode() -> [UInt8] {
        if shadow.columns != image.columns && (image.columns == 80 || image.columns == 132) {
            // DECCOLM, allowed by mode 40 (reset at the end if it was off).
            out.csi(image.columns == 132 ? "?40;3h" : "?40h\u{1B}[?3l")
            sync()
        }
        writeTitles()
        writePalette()
        if let directory = image.workingDirectory {
            out.osc("7;" + directory)
        }

        drawPrimary()
        writeSavedCursor(image.savedPrimary, lines: screenLines(alternate: false))
        writeKittyStack(image.kittyPrimary)

        let needsAlternate =
            image.isAlternateScreen || image.alternate != nil || restorable(image.savedAlternate) != nil
            || !image.kittyAlternate.isEmpty
        if needsAlternate {
            out.csi("?47h")
            if let alternate = image.alternate {
                drawScreen(alternate.map { Optional($0) }, historyCount: 0)
            }
            writeSavedCursor(image.savedAlternate, lines: screenLines(alternate: true))
            writeKittyStack(image.kittyAlternate)
            if !image.isAlternateScreen { out.csi("?47l") }
        }
        writeTabStops()
        writeLiveState()
        sync()
        return out.bytes
    }

    /// The wanted rows of a screen (nil = empty).
    func screenLines(alternate: Bool) -> [SnapshotLine?] {
        if alternate {
            guard let lines = image.alternate else { return Array(repeating: nil, count: rows) }
            return lines
        }
        let screen = Array(image.primary.dropFirst(image.historyCount))
        return (0..<rows).map { $0 < screen.count ? screen[$0] : nil }
    }

    func drawPrimary() {
        let history = image.primary.prefix(image.historyCount).map { Optional($0) }
        drawScreen(history + screenLines(alternate: false), historyCount: image.historyCount)
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
        for entry in image.titleStack {
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
        setTitles(title: image.title, iconName: image.iconName)
    }

    func writePalette() {
        let base = Palette.xterm
        let palette = image.palette
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
        if let body = SGR.transition(from: pen, to: style) {
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
