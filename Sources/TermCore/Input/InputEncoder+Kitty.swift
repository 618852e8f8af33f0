// The kitty keyboard protocol (sw.kovidgoyal.net/kitty/keyboard-protocol),
// for the progressive-enhancement flags the program set with CSI > / = u:
//   1 disambiguate escape codes   2 report event types
//   4 report alternate keys       8 report all keys as escape codes
//  16 report associated text
// Central form: CSI key[:shifted[:base]] ; modifiers[:event] ; text u,
// with the legacy functional forms CSI n ; m ~ and CSI 1 ; m {ABCDEFHPS}.

extension InputEncoder {
    /// The progressive-enhancement flags, decoded.
    struct KittyFlags {
        var disambiguate, reportEvents, reportAlternates, reportAllKeys, reportText: Bool

        init(_ bits: UInt8) {
            disambiguate = bits & 1 != 0
            reportEvents = bits & 2 != 0
            reportAlternates = bits & 4 != 0
            reportAllKeys = bits & 8 != 0
            reportText = bits & 16 != 0
        }
    }

    func encodeKitty(_ event: KeyEvent) -> [UInt8] {
        let flags = KittyFlags(modes.kittyKeyboardFlags)
        // Without "report event types" a release sends nothing and a repeat
        // is a press ("Event types").
        var kind = event.kind
        if !flags.reportEvents {
            if kind == .release { return [] }
            kind = .press
        }
        var key = event.key
        if case .modifier = key, !flags.reportAllKeys { return [] }
        // Without "disambiguate", keypad keys are reported as the keys they
        // stand for ("Legacy functional keys": all keypad keys are reported
        // as their equivalent non-keypad keys).
        if case .keypad(let keypad) = key, !flags.disambiguate, let plain = keypad.plainKey { key = plain }
        let modifiers = event.modifiers
        let held = modifiers.subtracting(KeyModifiers.locks)

        // Text: sent as plain UTF-8 unless "report all keys" asks for an
        // escape code ("Report all keys as escape codes"). Control and Alt
        // combinations type no text; a control character is not text.
        var text = modifiers.isDisjoint(with: KeyModifiers.textBlocking) ? event.effectiveText : ""
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { text = "" }
        if case .text(let committed) = key {
            // An input method's commit has no key to report: sent as text.
            return kind == .release ? [] : Array(committed.utf8)
        }
        // Enter, Tab and Backspace have no release events unless all keys
        // are reported, so that a shell stays usable ("Report event types").
        if kind == .release && !flags.reportAllKeys && [Key.enter, .tab, .backspace].contains(key) { return [] }
        if !flags.reportAllKeys && !text.isEmpty && kind != .release { return Array(text.utf8) }

        let eventKind: KeyEvent.Kind? = kind == .press ? nil : kind
        let embedded = flags.reportAllKeys && flags.reportText ? text : ""

        guard case .character(let scalar) = key else {
            return kittyFunctionalKey(
                key, held: held, modifiers: modifiers, kind: eventKind, text: embedded, flags: flags)
        }
        // The key code is the unshifted key ("Key codes"); an upper-case
        // ASCII letter given as the key is taken as its key.
        let code = (0x41...0x5A).contains(scalar.value) ? scalar.value + 0x20 : scalar.value
        var shifted: UInt32?
        var base: UInt32?
        if flags.reportAlternates {
            // The shifted key only when Shift is held; the base layout key
            // only when it differs from the key.
            if held.contains(.shift) {
                let layoutText = event.effectiveText.unicodeScalars
                let candidate =
                    event.shiftedKey?.value
                    ?? (layoutText.count == 1 ? layoutText.first!.value : KeyEvent.usShifted(scalar).value)
                if candidate != code { shifted = candidate }
            }
            if let layoutKey = event.baseLayoutKey?.value, layoutKey != code { base = layoutKey }
        }
        if eventKind == nil && shifted == nil && base == nil && embedded.isEmpty {
            if held.isEmpty && !flags.reportAllKeys, let plain = Unicode.Scalar(code) {
                var writer = SequenceWriter()
                writer.scalar(plain)
                return writer.bytes
            }
            let legacyAllowed = !flags.disambiguate && !flags.reportAllKeys
            if legacyAllowed, let legacy = kittyLegacyText(code, event: event, held: held) { return legacy }
        }
        return kittySequence(
            number: Int(code), shifted: shifted, base: base, modifiers: modifiers, kind: eventKind, text: embedded,
            final: "u")
    }

