import TermCore

// Building blocks of the escape streams the ANSI renderer and the replay
// compactor write: SGR differences, cursor moves and OSC strings, each in
// its shortest usual form (xterm ctlseqs; ECMA-48 section numbers below).

/// An append-only byte buffer with helpers for control sequences.
struct ANSIBytes {
    var bytes: [UInt8] = []

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// `CSI` followed by `body`.
    mutating func csi(_ body: String) {
        bytes.append(0x1B)
        bytes.append(UInt8(ascii: "["))
        bytes.append(contentsOf: body.utf8)
    }

    /// `OSC body BEL`: BEL is one byte shorter than ST and every parser
    /// that reads OSC accepts it (xterm ctlseqs, "OSC Ps ; Pt BEL").
    mutating func osc(_ body: String) {
        bytes.append(0x1B)
        bytes.append(UInt8(ascii: "]"))
        bytes.append(contentsOf: body.utf8)
        bytes.append(0x07)
    }

    /// `ESC` followed by `body`.
    mutating func esc(_ body: String) {
        bytes.append(0x1B)
        bytes.append(contentsOf: body.utf8)
    }

    /// The UTF-8 of a scalar.
    mutating func append(scalar: Unicode.Scalar) {
        let value = scalar.value
        if value < 0x80 {
            bytes.append(UInt8(value))
        } else {
            bytes.append(contentsOf: UTF8.encode(scalar)!)
        }
    }
}

/// Decimal digits of a small non-negative number, without going through
/// `String(describing:)` on the hot path.
@inline(__always)
func decimal(_ value: Int) -> String { String(value) }

enum SGR {
    /// The parameters that select `color` for the foreground (`base` 30),
    /// background (40) or underline (58, which has no short forms).
    static func colorParameters(_ color: TerminalColor, base: Int) -> String {
        switch color.kind {
        case .default: return base == 58 ? "59" : decimal(base + 9)
        case .indexed(let index):
            if base != 58 && index < 8 { return decimal(base + Int(index)) }
            if base != 58 && index < 16 { return decimal(base + 60 + Int(index) - 8) }
            return "\(base == 58 ? 58 : base + 8);5;\(index)"
        case .rgb(let red, let green, let blue):
            return "\(base == 58 ? 58 : base + 8);2;\(red);\(green);\(blue)"
        }
    }

    static func underlineParameter(_ underline: Style.Underline) -> String {
        switch underline {
        case .none: return "24"
        case .single: return "4"
        case .double: return "21"
        case .curly: return "4:3"
        case .dotted: return "4:4"
        case .dashed: return "4:5"
        }
    }

    /// Parameters that turn the default style into `style`.
    static func absolute(_ style: Style) -> [String] {
        var parameters: [String] = []
        let flags = style.flags
        if flags.contains(.bold) { parameters.append("1") }
        if flags.contains(.dim) { parameters.append("2") }
        if flags.contains(.italic) { parameters.append("3") }
        if style.underline != .none { parameters.append(underlineParameter(style.underline)) }
        if flags.contains(.blink) { parameters.append("5") }
        if flags.contains(.inverse) { parameters.append("7") }
        if flags.contains(.hidden) { parameters.append("8") }
        if flags.contains(.strikethrough) { parameters.append("9") }
        if flags.contains(.overline) { parameters.append("53") }
        if style.foreground != .default { parameters.append(colorParameters(style.foreground, base: 30)) }
        if style.background != .default { parameters.append(colorParameters(style.background, base: 40)) }
        if style.underlineColor != .default { parameters.append(colorParameters(style.underlineColor, base: 58)) }
        return parameters
    }

    /// Parameters that turn `old` into `new` by changing only what differs,
    /// or nil when some attribute can only go with a reset.
    static func relative(from old: Style, to new: Style) -> [String] {
        var parameters: [String] = []
        let removed = old.flags.subtracting(new.flags)
        let added = new.flags.subtracting(old.flags)
        var toAdd = added
        // 22 clears both bold and dim: add back the one that stays.
        if !removed.intersection([.bold, .dim]).isEmpty {
            parameters.append("22")
            toAdd.formUnion(new.flags.intersection([.bold, .dim]))
        }
        if removed.contains(.italic) { parameters.append("23") }
        if removed.contains(.blink) { parameters.append("25") }
        if removed.contains(.inverse) { parameters.append("27") }
        if removed.contains(.hidden) { parameters.append("28") }
        if removed.contains(.strikethrough) { parameters.append("29") }
        if removed.contains(.overline) { parameters.append("55") }
        if toAdd.contains(.bold) { parameters.append("1") }
        if toAdd.contains(.dim) { parameters.append("2") }
        if toAdd.contains(.italic) { parameters.append("3") }
        if toAdd.contains(.blink) { parameters.append("5") }
        if toAdd.contains(.inverse) { parameters.append("7") }
        if toAdd.contains(.hidden) { parameters.append("8") }
        if toAdd.contains(.strikethrough) { parameters.append("9") }
        if toAdd.contains(.overline) { parameters.append("53") }
        if old.underline != new.underline { parameters.append(underlineParameter(new.underline)) }
        if old.foreground != new.foreground { parameters.append(colorParameters(new.foreground, base: 30)) }
        if old.background != new.background { parameters.append(colorParameters(new.background, base: 40)) }
        if old.underlineColor != new.underlineColor {
            parameters.append(colorParameters(new.underlineColor, base: 58))
        }
        return parameters
    }

    /// The shortest SGR body (without CSI) that turns `old` into `new`, or
    /// nil when they are equal.
    static func transition(from old: Style, to new: Style) -> String? {
        guard old != new else { return nil }
        if new == Style() { return "m" }
        let relative = relative(from: old, to: new).joined(separator: ";")
        let absolute = "0;" + SGR.absolute(new).joined(separator: ";")
        // "CSI 0;…m" and "CSI …m" from the default are the same bytes but one.
        let fromReset = old == Style() ? String(absolute.dropFirst(2)) : absolute
        return (relative.utf8.count <= fromReset.utf8.count ? relative : fromReset) + "m"
    }
}

extension Palette {
    /// `#rrggbb`, a form OSC 4/10/11/12 parse exactly (XParseColor).
    static func hex(_ color: RGB) -> String {
        func byte(_ value: UInt8) -> String {
            let digits = String(value, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + byte(color.red) + byte(color.green) + byte(color.blue)
    }
}
