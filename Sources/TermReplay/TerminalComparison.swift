import TermCore

/// Compares two terminals in everything a front end or a later byte could
/// observe, and lists the first differences in words: for checking a
/// compacted replay or a rendered stream against the original.
public enum TerminalComparison {
    /// The differences between `expected` and `actual`, at most `limit`;
    /// empty when they agree. Nothing saved by DECSC and a saved power-on
    /// state count as equal (DECRC restores the same).
    /// - Complexity: O(cells in both terminals).
    public static func differences(_ expected: Terminal, _ actual: Terminal, limit: Int = 20) -> [String] {
        var found: [String] = []
        func check<Value: Equatable>(_ name: String, _ left: Value, _ right: Value) {
            if left != right && found.count < limit { found.append("\(name): expected \(left), got \(right)") }
        }
        check("size", [expected.columns, expected.rows], [actual.columns, actual.rows])
        guard found.isEmpty else { return found }
        check("alternate screen shown", expected.isAlternateScreen, actual.isAlternateScreen)
        check("cursor", expected.cursor, actual.cursor)
        check("modes", expected.modes, actual.modes)
        check("title", expected.title, actual.title)
        check("icon name", expected.iconName, actual.iconName)
        check("title stack", expected.titleStack, actual.titleStack)
        check("working directory", expected.workingDirectory, actual.workingDirectory)
        check("palette", expected.palette, actual.palette)
        check("pen", expected.pen, actual.pen)
        check("pen hyperlink", expected.penHyperlink, actual.penHyperlink)
        check("pen protection", expected.isPenProtected, actual.isPenProtected)
        check("protection mode", expected.protectionMode, actual.protectionMode)
        check("character sets", expected.characterSets, actual.characterSets)
        for alternate in [false, true] {
            let screen = alternate ? "alternate" : "primary"
            check(
                "\(screen) saved cursor", expected.savedCursor(alternateScreen: alternate) ?? .powerOn,
                actual.savedCursor(alternateScreen: alternate) ?? .powerOn)
            check(
                "\(screen) kitty keyboard stack", expected.kittyKeyboardStack(alternateScreen: alternate),
                actual.kittyKeyboardStack(alternateScreen: alternate))
        }
        check("tab stops", expected.tabStops, actual.tabStops)
        check("scroll region", expected.scrollRegion, actual.scrollRegion)
        check("left/right margins", expected.horizontalMargins, actual.horizontalMargins)
        check("scrollback lines", expected.scrollbackCount, actual.scrollbackCount)

        let history = min(expected.scrollbackCount, actual.scrollbackCount)
        let left = expected.snapshot(scrollback: 0..<history)
        let right = actual.snapshot(scrollback: 0..<history)
        for index in 0..<history where found.count < limit {
            compare(
                "scrollback line \(index)", left.scrollbackLine(index), right.scrollbackLine(index), into: &found,
                limit: limit)
        }
        for alternate in [false, true] {
            let leftLines = expected.screenLines(alternateScreen: alternate)
            let rightLines = actual.screenLines(alternateScreen: alternate)
            for row in leftLines.indices where found.count < limit {
                compare(
                    "\(alternate ? "alternate" : "primary") row \(row)", leftLines[row], rightLines[row], into: &found,
                    limit: limit)
            }
        }
        return found
    }

    static func compare(
        _ name: String, _ left: SnapshotLine, _ right: SnapshotLine, into found: inout [String], limit: Int
    ) {
        if left.isWrapped != right.isWrapped {
            found.append("\(name) wrapped: expected \(left.isWrapped), got \(right.isWrapped)")
        }
        if left.size != right.size { found.append("\(name) size: expected \(left.size), got \(right.size)") }
        if left.semanticMark != right.semanticMark {
            found.append(
                "\(name) mark: expected \(String(describing: left.semanticMark)), got \(String(describing: right.semanticMark))"
            )
        }
        for column in 0..<left.columnCount where found.count < limit {
            let expected = left.cell(column)
            let actual = right.cell(column)
            if expected != actual {
                found.append("\(name) column \(column): expected \(describe(expected)), got \(describe(actual))")
            }
        }
    }

    /// A cell in one line: its text (code points for anything unusual),
    /// width role, style and link.
    public static func describe(_ cell: CellContent) -> String {
        let text = cell.scalars.map { scalar in
            scalar.value >= 0x21 && scalar.value < 0x7F
                ? String(scalar) : "U+" + String(scalar.value, radix: 16, uppercase: true)
        }.joined(separator: " ")
        var parts = ["'\(text)'", "\(cell.width)"]
        if cell.style != Style() { parts.append("\(cell.style)") }
        if cell.isProtected { parts.append("protected") }
        if let link = cell.hyperlink { parts.append("link \(link.uri)") }
        return parts.joined(separator: " ")
    }
}
