/// The built-in 8×13 primary font of the thumbnails (drawn in 8×16 cells,
/// `GlyphSource`): ASCII, Latin-1, box
/// drawing and the DEC graphics symbols from Debian's console-setup-linux
/// `Uni2-Fixed13` (X11 misc-fixed, public domain; generated into
/// `BitmapFont+Glyphs.swift` by `scripts/make_font.py`), and the block
/// elements U+2580–259F drawn from their definitions.
enum BitmapFont {
    static let glyphWidth = 8

    /// Glyph index by code point for the first 0x2600 code points (the rest
    /// have none): one array look-up per cell.
    static let index: [Int16] = {
        var table = [Int16](repeating: -1, count: 0x2600)
        for (position, point) in codePoints.enumerated() where point < 0x2600 {
            table[Int(point)] = Int16(position)
        }
        return table
    }()

    /// The 13 rows of a code point's glyph (bit 7 leftmost), or nil.
    @inline(__always)
    static func glyph(_ point: UInt32) -> Int? {
        guard point < 0x2600 else { return nil }
        let position = index[Int(point)]
        return position < 0 ? nil : Int(position) * glyphHeight
    }

    /// Block elements (U+2580–259F) as a coverage test in eighths of the
    /// cell: does the block cover the pixel at (x, y) of a `width`×`height`
    /// cell? Shades are returned as a density instead (1…3 quarters).
    static func blockCoverage(_ point: UInt32, x: Int, y: Int, width: Int, height: Int) -> Bool? {
        guard (0x2580...0x259F).contains(point) else { return nil }
        let eighthX = x * 8 / max(1, width)
        let eighthY = y * 8 / max(1, height)
        let left = x * 2 < width
        let top = y * 2 < height
        switch point {
        case 0x2580: return top  // upper half
        case 0x2581...0x2588: return 8 - eighthY <= Int(point - 0x2580)  // lower n eighths
        case 0x2589...0x258F: return eighthX < Int(0x2590 - point)  // left n eighths
        case 0x2590: return !left  // right half
        case 0x2591: return (x + y) % 4 == 0  // light shade
        case 0x2592: return (x + y) % 2 == 0  // medium shade
        case 0x2593: return (x + y) % 4 != 0  // dark shade
        case 0x2594: return eighthY == 0  // upper one eighth
        case 0x2595: return eighthX == 7  // right one eighth
        case 0x2596: return left && !top
        case 0x2597: return !left && !top
        case 0x2598: return left && top
        case 0x2599: return left || !top
        case 0x259A: return left == top
        case 0x259B: return left || top
        case 0x259C: return top || !left
        case 0x259D: return !left && top
        case 0x259E: return left != top
        default: return !left || !top  // 0x259F
        }
    }
}
