// Legacy key encoding: what xterm sends with its default resources
// (modifyOtherKeys 0, modifyCursorKeys 2, modifyFunctionKeys 2, Delete
// sending CSI 3 ~), metaSendsEscape on and Backspace sending DEL.
// Sources: xterm ctlseqs, "PC-Style Function Keys", "VT220-Style Function
// Keys", "VT100-Style Keypad"; xterm's input.c (Input, decfuncvalue,
// kypd_num/kypd_apl) for the details ctlseqs leaves out.

extension InputEncoder {
    /// The bytes for a key event; empty when the key sends nothing (a
    /// release outside the kitty protocol, a lock key in legacy mode…).
    ///
    /// With kitty keyboard flags in force (``TerminalModes/kittyKeyboardFlags``)
    /// the kitty keyboard protocol decides; otherwise xterm's encoding:
    ///
    /// | key | sends |
    /// |---|---|
    /// | Up (Down, Right, Left, Home, End) | `CSI A`, `SS3 A` under DECCKM, `CSI 1;m A` modified |
    /// | Insert, Delete, Page Up, Page Down | `CSI 2 ~`, `CSI 3 ~`, `CSI 5 ~`, `CSI 6 ~`, `CSI n;m ~` |
    /// | F1–F4 | `SS3 P`…`SS3 S`, `CSI 1;m P` modified |
    /// | F5–F12, F13–F20, F21… | `CSI 15 ~`…`CSI 24 ~`, `CSI 25 ~`…`CSI 34 ~`, `CSI 42 ~`… |
    /// | keypad under DECKPAM | `SS3 p`…`SS3 y`, `SS3 M` (Enter), `SS3 j k l m n o X` |
    /// | Ctrl+key | its C0 control (Ctrl+a → 0x01, Ctrl+Space → NUL, Ctrl+/ → 0x1F) |
    /// | Alt+key | ESC, then the key |
    /// | Backspace, Ctrl+Backspace | DEL, BS |
    /// | Return | CR (CR LF under LNM) |
    /// | Shift+Tab | `CSI Z` |
    ///
    /// where `m` is 1 + Shift 1 + Alt 2 + Control 4 + Super or Meta 8.
    /// Nothing while the program has locked the keyboard (KAM).
    /// - Complexity: O(length of the key's text).
    public func encode(_ event: KeyEvent) -> [UInt8] {
        guard !modes.keyboardLocked else { return [] }  // KAM (ECMA-48 §7.2.10)
        if modes.kittyKeyboardFlags & 0x1F != 0 { return encodeKitty(event) }
        guard event.kind != .release else { return [] }
        let modifiers = event.modifiers.subtracting(KeyModifiers.locks)
        switch event.key {
        case .character, .text:
            return withNewlineMode(legacyText(event, modifiers))
        case .enter:
            return withNewlineMode(escapePrefixed([0x0D], modifiers))
        case .tab:
            // Shift+Tab is ISO_Left_Tab, which xterm sends as CBT whatever
            // else is held (input.c, the XK_ISO_Left_Tab case).
            if modifiers.contains(.shift) { return Array("\u{1B}[Z".utf8) }
            return escapePrefixed([0x09], modifiers)
        case .backspace:
            // backarrowKey sends DEL, or BS under DECBKM; Control toggles
            // it (input.c, IsBackarrowToggle).
            let sendsBackspace = modes.backarrowSendsBackspace != modifiers.contains(.control)
            return escapePrefixed([sendsBackspace ? 0x08 : 0x7F], modifiers)
        case .escape:
            return escapePrefixed([0x1B], modifiers)
        case .up: return cursorKey("A", modifiers)
        case .down: return cursorKey("B", modifiers)
        case .right: return cursorKey("C", modifiers)
        case .left: return cursorKey("D", modifiers)
        case .home: return cursorKey("H", modifiers)
        case .end: return cursorKey("F", modifiers)
        case .insert: return tildeKey(2, modifiers)
        case .delete: return tildeKey(3, modifiers)
        case .pageUp: return tildeKey(5, modifiers)
        case .pageDown: return tildeKey(6, modifiers)
        case .function(let number): return functionKey(number, modifiers)
        case .keypad(let key): return keypadKey(key, event: event, modifiers: modifiers)
        case .menu: return tildeKey(29, modifiers)  // decfuncvalue: XK_Menu → 29
        case .capsLock, .scrollLock, .numLock, .printScreen, .pause, .modifier:
            return []
        }
    }

