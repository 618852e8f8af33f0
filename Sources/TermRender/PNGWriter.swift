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
/// an IHDR chunk (8-bit RGBA, colour type 6), one IDAT chunk holding the
/// zlib stream of the filtered rows, and IEND; every chunk ends with the
/// CRC-32 of its type and data. Deflate and CRC-32 come from the system zlib.
public enum PNGWriter {
    /// The eight bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The PNG encoding of `raster`.
    /// - Parameters:
    ///   - raster: the picture, written as 8-bit RGBA (colour type 6).
    ///   - level: zlib's compression level, 0…9; 6 is zlib's default,
    ///     1 is several times faster for a few per cent more bytes.
    public static func encode(_ raster: Raster, level: Int32 = 6) -> [UInt8] {
        var png = signature
        png.reserveCapacity(raster.pixels.count / 8 + 128)
        var header: [UInt8] = []
        appendBigEndian(UInt32(raster.width), to: &header)
        appendBigEndian(UInt32(raster.height), to: &header)
        // Bit depth 8, colour type 6 (RGBA), deflate, adaptive filtering, no interlace.
        header += [8, 6, 0, 0, 0]
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", compress(filtered(raster), level: level), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// Each row with its filter byte. Filter 1 (Sub, each byte minus the
    /// same channel of the pixel to its left) turns a row of one colour into
    /// zeros, which is what terminal pictures mostly are.
    static func filtered(_ raster: Raster) -> [UInt8] {
        let stride = raster.width * 4
        var data = [UInt8](repeating: 0, count: (stride + 1) * raster.height)
        raster.pixels.withUnsafeBufferPointer { pixels in
            data.withUnsafeMutableBufferPointer { out in
                for row in 0..<raster.height {
                    let source = row * stride
                    let target = row * (stride + 1)
                    out[target] = 1
                    for index in 0..<min(4, stride) { out[target + 1 + index] = pixels[source + index] }
                    var index = 4
                    while index < stride {
                        out[target + 1 + index] = pixels[source + index] &- pixels[source + index - 4]
                        index += 1
                    }
                }
            }
        }
        return data
    }

    static func compress(_ data: [UInt8], level: Int32) -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(size))
        let status = output.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &size, input.baseAddress, uLong(input.count), level)
            }
        }
        precondition(status == Z_OK, "zlib compress2 failed with \(status)")
        output.removeSubrange(Int(size)...)
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
