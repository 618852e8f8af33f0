import TermCore

/// Cuts a replay down to the bytes that rebuild its final state.
///
/// ```swift
/// let terminal = Terminal(columns: 80, rows: 24)
/// terminal.feed(recording)
/// let compact = ReplayCompactor.compact(terminal)
/// // Terminal(columns: 80, rows: 24) fed `compact` is in the same state.
/// ```
///
/// What is rebuilt: both screens' cells (characters, clusters, wide
/// characters, styles with underline colour, links, protection), wrap flags,
/// line sizes and OSC 133 marks, the scrollback, the cursor with its pending
/// wrap, both saved cursors (DECSC), every mode of `TerminalModes`, the
/// scroll region and left/right margins, tab stops, character sets, the pen,
/// the palette, the title, icon name, title stack, working directory and the
/// kitty keyboard stacks. Each cell keeps its width whatever mode 2027 was
/// when it was printed and is at the end. Not rebuilt: the parser's position
/// inside an unfinished sequence, the character REP would repeat, and the
/// counters; and a few rare states the encoder finds no stream for: states
/// only an engine bug leaves (known issues in the tests), a wrap spacer
/// on the bottom row of a two-row screen, a narrow VS15 emoji in the last
/// column of a row that wraps, and some cursors DECRC left outside the
/// region under DECOM.
public enum ReplayCompactor {
    /// A stream that, fed into a fresh `Terminal(columns:rows:scrollback:)`
    /// of `terminal`'s size and scrollback limit, gives the same state.
    /// - Complexity: O(cells in the scrollback and on both screens).
    ///
    /// A terminal that DECCOLM switched between 80 and 132 columns has a
    /// different size than it started with: pass the starting width as
    /// `startColumns` and the stream switches too.
    public static func compact(_ terminal: Terminal, startColumns: Int? = nil) -> [UInt8] {
        let encoder = StateEncoder(
            capture: StateCapture(terminal: terminal), scrollback: terminal.scrollbackLimit, startColumns: startColumns)
        return encoder.encode()
    }

    /// Feeds `bytes` into a terminal of the given size and compacts it.
    public static func compact(
        _ bytes: some Collection<UInt8>, columns: Int, rows: Int, scrollback: Int = Terminal.Limits.defaultScrollback
    ) -> [UInt8] {
        let terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback)
        terminal.feed(bytes)
        return compact(terminal, startColumns: columns)
    }
}
