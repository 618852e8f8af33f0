import TestSupport
import Testing

@testable import TermCore

/// A character alone (`print(_:)`, which the parser calls for one character
/// before an escape sequence) has a quick path, `printSingleScalar`, that
/// must leave what the general one-character path, `printScalar`, leaves.
@Suite("Printing one character alone")
struct SingleScalarTests {
    /// Random states (the pieces of the run tests: wide and narrow
    /// characters, marks, margins, double-width rows, insert mode, protection,
    /// links, colours, autowrap off, cursor moves), then each character of
    /// `characters` through `print` on one terminal and `printScalar` on a
    /// twin fed the same: the same cells, wrap flags and cursor, and the same
    /// REP after it.
    @Test("One character through print leaves what printScalar leaves", arguments: [(17, 5), (9, 4), (2, 3), (80, 24)])
    func printMatchesPrintScalar(columns: Int, rows: Int) {
        var generator = SplitMix64(seed: UInt64(columns * 31 + rows))
        let pieces: [String] = [
            "漢字", "─│", "é", "e\u{301}", "😀", "🇫🇷", "Ж", "x", "ab", "\r\n", "\r", "\u{1B}[?7l", "\u{1B}[?7h",
            "\u{1B}[?69h\u{1B}[3;7s", "\u{1B}[?69l", "\u{1B}#6", "\u{1B}#5", "\u{1B}[4h", "\u{1B}[4l",
            "\u{1B}[1\"q", "\u{1B}[0\"q", "\u{1B}[1;31m", "\u{1B}[48;2;1;2;3m", "\u{1B}[0m",
            "\u{1B}]8;;https://example.org\u{1B}\\", "\u{1B}]8;;\u{1B}\\", "\u{1B}[H", "\u{1B}[5G", "\u{1B}[2;4H",
            "\u{1B}[3D", "\u{1B}[2C", "\u{1B}[?2027h", "\u{1B}[?2027l", "\u{1B}[\(columns)G",
            "\u{1B}[\(columns - 1)G",
        ]
        // Narrow, wide, zero-width, a flag's half, an emoji that may join.
        let characters: [UInt32] = [0xE9, 0x416, 0x2500, 0x6F22, 0x1F600, 0x301, 0x200D, 0x1F1EB, 0xFE0F, 0xFF21]
        // Then the cursor where the quick path must decline or take care:
        // a wrap pending, the last column, the right half of a wide
        // character, the left half of one.
        let edges = [
            "", "\u{1B}[\(columns)Gx", "\u{1B}[\(columns)G", "漢\u{1B}[D", "漢\u{1B}[2D", "\u{1B}[\(columns - 1)G",
        ]
        for _ in 0..<120 {
            var text = ""
            for _ in 0..<30 { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            text += edges[Int(generator.next() % UInt64(edges.count))]
            let character = characters[Int(generator.next() % UInt64(characters.count))]
            let quick = Terminal(columns: columns, rows: rows, scrollback: 10)
            let general = Terminal(columns: columns, rows: rows, scrollback: 10)
            quick.feed(text)
            general.feed(text)
            quick.state.print(character)
            general.state.printScalar(character)
            for terminal in [quick, general] { terminal.feed("\u{1B}[2b") }
            let (got, expected) = (CellGrid(quick), CellGrid(general))
            #expect(got == expected, "U+\(String(character, radix: 16)) after \(text.debugDescription)")
            if got != expected { return }
        }
    }
}
