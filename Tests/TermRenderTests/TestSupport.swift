import Foundation
import TermCore
import TermRender

/// The package's root directory (tests run from anywhere).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

func terminal(_ columns: Int = 10, _ rows: Int = 4, scrollback: Int = 100, _ input: String = "") -> Terminal {
    let terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback)
    terminal.feed(input)
    return terminal
}

let ESC = "\u{1B}"
let CSI = "\u{1B}["
