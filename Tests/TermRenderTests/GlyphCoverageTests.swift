import Foundation
import TermCore
import TestSupport
import Testing

@testable import TermRender

/// GNU Unifont's own glyphs, read from the .hex file Debian's `unifont`
/// package installs (or `$TERMENGINE_UNIFONT_HEX`): the reference the
/// thumbnails' pixels are checked against, independent of the generated
/// table the renderer draws from. A missing file skips the tests that need
/// it (the runner reports them as skipped, never passed), except under
/// `CI=true`, where scripts/setup.sh has installed it and they fail.
enum UnifontHex {
    static let path =
        ProcessInfo.processInfo.environment["TERMENGINE_UNIFONT_HEX"].flatMap { $0.isEmpty ? nil : $0 }
        ?? "/usr/share/unifont/unifont.hex"
    static let isPresent = FileManager.default.fileExists(atPath: path)
    static let isRequired = ProcessInfo.processInfo.environment["CI"] == "true"
    static let available = ConditionTrait.enabled(
        if: isPresent || isRequired,
        Comment(rawValue: "GNU Unifont not found at \(path) (apt-get install unifont; under CI=true this fails)"))

    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// Code point → the glyph's bytes (16 for 8×16, 32 for 16×16).
    static let glyphs: [UInt32: [UInt8]] = {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var glyphs: [UInt32: [UInt8]] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":")
            guard parts.count == 2, let point = UInt32(parts[0], radix: 16) else { continue }
            let digits = Array(parts[1].utf8)
            glyphs[point] = stride(from: 0, to: digits.count - 1, by: 2).compactMap {
                UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)
            }
        }
        return glyphs
    }()

    /// The glyph of `point` as rows of pixels (true = ink).
    static func mask(_ point: UInt32) throws -> [[Bool]] {
        guard isPresent else { throw Missing(description: "\(path) is missing; CI=true requires it") }
        guard let bytes = glyphs[point] else {
            throw Missing(description: "U+\(String(point, radix: 16, uppercase: true)) is not in \(path)")
        }
        let rowBytes = bytes.count / 16
        return (0..<16).map { row in
            (0..<(rowBytes * 8)).map { bit in bytes[row * rowBytes + bit / 8] & (0x80 >> UInt8(bit % 8)) != 0 }
        }
    }
}

/// The ink of a `width`×16 area at (x, y): pixels in `ink`'s colour.
func inkMask(_ raster: Raster, x: Int, y: Int, width: Int, ink: RGB) -> [[Bool]] {
    (0..<16).map { row in (0..<width).map { raster.color(x: x + $0, y: y + row) == ink } }
}

func union(_ a: [[Bool]], _ b: [[Bool]]) -> [[Bool]] {
    zip(a, b).map { zip($0, $1).map { $0 || $1 } }
}

/// Rows of a mask as text, for failure messages.
func picture(_ mask: [[Bool]]) -> String {
    mask.map { String($0.map { $0 ? "#" : "." }) }.joined(separator: "\n")
}

@Suite("Thumbnail glyph coverage", UnifontHex.available)
struct GlyphCoverageTests {
    let foreground = Palette.xterm.defaultForeground

    /// A screen of `text` on one row with the cursor hidden.
    func raster(_ text: String, columns: Int = 8) -> (Raster, Snapshot) {
        let snapshot = terminal(columns, 1, "\(CSI)?25l" + text).snapshot()
        return (ThumbnailRenderer.raster(snapshot), snapshot)
    }

    @Test("a CJK character (中 U+4E2D) is Unifont's 16×16 glyph over its two cells")
    func cjkCharacter() throws {
        let expected = try UnifontHex.mask(0x4E2D)
        let (raster, snapshot) = raster("中")
        #expect(snapshot.line(0).cell(0).width == .wide)
        let drawn = inkMask(raster, x: 0, y: 0, width: 16, ink: foreground)
        #expect(drawn == expected, "drawn:\n\(picture(drawn))\nUnifont:\n\(picture(expected))")
    }

    @Test("a wide emoji (☕ U+2615) is Unifont's 16×16 glyph over its two cells")
    func wideEmoji() throws {
        let expected = try UnifontHex.mask(0x2615)
        let (raster, snapshot) = raster("a☕b")
        #expect(snapshot.line(0).cell(1).width == .wide)
        let drawn = inkMask(raster, x: 8, y: 0, width: 16, ink: foreground)
        #expect(drawn == expected, "drawn:\n\(picture(drawn))\nUnifont:\n\(picture(expected))")
        #expect(expected[0].count == 16, "Unifont draws U+2615 16 pixels wide")
    }

