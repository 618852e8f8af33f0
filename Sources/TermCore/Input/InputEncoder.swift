/// Turns what the user does (keys, mouse, focus, paste) into the bytes a
/// front end writes to the program, for the modes the program has set.
///
/// The encoder is a snapshot: build one from ``Terminal/modes`` (or use
/// ``Terminal/inputEncoder``) after feeding output and before encoding input,
/// since every feed may change the modes.
///
/// Every encoding returns `[UInt8]`, empty when there is nothing to send (a
/// key release outside the kitty protocol, a mouse event the tracking mode
/// does not report, focus without ?1004, a paste's brackets without ?2004):
/// a front end writes whatever comes back, and an empty write is none.
///
/// ```swift
/// let bytes = terminal.inputEncoder.encode(KeyEvent(.up, modifiers: .shift))
/// // "\e[1;2A"
/// ```
///
/// Reference behaviour is xterm's with its default resources
/// (`modifyOtherKeys: 0`, `modifyCursorKeys: 2`, `modifyFunctionKeys: 2`),
/// with Alt sending ESC before the key (xterm's `metaSendsEscape`; off by
/// default in xterm, which sets the eighth bit instead, but what programs
/// expect today) and Backspace sending DEL (DECBKM reset); with kitty
/// keyboard flags in force, the kitty keyboard protocol's. Each encoding
/// cites its source.
public struct InputEncoder: Equatable, Sendable {
    /// The modes the bytes are encoded for.
    public var modes: TerminalModes
    /// Whether the alternate screen is shown: with alternate scroll (?1007)
    /// and no mouse tracking, the wheel then sends cursor keys.
    public var isAlternateScreen: Bool

    /// An encoder for `modes`.
    public init(modes: TerminalModes = TerminalModes(), isAlternateScreen: Bool = false) {
        self.modes = modes
        self.isAlternateScreen = isAlternateScreen
    }

    // MARK: Focus

    /// The focus report for gaining (`true`) or losing focus: `CSI I` or
    /// `CSI O` (xterm ctlseqs, "FocusIn/FocusOut", mode 1004), or empty
    /// (nothing to send) when the program did not ask for focus reports.
    public func focus(_ focused: Bool) -> [UInt8] {
        guard modes.focusEvents else { return [] }
        return [0x1B, 0x5B, focused ? 0x49 : 0x4F]
    }

    // MARK: Paste

    /// `CSI 200 ~` under bracketed paste (?2004), otherwise nothing: the
    /// bytes that open a paste. ``paste(_:)`` includes them; they are public
    /// for a front end that streams a long paste in pieces through
    /// ``pasteBody(_:)``.
    public var pasteStart: [UInt8] { modes.bracketedPaste ? Array("\u{1B}[200~".utf8) : [] }

    /// `CSI 201 ~` under bracketed paste, otherwise nothing: the bytes that
    /// close a paste.
    public var pasteEnd: [UInt8] { modes.bracketedPaste ? Array("\u{1B}[201~".utf8) : [] }

    /// The bytes for pasting `text` (UTF-8): ``pasteStart``, the text made
    /// safe by ``pasteBody(_:)``, ``pasteEnd``.
    /// - Complexity: O(n) in the length of `text`.
    public func paste(_ text: [UInt8]) -> [UInt8] {
        pasteStart + pasteBody(text) + pasteEnd
    }

    /// Pasted text as the program receives it, the same in both paste modes:
    ///
    /// - Line ends become CR, as xterm sends them (`_WriteSelectionData`
    ///   turns each LF into CR unless `pasteLiteralNL` is set), so a pasted
    ///   line is entered as if typed. Unlike xterm, a CR LF pair becomes one
    ///   CR rather than two: text copied from Windows programs would
    ///   otherwise press Return twice per line.
    /// - The controls in xterm's default `disallowedPasteControls` that a
    ///   program or line discipline acts on — NUL, EOT, ENQ, BS, ESC, DEL —
    ///   become spaces, as xterm's `removeControls` does. Replacing ESC is
    ///   what neutralises an embedded `ESC [ 201 ~`: the program sees the
    ///   text ` [201~`, never the end of the paste, and no other escape
    ///   sequence can be smuggled in. (xterm also blanks the terminal's
    ///   current `stty` special characters, which an engine without the PTY
    ///   cannot read; tab, CR and LF are always allowed.)
    ///
    /// Every other byte, UTF-8 included, passes unchanged.
    /// - Complexity: O(n).
    public func pasteBody(_ text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            switch byte {
            case 0x0D:
                out.append(0x0D)
                if index + 1 < text.count && text[index + 1] == 0x0A { index += 1 }
            case 0x0A:
                out.append(0x0D)
            case 0x00, 0x04, 0x05, 0x08, 0x1B, 0x7F:
                out.append(0x20)
            default:
                out.append(byte)
            }
            index += 1
        }
        return out
    }
}

extension Terminal {
    /// An encoder for the modes and screen in force now.
    public var inputEncoder: InputEncoder {
        InputEncoder(modes: modes, isAlternateScreen: isAlternateScreen)
    }
}

// MARK: Byte building

/// A small byte buffer for building one sequence.
struct SequenceWriter {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(16) }

    mutating func csi() { bytes += [0x1B, 0x5B] }
    mutating func ss3() { bytes += [0x1B, 0x4F] }
    mutating func byte(_ value: UInt8) { bytes.append(value) }
    mutating func ascii(_ character: Character) { bytes.append(character.asciiValue!) }

    /// A decimal number.
    mutating func number(_ value: Int) {
        if value >= 10 { number(value / 10) }
        bytes.append(0x30 + UInt8(value % 10))
    }

    /// A scalar as UTF-8.
    mutating func scalar(_ value: Unicode.Scalar) {
        UTF8.encode(value) { bytes.append($0) }
    }
}
