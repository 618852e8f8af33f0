import TermCore

/// A terminal fed with `input`, for tests.
func terminal(_ columns: Int = 10, _ rows: Int = 4, scrollback: Int = 100, _ input: String = "") -> Terminal {
    let terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback)
    terminal.feed(input)
    return terminal
}

extension Terminal {
    /// Every screen row's text.
    var screenLines: [String] { (0..<rows).map { screenLine($0) } }
    /// Every scrollback line's text, oldest first.
    var scrollbackLines: [String] { (0..<scrollbackCount).map { scrollbackLine(ScrollbackLine($0)) } }
    /// The cursor as (row, column).
    var at: [Int] { [cursor.position.row, cursor.position.column] }
    func cellAt(_ row: Int, _ column: Int) -> CellContent { cell(at: ScreenPosition(row: row, column: column)) }
}

let ESC = "\u{1B}"
let CSI = "\u{1B}["