    /// xterm's modifier parameter: 1 + Shift 1 + Alt 2 + Control 4 + Meta 8
    /// (ctlseqs "PC-Style Function Keys"); Super takes the Meta bit too, as
    /// no other bit is defined for it. 1 means no modifier.
    static func xtermModifierParameter(_ modifiers: KeyModifiers) -> Int {
        var value = 1
        if modifiers.contains(.shift) { value += 1 }
        if modifiers.contains(.alt) { value += 2 }
        if modifiers.contains(.control) { value += 4 }
        if !modifiers.isDisjoint(with: [.super, .meta]) { value += 8 }
        return value
    }

    /// Cursor keys and Home/End: `CSI 1 ; m X` when modified
    /// (modifyCursorKeys 2 forces CSI and a first parameter of 1), else
    /// `SS3 X` under DECCKM and `CSI X` without it.
    func cursorKey(_ final: Character, _ modifiers: KeyModifiers) -> [UInt8] {
        finalKey(final, modifiers, unmodifiedSS3: modes.applicationCursorKeys)
    }

    /// `CSI 1 ; m X` when modified, else `SS3 X` or `CSI X`.
    func finalKey(_ final: Character, _ modifiers: KeyModifiers, unmodifiedSS3: Bool) -> [UInt8] {
        var writer = SequenceWriter()
        let parameter = Self.xtermModifierParameter(modifiers)
        if parameter > 1 {
            writer.csi()
            writer.number(1)
            writer.ascii(";")
            writer.number(parameter)
        } else if unmodifiedSS3 {
            writer.ss3()
        } else {
            writer.csi()
        }
        writer.ascii(final)
        return writer.bytes
    }

    /// `CSI n ~`, or `CSI n ; m ~` when modified.
    func tildeKey(_ number: Int, _ modifiers: KeyModifiers) -> [UInt8] {
        var writer = SequenceWriter()
        writer.csi()
        writer.number(number)
        let parameter = Self.xtermModifierParameter(modifiers)
        if parameter > 1 {
            writer.ascii(";")
            writer.number(parameter)
        }
        writer.ascii("~")
        return writer.bytes
    }

    /// F1–F4 are PF1–PF4 (`SS3 P`…`SS3 S`; modifyFunctionKeys 2 makes them
    /// `CSI 1 ; m P` when modified); F5 and up use the VT220 codes of
    /// xterm's decfuncvalue: 15, 17–21, 23–26, 28, 29, 31–34; past F20, which
    /// no DEC terminal had, xterm numbers on from 42.
    func functionKey(_ number: Int, _ modifiers: KeyModifiers) -> [UInt8] {
        switch number {
        case 1...4:
            let final = Character(Unicode.Scalar(UInt8(0x50 + number - 1)))
            return finalKey(final, modifiers, unmodifiedSS3: true)
        case 5...35:
            let codes = [15, 17, 18, 19, 20, 21, 23, 24, 25, 26, 28, 29, 31, 32, 33, 34]
            let code = number <= 20 ? codes[number - 5] : 42 + number - 21
            return tildeKey(code, modifiers)
        default:
            return []
        }
    }

