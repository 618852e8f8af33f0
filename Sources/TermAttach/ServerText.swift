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
/// the length is capped without splitting a grapheme cluster.
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
        TitleSanitizer.sanitize(text.utf8, limit: maxScalars)
    }
}
