// The side tables of one page of row slots (issue #17; Ghostty's page.zig
// keeps a page's styles, graphemes and hyperlinks with its cells for the
// same reason): work on a table, such as compacting it, visits that page's
// cells only, never the whole scrollback.

/// The styles, hyperlinks and grapheme clusters the cells of one page name
/// by id.
///
/// A page holds at most ``Limits/cellsPerPage`` cells, and its style and
/// link tables at least 5/4 as many entries (``Limits/tableEntries(cells:)``):
/// when a table fills, at most four fifths of its entries are still named by
/// a cell (and the pen's and the erase blank's), and compacting it
/// (``Grid/compactStyles(page:)``) frees the rest. Nothing is ever dropped
/// for want of an id, and the work of a compaction, O(cells of the page), is
/// paid for by the entries it frees. A link table is also compacted when its
/// links pass ``Limits/linkBytes(cells:)`` bytes (or twice the bytes its
/// last compaction kept), so links no cell names cost a bounded amount too.
struct PageTables {
    var styles: StyleTable
    var links: HyperlinkTable
    var clusters = ClusterTable()
    /// Counts compactions: each one renumbered ids in the page's cells, so
    /// ids taken from the tables before (the pen's, a copy's) are stale.
    var compactions = 0

    /// The tables of a page of `cells` cells, whose style and link tables
    /// are compacted when they hold ``Limits/tableEntries(cells:)``.
    init(cells: Int = Limits.cellsPerPage) {
        precondition(cells <= Limits.cellsPerPage, "a page holds at most \(Limits.cellsPerPage) cells")
        let limit = Limits.tableEntries(cells: cells)
        styles = StyleTable(limit: limit)
        links = HyperlinkTable(limit: min(limit, Limits.linksPerPage), byteLimit: Limits.linkBytes(cells: cells))
    }

    /// The style `cell` names.
    @inline(__always)
    func style(of cell: Cell) -> Style { styles[cell.styleKey] }

    /// The link `cell` names, if any.
    @inline(__always)
    func link(of cell: Cell) -> Hyperlink? { links[cell.linkID] }

    /// True when `cell` names an entry of a page's tables (a style id other
    /// than the default, a link or a cluster in the table): a copy into another page must
    /// intern those there.
    @inline(__always)
    static func namesEntries(_ cell: Cell) -> Bool {
        cell.namesTableStyle || cell.linkID != 0 || cell.namesTableCluster
    }
}

/// The blank an erase or a scroll leaves: the pen's background, which each
/// page names with an id of its own, unless it is the default or a palette
/// colour (an inline style: no table entry, the same cell in every page).
struct BlankFill {
    /// The style of the blank (only a background).
    let style: Style
    /// The cell, when it names no table entry and so is the same in every page.
    let sharedCell: Cell?

    /// The blank of the default style.
    static let empty = BlankFill(style: Style(), sharedCell: .empty)

    init(style: Style, sharedCell: Cell?) {
        self.style = style
        self.sharedCell = sharedCell
    }

    /// The blank an erase with `pen` leaves.
    init(erasing pen: Style) {
        let style = pen.erased
        self.style = style
        sharedCell = StyleKey(inline: style).map { Cell.blank(style: $0) }
    }
}
