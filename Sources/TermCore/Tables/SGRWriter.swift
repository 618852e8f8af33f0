/// Writes a ``Style`` as SGR (`CSI Pm m`, ECMA-48 §8.3.117, with the
/// extensions xterm's ctlseqs lists): the package's one writer, used by the
/// DECRQSS reply (`DCS $ q m ST`), TermRender's ANSI renderer and replay
/// encoder, and the CLI's painter.
///
/// Every attribute the engine keeps is written: bold, faint, italic, the
/// underline styles (`4:3` curly, `4:4` dotted, `4:5` dashed; SGR 4 single,
/// 21 double), blink, inverse, hidden, crossed-out, overline (53), the
/// foreground, the background and the underline colour (58). Parameters come
/// in one fixed order: the attributes by their numbers, then foreground,
/// background and underline colour.
///
/// ```swift
/// let bold = Style(foreground: .indexed(1), flags: .bold)
/// SGRWriter.sequence(setting: bold)             // "\u{1B}[0;1;31m"
/// SGRWriter.sequence(from: bold, to: Style())   // "\u{1B}[m"
/// ```
public enum SGRWriter {
    /// How a colour that has no one-number code is written: the 256 indexed
    /// colours from 16 up, direct RGB colours, and every underline colour
    /// (58 has no short forms).
    public enum ExtendedColorForm: Sendable {
        /// `38;5;n` and `38;2;r;g;b`, each number a parameter of its own:
        /// the form programs send and every parser reads, so the one for
        /// streams that another terminal replays.
        case semicolons
        /// `38:5:n` and `38:2::r:g:b`, the colour as sub-parameters of one
        /// parameter (ITU T.416 §13.1.8, with an empty colour-space id):
        /// the form the DECRQSS reply uses, so that the reply reads as one
        /// parameter per attribute.
        case colons
    }

    /// The parameters that turn the default style into `style`, in the
    /// fixed order, without the leading reset: `[]` for the default style,
    /// `["1", "31"]` for bold red.
    /// - Complexity: O(1): at most 12 parameters.
    public static func parameters(for style: Style, extendedColors: ExtendedColorForm = .semicolons) -> [String] {
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
        if style.foreground != .default {
            parameters.append(colorParameter(style.foreground, plane: 30, form: extendedColors))
        }
        if style.background != .default {
            parameters.append(colorParameter(style.background, plane: 40, form: extendedColors))
        }
        if style.underlineColor != .default {
            parameters.append(colorParameter(style.underlineColor, plane: 58, form: extendedColors))
        }
        return parameters
    }

    /// The parameters that set `style` whatever was set before: a reset
    /// (`0`) then ``parameters(for:extendedColors:)``, joined by `;`
    /// (`"0"` for the default style, `"0;1;31"` for bold red). The DECRQSS
    /// reply for SGR is this with the `.colons` form and a final `m`.
    public static func parametersAfterReset(for style: Style, extendedColors: ExtendedColorForm = .semicolons)
        -> String
    {
        (["0"] + parameters(for: style, extendedColors: extendedColors)).joined(separator: ";")
    }

    /// `CSI 0;… m`: the sequence that sets `style` whatever was set before.
    public static func sequence(setting style: Style) -> String {
        "\u{1B}[" + parametersAfterReset(for: style) + "m"
    }

    /// The shortest SGR sequence (`CSI … m`) that turns the rendition `old`
    /// into `new`, or "" when they are equal. See
    /// ``transitionBody(from:to:)`` for how it is chosen.
    public static func sequence(from old: Style, to new: Style) -> String {
        transitionBody(from: old, to: new).map { "\u{1B}[" + $0 } ?? ""
    }

    /// What follows the CSI in ``sequence(from:to:)`` (the parameters and
    /// the final `m`), or nil when `old` and `new` are equal.
    ///
    /// The shorter of two ways, the relative one on a tie: changing only
    /// what differs (22 clears bold and faint together, so the one that
    /// stays is set again), or a reset and the whole of `new`. A reset to
    /// the default style is `m` alone (an omitted parameter is 0, ECMA-48
    /// §8.3.117); from the default style the reset is left out, since the
    /// terminal is there already. Colours use the `.semicolons` form.
    public static func transitionBody(from old: Style, to new: Style) -> String? {
        guard old != new else { return nil }
        if new == Style() { return "m" }
        let relative = relativeParameters(from: old, to: new).joined(separator: ";")
        let absolute = parameters(for: new).joined(separator: ";")
        let fromReset = old == Style() ? absolute : "0;" + absolute
        return (relative.utf8.count <= fromReset.utf8.count ? relative : fromReset) + "m"
    }

    /// The parameters that turn `old` into `new` by changing only what
    /// differs: the clearing numbers (22–29, 55) first, then the attributes
    /// set, then the underline and the colours that changed.
    static func relativeParameters(from old: Style, to new: Style) -> [String] {
        var parameters: [String] = []
        let removed = old.flags.subtracting(new.flags)
        var toAdd = new.flags.subtracting(old.flags)
        // 22 clears both bold and faint: set again the one that stays.
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
        if old.foreground != new.foreground {
            parameters.append(colorParameter(new.foreground, plane: 30, form: .semicolons))
        }
        if old.background != new.background {
            parameters.append(colorParameter(new.background, plane: 40, form: .semicolons))
        }
        if old.underlineColor != new.underlineColor {
            parameters.append(colorParameter(new.underlineColor, plane: 58, form: .semicolons))
        }
        return parameters
    }

    /// The underline style's parameter: 24 for none, 4 single, 21 double,
    /// `4:3`–`4:5` for the styles only the sub-parameter form has.
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

    /// The parameter(s) that select `color` for the foreground (`plane` 30),
    /// the background (40) or the underline (58). Colours 0–7 are 30–37 and
    /// 40–47, 8–15 the aixterm codes 90–97 and 100–107 (xterm ctlseqs); the
    /// default is 39, 49 or 59; the rest go through 38, 48 or 58, which is
    /// also the only form the underline colour has.
    static func colorParameter(_ color: TerminalColor, plane: Int, form: ExtendedColorForm) -> String {
        let short = plane != 58
        let separator = form == .colons ? ":" : ";"
        let extended = short ? plane + 8 : 58
        switch color.kind {
        case .default: return short ? String(plane + 9) : "59"
        case .indexed(let index) where short && index < 8: return String(plane + Int(index))
        case .indexed(let index) where short && index < 16: return String(plane + 60 + Int(index) - 8)
        case .indexed(let index): return "\(extended)\(separator)5\(separator)\(index)"
        case .rgb(let red, let green, let blue):
            // T.416 puts a colour-space id before the components; the colon
            // form leaves it empty, the semicolon form has no place for it.
            let space = form == .colons ? ":" : ""
            return "\(extended)\(separator)2\(separator)\(space)\(red)\(separator)\(green)\(separator)\(blue)"
        }
    }
}
