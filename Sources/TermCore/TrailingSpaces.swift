// Trailing blanks of a row's text. Rows end in blank cells, so every text
// extraction (screen lines, snapshots, selections, the renderers) trims them.

extension String.UnicodeScalarView {
    /// These scalars as a string without its trailing spaces (U+0020).
    ///
    /// The end is found by stepping back over the scalars and the string is
    /// made once: `removeLast()` on a string is a generic replacement that
    /// costs about ten thousand instructions a call, which made `termengine
    /// dump` of 10,000 lines of 200 columns take two seconds.
    package func droppingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex {
            let before = index(before: end)
            guard self[before] == " " else { break }
            end = before
        }
        return String(self[..<end])
    }
}

extension String {
    /// The string without its trailing spaces (U+0020); see
    /// `String.UnicodeScalarView.droppingTrailingSpaces()`.
    package func droppingTrailingSpaces() -> String {
        unicodeScalars.droppingTrailingSpaces()
    }
}
