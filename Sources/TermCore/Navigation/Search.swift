extension Terminal {
    /// Every occurrence of `needle` in the scrollback and on the screen,
    /// oldest first. Matches may run across soft-wrapped rows (a logical line
    /// is searched as one string); they never cross a hard line end.
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
        let pattern = Array((caseSensitive ? needle : needle.lowercased()).unicodeScalars)
        guard !pattern.isEmpty else { return [] }
        var matches: [BufferRange] = []
        var line = 0
        while line < bufferLineCount && matches.count < limit {
            // Gather one logical line: characters with the cell each starts at.
            var characters: [(scalars: [Unicode.Scalar], at: BufferPoint)] = []
            var current = line
            while true {
                let (cells, wrapped, tables) = bufferLine(current)
                for col in 0..<columns where cells[col].width != .wideTail {
                    var cellText = RowText(capacity: 4)
                    appendText(of: cells[col], tables: tables, to: &cellText)
                    var text = cellText.string
                    if !caseSensitive { text = text.lowercased() }
                    characters.append((Array(text.unicodeScalars), BufferPoint(line: current, column: col)))
                }
                if !wrapped || current + 1 >= bufferLineCount { break }
                current += 1
            }
            // A flat scalar array with, for each scalar, the character it belongs to.
            var flat: [Unicode.Scalar] = []
            var owner: [Int] = []
            for (index, character) in characters.enumerated() {
                flat += character.scalars
                owner += [Int](repeating: index, count: character.scalars.count)
            }
            var start = 0
            while start + pattern.count <= flat.count && matches.count < limit {
                if flat[start] == pattern[0] && Array(flat[start..<(start + pattern.count)]) == pattern {
                    let first = characters[owner[start]].at
                    let last = characters[owner[start + pattern.count - 1]]
                    var end = last.at
                    if bufferLine(end.line).cells[end.column].width == .wide { end.column += 1 }
                    matches.append(BufferRange(start: first, end: end))
                    start += pattern.count
                } else {
                    start += 1
                }
            }
            line = current + 1
        }
        return matches
    }
}
