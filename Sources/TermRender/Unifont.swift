import CZlib

/// The thumbnails' fallback font: GNU Unifont, 8×16 narrow and 16×16 wide
/// glyphs for every code point of the Basic Multilingual Plane it draws
/// (57,086 in Unifont 15.0.01, CJK and Hangul included), generated into
/// `Unifont+Data.swift` by `scripts/make_unifont.py`.
///
/// The data is a zlib stream in a base64 string literal (a string literal
/// compiles in about a second where an array literal of the same size takes
/// minutes), inflated once, on the first look-up: about 1.7 MB of glyphs and
/// a 256 KB index, held for the life of the process.
enum Unifont {
    /// Pixel rows of every glyph.
    static let height = 16

    /// A glyph: where its rows start in `Font.bitmaps`, and its shape.
    struct Glyph: Equatable {
        /// Byte offset of the first row in `bitmaps`.
        var offset: Int
        /// 16 pixels wide (two bytes a row) rather than 8.
        var isWide: Bool
        /// Drawn over the previous character (Unifont's combining list).
        var isCombining: Bool
    }

    /// The inflated font: the glyph rows and an index by code point.
    struct Font: Sendable {
        var bitmaps: [UInt8] = []
        /// One entry per BMP code point: 0 for none, else
        /// `(offset / 16 + 1) << 2 | flags` (1 wide, 2 combining).
        var plane0 = [UInt32](repeating: 0, count: 0x1_0000)
        /// Code points above U+FFFF, ascending, with entries as in `plane0`
        /// (empty unless the generator was given an upper-plane .hex file).
        var upperPoints: [UInt32] = []
        var upperEntries: [UInt32] = []
    }

    /// Inflated on first use; `static let` makes that once and thread-safe.
    static let font: Font = inflate()

    /// The glyph of `point`, or nil when Unifont has none.
    @inline(__always)
    static func glyph(_ point: UInt32, in font: Font) -> Glyph? {
        let entry: UInt32
        if point < 0x1_0000 {
            entry = font.plane0[Int(point)]
        } else {
            guard let position = binarySearch(font.upperPoints, point) else { return nil }
            entry = font.upperEntries[position]
        }
        guard entry != 0 else { return nil }
        return Glyph(offset: Int((entry >> 2) - 1) * 16, isWide: entry & 1 != 0, isCombining: entry & 2 != 0)
    }

    static func binarySearch(_ points: [UInt32], _ point: UInt32) -> Int? {
        var low = 0
        var high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle] < point { low = middle + 1 } else { high = middle }
        }
        return low < points.count && points[low] == point ? low : nil
    }

    /// Decodes the base64 text, inflates it and indexes the runs (the
    /// layout is described in `scripts/make_unifont.py`). The data is
    /// generated, so a malformed stream is a build error: it traps.
    static func inflate() -> Font {
        let compressed = packed.withUTF8Buffer { decodeBase64($0) }
        var inflated = [UInt8](repeating: 0, count: inflatedSize)
        var length = uLongf(inflatedSize)
        let status = inflated.withUnsafeMutableBufferPointer { out in
            compressed.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &length, input.baseAddress, uLong(input.count))
            }
        }
        precondition(status == Z_OK && Int(length) == inflatedSize, "Unifont data is damaged (zlib \(status))")
        var font = Font()
        func integer(_ at: Int, _ bytes: Int) -> Int {
            (0..<bytes).reduce(0) { $0 | Int(inflated[at + $1]) << (8 * $1) }
        }
        let runCount = integer(0, 4)
        let glyphStart = 4 + runCount * 6
        var offset = 0
        for run in 0..<runCount {
            let at = 4 + run * 6
            let first = UInt32(integer(at, 3))
            let flags = UInt32(inflated[at + 3])
            let length = integer(at + 4, 2)
            for step in 0..<length {
                let entry = UInt32(offset / 16 + 1) << 2 | flags
                let point = first + UInt32(step)
                if point < 0x1_0000 {
                    font.plane0[Int(point)] = entry
                } else {
                    font.upperPoints.append(point)
                    font.upperEntries.append(entry)
                }
                offset += flags & 1 != 0 ? 32 : 16
            }
        }
        precondition(glyphStart + offset == inflatedSize, "Unifont runs do not match the glyph data")
        font.bitmaps = Array(inflated[glyphStart...])
        return font
    }

    /// Standard base64 (RFC 4648 §4); anything outside the alphabet, such as
    /// padding, is skipped.
    static func decodeBase64(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            let value: UInt32
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(character - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(character - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(character - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            default: continue
            }
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }
}
