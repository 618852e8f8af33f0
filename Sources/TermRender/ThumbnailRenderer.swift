import TermCore

/// Draws a `Snapshot` into a picture without any window system: every cell
/// in its colours (16-colour palette, 256-colour cube, truecolor, inverse,
/// dim, hidden, reverse video), glyphs from built-in bitmap fonts, the
/// cursor in its shape, and a PNG of it all.
///
/// Glyphs come from the 8×13 `Uni2-Fixed13` font (Latin-1, the DEC
/// graphics symbols) and, for every other code point of the Basic
/// Multilingual Plane, from GNU Unifont (8×16, and 16×16 for wide
/// characters such as CJK and emoji); a code point neither font has is
/// drawn as U+FFFD, a diamond with a question mark.
///
/// ```swift
/// let png = ThumbnailRenderer.png(terminal.snapshot(), size: .minimap)
/// ```
public enum ThumbnailRenderer {
    /// How big a cell is drawn.
    public enum Size: Equatable, Sendable {
        /// 8×16 pixels a cell (640×384 for 80×24), with the fonts' glyphs:
        /// Unifont's height, so that its CJK glyphs are drawn unscaled.
        case full
        /// `cellWidth`×`cellHeight` pixels a cell: the background, and a bar
        /// of the foreground where the cell has a character (a picture of
        /// the text's shape, for a row in a list).
        case minimap(cellWidth: Int, cellHeight: Int)

        /// 2×4 pixels a cell: 160×96 for 80×24.
        public static let minimap = Size.minimap(cellWidth: 2, cellHeight: 4)

        var cellSize: (width: Int, height: Int) {
            switch self {
            case .full: return (GlyphSource.cellWidth, GlyphSource.cellHeight)
            case .minimap(let width, let height): return (max(1, width), max(1, height))
            }
        }
    }

