#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A colour in Tektronix's TekHVC space: hue in degrees, value 0–100 (CIE
/// L*), chroma ≥ 0.
struct TekHVC {
    var hue: Double
    var value: Double
    var chroma: Double
}

/// The device-independent colour spaces of XParseColor (Xlib manual chapter
/// 6, "Color Management Functions"; X11 "Color Specification Strings") and
/// their conversions to CIE XYZ, as Xlib's Xcms computes them.
///
/// Every space is relative to the screen white point (``XcmsScreen/white``):
/// xterm's colour conversion context has no client white point, so Xcms
/// uses the screen's and never adapts one to the other. Where Xlib's formula
/// departs from the CIE one the departure is kept, since the reply must be
/// xterm's: CIE L*a*b* below L* 8 divides by 9.03292 where CIE has 903.3
/// (so `CIELab:1/1/1` is `6c6c/6767/6767`, not almost black), and above it
/// takes a*/5 and b*/2 where CIE has a*/500 and b*/200. Each conversion
/// returns nil where Xcms fails (a value outside its valid range), and
/// XParseColor then fails.
enum XcmsColorSpaces {
    /// The slack of Xcms's range checks (`XMY_DBL_EPSILON`, Xlib's fallback
    /// value where `DBL_EPSILON` is not defined).
    static let slack = 0.00001
    /// u′v′ of "best red", the origin of TekHVC hue.
    static let bestRedU = 0.7127
    static let bestRedV = 0.4931
    /// TekHVC's chroma per unit of u′v′ distance and value.
    static let chromaScale = 7.50725
    /// L* below which CIE lightness is linear in Y.
    static let darkLightness = 7.99953624
    /// Y below which CIE lightness is linear in Y.
    static let darkLuminance = 0.008856

    static func degrees(_ radians: Double) -> Double { radians * 180.0 / Double.pi }
    static func radians(_ degrees: Double) -> Double { degrees * Double.pi / 180.0 }

    /// `angle` brought into [low, high) by whole turns, one at a time as
    /// Xlib's loops do (an angle too large for that is reduced at once).
    static func wrapped(_ angle: Double, from low: Double = 0, below high: Double = 360) -> Double {
        var angle = angle
        if abs(angle) > Limits.xcmsAngleTurnedByTurns { angle = fmod(angle, 360) }
        while angle < low { angle += 360 }
        while angle >= high { angle -= 360 }
        return angle
    }

    // MARK: CIE u′v′Y

    /// u′v′ of the screen white point.
    static let whiteU = 4 * XcmsScreen.white.x / (XcmsScreen.white.x + 15 * XcmsScreen.white.y + 3 * XcmsScreen.white.z)
    static let whiteV = 9 * XcmsScreen.white.y / (XcmsScreen.white.x + 15 * XcmsScreen.white.y + 3 * XcmsScreen.white.z)

    static func luminanceIsValid(_ y: Double) -> Bool { y >= -slack && y <= 1 + slack }

    /// CIE u′v′Y → XYZ; Y must be 0–1.
    static func xyz(u: Double, v: Double, luminance: Double) -> CIEXYZ? {
        guard luminanceIsValid(luminance) else { return nil }
        var divisor = 6 * u - 16 * v + 12
        var (uPrime, vPrime) = (u, v)
        if divisor == 0 {
            (uPrime, vPrime) = (whiteU, whiteV)
            divisor = 6 * whiteU - 16 * whiteV + 12
        }
        let x = 9 * uPrime / divisor
        let y = 4 * vPrime / divisor
        let z = 1 - x - y
        return CIEXYZ(x: y != 0 ? x * luminance / y : x, y: luminance, z: y != 0 ? z * luminance / y : z)
    }

    /// XYZ → CIE u′v′Y; Y must be 0–1.
    static func uvY(_ color: CIEXYZ) -> (u: Double, v: Double, luminance: Double)? {
        guard luminanceIsValid(color.y) else { return nil }
        let divisor = color.x + 15 * color.y + 3 * color.z
        if divisor == 0 { return (whiteU, whiteV, color.y) }
        return (4 * color.x / divisor, 9 * color.y / divisor, color.y)
    }

    // MARK: CIE xyY, L*a*b*, L*u*v*

    /// CIE xyY → XYZ (through u′v′, as Xlib); x, y and Y must be 0–1.
    static func xyz(x: Double, y: Double, luminance: Double) -> CIEXYZ? {
        for component in [x, y, luminance] where component < -slack || component > 1 + slack { return nil }
        let divisor = -2 * x + 12 * y + 3
        guard divisor != 0 else { return CIEXYZ(x: 0, y: 0, z: 0) }
        let u = 4 * x / divisor
        let v = 9 * y / divisor
        let second = 6 * u - 16 * v + 12  // 36 / divisor: never 0
        let smallX = 9 * u / second
        var smallY = 4 * v / second
        let smallZ = 1 - smallX - smallY
        if smallY == 0 { smallY = slack }
        return CIEXYZ(x: smallX * luminance / smallY, y: luminance, z: smallZ * luminance / smallY)
    }

