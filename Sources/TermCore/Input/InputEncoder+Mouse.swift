// Mouse reports (xterm ctlseqs "Mouse Tracking"; the details from xterm's
// button.c: EditorButton, BtnCode, EmitButtonCode, EmitMousePosition).

extension InputEncoder {
    /// The largest 1-based coordinate the legacy encoding can carry: one
    /// byte of 32 + coordinate (button.c `MOUSE_LIMIT`).
    static let legacyCoordinateLimit = 223
    /// The largest 1-based coordinate of UTF-8 (1005) reports: 32 +
    /// coordinate in two UTF-8 bytes, up to U+07FF (`EXT_MOUSE_LIMIT`).
    static let utf8CoordinateLimit = 2015

    /// The report of a mouse event, or empty (nothing to send) when the modes
    /// do not report it.
    ///
    /// Tracking (what is reported):
    /// - X10 (?9): presses of buttons 1–3, with no modifiers.
    /// - Normal (?1000): presses and releases; the wheel as presses.
    /// - Button-event (?1002): also motion while a button is held.
    /// - Any-event (?1003): all motion.
    ///
    /// Encoding (how), with the button code `b` = button (0–2, 3 for a
    /// legacy release or no button, 64–67 the wheel, 128–131 buttons 8–11)
    /// + Shift 4 + Alt 8 + Control 16 + motion 32, and 1-based `x`, `y`:
    /// - legacy: `CSI M` and the bytes 32 + b, 32 + x, 32 + y; empty past 223,
    ///   which a byte cannot carry (xterm instead clamps to 223 and sends a
    ///   NUL byte as a past-the-end marker).
    /// - UTF-8 (?1005): the same numbers as UTF-8 characters; empty past 2015.
    /// - SGR (?1006): `CSI < b ; x ; y M`, or `m` for a release, which keeps
    ///   the released button's number.
    /// - urxvt (?1015): `CSI 32 + b ; x ; y M`.
    /// - SGR-pixels (?1016): as SGR with the 1-based pixel position; empty
    ///   without ``MouseEvent/pixel``.
    ///
    /// Without tracking, alternate scroll (?1007) turns a wheel click on
    /// the alternate screen into the Up or Down key.
    /// - Complexity: O(1).
    public func encode(_ mouse: MouseEvent) -> [UInt8] {
        let button = mouse.button
        switch modes.mouseTracking {
        case .none:
            return alternateScroll(mouse)
        case .x10:
            guard mouse.action == .press, [.left, .middle, .right].contains(button) else { return [] }
        case .normal:
            guard mouse.action != .motion else { return [] }
        case .buttonEvent:
            guard mouse.action != .motion || button != .none else { return [] }
        case .anyEvent:
            break
        }
        // The wheel clicks: no release, no drag; a press needs a button.
        if button.isWheel && mouse.action != .press { return [] }
        if button == .none && mouse.action != .motion { return [] }

        let sgr = modes.mouseEncoding == .sgr || modes.mouseEncoding == .sgrPixels
        var code = button.code
        if modes.mouseTracking == .x10 {
            // X10 compatibility reports the button alone (EmitButtonCode).
        } else {
            // Outside SGR a release does not say which button (code 3).
            if mouse.action == .release && !sgr { code = 3 }
            if mouse.modifiers.contains(.shift) { code += 4 }
            if !mouse.modifiers.isDisjoint(with: [.alt, .meta]) { code += 8 }
            if mouse.modifiers.contains(.control) { code += 16 }
            if mouse.action == .motion { code += 32 }
        }

        // Kept within 0…Int32.max before the 1-based form: any position an
        // embedder passes (negative, Int.max) encodes, none traps.
        func coordinate(_ value: Int) -> Int { min(max(0, value), Int(Int32.max)) + 1 }
        var x = coordinate(mouse.position.column)
        var y = coordinate(mouse.position.row)
        var writer = SequenceWriter()
        writer.csi()
        switch modes.mouseEncoding {
        case .legacy:
            guard x <= Self.legacyCoordinateLimit && y <= Self.legacyCoordinateLimit else { return [] }
            writer.ascii("M")
            for value in [code, x, y] { writer.byte(UInt8(32 + value)) }
        case .utf8:
            guard x <= Self.utf8CoordinateLimit && y <= Self.utf8CoordinateLimit else { return [] }
            writer.ascii("M")
            for value in [code, x, y] { writer.scalar(Unicode.Scalar(UInt32(32 + value))!) }
        case .urxvt:
            writer.number(32 + code)
            writer.ascii(";")
            writer.number(x)
            writer.ascii(";")
            writer.number(y)
            writer.ascii("M")
        case .sgr, .sgrPixels:
            if modes.mouseEncoding == .sgrPixels {
                guard let pixel = mouse.pixel else { return [] }
                x = coordinate(pixel.x)
                y = coordinate(pixel.y)
            }
            writer.ascii("<")
            writer.number(code)
            writer.ascii(";")
            writer.number(x)
            writer.ascii(";")
            writer.number(y)
            writer.ascii(mouse.action == .release ? "m" : "M")
        }
        return writer.bytes
    }

    /// Alternate scroll (?1007, xterm's alternateScroll resource): with no
    /// mouse tracking, a wheel click up or down on the alternate screen is
    /// sent as one press of the Up or Down key (in the cursor key mode in
    /// force), so pagers and editors scroll.
    func alternateScroll(_ mouse: MouseEvent) -> [UInt8] {
        guard modes.alternateScroll, isAlternateScreen, mouse.action == .press else { return [] }
        switch mouse.button {
        case .wheelUp: return encode(KeyEvent(.up))
        case .wheelDown: return encode(KeyEvent(.down))
        default: return []
        }
    }
}
