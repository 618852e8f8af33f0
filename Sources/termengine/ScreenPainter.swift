import TermCore

/// What `attach` shows of the terminal: each row as text with SGR, and the
/// cursor. Taken from the `Terminal` cell API; when `Snapshot` lands this is
/// the one function to switch to it.
struct ScreenFrame: Equatable, Sendable {
    var rows: [String]
    var cursorRow: Int
    var cursorColumn: Int
    var cursorVisible: Bool

    static func take(_ terminal: Terminal) -> ScreenFrame {
        var rows: [String] = []
        rows.reserveCapacity(terminal.rows)
        for row in 0..<terminal.rows {
            var line = ""
            var current = Style()
            for column in 0..<terminal.columns {
                let cell = terminal.cell(at: ScreenPosition(row: row, column: column))
                if cell.width == .wideTail { continue }
                if cell.style != current {
                    line += sgr(cell.style)
                    current = cell.style
                }
                line += cell.scalars.isEmpty ? " " : cell.text
            }
            if current != Style() { line += "\u{1B}[0m" }
            rows.append(line)
        }
        let cursor = terminal.cursor
        return ScreenFrame(
            rows: rows, cursorRow: cursor.position.row, cursorColumn: cursor.position.column,
            cursorVisible: cursor.isVisible)
    }

    /// The SGR sequence that sets `style` from the default.
    static func sgr(_ style: Style) -> String {
        var codes = ["0"]
        if style.flags.contains(.bold) { codes.append("1") }
        if style.flags.contains(.dim) { codes.append("2") }
        if style.flags.contains(.italic) { codes.append("3") }
        if style.underline != .none { codes.append("4") }
        if style.flags.contains(.blink) { codes.append("5") }
        if style.flags.contains(.inverse) { codes.append("7") }
        if style.flags.contains(.hidden) { codes.append("8") }
        if style.flags.contains(.strikethrough) { codes.append("9") }
        codes += colour(style.foreground, base: 30)
        codes += colour(style.background, base: 40)
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    private static func colour(_ color: Color, base: Int) -> [String] {
        switch color.kind {
        case .default: return []
        case .indexed(let index) where index < 8: return [String(base + Int(index))]
        case .indexed(let index) where index < 16: return [String(base + 60 + Int(index) - 8)]
        case .indexed(let index): return [String(base + 8), "5", String(index)]
        case .rgb(let red, let green, let blue): return [String(base + 8), "2", String(red), String(green), String(blue)]
        }
    }
}

/// Draws frames on the user's terminal, rewriting only the rows that
/// changed since the last frame, and a one-line status bar below them.
struct ScreenPainter {
    private var lastRows: [String] = []
    private var lastStatus = ""

    /// Forgets what was drawn (after a resize or a clear).
    mutating func invalidate() {
        lastRows = []
        lastStatus = ""
    }

    /// The bytes that bring the screen from the last frame to `frame`.
    mutating func update(to frame: ScreenFrame, status: String, statusRow: Int) -> String {
        var out = "\u{1B}[?25l"
        if lastRows.count != frame.rows.count {
            out += "\u{1B}[0m\u{1B}[2J"
            lastRows = Array(repeating: "\u{0}", count: frame.rows.count)
            lastStatus = "\u{0}"
        }
        for (index, row) in frame.rows.enumerated() where row != lastRows[index] {
            out += "\u{1B}[\(index + 1);1H\u{1B}[0m" + row + "\u{1B}[0m\u{1B}[K"
            lastRows[index] = row
        }
        if status != lastStatus {
            out += "\u{1B}[\(statusRow + 1);1H\u{1B}[0m\u{1B}[7m" + status + "\u{1B}[K\u{1B}[0m"
            lastStatus = status
        }
        out += "\u{1B}[\(frame.cursorRow + 1);\(frame.cursorColumn + 1)H"
        if frame.cursorVisible { out += "\u{1B}[?25h" }
        return out
    }
}
