import TermCore
import TermReplay

/// Renders a `Snapshot` as an escape stream: fed into a fresh terminal of
/// the snapshot's size, it reproduces the screen, the scrollback lines the
/// snapshot holds, every cell's attributes and link, the cursor (with a
/// pending wrap), the modes, the title and the palette.
///
/// ```swift
/// let bytes = ANSIRenderer.render(terminal.snapshot(scrollback: 0..<terminal.scrollbackCount))
/// let copy = Terminal(columns: terminal.columns, rows: terminal.rows)
/// copy.feed(bytes)
/// ```
///
/// A snapshot of the alternate screen holds no primary rows; its scrollback
/// lines are drawn above a blank primary screen.
public enum ANSIRenderer {
    /// The stream for `snapshot`, for a terminal keeping at least
    /// `scrollback` lines (the snapshot's scrollback lines must fit).
    /// - Complexity: O(cells in the snapshot).
    public static func render(_ snapshot: Snapshot, scrollback: Int = Terminal.Limits.defaultScrollback) -> [UInt8] {
        // TermReplay's state encoder, which the replay compactor also uses:
        // a snapshot is the part of a terminal's state a front end draws.
        let capture = StateCapture(snapshot: snapshot)
        let encoder = StateEncoder(capture: capture, scrollback: max(scrollback, snapshot.scrollbackRange.count))
        return encoder.encode()
    }

    /// The stream as a string (it is valid UTF-8).
    public static func renderString(_ snapshot: Snapshot) -> String {
        String(decoding: render(snapshot), as: UTF8.self)
    }

    /// The shortest SGR sequence (`CSI … m`) that turns the rendition
    /// `old` into `new`, or "" when they are equal: TermCore's
    /// `SGRWriter.sequence(from:to:)`, the one SGR writer of the package,
    /// kept here for callers of TermRender.
    public static func sgr(from old: Style, to new: Style) -> String {
        SGRWriter.sequence(from: old, to: new)
    }

    /// The SGR sequence that sets `style` whatever was set before, a reset
    /// (`0`) and its attributes in one `CSI 0;… m`: TermCore's
    /// `SGRWriter.sequence(setting:)`, kept here for callers of TermRender.
    public static func sgr(_ style: Style) -> String { SGRWriter.sequence(setting: style) }

    /// The OSC 8 sequence that makes `link` the current hyperlink, or ends
    /// the current one for nil. A link whose URI or id holds a control
    /// character (which no OSC 8 the engine parsed can, but a `Hyperlink`
    /// made by hand may) ends the current one instead: the bytes written are
    /// never more than the one OSC string.
    public static func hyperlink(_ link: Hyperlink?) -> String {
        guard let link, !hasControl(link.uri), !hasControl(link.id ?? "") else { return "\u{1B}]8;;\u{1B}\\" }
        return "\u{1B}]8;" + (link.id.map { "id=" + $0 } ?? "") + ";" + link.uri + "\u{1B}\\"
    }

    /// True when `text` holds a C0 or C1 control or DEL.
    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}
