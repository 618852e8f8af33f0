#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gamut compression as Xlib's default colour conversion context does it:
/// `XcmsTekHVCClipC` (libX11 sets `XCMSCOMPPROC` to it), which keeps a
/// colour's TekHVC hue and value and lowers its chroma to the most the
/// screen can show (`XcmsTekHVCQueryMaxC`). Xlib manual chapter 6, "Gamut
/// Compression Procedures" and "TekHVC Queries", describe both; the steps
/// below are the ones Xlib takes, since a colour placed on the gamut's edge
/// has a channel at zero within rounding and the reply depends on which side
/// of zero it lands (esctest2 `CIExyY:0.5/0.5/0.5` → `f7f7/b3b3/0e0e`).
enum XcmsGamut {
    /// How close a value must come to the one wanted (TekHVC value units).
    static let tolerance = 0.001

    /// The colour with `color`'s TekHVC hue and value and the largest chroma
    /// the screen shows; nil where Xcms fails.
    static func clipChroma(_ color: CIEXYZ) -> CIEXYZ? {
        guard let hvc = XcmsColorSpaces.tekHVC(color), let clipped = maximumChroma(hue: hvc.hue, value: hvc.value)
        else { return nil }
        return XcmsColorSpaces.xyz(clipped)
    }

    /// Xlib's `_XcmsTekHVC_CheckModify`: values outside the range pulled in,
    /// the hue brought into 0–360 by whole turns.
    static func settled(_ color: TekHVC) -> TekHVC {
        var color = color
        let slack = XcmsColorSpaces.slack
        if color.value < 0 { color.value = slack } else if color.value > 100 { color.value = 100 - slack }
        if color.chroma < 0 { color.chroma = -slack }
        if abs(color.hue) > Limits.xcmsAngleTurnedByTurns { color.hue = fmod(color.hue, 360) }
        if color.hue < 0 {
            color.hue += (Double(Int(-color.hue / 360)) + 1) * 360
            if color.hue >= 360 { color.hue -= 360 }
        } else if color.hue >= 360 {
            color.hue -= Double(Int(color.hue / 360)) * 360
        }
        return color
    }

    /// The TekHVC colour of RGB intensities.
    static func tekHVC(_ intensity: RGBIntensity) -> TekHVC? {
        XcmsColorSpaces.tekHVC(XcmsScreen.xyz(of: intensity))
    }

    /// The colour of greatest chroma for a hue (`_XcmsTekHVCQueryMaxVCRGB`):
    /// an unreachable colour of that hue (value 40, chroma 120) taken to RGB
    /// intensities without clipping, less its smallest channel, over its
    /// largest. Returns the colour (with the hue asked for) and its
    /// intensities.
    static func maximumValueAndChroma(hue: Double) -> (color: TekHVC, intensity: RGBIntensity)? {
        guard let start = XcmsColorSpaces.xyz(TekHVC(hue: hue, value: 40, chroma: 120)) else { return nil }
        var rgb = XcmsScreen.intensity(of: start)
        // Xcms clamps intensities only when they are inside the gamut.
        if XcmsScreen.inGamut(rgb) { rgb = XcmsScreen.clamped(rgb) }
        let smallest = min(rgb.red, rgb.green, rgb.blue)
        rgb.red -= smallest
        rgb.green -= smallest
        rgb.blue -= smallest
        let largest = max(rgb.red, rgb.green, rgb.blue)
        rgb.red /= largest
        rgb.green /= largest
        rgb.blue /= largest
        guard var color = tekHVC(rgb) else { return nil }
        color.hue = hue
        return (color, rgb)
    }

    /// `XcmsTekHVCQueryMaxC`: the colour of greatest chroma with this hue and
    /// value. At or below the value of the hue's most saturated colour the
    /// answer is on the line from black to that colour; above it, a search
    /// along the line from that colour to white for the point of that value,
    /// halving its steps when it overshoots or stalls.
    static func maximumChroma(hue: Double, value: Double) -> TekHVC? {
        let start = settled(TekHVC(hue: hue, value: value, chroma: 100))
        guard let (peak, peakRGB) = maximumValueAndChroma(hue: hue) else { return nil }
        if value <= peak.value {
            var color = start
            color.chroma = value * peak.chroma / peak.value
            return settled(color)
        }
        var current = start
        var wanted = value
        var lastValue = -1.0
        var lastChroma = -1.0
        var previousValue: Double
        let distance = 100 - peak.value
        var factor = 1.0
        for _ in 0..<Limits.xcmsGamutRounds {
            previousValue = lastValue
            lastValue = current.value
            lastChroma = current.chroma
            let t = (wanted - peak.value) / distance * factor
            let rgb = RGBIntensity(
                red: peakRGB.red * (1 - t) + t, green: peakRGB.green * (1 - t) + t, blue: peakRGB.blue * (1 - t) + t)
            guard let found = tekHVC(rgb) else { return nil }
            current = found
            if current.value <= value + tolerance && current.value >= value - tolerance {
                current.hue = hue
                return settled(current)
            }
            wanted += value - current.value
            if wanted < peak.value {
                wanted = peak.value
                factor *= 0.5
            } else if wanted > 100 {
                current.hue = hue
                if abs(lastValue - value) < abs(current.value - value) {
                    current.value = lastValue
                    current.chroma = lastChroma
                }
                return settled(current)
            } else if current.value <= previousValue + tolerance && current.value >= previousValue - tolerance {
                factor *= 0.5
            }
        }
        // Out of rounds: the nearer of the last two, unsettled.
        if abs(lastValue - value) < abs(current.value - value) {
            current.value = lastValue
            current.chroma = lastChroma
        }
        current.hue = hue
        return current
    }
}