    @Test("a combining acute over Cyrillic а is both Unifont glyphs in the base's cell")
    func combiningMarkOverUnifontBase() throws {
        let expected = union(try UnifontHex.mask(0x0430), try UnifontHex.mask(0x0301))
        let (raster, _) = raster("а\u{0301}x")
        let drawn = inkMask(raster, x: 0, y: 0, width: 8, ink: foreground)
        #expect(drawn == expected, "drawn:\n\(picture(drawn))\nexpected:\n\(picture(expected))")
    }

    @Test("a combining acute after a Latin e is drawn over the e, which keeps its own pixels")
    func combiningMarkOverPrimaryBase() throws {
        let mark = try UnifontHex.mask(0x0301)
        let plain = inkMask(raster("e").0, x: 0, y: 0, width: 8, ink: foreground)
        let drawn = inkMask(raster("e\u{0301}").0, x: 0, y: 0, width: 8, ink: foreground)
        #expect(mark.joined().contains(true))
        #expect(drawn == union(plain, mark), "drawn:\n\(picture(drawn))\nplain e:\n\(picture(plain))")
    }

    @Test("box drawing ┼ is Unifont's glyph, and its lines join the neighbouring cells' and rows'")
    func boxDrawing() throws {
        let expected = try UnifontHex.mask(0x253C)
        let snapshot = terminal(3, 3, "\(CSI)?25l┌┬┐\r\n├┼┤\r\n└┴┘").snapshot()
        let raster = ThumbnailRenderer.raster(snapshot)
        let drawn = inkMask(raster, x: 8, y: 16, width: 8, ink: foreground)
        #expect(drawn == expected, "drawn:\n\(picture(drawn))\nUnifont:\n\(picture(expected))")
        // Unifont's ─ and │ give the row and column the lines run along:
        // from ├'s stem to ┤'s, and from ┬'s arm to ┴'s, with no gap.
        let horizontal = try #require(try UnifontHex.mask(0x2500).firstIndex { $0.contains(true) })
        let vertical = try #require(try UnifontHex.mask(0x2502)[0].firstIndex(of: true))
        let across = (vertical)...(16 + vertical)
        let down = (horizontal)...(32 + horizontal)
        #expect(across.allSatisfy { raster.color(x: $0, y: 16 + horizontal) == foreground }, "─ broken across cells")
        #expect(down.allSatisfy { raster.color(x: 8 + vertical, y: $0) == foreground }, "│ broken across rows")
        // And nothing beyond the outer stems: the frame's corners are corners.
        #expect(raster.color(x: vertical - 1, y: 16 + horizontal) != foreground)
    }

    @Test("a private-use code point no font has (U+E0B0) is U+FFFD's glyph, not a box")
    func replacementGlyph() throws {
        let expected = try UnifontHex.mask(0xFFFD)
        #expect(UnifontHex.glyphs[0xE0B0] == nil, "the test needs a code point Unifont lacks")
        let drawn = inkMask(raster("\u{E0B0}").0, x: 0, y: 0, width: 8, ink: foreground)
        #expect(drawn == expected, "drawn:\n\(picture(drawn))\nU+FFFD:\n\(picture(expected))")
        let box = inkMask(raster("□").0, x: 0, y: 0, width: 8, ink: foreground)
        #expect(drawn != box)
        #expect(drawn.joined().contains(true))
    }

    @Test("a wide character no font has is U+FFFD's glyph in the middle of its two cells")
    func wideReplacementGlyph() throws {
        let expected = try UnifontHex.mask(0xFFFD)
        // U+2A6D6, a CJK Extension B ideograph: wide, outside the BMP that
        // unifont.hex covers, and not in unifont_upper either (Unifont
        // leaves the ideographs of plane 2 to other fonts).
        #expect(UnifontHex.glyphs[0x2A6D6] == nil, "the test needs a code point Unifont lacks")
        #expect(Unifont.glyph(0x2A6D6, in: Unifont.font) == nil, "the test needs a code point no font has")
        let (raster, snapshot) = raster("\u{2A6D6}")
        #expect(snapshot.line(0).cell(0).width == .wide)
        let drawn = inkMask(raster, x: 0, y: 0, width: 16, ink: foreground)
        let centred = expected.map { [Bool](repeating: false, count: 4) + $0 + [Bool](repeating: false, count: 4) }
        #expect(drawn == centred, "drawn:\n\(picture(drawn))")
    }
}

