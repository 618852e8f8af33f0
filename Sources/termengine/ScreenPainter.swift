import TermCore

/// Draws a session's ``Snapshot``s on the user's terminal, rewriting only the
/// rows that changed since the last frame (snapshots share unchanged rows, so
/// `changedRows(since:)` finds them by identity), and a one-line status bar
/// below them.
struct ScreenPainter {
    private var last: Snapshot?
    private var lastStatus = ""

    /// Forgets what was drawn (after a resize or a clear).
    mutating func invalidate() {
        last = nil
        lastStatus = ""
    }

    /// The bytes that bring the screen from the last frame to `snapshot`.
    mutating func update(to snapshot: Snapshot, status: String) -> String {
        var out = "\u{1B}[?25l"
        let rows: [Int]
        if let last {
            rows = snapshot.changedRows(since: last)
        } else {
            out += "\u{1B}[0m\u{1B}[2J"
            lastStatus = "\u{0}"
            rows = Array(0..<snapshot.rows)
        }
        for row in rows {
            out += "\u{1B}[\(row + 1);1H\u{1B}[0m" + Self.render(snapshot.line(row)) + "\u{1B}[0m\u{1B}[K"
        }
        if status != lastStatus {
            out += "\u{1B}[\(snapshot.rows + 1);1H\u{1B}[0m\u{1B}[7m" + status + "\u{1B}[K\u{1B}[0m"
            lastStatus = status
        }
        let cursor = snapshot.cursor
        out += "\u{1B}[\(cursor.position.row + 1);\(cursor.position.column + 1)H"
        if cursor.isVisible { out += "\u{1B}[?25h" }
        last = snapshot
        return out
    }

    /// A row as text with SGR, run by run.
    static func render(_ line: SnapshotLine) -> String {
        var out = ""
        for run in line.runs {
            out += run.style == Style() ? "\u{1B}[0m" : sgr(run.style)
            out += run.text
        }
        return out
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
        case .rgb(let red, let green, let blue):
            return [String(base + 8), "2", String(red), String(green), String(blue)]
        }
    }
}
