// What must hold of the terminal's state between any two actions, so that no
// later action indexes outside a grid, a tab-stop array or a margin. Checked
// in debug builds after every feed and resize (`Terminal.feed`,
// `TerminalState.resize`), so every test checks it on everything it feeds.

extension TerminalState {
    /// The invariants that do not hold, each as a sentence; empty when all
    /// hold.
    /// - Complexity: O(1).
    func invariantViolations() -> [String] {
        var violations: [String] = []
        func check(_ holds: Bool, _ violation: @autoclosure () -> String) {
            if !holds { violations.append(violation()) }
        }
        for (name, grid) in [("active", active), ("inactive", inactive)] {
            check(
                grid.columns == columns && grid.rows == rows,
                "the \(name) grid is \(grid.columns)×\(grid.rows) on a \(columns)×\(rows) screen")
            check(grid.historyCount <= grid.scrollbackLimit, "the \(name) grid holds more lines than its limit")
            check(grid.handedOutRowIsCurrent, "the \(name) grid remembers a row whose line, cells or stamp changed")
        }
        check((isAlternateScreen ? active : inactive).scrollbackLimit == 0, "the alternate screen has a scrollback")
        check(
            (0..<rows).contains(cursor.row) && (0..<columns).contains(cursor.col),
            "the cursor (\(cursor.row), \(cursor.col)) is off the screen")
        for (name, saved) in [("primary", savedPrimary), ("alternate", savedAlternate)] {
            guard let position = saved?.cursor else { continue }
            check(
                (0..<rows).contains(position.row) && (0..<columns).contains(position.col),
                "the \(name) screen's saved cursor (\(position.row), \(position.col)) is off the screen")
        }
        check(
            0 <= scrollTop && scrollTop <= scrollBottom && scrollBottom < rows,
            "the scroll region \(scrollTop)…\(scrollBottom) is not within \(rows) rows")
        check(
            0 <= marginLeft && marginLeft <= marginRight && marginRight < columns,
            "the margins \(marginLeft)…\(marginRight) are not within \(columns) columns")
        check(tabStops.count == columns, "\(tabStops.count) tab-stop entries for \(columns) columns")
        check(!eraseFillIsCurrent || cachedEraseFill.style == pen.erased, "the erase fill is not the pen's background")
        return violations
    }
}