    /// The keypad. Under DECKPAM (`ESC =`, or DECNKM ?66) xterm sends
    /// `SS3` and its `kypd_apl` final, with the modifier parameter between
    /// them when modified (`SS3 5 p`); in numeric mode the key's character,
    /// modifiers ignored. As with xterm's `numLock` resource, a key typed
    /// with Num Lock on is numeric even under DECKPAM. The navigation keys
    /// (Num Lock off) are the editing and cursor keys.
    func keypadKey(_ key: KeypadKey, event: KeyEvent, modifiers: KeyModifiers) -> [UInt8] {
        switch key {
        case .left: return cursorKey("D", modifiers)
        case .right: return cursorKey("C", modifiers)
        case .up: return cursorKey("A", modifiers)
        case .down: return cursorKey("B", modifiers)
        case .home: return cursorKey("H", modifiers)
        case .end: return cursorKey("F", modifiers)
        case .begin: return cursorKey("E", modifiers)
        case .insert: return tildeKey(2, modifiers)
        case .delete: return tildeKey(3, modifiers)
        case .pageUp: return tildeKey(5, modifiers)
        case .pageDown: return tildeKey(6, modifiers)
        default: break
        }
        let numeric = !modes.applicationKeypad || event.modifiers.contains(.numLock)
        if numeric {
            if key == .enter { return withNewlineMode([0x0D]) }
            return Array(key.text.utf8)
        }
        let finals: [KeypadKey: Character] = [
            .zero: "p", .one: "q", .two: "r", .three: "s", .four: "t", .five: "u", .six: "v", .seven: "w",
            .eight: "x", .nine: "y", .multiply: "j", .add: "k", .separator: "l", .subtract: "m", .decimal: "n",
            .divide: "o", .enter: "M", .equal: "X",
        ]
        guard let final = finals[key] else { return [] }
        var writer = SequenceWriter()
        writer.ss3()
        let parameter = Self.xtermModifierParameter(modifiers)
        if parameter > 1 { writer.number(parameter) }
        writer.ascii(final)
        return writer.bytes
    }

    /// A key that types text. Control maps a single ASCII character to its
    /// C0 control as Xlib's XLookupString does (`@`…`~` and space masked to
    /// 0x00–0x1F; `2` → NUL, `3`…`7` → ESC…US, `8` → DEL, `/` → US), plus
    /// xterm's own Control+`?` → DEL; other characters are unchanged, since
    /// modifyOtherKeys 0 reports no modifier for them. Alt (or Meta) puts
    /// ESC before the result (metaSendsEscape). Super changes nothing.
    func legacyText(_ event: KeyEvent, _ modifiers: KeyModifiers) -> [UInt8] {
        let text = event.effectiveText
        guard !text.isEmpty else { return [] }
        var bytes = Array(text.utf8)
        if modifiers.contains(.control), bytes.count == 1 {
            bytes = [Self.controlCharacter(bytes[0])]
        }
        return escapePrefixed(bytes, modifiers)
    }

    /// Xlib's Control mapping of an ASCII character, with xterm's `?` → DEL.
    static func controlCharacter(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x3F: 0x7F  // ?
        case 0x40...0x7E, 0x20: byte & 0x1F
        case 0x32: 0x00  // 2
        case 0x33...0x37: byte - 0x18  // 3…7 → ESC, FS, GS, RS, US
        case 0x38: 0x7F  // 8
        case 0x2F: 0x1F  // /
        default: byte
        }
    }

    /// ESC before `bytes` when Alt or Meta is held (metaSendsEscape).
    func escapePrefixed(_ bytes: [UInt8], _ modifiers: KeyModifiers) -> [UInt8] {
        modifiers.isDisjoint(with: [.alt, .meta]) ? bytes : [0x1B] + bytes
    }

    /// Under LNM every CR the keyboard sends is followed by LF (xterm's
    /// unparseputc; ctlseqs "Automatic Newline").
    func withNewlineMode(_ bytes: [UInt8]) -> [UInt8] {
        guard modes.newline, bytes.contains(0x0D) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 1)
        for byte in bytes {
            out.append(byte)
            if byte == 0x0D { out.append(0x0A) }
        }
        return out
    }
}
