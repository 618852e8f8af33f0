import TermCore

/// A terminal fed with `input`, for tests.
func terminal(_ columns: Int = 10, _ rows: Int = 4, scrollback: Int = 100, _ input: String = "") -> Terminal {
    let terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback)
    terminal.feed(input)
    return terminal
}

/// `input` fed to one terminal whole and to another a byte at a time (every
/// sequence, CR LF pair and scalar then arrives split, through the parser's
/// byte-at-a-time paths), each then fed `suffix` whole: the fast paths and
/// the general ones must agree.
func fedWholeAndByteByByte(
    _ columns: Int, _ rows: Int, _ input: String, then suffix: String = "", scrollback: Int = 100
) -> (whole: Terminal, byteByByte: Terminal) {
    fedWholeAndByteByByte(columns, rows, Array(input.utf8), then: suffix, scrollback: scrollback)
}

/// `fedWholeAndByteByByte` for input given as bytes (which may be invalid
/// UTF-8).
func fedWholeAndByteByByte(
    _ columns: Int, _ rows: Int, _ input: [UInt8], then suffix: String = "", scrollback: Int = 100
) -> (whole: Terminal, byteByByte: Terminal) {
    let whole = Terminal(columns: columns, rows: rows, scrollback: scrollback)
    whole.feed(input)
    whole.feed(suffix)
    let byteByByte = Terminal(columns: columns, rows: rows, scrollback: scrollback)
    for byte in input { byteByByte.feed([byte]) }
    byteByByte.feed(suffix)
    return (whole, byteByByte)
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
