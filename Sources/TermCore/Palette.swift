/// A colour with 8 bits per channel.
public struct RGB: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// The colours indexed SGR colours and "default" resolve to. Programs can
/// change them (OSC 4, 10, 11, 12) and reset them (OSC 104, 110–112); the
/// embedder sets its theme through ``Terminal/palette``.
public struct Palette: Equatable, Sendable {
    /// Entries 0–255.
    public var colors: [RGB]
    public var defaultForeground: RGB
    public var defaultBackground: RGB
    public var cursor: RGB

    /// xterm's default palette (its XTerm-col.ad resources): the 16 ANSI
    /// colours, the 6×6×6 cube with levels 0, 95, 135, 175, 215, 255, and the
    /// 24 greys 8, 18, …, 238; light grey on black.
    public static let xterm = Palette()

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
    }

    /// The RGB value of a colour, `isForeground` choosing which default.
    public func resolve(_ color: Color, isForeground: Bool) -> RGB {
        switch color.kind {
        case .default: return isForeground ? defaultForeground : defaultBackground
        case .indexed(let index): return colors[Int(index)]
        case .rgb(let red, let green, let blue): return RGB(red, green, blue)
        }
    }
}
