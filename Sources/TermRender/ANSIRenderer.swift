import TermCore

/// Renders a ``Snapshot`` as an escape stream: fed into a fresh terminal of
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
        let image = TerminalImage(snapshot: snapshot)
        let encoder = StateEncoder(image: image, scrollback: max(scrollback, snapshot.scrollbackRange.count))
        return encoder.encode()
    }

    /// The stream as a string (it is valid UTF-8).
    public static func renderString(_ snapshot: Snapshot) -> String {
        String(decoding: render(snapshot), as: UTF8.self)
    }
}
