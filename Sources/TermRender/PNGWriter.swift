import CZlib
import TermCore

/// An 8-bit RGBA picture, rows top to bottom, 4 bytes a pixel.
public struct Raster: Sendable {
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    /// `width * height * 4` bytes: red, green, blue, alpha.
    public var pixels: [UInt8]

    /// A picture filled with one opaque colour.
    public init(width: Int, height: Int, fill: RGB) {
        self.width = width
        self.height = height
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                buffer[index] = fill.red
                buffer[index + 1] = fill.green
                buffer[index + 2] = fill.blue
                index += 4
            }
        }
        self.pixels = pixels
    }

    /// The colour at a pixel (alpha left out: every pixel is opaque).
    public func color(x: Int, y: Int) -> RGB {
        let index = (y * width + x) * 4
        return RGB(pixels[index], pixels[index + 1], pixels[index + 2])
    }

    /// Fills a rectangle, clipped to the picture.
    public mutating func fill(x: Int, y: Int, width rectWidth: Int, height rectHeight: Int, color: RGB) {
        let left = max(0, x)
        let right = min(width, x + rectWidth)
        let top = max(0, y)
        let bottom = min(height, y + rectHeight)
        guard left < right && top < bottom else { return }
        let rowWidth = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in top..<bottom {
                var index = (row * rowWidth + left) * 4
                for _ in left..<right {
                    buffer[index] = color.red
                    buffer[index + 1] = color.green
                    buffer[index + 2] = color.blue
                    index += 4
                }
            }
        }
    }
}

/// Writes PNG files (ISO/IEC 15948, the PNG specification): the signature,
/// an IHDR chunk, a PLTE chunk for indexed colour, one IDAT chunk holding
/// the zlib stream of the filtered rows, and IEND; every chunk ends with the
/// CRC-32 of its type and data. Deflate and CRC-32 come from the system zlib.
public enum PNGWriter {
    /// The eight bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The zlib level thumbnails are written with: 1. Measured with
    /// `render-bench png-tune` on the benchmark's screens (docs/PERFORMANCE.md,
    /// "Thumbnails"): level 6 takes three to four times level 1's time for
    /// files about half the size. Indexed pictures are deflated with zlib's
    /// run-length strategy, which ignores the level (but 0, stored).
    public static let defaultLevel: Int32 = 1

    /// A PNG row filter (PNG specification §9.2).
    enum Filter: UInt8, CaseIterable {
        /// The bytes as they are.
        case none = 0
        /// Each byte minus the one a pixel to the left.
        case sub = 1
        /// Each byte minus the one above: a pixel row equal to the one
        /// before it (most rows of a text cell are) becomes zeros, which
        /// RGB pictures need for runs to show (3 bytes a pixel).
        case up = 2
    }

    /// The PNG encoding of `raster`.
    /// - Parameters:
    ///   - raster: the picture, written as 8-bit RGBA (colour type 6).
    ///   - level: zlib's compression level, 0…9; 6 is zlib's default,
    ///     1 is several times faster for a few per cent more bytes.
    public static func encode(_ raster: Raster, level: Int32 = 6) -> [UInt8] {
        // Bit depth 8, colour type 6 (RGBA).
        let stride = raster.width * 4
        let data = raster.pixels.withUnsafeBufferPointer { pixels in
            filtered(rows: raster.height, stride: stride, bytesPerPixel: 4, filter: .sub) {
                pixels.baseAddress! + $0 * stride
            }
        }
        return assemble(
            width: raster.width, height: raster.height, colorType: 6, palette: nil, data: data, level: level)
    }

    /// The PNG of a picture of palette indices (colour type 3), with 1, 2, 4
    /// or 8 bits a pixel: the fewest that hold `palette.count` indices.
    /// - Parameters:
    ///   - width: pixels across; `indices.count` is `width * height`.
    ///   - height: pixels down.
    ///   - indices: an index into `palette` for each pixel, rows top to bottom.
    ///   - palette: 1…256 colours.
    ///   - level: zlib's compression level, 0…9.
    /// - Complexity: O(pixels).
    public static func encodeIndexed(
        width: Int, height: Int, indices: [UInt8], palette: [RGB], level: Int32 = defaultLevel
    ) -> [UInt8] {
        // No filter and zlib's run-length strategy (Z_RLE: matches at distance
        // 1 only): of the fast choices render-bench png-tune measures, the
        // smallest files (17.6 KB a screen against 20.1 KB for Up at level 1,
        // 18.5 KB for the RGBA writer before), at level 1's speed. An index
        // picture is runs of one byte along a row; a filter turns the runs
        // into other runs and adds nothing.
        encodeIndexed(
            width: width, height: height, indices: indices, palette: palette, level: level, filter: .none,
            strategy: Z_RLE)
    }

    static func encodeIndexed(
        width: Int, height: Int, indices: [UInt8], palette: [RGB], level: Int32, filter: Filter,
        strategy: Int32 = Z_DEFAULT_STRATEGY
    ) -> [UInt8] {
        precondition(indices.count == width * height && (1...256).contains(palette.count))
        let data = packed(indices, width: width, height: height, bits: bitDepth(colors: palette.count)) {
            stride, rows in
            filtered(rows: height, stride: stride, bytesPerPixel: 1, filter: filter) { rows + $0 * stride }
        }
        return assemble(
            width: width, height: height, colorType: 3, bitDepth: UInt8(bitDepth(colors: palette.count)),
            palette: palette, data: data, level: level, strategy: strategy)
    }

