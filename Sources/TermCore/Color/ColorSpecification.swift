#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The colour specifications xterm takes in OSC 4, 5 and 10–12: the numeric
/// forms of Xlib's `XParseColor` (X11 "Color Specification Strings"; Xlib
/// manual chapter 6), turned into the colour an 8-bit TrueColor X screen
/// shows, which is what xterm reports back.
///
/// - `#rgb`, `#rrggbb`, `#rrrgggbbb`, `#rrrrggggbbbb`: the digits are the
///   high bits of each 16-bit channel (`#fff` is `f0f0`, not `ffff`).
/// - `rgb:r/g/b`, 1–4 hex digits a channel, scaled to 16 bits (`rgb:f/8/0`
///   is `ffff/8888/0000`).
/// - `rgbi:`, `ciexyz:`, `cieuvy:`, `ciexyy:`, `cielab:`, `cieluv:` and
///   `tekhvc:` with three floating-point numbers: converted through Xcms
///   (``XcmsColorSpaces``, ``XcmsGamut``, ``XcmsScreen``).
///
/// The whole specification is case-insensitive (Xlib lowercases it first).
/// On a 24-bit TrueColor visual xterm keeps the top 8 bits of each 16-bit
/// channel (its `AllocOneColor` shifts the channel right by 16 − 8, a
/// truncation, not a rounding: `rgb:7fff/…` is `7f7f`) and reports a colour
/// as that byte twice (`QueryOneColor`), so a colour is kept as ``RGB``.
/// Colour names (`red`, `AliceBlue`: the X server's database) are not known
/// here: such a specification fails, as any invalid one, and leaves the
/// colour as it was.
enum ColorSpecification {
    /// The colour a specification names, or nil when XParseColor would fail.
    static func parse(_ spec: Substring) -> RGB? {
        let lowered = String(spec).lowercased()
        if lowered.hasPrefix("#") { return hashForm(lowered.dropFirst()) }
        guard let colon = lowered.firstIndex(of: ":") else { return nil }
        let prefix = lowered[..<colon]
        let body = lowered[lowered.index(after: colon)...]
        if prefix == "rgb" { return rgbForm(body) }
        guard let (first, second, third) = numbers(body) else { return nil }
        switch prefix {
        case "rgbi":
            // Device intensities: no conversion, no gamut check.
            return XcmsScreen.device(RGBIntensity(red: first, green: second, blue: third))
        case "ciexyz":
            guard XcmsColorSpaces.luminanceIsValid(second) else { return nil }
            return XcmsColorSpaces.device(CIEXYZ(x: first, y: second, z: third))
        case "cieuvy": return XcmsColorSpaces.xyz(u: first, v: second, luminance: third).flatMap(device)
        case "ciexyy": return XcmsColorSpaces.xyz(x: first, y: second, luminance: third).flatMap(device)
        case "cielab": return XcmsColorSpaces.xyz(lightness: first, a: second, b: third).flatMap(device)
        case "cieluv": return XcmsColorSpaces.xyz(lightness: first, u: second, v: third).flatMap(device)
        case "tekhvc":
            // The hue, value and chroma are checked as they are read.
            guard let color = XcmsColorSpaces.validated(TekHVC(hue: first, value: second, chroma: third))
            else { return nil }
            return XcmsColorSpaces.xyz(color).flatMap(device)
        default:
            return nil
        }
    }

    static func device(_ color: CIEXYZ) -> RGB? { XcmsColorSpaces.device(color) }

    /// The top byte of a 16-bit channel: what an 8-bit screen keeps.
    static func screenByte(_ value: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> 8) }

    /// `#` and 3, 6, 9 or 12 hex digits: each channel's digits are its high
    /// bits (XParseColor shifts them up rather than scaling them).
    static func hashForm(_ digits: Substring) -> RGB? {
        guard [3, 6, 9, 12].contains(digits.count) else { return nil }
        let width = digits.count / 3
        var channels: [UInt8] = []
        var start = digits.startIndex
        for _ in 0..<3 {
            let end = digits.index(start, offsetBy: width)
            guard let value = hexValue(digits[start..<end]) else { return nil }
            channels.append(screenByte(value << (16 - 4 * width)))
            start = end
        }
        return RGB(channels[0], channels[1], channels[2])
    }

    /// `rgb:` and three channels of 1–4 hex digits split by `/`, each scaled
    /// to 16 bits as `value × 0xFFFF / (16ⁿ − 1)` in integers (Xlib's
    /// `XcmsLRGB_RGB_ParseString`). Anything after the third channel is
    /// ignored, as Xlib stops reading there.
    static func rgbForm(_ body: Substring) -> RGB? {
        let parts = body.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        var channels: [UInt8] = []
        for part in parts.prefix(3) {
            guard (1...4).contains(part.count), let value = hexValue(part) else { return nil }
            let scaled = part.count == 4 ? value : value * 0xFFFF / ((1 << (4 * part.count)) - 1)
            channels.append(screenByte(scaled))
        }
        return RGB(channels[0], channels[1], channels[2])
    }

    /// Hex digits only (no sign or prefix that `Int(_:radix:)` would allow).
    static func hexValue(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit) else { return nil }
        return Int(digits, radix: 16)
    }

    /// Three numbers as `sscanf(body, "%lf/%lf/%lf")` reads them: each as
    /// `strtod` takes it (leading blanks, a sign, an exponent), split by
    /// single `/`, anything after the third ignored. When that fails Xlib
    /// tries again with `.` and `,` swapped (for a locale whose decimal
    /// point is a comma), so `0,5` is read as 0.5 too. Numbers that are not
    /// finite are refused here, where Xlib would go on computing with them.
    static func numbers(_ body: Substring) -> (Double, Double, Double)? {
        if let values = scan(String(body)) { return values }
        let swapped = String(body.map { $0 == "." ? "," : $0 == "," ? "." : $0 })
        return scan(swapped)
    }

    static func scan(_ text: String) -> (Double, Double, Double)? {
        text.withCString { start -> (Double, Double, Double)? in
            var cursor = start
            var values: [Double] = []
            for index in 0..<3 {
                var end: UnsafeMutablePointer<CChar>?
                let value = strtod(cursor, &end)
                guard let end, end != UnsafeMutablePointer(mutating: cursor), value.isFinite else { return nil }
                values.append(value)
                cursor = UnsafePointer(end)
                if index < 2 {
                    guard cursor.pointee == CChar(UInt8(ascii: "/")) else { return nil }
                    cursor += 1
                }
            }
            return (values[0], values[1], values[2])
        }
    }
}