    /// "Legacy text keys": a–z, 0–9 and `` ` - = [ ] \ ; ' , . / `` (and
    /// space) with Shift, Alt, Control, Shift+Alt or Control+Alt: ESC for
    /// Alt, then the key mapped by Control (the spec's Control table) or
    /// shifted by Shift. nil for any other combination, which is sent as
    /// `CSI u`.
    func kittyLegacyText(_ code: UInt32, event: KeyEvent, held: KeyModifiers) -> [UInt8]? {
        guard Self.kittyLegacyKeys.contains(code), let scalar = Unicode.Scalar(code) else { return nil }
        let allowed: [KeyModifiers] = [.shift, .alt, .control, [.shift, .alt], [.control, .alt]]
        guard allowed.contains(held) else { return nil }
        var bytes: [UInt8] = []
        if held.contains(.alt) { bytes.append(0x1B) }
        if held.contains(.control) {
            bytes.append(Self.kittyControlCharacter(UInt8(code)))
        } else if held.contains(.shift) {
            let layoutText = event.effectiveText
            bytes += layoutText.isEmpty ? Array(String(KeyEvent.usShifted(scalar)).utf8) : Array(layoutText.utf8)
        } else {
            bytes.append(UInt8(code))
        }
        return bytes
    }

    static let kittyLegacyKeys = Set("abcdefghijklmnopqrstuvwxyz0123456789`-=[]\\;',./ ".unicodeScalars.map(\.value))

