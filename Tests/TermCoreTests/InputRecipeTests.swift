import TermCore
import Testing

// The "Input" recipe of docs/EMBEDDING.md, compiled and run here: keep the
// two the same.

/// A session's model as an actor: the program's output in; its replies, and
/// the user's keys, mouse, pastes and focus out, in the order they happen.
actor TerminalSession {
    private let terminal = Terminal(columns: 80, rows: 24)
    private var pointer = MouseTracker()
    /// Writes to the program (the PTY, the socket).
    private let write: @Sendable ([UInt8]) -> Void

    init(write: @escaping @Sendable ([UInt8]) -> Void) {
        self.write = write
        terminal.queuesReplies = true  // drained below, not sent from a closure
        terminal.queuesEvents = true
    }

    /// Output from the program: its replies are written before anything the
    /// user does after this call. The events are the UI's (bell, title…).
    func received(_ bytes: [UInt8]) -> [TerminalEvent] {
        terminal.feed(bytes)
        send(terminal.drainReplies())
        return terminal.drainEvents()
    }

    // Every encoding reads the modes the output set so far (DECCKM, mouse
    // tracking, bracketed paste…) and returns [] when there is nothing to send.
    func keyDown(_ key: KeyEvent) { send(terminal.inputEncoder.encode(key)) }
    func mouseDown(_ button: MouseEvent.Button, at cell: ScreenPosition, modifiers: KeyModifiers = []) {
        send(pointer.press(button, at: cell, modifiers: modifiers, encoder: terminal.inputEncoder))
    }
    func mouseUp(_ button: MouseEvent.Button, at cell: ScreenPosition) {
        send(pointer.release(button, at: cell, encoder: terminal.inputEncoder))
    }
    func mouseMoved(to cell: ScreenPosition) { send(pointer.move(to: cell, encoder: terminal.inputEncoder)) }
    func paste(_ text: String) { send(terminal.inputEncoder.paste(Array(text.utf8))) }
    func focusChanged(_ focused: Bool) { send(terminal.inputEncoder.focus(focused)) }

    private func send(_ bytes: [UInt8]) {
        if !bytes.isEmpty { write(bytes) }
    }
}

/// What the recipe's session wrote, in order.
final class Written: @unchecked Sendable {
    // Written from the actor only, read after it is done.
    var writes: [String] = []
}

@Suite("Embedding guide: input")
struct InputRecipeTests {

    /// The bytes expected below are xterm ctlseqs': "Mouse Tracking"
    /// (SGR, 1006), "Bracketed Paste Mode", "FocusIn/FocusOut", "PC-Style
    /// Function Keys" under DECCKM, and DSR 5's `CSI 0 n`.
    @Test("The session writes replies and input in order for the modes in force")
    func theSessionWritesRepliesAndInputInOrderForTheModesInForce() async {
        let written = Written()
        let session = TerminalSession { written.writes.append(String(decoding: $0, as: UTF8.self)) }
        let origin = ScreenPosition(row: 0, column: 0)
        // Before the program asks for anything: plain keys, no mouse, no focus.
        await session.keyDown(KeyEvent(.up))
        await session.mouseDown(.left, at: origin)
        await session.focusChanged(true)
        await session.paste("a\nb")
        // A program that asks for all of it, then for a status report.
        let events = await session.received(
            Array("\(CSI)?1h\(CSI)?1002h\(CSI)?1006h\(CSI)?2004h\(CSI)?1004h\u{07}\(CSI)5n".utf8))
        await session.keyDown(KeyEvent(.up))
        await session.mouseDown(.left, at: ScreenPosition(row: 2, column: 4))
        await session.mouseMoved(to: ScreenPosition(row: 2, column: 4))  // same cell: nothing
        await session.mouseMoved(to: ScreenPosition(row: 2, column: 5))
        await session.mouseUp(.left, at: ScreenPosition(row: 2, column: 5))
        await session.paste("a\nb")
        await session.focusChanged(false)
        #expect(events == [.bell])
        #expect(
            written.writes == [
                "\(CSI)A", "a\rb",  // before: CSI A, no mouse, no focus, a bare paste
                "\(CSI)0n",  // the reply, before the keys typed after it
                "\u{1B}OA", "\(CSI)<0;5;3M", "\(CSI)<32;6;3M", "\(CSI)<0;6;3m", "\(CSI)200~a\rb\(CSI)201~",
                "\(CSI)O",
            ])
    }
}