    /// CIE L*a*b* → XYZ with Xlib's constants (see the type's comment);
    /// L* must be 0–100.
    static func xyz(lightness: Double, a: Double, b: Double) -> CIEXYZ? {
        guard lightness >= -slack && lightness <= 100 + slack else { return nil }
        let white = XcmsScreen.white
        var scaled = (lightness + 16) / 116
        let luminance = scaled * scaled * scaled
        if luminance < darkLuminance {
            scaled = lightness / 9.03292
            return CIEXYZ(x: white.x * ((a / 3893.5) + scaled), y: scaled, z: white.z * (scaled - (b / 1557.4)))
        }
        let fx = scaled + (a / 5.0)
        let fz = scaled - (b / 2.0)
        return CIEXYZ(x: white.x * fx * fx * fx, y: luminance, z: white.z * fz * fz * fz)
    }

    /// CIE lightness → Y, as Xcms's L*u*v* and TekHVC take it.
    static func luminance(lightness: Double) -> Double {
        if lightness < darkLightness { return lightness / 903.29 }
        let scaled = (lightness + 16.0) / 116.0
        return scaled * scaled * scaled
    }

    /// Y → CIE lightness (Xcms's cube root).
    static func lightness(luminance: Double) -> Double {
        luminance < darkLuminance ? luminance * 903.29 : XcmsMath.cubeRoot(luminance) * 116.0 - 16.0
    }

    /// CIE L*u*v* → XYZ; L* must be 0–100.
    static func xyz(lightness: Double, u: Double, v: Double) -> CIEXYZ? {
        guard lightness >= -slack && lightness <= 100 + slack else { return nil }
        let y = luminance(lightness: lightness)
        guard lightness != 0 else { return xyz(u: whiteU, v: whiteV, luminance: y) }
        let scale = 13.0 * (lightness / 100.0)
        return xyz(u: u / scale + whiteU, v: v / scale + whiteV, luminance: y)
    }

    // MARK: TekHVC

    /// The hue of the white point's direction to best red, which TekHVC hue
    /// is measured from.
    static let hueOffset = degrees(XcmsMath.arcTangent((bestRedV - whiteV) / (bestRedU - whiteU)))

    /// A TekHVC colour checked as Xlib's `XcmsTekHVC_ValidSpec` does: nil for
    /// a value outside 0–100 or a negative chroma (each with the slack),
    /// values just outside pulled in, the hue brought into 0–360.
    static func validated(_ color: TekHVC) -> TekHVC? {
        guard color.value >= -slack && color.value <= 100 + slack && color.chroma >= -slack else { return nil }
        var color = color
        if color.value < 0 { color.value = slack } else if color.value > 100 { color.value = 100 - slack }
        if color.chroma < 0 { color.chroma = -slack }
        color.hue = wrapped(color.hue)
        return color
    }

    /// TekHVC → XYZ.
    static func xyz(_ color: TekHVC) -> CIEXYZ? {
        guard let color = validated(color) else { return nil }
        if color.value == 0 || color.value == 100 {
            return xyz(u: whiteU, v: whiteV, luminance: color.value == 100 ? 1 : 0)
        }
        let angle = radians(wrapped(color.hue + hueOffset))
        let u = (XcmsMath.cosine(angle) * color.chroma) / (color.value * chromaScale)
        let v = (XcmsMath.sine(angle) * color.chroma) / (color.value * chromaScale)
        return xyz(u: u + whiteU, v: v + whiteV, luminance: luminance(lightness: color.value))
    }

    /// XYZ → TekHVC.
    static func tekHVC(_ color: CIEXYZ) -> TekHVC? {
        guard let (uPrime, vPrime, y) = uvY(color) else { return nil }
        let u = uPrime - whiteU
        let v = vPrime - whiteV
        var theta = u == 0 ? 0 : degrees(XcmsMath.arcTangent(v / u))
        // The quadrant the arctangent cannot tell.
        var low = 0.0
        var high = 360.0
        if u > 0 && v > 0 {
            (low, high) = (0, 90)
        } else if u < 0 && v > 0 {
            (low, high) = (90, 180)
        } else if u < 0 && v < 0 {
            (low, high) = (180, 270)
        } else if u > 0 && v < 0 {
            (low, high) = (270, 360)
        }
        while theta < low { theta += 90 }
        while theta >= high { theta -= 90 }
        let value = lightness(luminance: y)
        let chroma = value * chromaScale * XcmsMath.squareRoot(u * u + v * v)
        if chroma < 0 { theta = 0 }
        // Within 0.001 of the range is left for later steps to settle.
        let hue = wrapped(theta - hueOffset, from: -0.001, below: 360.001)
        return TekHVC(hue: hue, value: value, chroma: chroma)
    }

    // MARK: To the screen

    /// The screen colour for an XYZ colour: its RGB intensities, brought into
    /// the gamut by TekHVC chroma clipping (``XcmsGamut``) when they are
    /// outside it; nil when even that fails.
    static func device(_ color: CIEXYZ) -> RGB? {
        var intensity = XcmsScreen.intensity(of: color)
        if !XcmsScreen.inGamut(intensity) {
            guard let clipped = XcmsGamut.clipChroma(color) else { return nil }
            intensity = XcmsScreen.intensity(of: clipped)
            guard XcmsScreen.inGamut(intensity) else { return nil }
        }
        return XcmsScreen.device(XcmsScreen.clamped(intensity))
    }
}
