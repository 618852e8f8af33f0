// The engine's bounds on what input can make it hold (STYLE.md rule 12, as
// Ghostty's size.zig): each with its value and the reason for it. The
// public ones are also in ``Terminal/Limits``; docs/SECURITY.md lists them
// all with what happens past each.

/// Bounds of TermCore's storage.
enum Limits {
    /// The most cells a page of rows holds (``Grid/rowsPerPage(columns:)``):
    /// three quarters of the 65,536 ids of a style table (and of the 65,535
    /// of a link table), so that a page's table, when full, is at most three
    /// quarters in use and a compaction of the page frees at least 16,384
    /// ids (``PageTables``); few enough pages that their tables cost little
    /// (20 for 10,000 lines at 80 columns, each 512 rows); and small enough
    /// that a compaction, O(cells of the page), stays short (384 KiB).
    static let cellsPerPage = 49_152
}
