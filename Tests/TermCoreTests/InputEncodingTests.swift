import TermCore
import Testing

// Expected bytes come from the references, not from the encoder:
// xterm ctlseqs ("PC-Style Function Keys", "VT220-Style Function Keys",
// "VT100-Style Keypad", "Mouse Tracking", "Bracketed Paste Mode",
// "FocusIn/FocusOut") with xterm's default resources, and the kitty keyboard
// protocol (sw.kovidgoyal.net/kitty/keyboard-protocol), section named.

/// An encoder for the modes a program set by printing `setup`.
private func encoder(_ setup: String = "") -> InputEncoder {
    let t = Terminal(columns: 80, rows: 24)
    t.feed(setup)
    return t.inputEncoder
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

private func key(_ key: Key, _ modifiers: KeyModifiers = [], in setup: String = "") -> [UInt8] {
    encoder(setup).encode(KeyEvent(key, modifiers: modifiers))
}

private func char(_ scalar: Unicode.Scalar, _ modifiers: KeyModifiers = [], in setup: String = "") -> [UInt8] {
    encoder(setup).encode(KeyEvent(.character(scalar), modifiers: modifiers))
}

@Suite("Input encoding: legacy keys (xterm)")
struct LegacyKeyTests {
    // ctlseqs "PC-Style Function Keys": cursor keys, DECCKM, modifiers.
    @Test("Cursor keys send CSI in normal mode") func cursorKeysSendCSIInNormalMode() {
        #expect(key(.up) == bytes("\(CSI)A"))
        #expect(key(.down) == bytes("\(CSI)B"))
        #expect(key(.right) == bytes("\(CSI)C"))
        #expect(key(.left) == bytes("\(CSI)D"))
    }

    @Test("Cursor keys send SS3 under DECCKM") func cursorKeysSendSS3UnderDECCKM() {
        #expect(key(.up, in: "\(CSI)?1h") == bytes("\(ESC)OA"))
        #expect(key(.left, in: "\(CSI)?1h") == bytes("\(ESC)OD"))
    }

    @Test("Modified cursor keys send CSI with a modifier parameter")
    func modifiedCursorKeysSendCSIWithModifierParameter() {
        #expect(key(.up, .shift) == bytes("\(CSI)1;2A"))
        #expect(key(.up, .alt) == bytes("\(CSI)1;3A"))
        #expect(key(.up, [.shift, .alt]) == bytes("\(CSI)1;4A"))
        #expect(key(.up, .control) == bytes("\(CSI)1;5A"))
        #expect(key(.up, [.control, .shift]) == bytes("\(CSI)1;6A"))
        #expect(key(.up, [.control, .alt, .shift]) == bytes("\(CSI)1;8A"))
    }

    @Test("Super takes xterm's meta bit") func superTakesXtermsMetaBit() {
        #expect(key(.right, .super) == bytes("\(CSI)1;9C"))
    }

    @Test("Modified cursor keys use CSI even under DECCKM") func modifiedCursorKeysUseCSIEvenUnderDECCKM() {
        #expect(key(.up, .shift, in: "\(CSI)?1h") == bytes("\(CSI)1;2A"))
    }

    @Test("Home and end follow DECCKM") func homeAndEndFollowDECCKM() {
        #expect(key(.home) == bytes("\(CSI)H"))
        #expect(key(.end) == bytes("\(CSI)F"))
        #expect(key(.home, in: "\(CSI)?1h") == bytes("\(ESC)OH"))
        #expect(key(.end, in: "\(CSI)?1h") == bytes("\(ESC)OF"))
        #expect(key(.end, .control) == bytes("\(CSI)1;5F"))
    }

    @Test("Editing keys send tilde codes") func editingKeysSendTildeCodes() {
        #expect(key(.insert) == bytes("\(CSI)2~"))
        #expect(key(.delete) == bytes("\(CSI)3~"))
        #expect(key(.pageUp) == bytes("\(CSI)5~"))
        #expect(key(.pageDown) == bytes("\(CSI)6~"))
        #expect(key(.delete, .control) == bytes("\(CSI)3;5~"))
        #expect(key(.pageUp, .shift) == bytes("\(CSI)5;2~"))
    }

    @Test("F1 to F4 send SS3") func f1ToF4SendSS3() {
        #expect(key(.function(1)) == bytes("\(ESC)OP"))
        #expect(key(.function(2)) == bytes("\(ESC)OQ"))
        #expect(key(.function(3)) == bytes("\(ESC)OR"))
        #expect(key(.function(4)) == bytes("\(ESC)OS"))
    }

    @Test("Modified F1 to F4 send CSI 1;modifier") func modifiedF1ToF4SendCSIOneSemicolonModifier() {
        #expect(key(.function(1), .shift) == bytes("\(CSI)1;2P"))
        #expect(key(.function(4), .control) == bytes("\(CSI)1;5S"))
    }

    @Test("F5 to F12 send VT220 codes") func f5ToF12SendVT220Codes() {
        let codes = [15, 17, 18, 19, 20, 21, 23, 24]
        for (offset, code) in codes.enumerated() {
            #expect(key(.function(5 + offset)) == bytes("\(CSI)\(code)~"))
        }
        #expect(key(.function(5), .control) == bytes("\(CSI)15;5~"))
    }

    // ctlseqs "VT220-Style Function Keys": F13–F20; xterm numbers on from 42.
    @Test("F13 to F20 send VT220 codes and later keys count from 42")
    func f13ToF20SendVT220CodesAndLaterKeysCountFrom42() {
        let codes = [25, 26, 28, 29, 31, 32, 33, 34]
        for (offset, code) in codes.enumerated() {
            #expect(key(.function(13 + offset)) == bytes("\(CSI)\(code)~"))
        }
        #expect(key(.function(21)) == bytes("\(CSI)42~"))
        #expect(key(.function(24)) == bytes("\(CSI)45~"))
        #expect(key(.function(36)).isEmpty)
    }

    // ctlseqs "VT100-Style Keypad" / "PC-Style Function Keys", numeric and
    // application columns.
    @Test("Keypad sends characters in numeric mode") func keypadSendsCharactersInNumericMode() {
        #expect(key(.keypad(.zero)) == bytes("0"))
        #expect(key(.keypad(.nine)) == bytes("9"))
        #expect(key(.keypad(.multiply)) == bytes("*"))
        #expect(key(.keypad(.decimal)) == bytes("."))
        #expect(key(.keypad(.enter)) == bytes("\r"))
    }

    @Test("Keypad sends SS3 under DECKPAM") func keypadSendsSS3UnderDECKPAM() {
        let pairs: [(KeypadKey, String)] = [
            (.zero, "p"), (.one, "q"), (.five, "u"), (.nine, "y"), (.multiply, "j"), (.add, "k"),
            (.separator, "l"), (.subtract, "m"), (.decimal, "n"), (.divide, "o"), (.enter, "M"), (.equal, "X"),
        ]
        for (pad, final) in pairs {
            #expect(key(.keypad(pad), in: "\(ESC)=") == bytes("\(ESC)O\(final)"))
        }
    }

    @Test("DECNKM is the same as DECKPAM") func decnkmIsTheSameAsDECKPAM() {
        #expect(key(.keypad(.one), in: "\(CSI)?66h") == bytes("\(ESC)Oq"))
    }

    @Test("DECKPNM returns the keypad to numeric mode") func decKPNMReturnsTheKeypadToNumericMode() {
        #expect(key(.keypad(.one), in: "\(ESC)=\(ESC)>") == bytes("1"))
    }

    @Test("Modified application keypad puts the parameter after SS3")
    func modifiedApplicationKeypadPutsTheParameterAfterSS3() {
        #expect(key(.keypad(.one), .control, in: "\(ESC)=") == bytes("\(ESC)O5q"))
    }

    @Test("Num lock keeps the keypad numeric under DECKPAM") func numLockKeepsTheKeypadNumericUnderDECKPAM() {
        #expect(key(.keypad(.seven), .numLock, in: "\(ESC)=") == bytes("7"))
    }

    @Test("Keypad navigation keys are the editing keys") func keypadNavigationKeysAreTheEditingKeys() {
        #expect(key(.keypad(.home)) == bytes("\(CSI)H"))
        #expect(key(.keypad(.begin)) == bytes("\(CSI)E"))
        #expect(key(.keypad(.delete)) == bytes("\(CSI)3~"))
        #expect(key(.keypad(.up), in: "\(CSI)?1h") == bytes("\(ESC)OA"))
    }

    // Control and Alt on keys that type text (modifyOtherKeys 0, metaSendsEscape).
    @Test("Control letter sends its C0 control") func controlLetterSendsItsC0Control() {
        #expect(char("a", .control) == [0x01])
        #expect(char("c", .control) == [0x03])
        #expect(char("z", .control) == [0x1A])
        #expect(char("a", [.control, .shift]) == [0x01])
    }

    @Test("Control maps punctuation and digits as xlib does") func controlMapsPunctuationAndDigitsAsXlibDoes() {
        #expect(char(" ", .control) == [0x00])
        #expect(char("2", .control) == [0x00])
        #expect(char("3", .control) == [0x1B])
        #expect(char("[", .control) == [0x1B])
        #expect(char("\\", .control) == [0x1C])
        #expect(char("]", .control) == [0x1D])
        #expect(char("6", .control) == [0x1E])
        #expect(char("/", .control) == [0x1F])
        #expect(char("8", .control) == [0x7F])
        #expect(char("/", [.control, .shift]) == [0x7F])  // Control+? is DEL
        #expect(char("1", .control) == bytes("1"))
        #expect(char(";", .control) == bytes(";"))
    }

    @Test("Alt puts escape first") func altPutsEscapeFirst() {
        #expect(char("a", .alt) == bytes("\(ESC)a"))
        #expect(char("a", [.alt, .shift]) == bytes("\(ESC)A"))
        #expect(char("a", [.alt, .control]) == [0x1B, 0x01])
        #expect(char(" ", .alt) == bytes("\(ESC) "))
    }

    @Test("Shift types the shifted character") func shiftTypesTheShiftedCharacter() {
        #expect(char("a", .shift) == bytes("A"))
        #expect(char("4", .shift) == bytes("$"))
        #expect(char(" ", .shift) == bytes(" "))
    }

    @Test("The layout's text wins over the US layout") func theLayoutsTextWinsOverTheUSLayout() {
        let event = KeyEvent(.character("2"), modifiers: .shift, text: "\"")
        #expect(encoder().encode(event) == bytes("\""))
    }

    @Test("Caps lock uppercases letters") func capsLockUppercasesLetters() {
        #expect(char("q", .capsLock) == bytes("Q"))
    }

    @Test("Non ASCII text is sent as UTF-8") func nonASCIITextIsSentAsUTF8() {
        #expect(encoder().encode(KeyEvent(.character("é"))) == [0xC3, 0xA9])
        #expect(encoder().encode(KeyEvent(.character("é"), modifiers: .alt)) == [0x1B, 0xC3, 0xA9])
        #expect(encoder().encode(KeyEvent(.text("日本"))) == bytes("日本"))
    }

    @Test("under DECBKM the backarrow key sends BS and Control+Backspace DEL (xterm input.c)")
    func backarrowModeSwapsBSAndDEL() {
        #expect(key(.backspace, in: "\(CSI)?67h") == [0x08])
        #expect(key(.backspace, .control, in: "\(CSI)?67h") == [0x7F])
        #expect(key(.backspace, in: "\(CSI)?67h\(CSI)?67l") == [0x7F])
    }

    @Test("a keyboard locked by KAM sends nothing for any key; SM 2 then RM 2 unlocks it")
    func keyboardActionModeLocksKeys() {
        #expect(key(.character("a"), in: "\(CSI)2h") == [])
        #expect(key(.enter, in: "\(CSI)2h") == [])
        #expect(key(.up, in: "\(CSI)2h\(CSI)>1u") == [])
        #expect(key(.character("a"), in: "\(CSI)2h\(CSI)2l") == Array("a".utf8))
        #expect(key(.character("a"), in: "\(CSI)2h\(CSI)!p") == Array("a".utf8))  // DECSTR unlocks
    }

    @Test("Backspace sends DEL and control backspace sends BS") func backspaceSendsDELAndControlBackspaceSendsBS() {
        #expect(key(.backspace) == [0x7F])
        #expect(key(.backspace, .control) == [0x08])
        #expect(key(.backspace, .alt) == [0x1B, 0x7F])
    }

    @Test("Enter sends CR") func enterSendsCR() {
        #expect(key(.enter) == [0x0D])
        #expect(key(.enter, .alt) == [0x1B, 0x0D])
    }

    @Test("Enter sends CRLF under LNM") func enterSendsCRLFUnderLNM() {
        #expect(key(.enter, in: "\(CSI)20h") == [0x0D, 0x0A])
        #expect(key(.keypad(.enter), in: "\(CSI)20h") == [0x0D, 0x0A])
        #expect(char("m", .control, in: "\(CSI)20h") == [0x0D, 0x0A])
    }

    @Test("Tab and shift-tab") func tabAndShiftTab() {
        #expect(key(.tab) == [0x09])
        #expect(key(.tab, .shift) == bytes("\(CSI)Z"))
        #expect(key(.tab, .alt) == [0x1B, 0x09])
    }

    @Test("Escape key") func escapeKey() {
        #expect(key(.escape) == [0x1B])
        #expect(key(.escape, .alt) == [0x1B, 0x1B])
    }

    @Test("Releases send nothing and repeats send again") func releasesSendNothingAndRepeatsSendAgain() {
        let e = encoder()
        #expect(e.encode(KeyEvent(.character("a"), kind: .release)).isEmpty)
        #expect(e.encode(KeyEvent(.up, kind: .release)).isEmpty)
        #expect(e.encode(KeyEvent(.character("a"), kind: .repeat)) == bytes("a"))
    }

    @Test("Lock and modifier keys send nothing but menu is CSI 29") func lockAndModifierKeysSendNothingButMenuIsCSI29()
    {
        #expect(key(.capsLock).isEmpty)
        #expect(key(.modifier(.leftShift)).isEmpty)
        #expect(key(.menu) == bytes("\(CSI)29~"))
    }

    @Test("Soft reset leaves application cursor keys") func softResetLeavesApplicationCursorKeys() {
        #expect(key(.up, in: "\(CSI)?1h\(CSI)!p") == bytes("\(CSI)A"))
    }
}

@Suite("Input encoding: kitty keyboard protocol")
struct KittyKeyTests {
    static let disambiguate = "\(CSI)>1u"

    // "Disambiguate escape codes".
    @Test("Escape becomes CSI 27 u") func escapeBecomesCSI27u() {
        #expect(key(.escape, in: Self.disambiguate) == bytes("\(CSI)27u"))
    }

    @Test("Control letter becomes CSI u") func controlLetterBecomesCSIu() {
        #expect(char("a", .control, in: Self.disambiguate) == bytes("\(CSI)97;5u"))
        #expect(char("i", .control, in: Self.disambiguate) == bytes("\(CSI)105;5u"))
    }

    // "Key codes": ctrl+shift+a is CSI 97;6 u, never CSI 65;6 u.
    @Test("The key code is the unshifted key") func theKeyCodeIsTheUnshiftedKey() {
        #expect(char("a", [.control, .shift], in: Self.disambiguate) == bytes("\(CSI)97;6u"))
        #expect(char("A", [.control, .shift], in: Self.disambiguate) == bytes("\(CSI)97;6u"))
    }

    @Test("Alt letter becomes CSI u") func altLetterBecomesCSIu() {
        #expect(char("a", .alt, in: Self.disambiguate) == bytes("\(CSI)97;3u"))
        #expect(char("a", [.alt, .shift], in: Self.disambiguate) == bytes("\(CSI)97;4u"))
    }

    @Test("Text is still sent as text") func textIsStillSentAsText() {
        #expect(char("a", in: Self.disambiguate) == bytes("a"))
        #expect(char("a", .shift, in: Self.disambiguate) == bytes("A"))
        #expect(char(" ", in: Self.disambiguate) == bytes(" "))
    }

    @Test("Enter tab and backspace keep their legacy bytes") func enterTabAndBackspaceKeepTheirLegacyBytes() {
        #expect(key(.enter, in: Self.disambiguate) == [0x0D])
        #expect(key(.tab, in: Self.disambiguate) == [0x09])
        #expect(key(.backspace, in: Self.disambiguate) == [0x7F])
    }

    // "Bugs in fixterms": ctrl+shift+tab is CSI 9;6 u.
    @Test("Modified tab is CSI 9 u") func modifiedTabIsCSI9u() {
        #expect(key(.tab, .shift, in: Self.disambiguate) == bytes("\(CSI)9;2u"))
        #expect(key(.tab, [.control, .shift], in: Self.disambiguate) == bytes("\(CSI)9;6u"))
        #expect(key(.enter, .alt, in: Self.disambiguate) == bytes("\(CSI)13;3u"))
        #expect(key(.backspace, .control, in: Self.disambiguate) == bytes("\(CSI)127;5u"))
    }

    // "Functional key definitions".
    @Test("Cursor keys use CSI even in cursor key mode") func cursorKeysUseCSIEvenInCursorKeyMode() {
        #expect(key(.up, in: "\(CSI)?1h" + Self.disambiguate) == bytes("\(CSI)A"))
        #expect(key(.up, .control, in: Self.disambiguate) == bytes("\(CSI)1;5A"))
        #expect(key(.home, in: Self.disambiguate) == bytes("\(CSI)H"))
    }

    @Test("Function keys") func functionKeys() {
        #expect(key(.function(1), in: Self.disambiguate) == bytes("\(CSI)P"))
        #expect(key(.function(4), .shift, in: Self.disambiguate) == bytes("\(CSI)1;2S"))
        #expect(key(.function(5), in: Self.disambiguate) == bytes("\(CSI)15~"))
        #expect(key(.function(13), in: Self.disambiguate) == bytes("\(CSI)57376u"))
        #expect(key(.function(35), in: Self.disambiguate) == bytes("\(CSI)57398u"))
    }

    // F3 is 13 ~: CSI 1;m R would read as a cursor position report.
    @Test("F3 is CSI 13 tilde") func f3IsCSI13Tilde() {
        #expect(key(.function(3), in: Self.disambiguate) == bytes("\(CSI)13~"))
        #expect(key(.function(3), .shift, in: Self.disambiguate) == bytes("\(CSI)13;2~"))
    }

    @Test("Keypad keys get their own codes") func keypadKeysGetTheirOwnCodes() {
        #expect(key(.keypad(.enter), in: Self.disambiguate) == bytes("\(CSI)57414u"))
        #expect(key(.keypad(.one), .control, in: Self.disambiguate) == bytes("\(CSI)57400;5u"))
        #expect(key(.keypad(.left), in: Self.disambiguate) == bytes("\(CSI)57417u"))
        #expect(key(.keypad(.begin), in: Self.disambiguate) == bytes("\(CSI)E"))
        #expect(key(.keypad(.one), in: Self.disambiguate) == bytes("1"))
    }

    @Test("Lock and system keys") func lockAndSystemKeys() {
        #expect(key(.capsLock, in: Self.disambiguate) == bytes("\(CSI)57358u"))
        #expect(key(.pause, in: Self.disambiguate) == bytes("\(CSI)57362u"))
    }

    // "Modifiers": 1 + shift 1, alt 2, ctrl 4, super 8, hyper 16, meta 32,
    // caps_lock 64, num_lock 128.
    @Test("Modifier bits") func modifierBits() {
        #expect(char("a", .super, in: Self.disambiguate) == bytes("\(CSI)97;9u"))
        #expect(char("a", .hyper, in: Self.disambiguate) == bytes("\(CSI)97;17u"))
        #expect(char("a", .meta, in: Self.disambiguate) == bytes("\(CSI)97;33u"))
        #expect(char("a", [.control, .capsLock], in: Self.disambiguate) == bytes("\(CSI)97;69u"))
        #expect(key(.escape, .numLock, in: Self.disambiguate) == bytes("\(CSI)27;129u"))
    }

    @Test("Lock states do not turn legacy keys into escape codes") func lockStatesDoNotTurnLegacyKeysIntoEscapeCodes() {
        #expect(key(.enter, .numLock, in: Self.disambiguate) == [0x0D])
        #expect(char("a", .capsLock, in: Self.disambiguate) == bytes("A"))
    }

    // "Report event types" and "Event types".
    @Test("Releases and repeats carry the event type") func releasesAndRepeatsCarryTheEventType() {
        let e = encoder("\(CSI)>3u")
        #expect(e.encode(KeyEvent(.escape, kind: .release)) == bytes("\(CSI)27;1:3u"))
        #expect(e.encode(KeyEvent(.up, kind: .repeat)) == bytes("\(CSI)1;1:2A"))
        #expect(e.encode(KeyEvent(.up, modifiers: .shift, kind: .release)) == bytes("\(CSI)1;2:3A"))
        #expect(e.encode(KeyEvent(.character("a"), kind: .release)) == bytes("\(CSI)97;1:3u"))
        #expect(e.encode(KeyEvent(.character("a"), kind: .repeat)) == bytes("a"))
    }

    @Test("Enter tab and backspace have no release unless all keys are reported")
    func enterTabAndBackspaceHaveNoReleaseUnlessAllKeysAreReported() {
        let e = encoder("\(CSI)>3u")
        #expect(e.encode(KeyEvent(.enter, kind: .release)).isEmpty)
        #expect(e.encode(KeyEvent(.backspace, kind: .release)).isEmpty)
        #expect(encoder("\(CSI)>11u").encode(KeyEvent(.enter, kind: .release)) == bytes("\(CSI)13;1:3u"))
    }

    @Test("Releases are dropped without the event flag") func releasesAreDroppedWithoutTheEventFlag() {
        #expect(encoder(Self.disambiguate).encode(KeyEvent(.escape, kind: .release)).isEmpty)
        #expect(encoder(Self.disambiguate).encode(KeyEvent(.escape, kind: .repeat)) == bytes("\(CSI)27u"))
    }

    // "Report all keys as escape codes".
    @Test("All keys become escape codes") func allKeysBecomeEscapeCodes() {
        let setup = "\(CSI)>8u"
        #expect(char("a", in: setup) == bytes("\(CSI)97u"))
        #expect(char("a", .shift, in: setup) == bytes("\(CSI)97;2u"))
        #expect(key(.enter, in: setup) == bytes("\(CSI)13u"))
        #expect(key(.tab, in: setup) == bytes("\(CSI)9u"))
        #expect(key(.backspace, in: setup) == bytes("\(CSI)127u"))
        #expect(key(.escape, in: setup) == bytes("\(CSI)27u"))
    }

    @Test("Modifier keys are reported only with all keys") func modifierKeysAreReportedOnlyWithAllKeys() {
        #expect(key(.modifier(.leftShift), .shift, in: Self.disambiguate).isEmpty)
        #expect(key(.modifier(.leftShift), .shift, in: "\(CSI)>8u") == bytes("\(CSI)57441;2u"))
        #expect(key(.modifier(.rightAlt), .alt, in: "\(CSI)>8u") == bytes("\(CSI)57449;3u"))
    }

    // "Text as code points": shift+a → CSI 97;2;65u, option+a → CSI 97;;229u.
    @Test("Associated text is embedded") func associatedTextIsEmbedded() {
        let e = encoder("\(CSI)>24u")
        #expect(e.encode(KeyEvent(.character("a"), modifiers: .shift)) == bytes("\(CSI)97;2;65u"))
        #expect(e.encode(KeyEvent(.character("a"), text: "å")) == bytes("\(CSI)97;;229u"))
        #expect(e.encode(KeyEvent(.character("a"), modifiers: .control)) == bytes("\(CSI)97;5u"))
    }

    // "Key codes": shifted key after a colon when Shift is held; a base
    // layout key alone leaves the shifted field empty.
    @Test("Alternate keys") func alternateKeys() {
        let e = encoder("\(CSI)>5u")
        #expect(e.encode(KeyEvent(.character("a"), modifiers: [.control, .shift])) == bytes("\(CSI)97:65;6u"))
        #expect(e.encode(KeyEvent(.character("a"), modifiers: .control)) == bytes("\(CSI)97;5u"))
        let cyrillic = KeyEvent(.character("с"), modifiers: .control, baseLayoutKey: "c")
        #expect(e.encode(cyrillic) == bytes("\(CSI)1089::99;5u"))
        let both = KeyEvent(.character("с"), modifiers: [.control, .shift], text: "С", baseLayoutKey: "c")
        #expect(e.encode(both) == bytes("\(CSI)1089:1057:99;6u"))
    }

    // "Legacy text keys", used when flags are set but not disambiguate.
    @Test("Legacy text keys without disambiguate") func legacyTextKeysWithoutDisambiguate() {
        let setup = "\(CSI)>2u"
        #expect(char("i", .control, in: setup) == [0x09])
        #expect(char("i", .alt, in: setup) == bytes("\(ESC)i"))
        #expect(char("i", [.alt, .shift], in: setup) == bytes("\(ESC)I"))
        #expect(char("i", [.control, .shift], in: setup) == bytes("\(CSI)105;6u"))
        #expect(char(";", .control, in: setup) == bytes(";"))
        #expect(char(";", [.alt, .shift], in: setup) == bytes("\(ESC):"))
        #expect(char(" ", .control, in: setup) == [0x00])
    }

    // "Legacy functional keys": SS3 forms for F1–F4, and for the cursor
    // keys in cursor key mode, without disambiguate.
    @Test("Legacy functional forms without disambiguate") func legacyFunctionalFormsWithoutDisambiguate() {
        #expect(key(.function(1), in: "\(CSI)>2u") == bytes("\(ESC)OP"))
        #expect(key(.function(3), in: "\(CSI)>2u") == bytes("\(ESC)OR"))
        #expect(key(.up, in: "\(CSI)?1h\(CSI)>2u") == bytes("\(ESC)OA"))
        #expect(key(.up, in: "\(CSI)>2u") == bytes("\(CSI)A"))
        #expect(key(.tab, .shift, in: "\(CSI)>2u") == bytes("\(CSI)Z"))
    }

    @Test("Popping the flags restores legacy keys") func poppingTheFlagsRestoresLegacyKeys() {
        #expect(char("a", .control, in: "\(Self.disambiguate)\(CSI)<u") == [0x01])
    }

    @Test("Input method text is sent as text") func inputMethodTextIsSentAsText() {
        #expect(encoder("\(CSI)>31u").encode(KeyEvent(.text("日本"))) == bytes("日本"))
    }
}

@Suite("Input encoding: mouse")
struct MouseEncodingTests {
    private func at(_ column: Int, _ row: Int) -> ScreenPosition { ScreenPosition(row: row, column: column) }

    private func report(
        _ action: MouseEvent.Action, _ button: MouseEvent.Button, _ column: Int = 0, _ row: Int = 0,
        _ modifiers: KeyModifiers = [], in setup: String
    ) -> [UInt8] {
        encoder(setup).encode(MouseEvent(action, button, at: at(column, row), modifiers: modifiers))
    }

    @Test("Nothing is reported without tracking") func nothingIsReportedWithoutTracking() {
        #expect(report(.press, .left, in: "").isEmpty)
        #expect(report(.motion, .none, in: "").isEmpty)
    }

    // "Mouse Tracking", X10 compatibility: presses only, button alone.
    @Test("X10 reports presses without modifiers") func x10ReportsPressesWithoutModifiers() {
        let setup = "\(CSI)?9h"
        #expect(report(.press, .left, 2, 1, in: setup) == [0x1B, 0x5B, 0x4D, 0x20, 0x23, 0x22])
        #expect(report(.press, .right, in: setup) == bytes("\(CSI)M\"!!"))
        #expect(report(.press, .left, 0, 0, .control, in: setup) == bytes("\(CSI)M !!"))
        #expect(report(.release, .left, in: setup).isEmpty)
        #expect(report(.press, .wheelUp, in: setup).isEmpty)
        #expect(report(.motion, .left, 1, 1, in: setup).isEmpty)
    }

    // Normal tracking: CSI M Cb Cx Cy, release is button 3.
    @Test("Normal tracking reports presses and releases") func normalTrackingReportsPressesAndReleases() {
        let setup = "\(CSI)?1000h"
        #expect(report(.press, .left, 2, 1, in: setup) == [0x1B, 0x5B, 0x4D, 0x20, 0x23, 0x22])
        #expect(report(.press, .middle, in: setup) == bytes("\(CSI)M!!!"))
        #expect(report(.press, .right, in: setup) == bytes("\(CSI)M\"!!"))
        #expect(report(.release, .right, in: setup) == bytes("\(CSI)M#!!"))
        #expect(report(.motion, .left, 3, 3, in: setup).isEmpty)
    }

    @Test("Modifiers add shift 4 meta 8 control 16") func modifiersAddShift4Meta8Control16() {
        let setup = "\(CSI)?1000h"
        #expect(report(.press, .left, 0, 0, .shift, in: setup) == bytes("\(CSI)M$!!"))
        #expect(report(.press, .left, 0, 0, .alt, in: setup) == bytes("\(CSI)M(!!"))
        #expect(report(.press, .left, 0, 0, .control, in: setup) == bytes("\(CSI)M0!!"))
        #expect(report(.press, .left, 0, 0, [.shift, .alt, .control], in: setup) == bytes("\(CSI)M<!!"))
    }

    @Test("Wheel buttons are 64 to 67 and have no release") func wheelButtonsAre64To67AndHaveNoRelease() {
        let setup = "\(CSI)?1000h"
        #expect(report(.press, .wheelUp, in: setup) == bytes("\(CSI)M`!!"))
        #expect(report(.press, .wheelDown, in: setup) == bytes("\(CSI)Ma!!"))
        #expect(report(.press, .wheelLeft, in: setup) == bytes("\(CSI)Mb!!"))
        #expect(report(.press, .wheelRight, in: setup) == bytes("\(CSI)Mc!!"))
        #expect(report(.release, .wheelUp, in: setup).isEmpty)
    }

    @Test("Buttons 8 to 11 are 128 to 131") func buttons8To11Are128To131() {
        #expect(report(.press, .button8, in: "\(CSI)?1000h") == [0x1B, 0x5B, 0x4D, 0xA0, 0x21, 0x21])
        #expect(report(.press, .button11, in: "\(CSI)?1006h\(CSI)?1000h") == bytes("\(CSI)<131;1;1M"))
    }

    // Button-event tracking: motion only with a button held, code + 32.
    @Test("Button event tracking reports drags") func buttonEventTrackingReportsDrags() {
        let setup = "\(CSI)?1002h"
        #expect(report(.motion, .left, 1, 0, in: setup) == bytes("\(CSI)M@\"!"))
        #expect(report(.motion, .right, 1, 0, in: setup) == bytes("\(CSI)MB\"!"))
        #expect(report(.motion, .none, 1, 0, in: setup).isEmpty)
    }

    @Test("Any event tracking reports all motion") func anyEventTrackingReportsAllMotion() {
        #expect(report(.motion, .none, 1, 0, in: "\(CSI)?1003h") == bytes("\(CSI)MC\"!"))
    }

    @Test("Legacy coordinates stop at 223") func legacyCoordinatesStopAt223() {
        let setup = "\(CSI)?1000h"
        #expect(report(.press, .left, 222, 0, in: setup) == [0x1B, 0x5B, 0x4D, 0x20, 0xFF, 0x21])
        #expect(report(.press, .left, 223, 0, in: setup).isEmpty)
        #expect(report(.press, .left, 0, 223, in: setup).isEmpty)
    }

    // ?1005: coordinates (and codes) past 127 as two UTF-8 bytes, up to 2015.
    @Test("UTF-8 encoding carries large coordinates") func utf8EncodingCarriesLargeCoordinates() {
        let setup = "\(CSI)?1000h\(CSI)?1005h"
        #expect(report(.press, .left, 300, 300, in: setup) == [0x1B, 0x5B, 0x4D, 0x20, 0xC5, 0x8D, 0xC5, 0x8D])
        #expect(report(.press, .left, 94, 0, in: setup) == [0x1B, 0x5B, 0x4D, 0x20, 0x7F, 0x21])
        #expect(report(.press, .left, 95, 0, in: setup) == [0x1B, 0x5B, 0x4D, 0x20, 0xC2, 0x80, 0x21])
        #expect(report(.press, .left, 2014, 0, in: setup) == [0x1B, 0x5B, 0x4D, 0x20, 0xDF, 0xBF, 0x21])
        #expect(report(.press, .left, 2015, 0, in: setup).isEmpty)
        #expect(report(.press, .button8, in: setup) == [0x1B, 0x5B, 0x4D, 0xC2, 0xA0, 0x21, 0x21])
    }

    // ?1006: CSI < b ; x ; y M, release m with the button kept.
    @Test("SGR encoding") func sgrEncoding() {
        let setup = "\(CSI)?1002h\(CSI)?1006h"
        #expect(report(.press, .left, 0, 0, in: setup) == bytes("\(CSI)<0;1;1M"))
        #expect(report(.release, .left, 0, 0, in: setup) == bytes("\(CSI)<0;1;1m"))
        #expect(report(.release, .right, 4, 9, in: setup) == bytes("\(CSI)<2;5;10m"))
        #expect(report(.motion, .left, 999, 499, in: setup) == bytes("\(CSI)<32;1000;500M"))
        #expect(report(.press, .wheelDown, 0, 0, .control, in: setup) == bytes("\(CSI)<81;1;1M"))
    }

    // ?1015: CSI 32 + b ; x ; y M.
    @Test("urxvt encoding") func urxvtEncoding() {
        let setup = "\(CSI)?1000h\(CSI)?1015h"
        #expect(report(.press, .left, 300, 300, in: setup) == bytes("\(CSI)32;301;301M"))
        #expect(report(.release, .left, 300, 300, in: setup) == bytes("\(CSI)35;301;301M"))
    }

    // ?1016: as SGR, with the pixel position (1-based, as xterm sends it).
    @Test("SGR pixel encoding") func sgrPixelEncoding() {
        let e = encoder("\(CSI)?1000h\(CSI)?1016h")
        let event = MouseEvent(.press, .left, at: at(1, 1), pixel: PixelPosition(x: 10, y: 20))
        #expect(e.encode(event) == bytes("\(CSI)<0;11;21M"))
        #expect(e.encode(MouseEvent(.press, .left, at: at(1, 1))).isEmpty)
    }

    @Test("Extreme positions encode without a trap") func extremePositionsEncodeWithoutATrap() {
        // Int.max overflowed the 1-based form (a trap); now it is clamped to
        // Int32.max first, and the legacy forms send nothing past their limit.
        let max = Int(Int32.max) + 1
        #expect(
            report(.press, .left, Int.max, Int.max, in: "\(CSI)?1000h\(CSI)?1006h") == bytes("\(CSI)<0;\(max);\(max)M"))
        #expect(report(.press, .left, Int.max, 0, in: "\(CSI)?1000h").isEmpty)
        let e = encoder("\(CSI)?1000h\(CSI)?1016h")
        let event = MouseEvent(.press, .left, at: at(1, 1), pixel: PixelPosition(x: Int.max, y: Int.min))
        #expect(e.encode(event) == bytes("\(CSI)<0;\(max);1M"))
    }

    @Test("Negative positions are clamped to the origin") func negativePositionsAreClampedToTheOrigin() {
        #expect(report(.press, .left, -5, -1, in: "\(CSI)?1000h\(CSI)?1006h") == bytes("\(CSI)<0;1;1M"))
    }

    @Test("Resetting one encoding returns to legacy") func resettingOneEncodingReturnsToLegacy() {
        #expect(report(.press, .left, in: "\(CSI)?1000h\(CSI)?1006h\(CSI)?1006l") == bytes("\(CSI)M !!"))
    }

    // ?1007: the wheel sends cursor keys on the alternate screen.
    @Test("Alternate scroll sends cursor keys") func alternateScrollSendsCursorKeys() {
        let alt = "\(CSI)?1049h\(CSI)?1007h"
        #expect(report(.press, .wheelUp, in: alt) == bytes("\(CSI)A"))
        #expect(report(.press, .wheelDown, in: alt) == bytes("\(CSI)B"))
        #expect(report(.press, .wheelUp, in: alt + "\(CSI)?1h") == bytes("\(ESC)OA"))
        #expect(report(.press, .wheelUp, in: "\(CSI)?1007h").isEmpty)
        #expect(report(.press, .wheelUp, in: "\(CSI)?1049h").isEmpty)
        #expect(report(.press, .left, in: alt).isEmpty)
        #expect(report(.press, .wheelUp, in: alt + "\(CSI)?1000h") == bytes("\(CSI)M`!!"))
    }

    @Test("Alternate scroll is an encoder parameter") func alternateScrollIsAnEncoderParameter() {
        var modes = TerminalModes()
        modes.alternateScroll = true
        let event = MouseEvent(.press, .wheelDown, at: at(0, 0))
        #expect(InputEncoder(modes: modes, isAlternateScreen: true).encode(event) == bytes("\(CSI)B"))
        #expect(InputEncoder(modes: modes, isAlternateScreen: false).encode(event).isEmpty)
    }
}

