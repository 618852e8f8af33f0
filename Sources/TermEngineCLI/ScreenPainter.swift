import TermCore
import TermRender

/// Draws a session's ``Snapshot``s on the user's terminal, rewriting only the
/// rows that changed since the last frame (snapshots share unchanged rows, so
/// `changedRows(since:)` finds them by identity), and a one-line status bar
/// below them.
///
/// `attach` paints a screen of the outer terminal's width (``update(to:status:)``);
/// `run` may host a program at a fixed size that does not match the outer
/// terminal, so ``update(to:status:within:)`` clips to the outer size and
/// never leaves the cursor in a pending wrap before an erase (xterm's EL then
/// clears the last column).
///
/// Each run's rendition and link are written by TermRender's ``ANSIRenderer``
/// (`CSI 0;… m` from TermCore's one SGR writer, OSC 8), so everything the
/// engine stores reaches the outer terminal: the underline styles (`4:3`
/// curly, `4:4` dotted, `4:5` dashed), the underline colour (58) and overline
/// (53) included.
package struct ScreenPainter {
    private var last: Snapshot?
    private var lastStatus = ""

    package init() {}

    /// Forgets what was drawn (after a resize or a clear).
    package mutating func invalidate() {
        last = nil
        lastStatus = ""
    }

    /// The size of the terminal painted on, in cells.
    package struct Viewport: Equatable {
        package var columns: Int
        package var rows: Int

        package init(columns: Int, rows: Int) {
            self.columns = columns
            self.rows = rows
        }
    }

    /// The bytes that bring the screen from the last frame to `snapshot`,
    /// drawn from the top-left of a terminal of `viewport`'s size: rows and
    /// columns past it are cut, the status bar goes on the row below the
    /// screen (or the viewport's last row), cut to one column less than the
    /// width, and a row narrower than the viewport is erased to its end.
    package mutating func update(to snapshot: Snapshot, status: String, within viewport: Viewport) -> String {
        var out = "\u{1B}[?25l"
        let shownRows = max(0, min(snapshot.rows, viewport.rows - 1))
        let rows: [Int]
        if let last, last.columns == snapshot.columns, last.rows == snapshot.rows {
            rows = snapshot.changedRows(since: last).filter { $0 < shownRows }
        } else {
            out += "\u{1B}[0m\u{1B}[2J"
            lastStatus = "\u{0}"
            rows = Array(0..<shownRows)
        }
        for row in rows {
            let (text, width) = Self.render(snapshot.line(row), columns: viewport.columns)
            out += "\u{1B}[\(row + 1);1H\u{1B}[0m" + text + "\u{1B}[0m"
            // The rest of the row is default blanks: erased, not written, so
            // nothing is left in a pending wrap before the erase.
            if width < viewport.columns { out += "\u{1B}[K" }
        }
        let statusText = String(status.unicodeScalars.prefix(max(0, viewport.columns - 1)).map(Character.init))
        if statusText != lastStatus {
            out += "\u{1B}[\(shownRows + 1);1H\u{1B}[0m\u{1B}[7m" + statusText + "\u{1B}[K\u{1B}[0m"
            lastStatus = statusText
        }
        let cursor = snapshot.cursor
        let row = min(cursor.position.row, max(0, shownRows - 1))
        let column = min(cursor.position.column, viewport.columns - 1)
        out += "\u{1B}[\(row + 1);\(column + 1)H"
        if cursor.isVisible && cursor.position.row < shownRows { out += "\u{1B}[?25h" }
        last = snapshot
        return out
    }

    /// A row as text with SGR, cut to its first `columns` cells (a wide
    /// character that would straddle the edge is drawn as a blank), without
    /// its trailing default-styled blanks; and the columns it covers.
    static func render(_ line: SnapshotLine, columns: Int) -> (text: String, width: Int) {
        var runs = line.runs
        // Trailing default blanks are left to an erase: the outer terminal
        // then holds them as erased cells, as the program's own erase did.
        while let last = runs.last, last.style == Style(), last.hyperlink == nil {
            let scalars = last.text.unicodeScalars
            let kept = scalars.count - scalars.reversed().prefix { $0 == " " }.count
            if kept == 0 {
                runs.removeLast()
                continue
            }
            runs[runs.count - 1].text = String(String.UnicodeScalarView(scalars.prefix(kept)))
            runs[runs.count - 1].width -= scalars.count - kept
            break
        }
        let width = min(columns, runs.last.map { $0.column + $0.width } ?? 0)
        var out = ""
        var link: Hyperlink?
        for run in runs where run.column < columns {
            out += ANSIRenderer.sgr(run.style)
            out += linkChange(from: &link, to: run.hyperlink)
            if run.column + run.width <= columns {
                out += run.text
                continue
            }
            var column = run.column
            while column < columns {
                let cell = line.cell(column)
                let cellWidth = cell.width == .wide ? 2 : 1
                if cell.width == .wideTail {
                    // Drawn with its left half.
                } else if column + cellWidth > columns || cell.scalars.isEmpty {
                    out += String(repeating: " ", count: min(cellWidth, columns - column))
                } else {
                    out.unicodeScalars.append(contentsOf: cell.scalars)
                }
                column += cellWidth
            }
        }
        if link != nil { out += ANSIRenderer.hyperlink(nil) }
        return (out, width)
    }

    /// The bytes that bring the screen from the last frame to `snapshot`.
    package mutating func update(to snapshot: Snapshot, status: String) -> String {
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
        var link: Hyperlink?
        for run in line.runs {
            out += ANSIRenderer.sgr(run.style)
            out += linkChange(from: &link, to: run.hyperlink)
            out += run.text
        }
        if link != nil { out += ANSIRenderer.hyperlink(nil) }
        return out
    }

    /// The OSC 8 that moves from the link `current` to `next` ("" when they
    /// are the same), which becomes current.
    static func linkChange(from current: inout Hyperlink?, to next: Hyperlink?) -> String {
        guard next != current else { return "" }
        current = next
        return ANSIRenderer.hyperlink(next)
    }
}
