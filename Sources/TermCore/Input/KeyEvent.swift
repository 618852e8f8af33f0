/// A key the user pressed, as a front end reports it to ``InputEncoder``.
///
/// A key is named by what it is on the keyboard, not by the bytes it sends:
/// the encoder chooses the bytes from the modes in force (DECCKM, DECKPAM,
/// LNM, the kitty keyboard flags).
public enum Key: Hashable, Sendable {
    /// A key that types a character, named by its *unshifted* character:
    /// the A key is `.character("a")` whether or not Shift is down (the kitty
    /// keyboard protocol reports this code point). Space is `.character(" ")`.
    case character(Unicode.Scalar)
    /// Text with no single key behind it: an input method's commit, a
    /// dead-key composition, an emoji picker. Sent as UTF-8 in every mode.
    case text(String)
    /// Return.
    case enter
    /// Tab (Shift+Tab is `.tab` with ``KeyModifiers/shift``).
    case tab
    /// Backspace (the "backarrow" key).
    case backspace
    /// Escape.
    case escape
    /// The cursor keys.
    case up, down, left, right
    /// The editing keys.
    case home, end, insert, delete, pageUp, pageDown
    /// F1 is `.function(1)`; F1–F35 are encoded (xterm numbers F21 and up
    /// itself, kitty gives all 35 a code).
    case function(Int)
    /// A key on the numeric keypad.
    case keypad(KeypadKey)
    /// Lock and system keys: reported only by the kitty protocol's "report
    /// all keys" flag (xterm sends nothing for them), except Menu, which
    /// xterm sends as `CSI 29 ~`.
    case capsLock, scrollLock, numLock, printScreen, pause, menu
    /// A modifier key pressed or released on its own: reported only by the
    /// kitty protocol's "report all keys" flag.
    case modifier(ModifierKey)
}

/// The keys of the numeric keypad. With Num Lock off most PC keypads send
/// the navigation keys (`.left`, `.home` …); a front end may report those as
/// the plain keys (as xterm does) or as these keypad ones (which the kitty
/// protocol's "disambiguate" flag tells apart).
public enum KeypadKey: Hashable, Sendable, CaseIterable {
    /// The digit keys 0–9.
    case zero, one, two, three, four, five, six, seven, eight, nine
    /// The operator keys, the decimal point, Enter, `=` and the separator (a
    /// comma on some layouts).
    case decimal, divide, multiply, subtract, add, enter, equal, separator
    /// The navigation keys a keypad sends with Num Lock off (Begin is its
    /// middle key, 5).
    case left, right, up, down, pageUp, pageDown, home, end, insert, delete, begin
}

/// A modifier key as a key of its own (kitty "report all keys").
public enum ModifierKey: Hashable, Sendable, CaseIterable {
    /// The modifier keys on the left of the keyboard.
    case leftShift, leftControl, leftAlt, leftSuper, leftHyper, leftMeta
    /// The modifier keys on the right of the keyboard.
    case rightShift, rightControl, rightAlt, rightSuper, rightHyper, rightMeta
    /// The ISO level-3 (AltGr) and level-5 shift keys of European and other
    /// layouts.
    case isoLevel3Shift, isoLevel5Shift
}

/// Modifier keys held during a key or mouse event.
///
/// The raw values are the kitty keyboard protocol's bits; xterm's legacy
/// modifier parameter uses the first four (with Super and Meta both taking
/// xterm's "Meta" bit, 8).
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    /// The kitty protocol's modifier bits: Shift 1, Alt 2, Control 4, Super 8,
    /// Hyper 16, Meta 32, Caps Lock 64, Num Lock 128.
    public let rawValue: UInt8
    /// The modifiers whose kitty bits are set in `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Shift.
    public static let shift = KeyModifiers(rawValue: 1)
    /// Alt (Option on a Mac keyboard, when it is not used to compose text).
    public static let alt = KeyModifiers(rawValue: 2)
    /// Control.
    public static let control = KeyModifiers(rawValue: 4)
    /// The Windows/Linux key, or Command on a Mac keyboard.
    public static let `super` = KeyModifiers(rawValue: 8)
    /// Hyper, an X11 modifier; only kitty escape codes report it (xterm's
    /// legacy encoding has no bit for it).
    public static let hyper = KeyModifiers(rawValue: 16)
    /// Meta, an X11 modifier distinct from Alt; xterm's legacy encoding
    /// reports it with Super's bit, 8.
    public static let meta = KeyModifiers(rawValue: 32)
    /// Caps Lock is on (a lock state, reported only in kitty escape codes).
    public static let capsLock = KeyModifiers(rawValue: 64)
    /// Num Lock is on (a lock state, reported only in kitty escape codes).
    public static let numLock = KeyModifiers(rawValue: 128)

    /// The lock states, which never change what a legacy key sends.
    static let locks: KeyModifiers = [.capsLock, .numLock]
    /// Modifiers that stop a key from typing its text (Shift does not).
    static let textBlocking: KeyModifiers = [.alt, .control, .super, .hyper, .meta]
}

