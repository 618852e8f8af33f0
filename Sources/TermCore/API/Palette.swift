/// A colour with 8 bits per channel.
public struct RGB: Hashable, Sendable {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8
    /// A colour from its three channels: `RGB(0xE5, 0xE5, 0xE5)` is xterm's
    /// light grey.
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// The colours indexed SGR colours and "default" resolve to. Programs can
/// change them (OSC 4, 5, 10, 11, 12) and reset them (OSC 104, 105,
/// 110–112); the embedder sets its theme through ``Terminal/palette``.
public struct Palette: Equatable, Sendable {
    /// Entries 0–255. Always 256: a theme of fewer (16 colours, say) is
    /// completed with xterm's entries after it (the 6×6×6 cube and the
    /// grey ramp), entries past 255 are dropped, so no SGR or OSC 4 index
    /// can fall outside.
    public var colors: [RGB] {
        didSet {
            if colors.count != 256 { colors = Self.completed(colors, with: Palette.xterm.colors) }
        }
    }
    /// What text in the default colour (SGR 39) is drawn in; OSC 10 sets it,
    /// OSC 110 resets it.
    public var defaultForeground: RGB
    /// What cells in the default background (SGR 49) are drawn on; OSC 11 sets
    /// it, OSC 111 resets it.
    public var defaultBackground: RGB
    /// The text cursor's colour; OSC 12 sets it, OSC 112 resets it.
    public var cursor: RGB
    /// xterm's special colours, indexed by ``SpecialColor``: the colours
    /// xterm can show bold, underlined, blinking, reverse and italic text in
    /// (its `colorBD`, `colorUL`, `colorBL`, `colorRV`, `colorIT`
    /// resources). Programs set and query them with OSC 5 (or OSC 4 from
    /// 256) and reset them with OSC 105; RIS resets them too. They are kept
    /// and reported only: xterm's default resources leave the modes that use
    /// them (`colorBDMode` …) off, so they change no rendering.
    /// Always ``specialColorCount`` of them, completed and cut as
    /// ``colors`` are.
    public var specialColors: [RGB] {
        didSet {
            if specialColors.count != Self.specialColorCount {
                specialColors = Self.completed(specialColors, with: Palette.xterm.specialColors)
            }
        }
    }

    /// `entries` cut or completed to the length of `defaults`, from it.
    static func completed(_ entries: [RGB], with defaults: [RGB]) -> [RGB] {
        Array(entries.prefix(defaults.count)) + defaults.dropFirst(min(entries.count, defaults.count))
    }

    /// The special colours' numbers in OSC 5 (and, plus 256, in OSC 4).
    public enum SpecialColor: Int, CaseIterable, Sendable {
        /// colorBD: bold text.
        case bold = 0
        /// colorUL: underlined text.
        case underline
        /// colorBL: blinking text.
        case blink
        /// colorRV: reverse-video text.
        case reverse
        /// colorIT: italic text.
        case italic
    }

    /// How many special colours there are.
    public static let specialColorCount = SpecialColor.allCases.count

    /// A special colour.
    public subscript(special special: SpecialColor) -> RGB {
        get { specialColors[special.rawValue] }
        set { specialColors[special.rawValue] = newValue }
    }

    /// xterm's default palette (its XTerm-col.ad resources): the 16 ANSI
    /// colours, the 6×6×6 cube with levels 0, 95, 135, 175, 215, 255, and the
    /// 24 greys 8, 18, …, 238; light grey on black. The special colours are
    /// the default foreground, as xterm's resources default them
    /// (`XtDefaultForeground`).
    public static let xterm = Palette()

    /// xterm's default palette, the same as ``xterm``.
    public init() {
        let ansi: [(UInt8, UInt8, UInt8)] = [
            (0x00, 0x00, 0x00), (0xCD, 0x00, 0x00), (0x00, 0xCD, 0x00), (0xCD, 0xCD, 0x00),
            (0x00, 0x00, 0xEE), (0xCD, 0x00, 0xCD), (0x00, 0xCD, 0xCD), (0xE5, 0xE5, 0xE5),
            (0x7F, 0x7F, 0x7F), (0xFF, 0x00, 0x00), (0x00, 0xFF, 0x00), (0xFF, 0xFF, 0x00),
            (0x5C, 0x5C, 0xFF), (0xFF, 0x00, 0xFF), (0x00, 0xFF, 0xFF), (0xFF, 0xFF, 0xFF),
        ]
        var colors = ansi.map { RGB($0.0, $0.1, $0.2) }
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
        for red in levels {
            for green in levels {
                for blue in levels { colors.append(RGB(red, green, blue)) }
            }
        }
        for step in 0..<24 {
            let grey = UInt8(8 + step * 10)
            colors.append(RGB(grey, grey, grey))
        }
        self.colors = colors
        defaultForeground = RGB(0xE5, 0xE5, 0xE5)
        defaultBackground = RGB(0x00, 0x00, 0x00)
        cursor = RGB(0xE5, 0xE5, 0xE5)
        specialColors = Array(repeating: defaultForeground, count: Palette.specialColorCount)
    }

    /// The RGB value of a colour, `isForeground` choosing which default.
    public func resolve(_ color: TerminalColor, isForeground: Bool) -> RGB {
        switch color.kind {
        case .default: return isForeground ? defaultForeground : defaultBackground
        case .indexed(let index): return colors[Int(index)]
        case .rgb(let red, let green, let blue): return RGB(red, green, blue)
        }
    }
}

/// The colours a cell is drawn in, resolved from its style.
public struct StyleColors: Equatable, Sendable {
    /// The character's colour.
    public var foreground: RGB
    /// The cell's colour behind it.
    public var background: RGB
    /// The underline's colour: its own (SGR 58), else the foreground's.
    public var underline: RGB

    /// The three resolved colours of a cell.
    public init(foreground: RGB, background: RGB, underline: RGB) {
        self.foreground = foreground
        self.background = background
        self.underline = underline
    }
}

extension Palette {
    /// The colours `style` is drawn in, the one resolution every renderer
    /// uses: indexed and default colours looked up; inverse, and reverse
    /// video (DECSCNM) on top of it, swap foreground and background; dim
    /// draws the foreground halfway to the background; hidden draws it in
    /// the background's colour (xterm draws hidden text in the background
    /// colour). The underline has its own colour when SGR 58 gave one, else
    /// the foreground's.
    public func colors(of style: Style, reverseVideo: Bool = false) -> StyleColors {
        var foreground = resolve(style.foreground, isForeground: true)
        var background = resolve(style.background, isForeground: false)
        if style.flags.contains(.inverse) != reverseVideo { swap(&foreground, &background) }
        if style.flags.contains(.dim) {
            foreground = RGB(
                UInt8((Int(foreground.red) + Int(background.red)) / 2),
                UInt8((Int(foreground.green) + Int(background.green)) / 2),
                UInt8((Int(foreground.blue) + Int(background.blue)) / 2))
        }
        if style.flags.contains(.hidden) { foreground = background }
        let underline =
            style.underlineColor == .default ? foreground : resolve(style.underlineColor, isForeground: true)
        return StyleColors(foreground: foreground, background: background, underline: underline)
    }
}

extension Snapshot {
    /// The colours `style` is drawn in with this snapshot's palette and
    /// reverse video (``Palette/colors(of:reverseVideo:)``).
    public func colors(of style: Style) -> StyleColors {
        palette.colors(of: style, reverseVideo: modes.reverseVideo)
    }
}