@Suite("Thumbnails of recorded sessions", UnifontHex.available)
struct RecordedThumbnailTests {
    /// The recording's screen as tmux drew it (`<name>.tmux.json`).
    struct TmuxScreen: Decodable {
        var columns: Int
        var lines: Int
        var screen: [String]
    }

    /// The expected ink of a narrow cell holding `point`: the primary font's
    /// rows 3 below the cell's top for what it has (its committed table,
    /// generated from Uni2-Fixed13), else Unifont's own glyph.
    func expectedMask(_ point: UInt32) throws -> [[Bool]] {
        if point == 0x20 { return [[Bool]](repeating: [Bool](repeating: false, count: 8), count: 16) }
        if !(0x2500...0x259F).contains(point), let start = BitmapFont.glyph(point) {
            return (0..<16).map { row in
                let fontRow = row - 3
                guard fontRow >= 0 && fontRow < BitmapFont.glyphHeight else {
                    return [Bool](repeating: false, count: 8)
                }
                let bits = BitmapFont.glyphRows[start + fontRow]
                return (0..<8).map { bits & (0x80 >> UInt8($0)) != 0 }
            }
        }
        return try UnifontHex.mask(point)
    }

    @Test(
        "the htop and vim recordings' thumbnails show every cell of their tmux screens",
        arguments: ["htop_live", "vim_live"])
    func recordingMatchesItsScreen(name: String) throws {
        let directory = packageRoot.appendingPathComponent("Corpus/recordings")
        let bytes = try Data(contentsOf: directory.appendingPathComponent("\(name).bin"))
        let screen = try JSONDecoder().decode(
            TmuxScreen.self, from: Data(contentsOf: directory.appendingPathComponent("\(name).tmux.json")))
        let terminal = Terminal(columns: screen.columns, rows: screen.lines, scrollback: 0)
        terminal.feed([UInt8](bytes))
        let snapshot = terminal.snapshot()
        let raster = ThumbnailRenderer.raster(snapshot)
        #expect(raster.width == screen.columns * 8 && raster.height == screen.lines * 16)
        var mismatches: [String] = []
        for (row, text) in screen.screen.enumerated() {
            let scalars = Array(text.unicodeScalars)
            for column in 0..<screen.columns {
                // Every character of these two screens is one column wide.
                let point = column < scalars.count ? scalars[column].value : 0x20
                if snapshot.cursor.isVisible && snapshot.cursor.position == ScreenPosition(row: row, column: column) {
                    continue  // the cursor's block swaps the colours
                }
                let x = column * 8
                let y = row * 16
                let content = snapshot.line(row).cell(column)
                let colors = snapshot.colors(of: content.style)
                // Ink in the background's colour is no ink (htop draws its
                // tab brackets so).
                let invisible = colors.foreground == colors.background
                let expected = try expectedMask(invisible ? 0x20 : point)
                // The background is the colour of a pixel the glyph leaves blank.
                let blank = try #require(
                    (0..<128).first { !expected[$0 / 8][$0 % 8] }, "U+\(String(point, radix: 16)) fills its cell")
                let background = raster.color(x: x + blank % 8, y: y + blank / 8)
                var drawn = (0..<16).map { line in (0..<8).map { raster.color(x: x + $0, y: y + line) != background } }
                if content.style.underline != .none {
                    drawn[14] = expected[14]  // the underline's row
                }
                if drawn != expected {
                    mismatches.append("row \(row) column \(column) U+\(String(point, radix: 16)):\n\(picture(drawn))")
                }
            }
        }
        let differing = mismatches.count
        #expect(differing == 0, "cells differ; the first:\n\(mismatches.prefix(3).joined(separator: "\n"))")
    }

    @Test("the htop thumbnail's PNG decodes, with an independent decoder, to the raster's every pixel")
    func recordingPNGDecodes() throws {
        let bytes = try Data(contentsOf: packageRoot.appendingPathComponent("Corpus/recordings/htop_live.bin"))
        let terminal = Terminal(columns: 80, rows: 24, scrollback: 0)
        terminal.feed([UInt8](bytes))
        try expectDecodesToRaster(terminal.snapshot(), colorType: 3)
    }
}