@Suite("Input encoding: mouse tracker")
struct MouseTrackerTests {
    private func at(_ column: Int, _ row: Int) -> ScreenPosition { ScreenPosition(row: row, column: column) }

    @Test("Motion in the same cell is not reported again") func motionInTheSameCellIsNotReportedAgain() {
        let e = encoder("\(CSI)?1003h")
        var tracker = MouseTracker()
        #expect(tracker.move(to: at(1, 1), encoder: e) == bytes("\(CSI)MC\"\""))
        #expect(tracker.move(to: at(1, 1), encoder: e).isEmpty)
        #expect(tracker.move(to: at(2, 1), encoder: e) == bytes("\(CSI)MC#\""))
    }

    @Test("Motion carries the lowest held button") func motionCarriesTheLowestHeldButton() {
        let e = encoder("\(CSI)?1002h")
        var tracker = MouseTracker()
        #expect(tracker.press(.right, at: at(0, 0), encoder: e) == bytes("\(CSI)M\"!!"))
        #expect(tracker.press(.middle, at: at(0, 0), encoder: e) == bytes("\(CSI)M!!!"))
        #expect(tracker.move(to: at(1, 0), encoder: e) == bytes("\(CSI)MA\"!"))
        #expect(tracker.release(.middle, at: at(1, 0), encoder: e) == bytes("\(CSI)M#\"!"))
        #expect(tracker.move(to: at(2, 0), encoder: e) == bytes("\(CSI)MB#!"))
        #expect(tracker.release(.right, at: at(2, 0), encoder: e) == bytes("\(CSI)M##!"))
        #expect(tracker.move(to: at(3, 0), encoder: e).isEmpty)
        #expect(tracker.heldButtons.isEmpty)
    }

