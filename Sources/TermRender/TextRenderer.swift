import TermCore

/// Renders a `Snapshot` as plain text: one line per row, a wide character
/// or a cluster once, trailing blanks trimmed; soft-wrapped rows joined into
/// one line on request.
public enum TextRenderer {
    /// The text of the snapshot's scrollback lines (those it holds), then
    /// its screen rows.
    /// - Parameters:
    ///   - snapshot: the terminal's picture; only the scrollback lines it
    ///     holds are written.
    ///   - joinWrapped: join a soft-wrapped row with the next one, as the
    ///     program wrote them (a copy of a long line is one line).
    ///   - includeScrollback: start with the snapshot's scrollback lines.
    /// - Complexity: O(cells).
    public static func render(_ snapshot: Snapshot, joinWrapped: Bool = false, includeScrollback: Bool = true) -> String
    {
        var lines: [SnapshotLine] = []
        if includeScrollback { lines += snapshot.scrollbackRange.map { snapshot.scrollbackLine($0) } }
        lines += (0..<snapshot.rows).map { snapshot.line($0) }
        return text(of: lines, joinWrapped: joinWrapped).joined(separator: "\n")
    }

    /// Lines of text for rows, joined where soft-wrapped if asked. A wrapped
    /// row keeps its blanks (they are part of the line), only the last part
    /// of a line is trimmed.
    public static func text(of lines: [SnapshotLine], joinWrapped: Bool) -> [String] {
        var result: [String] = []
        var pending = ""
        for line in lines {
            if joinWrapped && line.isWrapped {
                pending += untrimmedText(line)
                continue
            }
            result.append(trimmed(pending + line.text))
            pending = ""
        }
        if !pending.isEmpty { result.append(trimmed(pending)) }
        return result
    }

    static func untrimmedText(_ line: SnapshotLine) -> String {
        var scalars = String.UnicodeScalarView()
        for column in 0..<line.columnCount {
            let cell = line.cell(column)
            switch cell.width {
            case .wideTail: continue
            case .wrapSpacer: continue  // the wide character went to the next row
            default: break
            }
            if cell.scalars.isEmpty { scalars.append(" ") } else { scalars.append(contentsOf: cell.scalars) }
        }
        return String(scalars)
    }

    static func trimmed(_ text: String) -> String {
        text.droppingTrailingSpaces()
    }
}
