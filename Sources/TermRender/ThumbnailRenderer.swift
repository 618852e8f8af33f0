import TermCore

/// Draws a `Snapshot` into a picture without any window system: every cell
/// in its colours (16-colour palette, 256-colour cube, truecolor, inverse,
/// dim, hidden, reverse video), glyphs from a built-in bitmap font, the
/// cursor in its shape, and a PNG of it all.
///
/// ```swift
/// let png = ThumbnailRenderer.png(terminal.snapshot(), size: .minimap)
/// ```
public enum ThumbnailRenderer {
    /// How big a cell is drawn.
    public enum Size: Equatable, Sendable {
        /// 8×13 pixels a cell, with the font's glyphs.
        case full
        /// `cellWidth`×`cellHeight` pixels a cell: the background, and a bar
        /// of the foreground where the cell has a character (a picture of
        /// the text's shape, for a row in a list).
        case minimap(cellWidth: Int, cellHeight: Int)

        /// 2×4 pixels a cell: 160×96 for 80×24.
        public static let minimap = Size.minimap(cellWidth: 2, cellHeight: 4)

        var cellSize: (width: Int, height: Int) {
            switch self {
            case .full: return (BitmapFont.glyphWidth, BitmapFont.glyphHeight)
            case .minimap(let width, let height): return (max(1, width), max(1, height))
            }
        }
    }

    /// The picture of `snapshot`.
    /// - Complexity: O(pixels).
    public static func raster(_ snapshot: Snapshot, size: Size = .full) -> Raster {
        let cell = size.cellSize
        let palette = snapshot.palette
        let background = snapshot.modes.reverseVideo ? palette.defaultForeground : palette.defaultBackground
        var raster = Raster(width: snapshot.columns * cell.width, height: snapshot.rows * cell.height, fill: background)
        let cursor = snapshot.cursor
        let showsCursor = cursor.isVisible
        for row in 0..<snapshot.rows {
            let line = snapshot.line(row)
            let scale = line.size == .single ? 1 : 2
            var column = 0
            while column < snapshot.columns / scale {
                let content = line.cell(column)
                let colors = snapshot.colors(of: content.style)
                var (foreground, back) = (colors.foreground, colors.background)
                let span = (content.width == .wide ? 2 : 1)
                let isCursor = showsCursor && cursor.position.row == row && cursor.position.column == column
                if isCursor && snapshot.modes.cursorShape == .block {
                    (foreground, back) = (back, palette.cursor)
                }
                let x = column * cell.width * scale
                let y = row * cell.height
                let width = cell.width * scale * span
                raster.fill(x: x, y: y, width: width, height: cell.height, color: back)
                let scalar = content.scalars.first?.value ?? 0
                let visible = scalar > 0x20 && !content.style.flags.contains(.hidden) && content.width != .wideTail
                switch size {
                case .full:
                    if visible {
                        drawGlyph(
                            scalar, into: &raster, x: x, y: y, width: width, scale: scale, lineSize: line.size,
                            color: foreground)
                    }
                    if content.style.underline != .none {
                        // Under the cursor's block the underline follows
                        // the swapped foreground unless it has its own colour.
                        let color = content.style.underlineColor == .default ? foreground : colors.underline
                        raster.fill(x: x, y: y + cell.height - 2, width: width, height: 1, color: color)
                    }
                    if content.style.flags.contains(.strikethrough) {
                        raster.fill(x: x, y: y + cell.height / 2, width: width, height: 1, color: foreground)
                    }
                case .minimap:
                    if visible {
                        let inset = cell.height / 4
                        raster.fill(
                            x: x, y: y + inset, width: width, height: cell.height - 2 * inset, color: foreground)
                    }
                }
                if isCursor {
                    switch snapshot.modes.cursorShape {
                    case .block: break
                    case .underline:
                        raster.fill(x: x, y: y + cell.height - 2, width: width, height: 2, color: palette.cursor)
                    case .bar:
                        raster.fill(
                            x: x, y: y, width: max(1, cell.width / 4), height: cell.height, color: palette.cursor)
                    }
                }
                column += span
            }
        }
        return raster
    }

    /// The PNG of `snapshot`'s picture.
    public static func png(_ snapshot: Snapshot, size: Size = .full, compressionLevel: Int32 = 6) -> [UInt8] {
        PNGWriter.encode(raster(snapshot, size: size), level: compressionLevel)
    }

    /// A glyph of the font, a block element, or a neutral block for
    /// anything the font lacks (CJK, emoji…), over `width` pixels.
    static func drawGlyph(
        _ scalar: UInt32, into raster: inout Raster, x: Int, y: Int, width: Int, scale: Int, lineSize: LineSize,
        color: RGB
    ) {
        let height = BitmapFont.glyphHeight
        // Double-height rows show the top or bottom half of a glyph twice as tall.
        func glyphRow(_ pixelRow: Int) -> Int {
            switch lineSize {
            case .doubleHeightTop: return pixelRow / 2
            case .doubleHeightBottom: return (pixelRow + height) / 2
            default: return pixelRow
            }
        }
        if let start = BitmapFont.glyph(scalar) {
            let rows = BitmapFont.glyphRows
            for pixelRow in 0..<height {
                let bits = rows[start + glyphRow(pixelRow)]
                guard bits != 0 else { continue }
                for bit in 0..<BitmapFont.glyphWidth where bits & (0x80 >> bit) != 0 {
                    raster.fill(x: x + bit * scale, y: y + pixelRow, width: scale, height: 1, color: color)
                }
            }
            return
        }
        if (0x2580...0x259F).contains(scalar) {
            for pixelRow in 0..<height {
                for pixel in 0..<width
                where BitmapFont.blockCoverage(scalar, x: pixel, y: glyphRow(pixelRow), width: width, height: height)
                    == true
                {
                    raster.fill(x: x + pixel, y: y + pixelRow, width: 1, height: 1, color: color)
                }
            }
            return
        }
        raster.fill(x: x + 1, y: y + 2, width: width - 2, height: height - 4, color: color)
    }
}