    /// The PNG of a picture of `0xRRGGBB` pixels (colour type 2, bit depth 8).
    /// - Parameters:
    ///   - width: pixels across; `pixels.count` is `width * height`.
    ///   - height: pixels down.
    ///   - pixels: each pixel's colour, rows top to bottom.
    ///   - level: zlib's compression level, 0…9.
    /// - Complexity: O(pixels).
    public static func encodeRGB(width: Int, height: Int, pixels: [UInt32], level: Int32 = defaultLevel) -> [UInt8] {
        precondition(pixels.count == width * height)
        var bytes = [UInt8](repeating: 0, count: pixels.count * 3)
        for (index, pixel) in pixels.enumerated() {
            bytes[index * 3] = UInt8(truncatingIfNeeded: pixel >> 16)
            bytes[index * 3 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
            bytes[index * 3 + 2] = UInt8(truncatingIfNeeded: pixel)
        }
        let data = bytes.withUnsafeBufferPointer { bytes in
            filtered(rows: height, stride: width * 3, bytesPerPixel: 3, filter: .up) {
                bytes.baseAddress! + $0 * width * 3
            }
        }
        return assemble(width: width, height: height, colorType: 2, palette: nil, data: data, level: level)
    }

    /// The fewest bits an index of `colors` colours needs, of the depths PNG
    /// allows for colour type 3 (1, 2, 4, 8): a screen of 16 colours or
    /// fewer (most) gives zlib half the bytes to deflate.
    static func bitDepth(colors: Int) -> Int {
        colors <= 2 ? 1 : colors <= 4 ? 2 : colors <= 16 ? 4 : 8
    }

    /// `indices` with `bits` bits a pixel, leftmost pixel in the high bits
    /// and each row padded to a whole byte (PNG specification §7.2), handed
    /// to `body` as the row length in bytes and the first row.
    static func packed<Result>(
        _ indices: [UInt8], width: Int, height: Int, bits: Int, _ body: (Int, UnsafePointer<UInt8>) -> Result
    ) -> Result {
        if bits == 8 {
            return indices.withUnsafeBufferPointer { body(width, $0.baseAddress!) }
        }
        let perByte = 8 / bits
        let stride = (width + perByte - 1) / perByte
        var rows = [UInt8](repeating: 0, count: stride * height)
        indices.withUnsafeBufferPointer { source in
            rows.withUnsafeMutableBufferPointer { out in
                for row in 0..<height {
                    let from = row * width
                    let to = row * stride
                    for column in 0..<width {
                        let shift = 8 - bits * (column % perByte + 1)
                        out[to + column / perByte] |= source[from + column] << UInt8(shift)
                    }
                }
            }
        }
        return rows.withUnsafeBufferPointer { body(stride, $0.baseAddress!) }
    }

    static func assemble(
        width: Int, height: Int, colorType: UInt8, bitDepth: UInt8 = 8, palette: [RGB]?, data: [UInt8],
        level: Int32, strategy: Int32 = Z_DEFAULT_STRATEGY
    ) -> [UInt8] {
        var png = signature
        png.reserveCapacity(data.count / 8 + 1024)
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        // The bit depth, the colour type, deflate, adaptive filtering, no interlace.
        header += [bitDepth, colorType, 0, 0, 0]
        appendChunk("IHDR", header, to: &png)
        if let palette {
            appendChunk("PLTE", palette.flatMap { [$0.red, $0.green, $0.blue] }, to: &png)
        }
        appendChunk("IDAT", compress(data, level: level, strategy: strategy), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// Each row with its filter byte in front: `source(row)` points at row
    /// `row`'s `stride` bytes, and `filter` is applied against the row before.
    static func filtered(
        rows: Int, stride: Int, bytesPerPixel: Int, filter: Filter,
        source: (Int) -> UnsafePointer<UInt8>
    ) -> [UInt8] {
        var data = [UInt8](repeating: 0, count: (stride + 1) * rows)
        data.withUnsafeMutableBufferPointer { buffer in
            guard let out = buffer.baseAddress else { return }
            var above: UnsafePointer<UInt8>?
            for row in 0..<rows {
                let line = source(row)
                let target = out + row * (stride + 1)
                target[0] = filter.rawValue
                let bytes = target + 1
                switch filter {
                case .none:
                    bytes.update(from: line, count: stride)
                case .sub:
                    let lead = min(bytesPerPixel, stride)
                    bytes.update(from: line, count: lead)
                    for index in lead..<stride { bytes[index] = line[index] &- line[index - bytesPerPixel] }
                case .up:
                    if let above {
                        for index in 0..<stride { bytes[index] = line[index] &- above[index] }
                    } else {
                        bytes.update(from: line, count: stride)
                    }
                }
                above = line
            }
        }
        return data
    }

    static func compress(_ data: [UInt8], level: Int32, strategy: Int32 = Z_DEFAULT_STRATEGY) -> [UInt8] {
        var stream = z_stream()
        // Window 2^15, memory level 8: zlib's defaults (what compress2 uses).
        var status = deflateInit2_(
            &stream, level, Z_DEFLATED, 15, 8, strategy, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib deflateInit2 failed with \(status)")
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))))
        var written = 0
        output.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                // deflateBound's room is enough for one Z_FINISH call.
                status = deflate(&stream, Z_FINISH)
                written = out.count - Int(stream.avail_out)
            }
        }
        precondition(status == Z_STREAM_END, "zlib deflate failed with \(status)")
        output.removeSubrange(written...)
        return output
    }

    static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let typeBytes = Array(type.utf8)
        var checksum = crc32(0, typeBytes, uInt(typeBytes.count))
        checksum = data.withUnsafeBufferPointer { crc32(checksum, $0.baseAddress, uInt($0.count)) }
        png += typeBytes
        png += data
        appendBigEndian(UInt32(truncatingIfNeeded: checksum), to: &png)
    }

    static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }
}
