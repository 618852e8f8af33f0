import Foundation
import TermReplay
import TestSupport
import Testing

@testable import TermCore

/// Page boundaries are invisible (issue #17): random sessions of every kind
/// of sequence, with resizes between streams, give the same terminal whether
/// the grids keep one, two or four rows per page (a boundary between almost
/// any two rows, so that scrolls, region scrolls, DECCRA, reflow and the
/// alternate screen copy cells between pages all the time) or their default
/// pages (one page for these small screens).
@Suite("Pages: random sessions across page boundaries")
struct PageBoundaryTests {
    /// Sessions per page size: 300 by default, 5,000 with TERMENGINE_LONG=1.
    static let sessions = ProcessInfo.processInfo.environment["TERMENGINE_LONG"] != nil ? 5_000 : 300

    @Test("The same terminal with 1, 2 or 4 rows per page as with the default pages", arguments: [1, 2, 4])
    func sessionsAgreeWhateverThePageSize(rowsPerPage: Int) {
        var failures: [String] = []
        for seed in 0..<Self.sessions {
            var rng = SplitMix64(seed: UInt64(seed))
            let session = RandomSession.random(&rng)
            let expected = session.replay()
            let paged = session.replay(rowsPerPage: rowsPerPage)
            let differences = TerminalComparison.differences(expected, paged, limit: 3)
            if !differences.isEmpty {
                failures.append("seed \(seed): " + differences.joined(separator: "; "))
                if failures.count == 5 { break }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test("Styles, links and clusters survive compactions of small pages, read back from snapshots too")
    func compactionsOfSmallPagesKeepEveryCell() {
        // Two rows per page of 4 columns: 8 cells, so 70,000 distinct styles
        // per page written over and over the same cells compact its table
        // many times; every cell must keep what it was last given.
        let terminal = Terminal(columns: 4, rows: 4, scrollback: 2, rowsPerPage: 2)
        var expected: [String: Style] = [:]
        var input: [UInt8] = []
        for index in 0..<140_000 {
            let row = index % 4
            let column = (index / 4) % 4
            let (red, green, blue) = (index & 0xFF, (index >> 8) & 0xFF, index >> 16)
            let color = TerminalColor.rgb(UInt8(red), UInt8(green), UInt8(blue))
            input += Array("\u{1B}[\(row + 1);\(column + 1)H\u{1B}[38;2;\(red);\(green);\(blue)mx".utf8)
            expected["\(row),\(column)"] = Style(foreground: color)
        }
        terminal.feed(input)
        #expect(terminal.counters.styleCompactions > 0)
        let snapshot = terminal.snapshot()
        for row in 0..<4 {
            for column in 0..<4 {
                let want = expected["\(row),\(column)"]
                #expect(terminal.cell(at: ScreenPosition(row: row, column: column)).style == want)
                #expect(snapshot.line(row).cell(column).style == want)
            }
        }
    }
}
