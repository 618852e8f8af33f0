import TermCore

/// Text that came from the server (ids, titles, paths, status details, error
/// bodies, close reasons), made safe to print on the user's terminal.
///
/// A server can put escape sequences in any string it sends; printed raw,
/// they would drive the user's terminal (move the cursor, rewrite the
/// screen, set its title, reorder text with bidi overrides). Everything the
/// CLI prints that a server wrote goes through ``sanitized(_:)``, and every
/// ``AttachError`` description does so as a whole.
///
/// The rules are the title rules of PROTOCOL.md, through TermCore's
/// `TitleSanitizer`: invalid UTF-8 becomes U+FFFD; C0 and C1 controls, DEL,
/// the bidi marks, overrides and isolates (U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069) and invisible spacers are removed; white space is trimmed;
/// the length is capped without splitting a grapheme cluster. Before them,
/// this removes what a title may keep but a line of the CLI's output should
/// not:
/// - every other bidi control (`isBidiControl`: U+061C, the Arabic letter
///   mark, reorders neutral characters around it like U+200F);
/// - the line and paragraph separators U+2028 and U+2029 (a terminal does
///   not break there, but other readers of the output do);
/// - every default-ignorable code point (`isDefaultIgnorableCodePoint`:
///   soft hyphens, Hangul fillers, tag characters, U+180E …), which render
///   as nothing and so can pad or disguise a string; except the joiners
///   ZWNJ and ZWJ, which `TitleSanitizer` keeps only between two visible
///   characters (emoji ZWJ sequences, Indic and Persian shaping), and a
///   variation selector right after a visible base character (U+FE0F makes
///   ❤ an emoji).
public enum ServerText {
    /// The longest text kept, in Unicode scalars: 1024. Longer than any
    /// error line needs (an HTTP error body is cut at 200 bytes, a close
    /// reason has at most 123) and than usual paths, short enough that a
    /// hostile string cannot flood standard error.
    public static let maxScalars = 1024

    /// `text` without controls, bidi controls or invisible characters,
    /// trimmed and capped at ``maxScalars``.
    /// - Complexity: O(n) in the input, O(``maxScalars``) memory.
    public static func sanitized(_ text: some StringProtocol) -> String {
        TitleSanitizer.sanitize(prefiltered(text.unicodeScalars), limit: maxScalars)
    }

    /// The UTF-8 of `scalars` without the characters removed before
    /// `TitleSanitizer` runs (see ``ServerText``), and without what it would
    /// remove anyway; at most 2 × ``maxScalars`` + 2 scalars are kept, more
    /// than it can use (it keeps ``maxScalars``, and of what is kept here it
    /// drops only joiners that end up beside white space, each after a
    /// visible character), so memory stays bounded.
    static func prefiltered(_ scalars: some Sequence<Unicode.Scalar>) -> [UInt8] {
        var out: [UInt8] = []
        var kept = 0
        // The last scalar kept is a visible base a variation selector may follow.
        var afterBase = false
        var started = false
        for scalar in scalars {
            if kept >= 2 * maxScalars + 2 { break }
            let properties = scalar.properties
            if TitleSanitizer.isRemoved(scalar) || properties.isBidiControl || scalar.value == 0x2028
                || scalar.value == 0x2029
            {
                continue
            }
            let isSpace = properties.isWhitespace
            // Leading white space goes in TitleSanitizer too: not counted.
            if !started && isSpace { continue }
            if TitleSanitizer.isJoiner(scalar) {
                afterBase = false
            } else if properties.isDefaultIgnorableCodePoint {
                guard isVariationSelector(scalar), afterBase else { continue }
                afterBase = false
            } else {
                afterBase = !isSpace
            }
            started = true
            out.append(contentsOf: String(scalar).utf8)
            kept += 1
        }
        return out
    }

    /// U+FE00–U+FE0F, U+E0100–U+E01EF and the Mongolian free variation
    /// selectors U+180B–U+180D, U+180F.
    static func isVariationSelector(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0x180B...0x180D, 0x180F: return true
        default: return false
        }
    }
}