    @Test("Wheel clicks are not held") func wheelClicksAreNotHeld() {
        let e = encoder("\(CSI)?1002h")
        var tracker = MouseTracker()
        _ = tracker.press(.wheelUp, at: at(0, 0), encoder: e)
        #expect(tracker.heldButtons.isEmpty)
        #expect(tracker.move(to: at(1, 0), encoder: e).isEmpty)
    }

    /// Nothing sent is nothing reported: an empty answer (the wheel's Up
    /// key under alternate scroll while KAM locks the keyboard) leaves the
    /// last reported position as it was.
    @Test("An empty report is not a last report") func anEmptyReportIsNotALastReport() {
        let e = encoder("\(CSI)?1049h\(CSI)?1007h\(CSI)2h")
        var tracker = MouseTracker()
        #expect(tracker.press(.wheelUp, at: at(4, 2), encoder: e).isEmpty)
        #expect(tracker.lastReported == nil)
        #expect(tracker.press(.wheelUp, at: at(4, 2), encoder: encoder("\(CSI)?1049h\(CSI)?1007h")) == bytes("\(CSI)A"))
        #expect(tracker.lastReported == at(4, 2))
    }

    @Test("Pixel reports compare pixels") func pixelReportsComparePixels() {
        let e = encoder("\(CSI)?1003h\(CSI)?1016h")
        var tracker = MouseTracker()
        #expect(tracker.move(to: at(0, 0), pixel: PixelPosition(x: 3, y: 4), encoder: e) == bytes("\(CSI)<35;4;5M"))
        #expect(tracker.move(to: at(0, 0), pixel: PixelPosition(x: 4, y: 4), encoder: e) == bytes("\(CSI)<35;5;5M"))
        #expect(tracker.move(to: at(0, 0), pixel: PixelPosition(x: 4, y: 4), encoder: e).isEmpty)
    }
}

