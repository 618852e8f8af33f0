import Foundation
import TermCore
import TermRender
import TestSupport
import Testing

/// An independent PNG decoder: Python's zlib and struct, checking the
/// signature and every chunk's CRC, reading colour types 2 (RGB), 3
/// (palette, 1/2/4/8 bits) and 6 (RGBA), undoing all five filter types.
/// Prints "width height", then the RGBA hex of each "x,y" argument, or with
/// the argument "all" every row as one line of RGBA hex.
let pythonPNGDecoder = """
    import struct, sys, zlib
    data = open(sys.argv[1], 'rb').read()
    assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'signature'
    pos, idat, width, palette = 8, b'', None, None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc, = struct.unpack('>I', data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) & 0xffffffff == crc, 'crc of ' + kind.decode()
        if kind == b'IHDR':
            width, height, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert (ctype, depth) in [(2, 8), (6, 8), (3, 1), (3, 2), (3, 4), (3, 8)], 'type %d depth %d' % (ctype, depth)
        elif kind == b'PLTE':
            palette = [tuple(body[i:i + 3]) + (255,) for i in range(0, len(body), 3)]
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    channels = {2: 3, 3: 1, 6: 4}[ctype]
    bpp = max(1, channels * depth // 8)
    stride = (width * channels * depth + 7) // 8
    raw, rows, prev = zlib.decompress(idat), [], bytearray(stride)
    assert len(raw) == height * (stride + 1), 'IDAT length'
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        assert f <= 4, 'filter type'
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if ctype == 3:
            per = 8 // depth
            indices = [(line[x // per] >> (8 - depth * (x % per + 1))) & ((1 << depth) - 1) for x in range(width)]
            rows.append([palette[i] for i in indices])
        elif ctype == 2:
            rows.append([tuple(line[x * 3:x * 3 + 3]) + (255,) for x in range(width)])
        else:
            rows.append([tuple(line[x * 4:x * 4 + 4]) for x in range(width)])
    print(width, height)
    for arg in sys.argv[2:]:
        if arg == 'all':
            for row in rows:
                print(''.join('%02x%02x%02x%02x' % p for p in row))
            continue
        x, y = map(int, arg.split(','))
        print('%02x%02x%02x%02x' % rows[y][x])
    """

/// Decodes `png` with Python and returns "width height" and the RGBA hex of
/// each pixel asked for (with `all`, then every row as a line), or nil when
/// python3 is missing.
func decodeWithPython(_ png: [UInt8], pixels: [(Int, Int)], all: Bool = false) throws -> [String]? {
    let directory = FileManager.default.temporaryDirectory
    let file = directory.appendingPathComponent("thumbnail-\(UUID().uuidString).png")
    let script = directory.appendingPathComponent("decode-png-\(UUID().uuidString).py")
    try Data(png).write(to: file)
    try Data(pythonPNGDecoder.utf8).write(to: script)
    defer {
        try? FileManager.default.removeItem(at: file)
        try? FileManager.default.removeItem(at: script)
    }
    guard
        let result = try? ChildProcess.run(
            "python3", [script.path, file.path] + pixels.map { "\($0.0),\($0.1)" } + (all ? ["all"] : []))
    else { return nil }
    guard result.status == 0, !result.crashed else { return ["decoder failed with status \(result.status)"] }
    let output = result.output
    return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
}

func hex(_ color: RGB) -> String {
    [color.red, color.green, color.blue, 255].map { byte in
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }.joined()
}

@Suite("Thumbnails")
struct ThumbnailTests {
    let palette = Palette.xterm

    @Test("Independent decoder reads known cells") func independentDecoderReadsKnownCells() throws {
        // Row 0: red background 'A', inverse 'B', truecolor background, a 256-colour cube cell.
        let t = terminal(
            6, 3,
            "\(CSI)41m \(CSI)0;7mB\(CSI)0;48;2;10;20;30m \(CSI)0;48;5;196m \(CSI)0m\r\n\(CSI)2mx\(CSI)0m\(CSI)3;3H")
        let png = ThumbnailRenderer.png(t.snapshot())
        // Cell (0,0) is 8×16 pixels at 0,0; sample each cell's top-left
        // pixel (always background: glyphs leave row 0 and column 0 blank).
        let samples = [(0, 0), (8, 0), (16, 0), (24, 0), (16 + 4, 32 + 6), (40, 46)]
        let decoded = try #require(try decodeWithPython(png, pixels: samples))
        #expect(decoded.first == "48 48")
        #expect(decoded[1] == hex(palette.colors[1]))  // SGR 41
        #expect(decoded[2] == hex(palette.defaultForeground))  // inverse: background is the foreground
        #expect(decoded[3] == hex(RGB(10, 20, 30)))  // truecolor
        #expect(decoded[4] == hex(RGB(255, 0, 0)))  // cube entry 196
        #expect(decoded[5] == hex(palette.cursor))  // block cursor at row 2, column 2
        #expect(decoded[6] == hex(palette.defaultBackground))
    }

    @Test("Glyph pixels use the foreground") func glyphPixelsUseTheForeground() {
        let t = terminal(2, 1, "\(CSI)32m█")
        let raster = ThumbnailRenderer.raster(t.snapshot())
        // A full block covers the whole cell in the foreground.
        #expect(raster.color(x: 0, y: 0) == palette.colors[2])
        #expect(raster.color(x: 7, y: 15) == palette.colors[2])
    }

    @Test("Dim halves the way to the background") func dimHalvesTheWayToTheBackground() {
        let foreground = palette.colors(of: Style(foreground: .rgb(200, 100, 0), flags: .dim)).foreground
        #expect(foreground == RGB(100, 50, 0))
    }

    @Test("Minimap is 2×4 pixels a cell") func minimapIsTwoByFourPixelsACell() throws {
        let t = terminal(80, 24, "\(CSI)?25l\(CSI)44mX")
        let png = ThumbnailRenderer.png(t.snapshot(), size: .minimap)
        let decoded = try #require(try decodeWithPython(png, pixels: [(0, 0), (0, 1), (2, 1)]))
        #expect(
            decoded == [
                "160 96", hex(palette.colors[4]), hex(palette.defaultForeground), hex(palette.defaultBackground),
            ])
    }
}