    /// The picture of `snapshot`, as 8-bit RGBA.
    /// - Complexity: O(pixels).
    public static func raster(_ snapshot: Snapshot, size: Size = .full) -> Raster {
        var map = DirectMap()
        // DirectMap always has room, so drawing cannot fail.
        let grid = draw(snapshot, size: size, map: &map)!
        var raster = Raster(width: grid.width, height: grid.height, fill: RGB(0, 0, 0))
        raster.pixels.withUnsafeMutableBufferPointer { out in
            for (index, pixel) in grid.pixels.enumerated() {
                out[index * 4] = UInt8(truncatingIfNeeded: pixel >> 16)
                out[index * 4 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
                out[index * 4 + 2] = UInt8(truncatingIfNeeded: pixel)
            }
        }
        return raster
    }

    /// The PNG of `snapshot`'s picture: indexed colour (a palette and a byte
    /// a pixel) when the screen has at most 256 colours, which is nearly
    /// always, else 8-bit RGB.
    /// - Parameters:
    ///   - snapshot: the screen to draw.
    ///   - size: full-size cells with glyphs, or a minimap.
    ///   - compressionLevel: zlib's level, 0…9 (``PNGWriter/defaultLevel``
    ///     says why the default is what it is).
    /// - Complexity: O(pixels).
    public static func png(
        _ snapshot: Snapshot, size: Size = .full, compressionLevel: Int32 = PNGWriter.defaultLevel
    ) -> [UInt8] {
        var palette = PaletteMap()
        if let grid = draw(snapshot, size: size, map: &palette) {
            return PNGWriter.encodeIndexed(
                width: grid.width, height: grid.height, indices: grid.pixels, palette: palette.colors,
                level: compressionLevel)
        }
        var direct = DirectMap()
        let grid = draw(snapshot, size: size, map: &direct)!
        return PNGWriter.encodeRGB(width: grid.width, height: grid.height, pixels: grid.pixels, level: compressionLevel)
    }

    /// Draws every cell into a grid whose pixels `map` gives; nil when the
    /// map runs out of room for the screen's colours.
    static func draw<Map: ColorMap>(_ snapshot: Snapshot, size: Size, map: inout Map) -> PixelGrid<Map.Pixel>? {
        let cell = size.cellSize
        let palette = snapshot.palette
        let screenBackground = snapshot.modes.reverseVideo ? palette.defaultForeground : palette.defaultBackground
        guard let base = map.pixel(for: screenBackground), let cursorPixel = map.pixel(for: palette.cursor) else {
            return nil
        }
        var grid = PixelGrid<Map.Pixel>(
            width: snapshot.columns * cell.width, height: snapshot.rows * cell.height, fill: base)
        let font = Unifont.font
        let cursor = snapshot.cursor
        let showsCursor = cursor.isVisible
        // Neighbouring cells mostly share a style: resolve its colours once a run.
        var lastStyle: Style?
        var lastColors = (foreground: base, background: base, underline: base)
        for row in 0..<snapshot.rows {
            let line = snapshot.line(row)
            let scale = line.size == .single ? 1 : 2
            let y = row * cell.height
            // The background of a run of cells is filled once, when the
            // run ends (rows rastered once per run rather than per cell).
            var runStart = 0
            var runPixel = base
            var column = 0
            let columns = snapshot.columns / scale
            while column < columns {
                let content = line.cell(column)
                if content.style != lastStyle {
                    let colors = snapshot.colors(of: content.style)
                    guard let foreground = map.pixel(for: colors.foreground),
                        let background = map.pixel(for: colors.background),
                        let underline = map.pixel(for: colors.underline)
                    else { return nil }
                    lastStyle = content.style
                    lastColors = (foreground, background, underline)
                }
                var (foreground, background) = (lastColors.foreground, lastColors.background)
                let span = content.width == .wide ? 2 : 1
                let isCursor = showsCursor && cursor.position.row == row && cursor.position.column == column
                if isCursor && snapshot.modes.cursorShape == .block {
                    (foreground, background) = (background, cursorPixel)
                }
                let x = column * cell.width * scale
                let width = cell.width * scale * span
                if background != runPixel {
                    if runPixel != base {
                        grid.fill(x: runStart, y: y, width: x - runStart, height: cell.height, pixel: runPixel)
                    }
                    runStart = x
                    runPixel = background
                }
                let visible =
                    content.width != .wideTail && !content.style.flags.contains(.hidden)
                    && (content.scalars.first?.value ?? 0) > 0x20
                switch size {
                case .full:
                    // The glyph goes over the background, so the run so far is filled first.
                    if visible || content.style.underline != .none || content.style.flags.contains(.strikethrough) {
                        if runPixel != base {
                            grid.fill(
                                x: runStart, y: y, width: x + width - runStart, height: cell.height, pixel: runPixel)
                        }
                        runStart = x + width
                    }
                    if visible {
                        GlyphSource.draw(
                            content.scalars, font: font, into: &grid, x: x, y: y, span: span, scale: scale,
                            lineSize: line.size, pixel: foreground)
                    }
                    if content.style.underline != .none {
                        // Under the cursor's block the underline follows
                        // the swapped foreground unless it has its own colour.
                        let color = content.style.underlineColor == .default ? foreground : lastColors.underline
                        grid.fill(x: x, y: y + cell.height - 2, width: width, height: 1, pixel: color)
                    }
                    if content.style.flags.contains(.strikethrough) {
                        grid.fill(x: x, y: y + cell.height / 2, width: width, height: 1, pixel: foreground)
                    }
                case .minimap:
                    if visible {
                        if runPixel != base {
                            grid.fill(
                                x: runStart, y: y, width: x + width - runStart, height: cell.height, pixel: runPixel)
                        }
                        runStart = x + width
                        let inset = cell.height / 4
                        grid.fill(x: x, y: y + inset, width: width, height: cell.height - 2 * inset, pixel: foreground)
                    }
                }
                if isCursor {
                    // Drawn over whatever the run fills later: fill the run now.
                    if runPixel != base {
                        grid.fill(x: runStart, y: y, width: x + width - runStart, height: cell.height, pixel: runPixel)
                    }
                    runStart = x + width
                    switch snapshot.modes.cursorShape {
                    case .block: break
                    case .underline:
                        grid.fill(x: x, y: y + cell.height - 2, width: width, height: 2, pixel: cursorPixel)
                    case .bar:
                        grid.fill(x: x, y: y, width: max(1, cell.width / 4), height: cell.height, pixel: cursorPixel)
                    }
                }
                column += span
            }
            let end = columns * cell.width * scale
            if runPixel != base && runStart < end {
                grid.fill(x: runStart, y: y, width: end - runStart, height: cell.height, pixel: runPixel)
            }
        }
        return grid
    }
}