@Suite("Input encoding: focus and paste")
struct FocusAndPasteTests {
    // "FocusIn/FocusOut": CSI I and CSI O under ?1004.
    @Test("Focus reports need mode 1004") func focusReportsNeedMode1004() {
        #expect(encoder().focus(true).isEmpty)
        #expect(encoder("\(CSI)?1004h").focus(true) == bytes("\(CSI)I"))
        #expect(encoder("\(CSI)?1004h").focus(false) == bytes("\(CSI)O"))
        #expect(encoder("\(CSI)?1004h\(CSI)?1004l").focus(false).isEmpty)
    }

    @Test("Paste without brackets sends the text with line ends as CR")
    func pasteWithoutBracketsSendsTheTextWithLineEndsAsCR() {
        #expect(encoder().paste(bytes("ls\necho hi\n")) == bytes("ls\recho hi\r"))
        #expect(encoder().paste(bytes("a\r\nb\rc")) == bytes("a\rb\rc"))
        #expect(encoder().pasteStart.isEmpty && encoder().pasteEnd.isEmpty)
    }

    // "Bracketed Paste Mode": ESC [200~ text ESC [201~.
    @Test("Bracketed paste wraps the text") func bracketedPasteWrapsTheText() {
        #expect(encoder("\(CSI)?2004h").paste(bytes("hi")) == bytes("\(CSI)200~hi\(CSI)201~"))
        #expect(encoder("\(CSI)?2004h").pasteStart == bytes("\(CSI)200~"))
        #expect(encoder("\(CSI)?2004h").pasteEnd == bytes("\(CSI)201~"))
    }