/// One key event: a press, an auto-repeat or a release.
public struct KeyEvent: Hashable, Sendable {
    /// Press, repeat or release. Only the kitty protocol's "report event
    /// types" flag reports repeats as such and releases at all; otherwise a
    /// repeat is another press and a release sends nothing.
    public enum Kind: UInt8, Hashable, Sendable {
        /// The key went down.
        case press = 1
        /// The key is held and the system repeats it.
        case `repeat` = 2
        /// The key went up.
        case release = 3
    }

    /// The key.
    public var key: Key
    /// The modifiers held, including lock states.
    public var modifiers: KeyModifiers
    /// Press, repeat or release.
    public var kind: Kind
    /// The text the key types with the keyboard layout's Shift (and AltGr
    /// or Option composing) applied, before Control or Alt act on it: "A"
    /// for Shift+a, "é" for a composed key. `nil` derives it from the key
    /// (a US layout for ASCII); "" means the key types nothing.
    public var text: String?
    /// The kitty protocol's *shifted key* (e.g. "A" or "+"), reported with
    /// "report alternate keys" when Shift is held; `nil` takes it from
    /// ``text``.
    public var shiftedKey: Unicode.Scalar?
    /// The kitty protocol's *base layout key*: the key in the PC-101 US
    /// layout at the same physical position (e.g. "c" for Cyrillic "с").
    public var baseLayoutKey: Unicode.Scalar?

    /// An event for `key`: a press with no modifiers unless told, its text
    /// derived from the key (`nil`), and no kitty alternate keys.
    public init(
        _ key: Key, modifiers: KeyModifiers = [], kind: Kind = .press, text: String? = nil,
        shiftedKey: Unicode.Scalar? = nil, baseLayoutKey: Unicode.Scalar? = nil
    ) {
        self.key = key
        self.modifiers = modifiers
        self.kind = kind
        self.text = text
        self.shiftedKey = shiftedKey
        self.baseLayoutKey = baseLayoutKey
    }
}

extension KeyEvent {
    /// The text the key types: ``text`` or, when that is nil, the key's
    /// own character with Shift (and Caps Lock for letters) applied as on a
    /// US layout. Empty for keys that type nothing.
    var effectiveText: String {
        if let text { return text }
        switch key {
        case .character(let scalar):
            var result = scalar
            if modifiers.contains(.shift) {
                result = Self.usShifted(scalar)
            } else if modifiers.contains(.capsLock), (0x61...0x7A).contains(scalar.value) {
                result = Unicode.Scalar(scalar.value - 0x20)!
            }
            return String(Character(result))
        case .text(let string):
            return string
        case .keypad(let key):
            return key.text
        default:
            return ""
        }
    }

    /// The US-layout shifted form of an ASCII key (kitty's shifted-key map;
    /// the same as a PC-101 keyboard's key caps).
    static func usShifted(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let value = scalar.value
        if (0x61...0x7A).contains(value) { return Unicode.Scalar(value - 0x20)! }
        if let index = usUnshifted.firstIndex(of: scalar) { return usShiftedPunctuation[index] }
        return scalar
    }

    private static let usUnshifted = Array("`1234567890-=[]\\;',./".unicodeScalars)
    private static let usShiftedPunctuation = Array("~!@#$%^&*()_+{}|:\"<>?".unicodeScalars)
}

extension KeypadKey {
    /// What the key types in numeric mode (xterm's `kypd_num`), or "".
    var text: String {
        switch self {
        case .zero: "0"
        case .one: "1"
        case .two: "2"
        case .three: "3"
        case .four: "4"
        case .five: "5"
        case .six: "6"
        case .seven: "7"
        case .eight: "8"
        case .nine: "9"
        case .decimal: "."
        case .divide: "/"
        case .multiply: "*"
        case .subtract: "-"
        case .add: "+"
        case .equal: "="
        case .separator: ","
        default: ""
        }
    }
}