    /// The spec's "Legacy ctrl mapping of ASCII keys" for the unshifted
    /// legacy keys: letters and `@ [ \ ] ^ _` masked to C0, space and `2`
    /// → NUL, `3`…`7` → ESC…US, `8` and `?` → DEL, `/` → US, `~` → RS;
    /// anything else unchanged.
    static func kittyControlCharacter(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x7E: 0x1E  // ~
        case 0x30, 0x31, 0x39: byte  // 0, 1, 9
        case 0x60: 0x60  // ` is not in the table
        default: controlCharacter(byte)
        }
    }

    /// Keys that do not type text: the functional key table.
    func kittyFunctionalKey(
        _ key: Key, held: KeyModifiers, modifiers: KeyModifiers, kind: KeyEvent.Kind?, text: String, flags: KittyFlags
    ) -> [UInt8] {
        // Enter, Tab, Backspace (and Escape without "disambiguate") keep
        // their legacy bytes unless every key is reported; so do the
        // Alt/Shift/Control forms of the "C0 controls" table that legacy
        // mode defines, without "disambiguate".
        if kind == nil && !flags.reportAllKeys {
            if held.isEmpty {
                switch key {
                case .enter: return withNewlineMode([0x0D])
                case .tab: return [0x09]
                case .backspace: return [0x7F]
                case .escape where !flags.disambiguate: return [0x1B]
                default: break
                }
            }
            if !flags.disambiguate {
                switch (key, held) {
                case (.enter, .alt): return [0x1B, 0x0D]
                case (.tab, .alt): return [0x1B, 0x09]
                case (.backspace, .alt): return [0x1B, 0x7F]
                case (.escape, .alt): return [0x1B, 0x1B]
                case (.tab, .shift): return Array("\u{1B}[Z".utf8)
                case (.backspace, .control): return [0x08]
                default: break
                }
            }
        }
        guard let (number, final) = Self.kittyFunctionalCode(key) else { return [] }
        // Without "disambiguate", unmodified F1–F4 keep their legacy SS3
        // forms, and so do the cursor keys, Home and End in cursor key mode
        // ("Legacy functional keys").
        if !flags.disambiguate && kind == nil && modifiers.isEmpty {
            switch key {
            case .function(let n) where (1...4).contains(n):
                return [0x1B, 0x4F, 0x50 + UInt8(n - 1)]
            case .up, .down, .right, .left, .home, .end:
                if modes.applicationCursorKeys { return [0x1B, 0x4F, final.asciiValue!] }
            default: break
            }
        }
        return kittySequence(
            number: number, shifted: nil, base: nil, modifiers: modifiers, kind: kind, text: text, final: final)
    }

    /// The functional key table ("Functional key definitions"). F3 is
    /// `13 ~`: the spec dropped `CSI 1 ; m R`, which a program cannot tell
    /// from a cursor position report.
    static func kittyFunctionalCode(_ key: Key) -> (Int, Character)? {
        switch key {
        case .escape: return (27, "u")
        case .enter: return (13, "u")
        case .tab: return (9, "u")
        case .backspace: return (127, "u")
        case .insert: return (2, "~")
        case .delete: return (3, "~")
        case .left: return (1, "D")
        case .right: return (1, "C")
        case .up: return (1, "A")
        case .down: return (1, "B")
        case .pageUp: return (5, "~")
        case .pageDown: return (6, "~")
        case .home: return (1, "H")
        case .end: return (1, "F")
        case .capsLock: return (57358, "u")
        case .scrollLock: return (57359, "u")
        case .numLock: return (57360, "u")
        case .printScreen: return (57361, "u")
        case .pause: return (57362, "u")
        case .menu: return (57363, "u")
        case .function(let n):
            switch n {
            case 1: return (1, "P")
            case 2: return (1, "Q")
            case 3: return (13, "~")
            case 4: return (1, "S")
            case 5...12: return ([15, 17, 18, 19, 20, 21, 23, 24][n - 5], "~")
            case 13...35: return (57376 + n - 13, "u")
            default: return nil
            }
        case .keypad(let keypad):
            if keypad == .begin { return (1, "E") }
            guard let index = KeypadKey.allCases.firstIndex(of: keypad) else { return nil }
            return (57399 + index, "u")  // KP_0 … KP_DELETE in KeypadKey's order
        case .modifier(let modifier):
            return (57441 + ModifierKey.allCases.firstIndex(of: modifier)!, "u")
        case .character, .text:
            return nil
        }
    }

    /// `CSI number[:shifted[:base]] [; modifiers[:event]] [; text] final`.
    /// The number 1 is omitted when nothing follows it; the modifier field is
    /// 1 + the kitty bits, present when there are modifiers or an event type.
    func kittySequence(
        number: Int, shifted: UInt32?, base: UInt32?, modifiers: KeyModifiers, kind: KeyEvent.Kind?, text: String,
        final: Character
    ) -> [UInt8] {
        var writer = SequenceWriter()
        writer.csi()
        let alternates = shifted != nil || base != nil
        let second = !modifiers.isEmpty || kind != nil
        let third = !text.isEmpty
        if number != 1 || alternates || second || third { writer.number(number) }
        if alternates {
            writer.ascii(":")
            if let shifted { writer.number(Int(shifted)) }
            if let base {
                writer.ascii(":")
                writer.number(Int(base))
            }
        }
        if second || third {
            writer.ascii(";")
            if second {
                writer.number(1 + Int(modifiers.rawValue))
                if let kind {
                    writer.ascii(":")
                    writer.number(Int(kind.rawValue))
                }
            }
        }
        if third {
            writer.ascii(";")
            for (index, scalar) in text.unicodeScalars.enumerated() {
                if index > 0 { writer.ascii(":") }
                writer.number(Int(scalar.value))
            }
        }
        writer.ascii(final)
        return writer.bytes
    }
}

extension KeypadKey {
    /// The key a keypad key stands for when the kitty protocol does not
    /// tell them apart; nil for Begin, which has no other key.
    var plainKey: Key? {
        switch self {
        case .enter: .enter
        case .left: .left
        case .right: .right
        case .up: .up
        case .down: .down
        case .pageUp: .pageUp
        case .pageDown: .pageDown
        case .home: .home
        case .end: .end
        case .insert: .insert
        case .delete: .delete
        case .begin: nil
        default: .character(text.unicodeScalars.first!)
        }
    }
}