    @Test("An embedded paste end cannot end the paste early") func anEmbeddedPasteEndCannotEndThePasteEarly() {
        let sent = encoder("\(CSI)?2004h").paste(bytes("x\(CSI)201~rm -rf ~\n"))
        #expect(sent == bytes("\(CSI)200~x [201~rm -rf ~\r\(CSI)201~"))
        #expect(sent.filter { $0 == 0x1B }.count == 2)
    }

    @Test("Paste blanks the controls xterm disallows") func pasteBlanksTheControlsXtermDisallows() {
        let text: [UInt8] = [0x61, 0x00, 0x04, 0x05, 0x08, 0x1B, 0x7F, 0x09, 0x62]
        #expect(encoder().paste(text) == [0x61, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x09, 0x62])
    }

    @Test("Paste keeps UTF-8") func pasteKeepsUTF8() {
        #expect(encoder("\(CSI)?2004h").pasteBody(bytes("日本 é")) == bytes("日本 é"))
    }
}

@Suite("Input encoding: terminal convenience")
struct TerminalInputEncoderTests {
    @Test("The encoder follows the terminal") func theEncoderFollowsTheTerminal() {
        let t = Terminal(columns: 20, rows: 5)
        #expect(t.inputEncoder.encode(KeyEvent(.up)) == bytes("\(CSI)A"))
        t.feed("\(CSI)?1h\(CSI)?1049h")
        #expect(t.inputEncoder.encode(KeyEvent(.up)) == bytes("\(ESC)OA"))
        #expect(t.inputEncoder.isAlternateScreen)
        #expect(t.inputEncoder == InputEncoder(modes: t.modes, isAlternateScreen: true))
    }

    // "Progressive enhancement": the main and alternate screens keep
    // independent keyboard modes, so an editor's flags end with its screen.
    @Test("Kitty flags are kept per screen") func kittyFlagsAreKeptPerScreen() {
        let t = Terminal(columns: 20, rows: 5)
        t.feed("\(CSI)?1049h\(CSI)>1u")
        #expect(t.inputEncoder.encode(KeyEvent(.escape)) == bytes("\(CSI)27u"))
        t.feed("\(CSI)?1049l")
        // Each screen has its own flags (kitty's spec): back on the main
        // screen, the editor's flags no longer apply.
        #expect(t.inputEncoder.encode(KeyEvent(.escape)) == [0x1B])
    }
}
