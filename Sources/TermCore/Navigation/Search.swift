extension Terminal {
    /// Every occurrence of `needle` in the scrollback and on the screen,
    /// oldest first. Matches may run across soft-wrapped rows (a logical line
    /// is searched as one string); they never cross a hard line end.
    /// ``Snapshot/search(_:caseSensitive:limit:)`` searches a snapshot's lines
    /// the same way.
    ///
    /// - Parameters:
    ///   - needle: the text to find (compared by Unicode scalars).
    ///   - caseSensitive: when false, letters are compared lowercased.
    ///   - limit: the most matches returned, 10,000 by default (a search in
    ///     10,000 lines of a common letter must not build a million ranges).
    /// - Complexity: O(cells in the buffer × needle length) at worst.
    public func search(_ needle: String, caseSensitive: Bool = true, limit: Int = TermCore.Limits.searchMatches)
        -> [BufferRange]
    {
        matches(of: needle, caseSensitive: caseSensitive, limit: limit)
    }
}