/// Decodes `snapshot`'s PNG with Python and compares every pixel with the
/// raster; `colorType` is what the IHDR must say (byte 25 of the file).
func expectDecodesToRaster(_ snapshot: Snapshot, colorType: UInt8, bitDepth: UInt8? = nil) throws {
    let png = ThumbnailRenderer.png(snapshot)
    #expect(png[25] == colorType, "colour type")
    if let bitDepth { #expect(png[24] == bitDepth, "bit depth") }
    let raster = ThumbnailRenderer.raster(snapshot)
    let decoded = try #require(try decodeWithPython(png, pixels: [], all: true), "python3 is required")
    #expect(decoded.first == "\(raster.width) \(raster.height)")
    let rows = decoded.dropFirst()
    #expect(rows.count == raster.height)
    for (y, line) in rows.enumerated() {
        let expected = (0..<raster.width).map { hex(raster.color(x: $0, y: y)) }.joined()
        if line != expected {
            Issue.record("row \(y) differs")
            return
        }
    }
}

@Suite("Thumbnail PNG encodings")
struct PNGEncodingTests {
    @Test("a screen of two colours is a 1-bit indexed PNG that decodes to the raster")
    func twoColors() throws {
        try expectDecodesToRaster(terminal(9, 2, "\(CSI)?25lhello\r\nworld").snapshot(), colorType: 3, bitDepth: 1)
    }

    @Test("a screen of at most 16 colours is a 4-bit indexed PNG that decodes to the raster")
    func sixteenColors() throws {
        let text = (0..<7).map { "\(CSI)3\($0)m\(CSI)4\(7 - $0)mab" }.joined()
        try expectDecodesToRaster(terminal(15, 2, "\(CSI)?25l" + text).snapshot(), colorType: 3, bitDepth: 4)
    }

    @Test("a screen of more than 256 colours is an RGB PNG that decodes to the raster")
    func manyColors() throws {
        // 300 cells with a truecolor background each, all different.
        let text = (0..<300).map { "\(CSI)48;2;\($0 % 256);\($0 / 256 * 80);7m " }.joined()
        try expectDecodesToRaster(terminal(30, 10, "\(CSI)?25l" + text).snapshot(), colorType: 2, bitDepth: 8)
    }
}

/// GNU Unifont's upper planes as FreeType draws them from Debian's
/// `fonts-unifont` (unifont_upper.otf) through Pillow: a rasteriser that
/// shares nothing with scripts/make_unifont.py's reading of the outlines.
enum UnifontUpper {
    static let path = "/usr/share/fonts/opentype/unifont/unifont_upper.otf"
    static let script = """
        import sys
        from PIL import Image, ImageDraw, ImageFont
        font = ImageFont.truetype(sys.argv[1], 16)
        for point in sys.argv[2:]:
            picture = Image.new('1', (16, 16), 0)
            draw = ImageDraw.Draw(picture)
            draw.fontmode = '1'
            # Anchor 'la': the font's ascender (14 px above the baseline) at the top, as in a cell.
            draw.text((0, 0), chr(int(point, 16)), font=font, fill=1, anchor='la')
            for y in range(16):
                print(''.join('#' if picture.getpixel((x, y)) else '.' for x in range(16)))
        """
    static let isPresent: Bool = {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        let result = try? ChildProcess.run("python3", ["-c", "import PIL"])
        return result?.status == 0
    }()
    static let available = ConditionTrait.enabled(
        if: isPresent || UnifontHex.isRequired,
        Comment(
            rawValue: "\(path) or Pillow not found (apt-get install fonts-unifont; pip install pillow; "
                + "under CI=true this fails)"))

    /// 16 rows of 16 pixels of `point` as FreeType draws it.
    static func mask(_ point: UInt32) throws -> [[Bool]] {
        let directory = FileManager.default.temporaryDirectory
        let file = directory.appendingPathComponent("unifont-upper-\(UUID().uuidString).py")
        try Data(script.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ChildProcess.run("python3", [file.path, path, String(point, radix: 16)])
        guard result.status == 0 else {
            throw UnifontHex.Missing(
                description: "Pillow could not draw \(path): \(String(decoding: result.errors, as: UTF8.self))")
        }
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n")
        return lines.map { $0.map { $0 == "#" } }
    }
}

@Suite("Thumbnail emoji beyond the BMP", UnifontUpper.available)
struct UpperPlaneGlyphTests {
    @Test("an emoji outside the BMP (😀 U+1F600) is Unifont's 16×16 glyph over its two cells")
    func smpEmoji() throws {
        let expected = try UnifontUpper.mask(0x1F600)
        let snapshot = terminal(4, 1, "\(CSI)?25l😀").snapshot()
        #expect(snapshot.line(0).cell(0).width == .wide)
        let raster = ThumbnailRenderer.raster(snapshot)
        let drawn = inkMask(raster, x: 0, y: 0, width: 16, ink: Palette.xterm.defaultForeground)
        #expect(drawn == expected, "drawn:\n\(picture(drawn))\nFreeType:\n\(picture(expected))")
        #expect(expected.joined().contains(true))
    }
}
