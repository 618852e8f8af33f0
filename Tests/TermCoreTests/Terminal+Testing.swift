// Hooks for the tests alone (`@testable import TermCore` reaches the
// engine's internals), kept out of the library.

@testable import TermCore

extension Terminal {
    /// Adds lines of narrow characters at the newest end of the primary
    /// screen's scrollback, as if they had scrolled off the top just now,
    /// without changing the screen or the cursor. The oldest lines go when
    /// the scrollback limit is reached; a line longer than the screen is cut.
    ///
    /// The libvterm conformance harness uses it to stand in for libvterm's
    /// test driver, whose `sb_popline` callback answers every pop with a
    /// made-up "ABCDE" line: its scripts expect those lines back when rows
    /// grow.
    /// - Precondition: every character is one column wide.
    /// - Complexity: O(cells in the scrollback and on the screen).
    func appendScrollbackLines(_ lines: [String]) {
        let rows = lines.map { line in
            var cells = [Cell](repeating: .empty, count: columns)
            for (col, scalar) in line.unicodeScalars.prefix(columns).enumerated() {
                precondition(state.widths.width(of: scalar.value) == 1, "only narrow characters")
                cells[col] = Cell(scalar: scalar.value, width: .narrow, style: .default)
            }
            return cells
        }
        noteChange()
        primaryRowCache = []
        state.appendScrollback(rows)
    }
}

extension TerminalState {
    /// Rebuilds the primary grid with `lines` (each `columns` cells) after
    /// its scrollback lines; see ``Terminal/appendScrollbackLines(_:)``.
    mutating func appendScrollback(_ lines: [[Cell]]) {
        let old = primary
        var grid = Grid(columns: columns, rows: rows, scrollbackLimit: old.scrollbackLimit, rowsPerPage: rowsPerPage)
        let total = old.historyCount + lines.count
        let kept = min(total, old.scrollbackLimit)
        let dropped = total - kept
        grid.setHistoryCount(kept)
        for index in 0..<kept {
            let line = ScrollbackLine(index)
            let source = ScrollbackLine(index + dropped)
            if source.index < old.historyCount {
                grid.copyCells(
                    old.historyRow(source), tables: old.tables(ofHistoryLine: source), sourcePage: -1,
                    to: grid.historyRow(line), page: grid.page(ofHistoryLine: line), count: columns)
                grid.setHistoryFlags(line, old.historyFlags(source))
                grid.setHistoryMark(line, old.historyMark(source))
            } else {
                lines[source.index - old.historyCount].withUnsafeBufferPointer {
                    grid.historyRow(line).update(from: $0.baseAddress!, count: columns)
                }
            }
        }
        for row in 0..<rows {
            grid.copyCells(
                old.readRow(ScreenRow(row)), tables: old.tables(ofScreenRow: ScreenRow(row)), sourcePage: -1,
                to: grid.row(ScreenRow(row)),
                page: grid.page(ofScreenRow: ScreenRow(row)), count: columns)
            grid.setFlags(ScreenRow(row), old.flags(ScreenRow(row)))
            grid.setMark(ScreenRow(row), old.mark(ScreenRow(row)))
        }
        if isAlternateScreen { inactive = grid } else { active = grid }
        gridEpoch &+= 1
        unbindPen()
        clusterCacheCompactions = [-1, -1]
    }
}
