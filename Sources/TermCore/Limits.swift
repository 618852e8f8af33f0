// The engine's bounds on what input can make it hold (STYLE.md rule 12, as
// Ghostty's size.zig): each with its value and the reason for it. The
// public ones are also in ``Terminal/Limits``; docs/SECURITY.md lists them
// all with what happens past each.

/// Bounds of TermCore's storage.
enum Limits {
    /// The most cells a page of rows holds (``Grid/rowsPerPage(columns:)``):
    /// half the 65,536 ids of a style table and about the 65,535 of a link
    /// table, so that a page's table, when full, is at most half in use and
    /// a compaction of the page frees the other half (``PageTables``); and
    /// small enough that the compaction, O(cells of the page), stays short
    /// (256 KiB of cells).
    static let cellsPerPage = 32_768
}
