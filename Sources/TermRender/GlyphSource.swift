import TermCore

/// Which font draws a code point in a full-size thumbnail, and how its rows
/// land in an 8×16 cell.
///
/// In order: the block elements U+2580–259F from their definitions (they
/// must fill the cell exactly); box drawing U+2500–257F from Unifont, whose
/// lines run to the edges of a 16-row cell (the 13-row font's would leave
/// gaps between rows); anything else `Uni2-Fixed13` has, 3 rows down so its
/// baseline (row 10 of 13) meets Unifont's (row 13 of 16); anything else
/// Unifont has; and U+FFFD from Unifont for the rest. Marks after the base
/// scalar are drawn over it when Unifont marks them as combining; other
/// trailing scalars (variation selectors, ZWJ, emoji modifiers) draw
/// nothing of their own.
enum GlyphSource {
    static let cellWidth = 8
    static let cellHeight = Unifont.height
    /// Rows above a `Uni2-Fixed13` glyph in a 16-row cell: baselines meet.
    static let primaryTop = 3

    /// Draws `scalars` (a base and what follows it) in a cell `span` columns
    /// wide at (x, y), each font pixel `scale` pixels wide.
    static func draw<Pixel>(
        _ scalars: [Unicode.Scalar], font: Unifont.Font, into grid: inout PixelGrid<Pixel>, x: Int, y: Int,
        span: Int, scale: Int, lineSize: LineSize, pixel: Pixel
    ) {
        guard let base = scalars.first?.value else { return }
        if (0x2580...0x259F).contains(base) {
            drawBlock(base, into: &grid, x: x, y: y, width: cellWidth * span * scale, lineSize: lineSize, pixel: pixel)
        } else if !(0x2500...0x257F).contains(base), let start = BitmapFont.glyph(base) {
            let rows = BitmapFont.glyphRows
            // Narrow glyphs sit in the middle of a wide cell.
            let left = x + (span - 1) * 4 * scale
            for pixelRow in 0..<cellHeight {
                let row = sourceRow(pixelRow, lineSize) - primaryTop
                guard row >= 0 && row < BitmapFont.glyphHeight else { continue }
                grid.plot(
                    bits: UInt32(rows[start + row]), count: 8, x: left, y: y + pixelRow, scale: scale, pixel: pixel)
            }
        } else {
            let glyph = Unifont.glyph(base, in: font) ?? Unifont.glyph(0xFFFD, in: font)!
            drawUnifont(
                glyph, font: font, into: &grid, x: x, y: y, span: span, scale: scale, lineSize: lineSize, pixel: pixel)
        }
        for mark in scalars.dropFirst() {
            guard let glyph = Unifont.glyph(mark.value, in: font), glyph.isCombining else { continue }
            drawUnifont(
                glyph, font: font, into: &grid, x: x, y: y, span: span, scale: scale, lineSize: lineSize, pixel: pixel)
        }
    }

    /// The font row shown at `pixelRow` of a cell: double-height rows show
    /// the top or the bottom half of a glyph twice as tall (DECDHL).
    @inline(__always)
    static func sourceRow(_ pixelRow: Int, _ lineSize: LineSize) -> Int {
        switch lineSize {
        case .doubleHeightTop: return pixelRow / 2
        case .doubleHeightBottom: return (pixelRow + cellHeight) / 2
        default: return pixelRow
        }
    }

    /// A Unifont glyph: 16 pixels over a wide cell, 8 centred in it, and a
    /// 16-pixel glyph in a narrow cell (a character Unifont draws wide that
    /// the terminal gives one column) squeezed to 8 by OR-ing pixel pairs.
    static func drawUnifont<Pixel>(
        _ glyph: Unifont.Glyph, font: Unifont.Font, into grid: inout PixelGrid<Pixel>, x: Int, y: Int, span: Int,
        scale: Int, lineSize: LineSize, pixel: Pixel
    ) {
        font.bitmaps.withUnsafeBufferPointer { bitmaps in
            for pixelRow in 0..<cellHeight {
                let row = sourceRow(pixelRow, lineSize)
                if glyph.isWide {
                    let bits =
                        UInt32(bitmaps[glyph.offset + 2 * row]) << 8 | UInt32(bitmaps[glyph.offset + 2 * row + 1])
                    if span == 2 {
                        grid.plot(bits: bits, count: 16, x: x, y: y + pixelRow, scale: scale, pixel: pixel)
                    } else {
                        grid.plot(bits: squeeze(bits), count: 8, x: x, y: y + pixelRow, scale: scale, pixel: pixel)
                    }
                } else {
                    let bits = UInt32(bitmaps[glyph.offset + row])
                    let left = x + (span - 1) * 4 * scale
                    grid.plot(bits: bits, count: 8, x: left, y: y + pixelRow, scale: scale, pixel: pixel)
                }
            }
        }
    }

    /// 16 pixels to 8: a pixel is set when either of its pair is.
    @inline(__always)
    static func squeeze(_ bits: UInt32) -> UInt32 {
        var result: UInt32 = 0
        for pair in 0..<8 where bits & (0b11 << UInt32(14 - 2 * pair)) != 0 { result |= 0x80 >> UInt32(pair) }
        return result
    }

    /// A block element from its definition (`BitmapFont.blockCoverage`).
    static func drawBlock<Pixel>(
        _ point: UInt32, into grid: inout PixelGrid<Pixel>, x: Int, y: Int, width: Int, lineSize: LineSize,
        pixel: Pixel
    ) {
        for pixelRow in 0..<cellHeight {
            let row = sourceRow(pixelRow, lineSize)
            for column in 0..<width
            where BitmapFont.blockCoverage(point, x: column, y: row, width: width, height: cellHeight) == true {
                grid.fill(x: x + column, y: y + pixelRow, width: 1, height: 1, pixel: pixel)
            }
        }
    }
}
