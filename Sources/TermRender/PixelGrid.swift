import TermCore

/// A picture as one integer a pixel, rows top to bottom: palette indices
/// (`UInt8`) when a screen has at most 256 colours, which is what a PNG of
/// colour type 3 stores as it is, or `0xRRGGBB` (`UInt32`) otherwise.
struct PixelGrid<Pixel: FixedWidthInteger & UnsignedInteger> {
    let width: Int
    let height: Int
    var pixels: [Pixel]

    init(width: Int, height: Int, fill: Pixel) {
        self.width = width
        self.height = height
        pixels = [Pixel](repeating: fill, count: width * height)
    }

    /// Fills a rectangle, clipped to the picture: one `update(repeating:)`
    /// (a memset for bytes) a row.
    mutating func fill(x: Int, y: Int, width rectWidth: Int, height rectHeight: Int, pixel: Pixel) {
        let left = max(0, x)
        let right = min(width, x + rectWidth)
        let top = max(0, y)
        let bottom = min(height, y + rectHeight)
        guard left < right && top < bottom else { return }
        let rowWidth = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in top..<bottom {
                let start = row * rowWidth
                UnsafeMutableBufferPointer(rebasing: buffer[(start + left)..<(start + right)]).update(repeating: pixel)
            }
        }
    }

    /// Sets the pixels of one glyph row: `bits` holds `count` pixels, the
    /// most significant of them leftmost, each `scale` pixels wide; only the
    /// set bits are visited. Clipped to the picture.
    mutating func plot(bits: UInt32, count: Int, x: Int, y: Int, scale: Int, pixel: Pixel) {
        guard bits != 0, y >= 0, y < height else { return }
        let rowStart = y * width
        let rowWidth = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            // Bits above `count` are not pixels of this row.
            var remaining = bits & (count >= 32 ? ~0 : (1 << UInt32(count)) - 1)
            while remaining != 0 {
                let position = 31 - remaining.leadingZeroBitCount
                remaining &= ~(1 << UInt32(position))
                let left = x + (count - 1 - position) * scale
                for column in max(0, left)..<min(rowWidth, left + scale) { buffer[rowStart + column] = pixel }
            }
        }
    }
}

/// How colours become pixels of a `PixelGrid`.
protocol ColorMap {
    associatedtype Pixel: FixedWidthInteger & UnsignedInteger
    /// The pixel for `color`, or nil when the map has no room for another
    /// colour (the picture is then drawn again with a map that has).
    mutating func pixel(for color: RGB) -> Pixel?
}

/// Up to 256 colours, in the order they are first asked for: a PNG
/// palette. An open-addressed table of 512 slots finds a colour again
/// without hashing through the standard library (a cell asks for two).
struct PaletteMap: ColorMap {
    /// The most colours: what a PNG palette with 8-bit indices holds.
    static let capacity = 256
    private(set) var colors: [RGB] = []
    /// Slot: `0x1RRGGBB` of a colour present (bit 24 marks it used) and its index.
    private var keys = [UInt32](repeating: 0, count: 512)
    private var indices = [UInt8](repeating: 0, count: 512)

    init() { colors.reserveCapacity(Self.capacity) }

    mutating func pixel(for color: RGB) -> UInt8? {
        let key = 1 << 24 | UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue)
        var slot = Int((key &* 0x9E37_79B1) >> 23)  // the top 9 bits of a Fibonacci hash: 0..<512
        while keys[slot] != 0 {
            if keys[slot] == key { return indices[slot] }
            slot = (slot + 1) & 511
        }
        // Half full at most (256 of 512), so probing always ends.
        guard colors.count < Self.capacity else { return nil }
        keys[slot] = key
        indices[slot] = UInt8(colors.count)
        colors.append(color)
        return UInt8(colors.count - 1)
    }
}

/// Any number of colours, as `0xRRGGBB`.
struct DirectMap: ColorMap {
    func pixel(for color: RGB) -> UInt32? {
        UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue)
    }
}
