/// A colour in CIE XYZ, Y = 1 for the screen's white.
struct CIEXYZ {
    var x: Double
    var y: Double
    var z: Double
}

/// Red, green and blue intensities, 0–1 each (Xcms's RGBi, linear light).
struct RGBIntensity {
    var red: Double
    var green: Double
    var blue: Double
}

/// The screen Xcms converts device-independent colours for: the colour
/// characterisation an X server without `XDCCC_LINEAR_RGB_MATRICES` and
/// `XDCCC_LINEAR_RGB_CORRECTION` root-window properties has (Xvfb, and every
/// ordinary server), so the one xterm on it uses.
///
/// That is Xlib's built-in default (libX11 `src/xcms/LRGB.c`, "Tektronix 19"
/// (Sony) CRT, part 119-2451-00"): a pair of 3×3 matrices between RGB
/// intensity and CIE XYZ, and one measured table per channel from device
/// value to intensity. Its white point is the sum of the RGB-to-XYZ rows,
/// X 0.9497, Y 1, Z 1.4060 (not D65: esctest2's expected replies, from xterm
/// 379 under Xvfb, are only reached with this one). The three tables differ,
/// so a grey intensity is not a grey colour: `rgbi:0.5/0.5/0.5` is
/// `c1c1/bbbb/bbbb` (esctest2 `test_ChangeColor_RGBI`).
///
/// The numbers are Tektronix's measurements as Xlib ships them; the code
/// around them follows the Xcms specification (Xlib manual, chapter 6,
/// "Color Management Functions") and LRGB.c's documented behaviour.
enum XcmsScreen {
    /// RGB intensity → CIE XYZ.
    static let rgbToXYZ: [[Double]] = [
        [0.38106149108714790, 0.32025712365352110, 0.24834578525933100],
        [0.20729745115140850, 0.68054638776373240, 0.11215616108485920],
        [0.02133944350088028, 0.14297193020246480, 1.24172892629665500],
    ]
    /// CIE XYZ → RGB intensity.
    static let xyzToRGB: [[Double]] = [
        [3.48340481253539000, -1.52176374927285200, -0.55923133354049780],
        [-1.07152751306193600, 1.96593795204372400, 0.03673691339553462],
        [0.06351179790497788, -0.20020501000496480, 0.81070942031648220],
    ]

    /// The screen white point: each row of `rgbToXYZ` summed, Y set to
    /// exactly 1 (Xlib checks it is within 0.001 of 1 and then sets it).
    static let white = CIEXYZ(
        x: rgbToXYZ[0][0] + rgbToXYZ[0][1] + rgbToXYZ[0][2], y: 1,
        z: rgbToXYZ[2][0] + rgbToXYZ[2][1] + rgbToXYZ[2][2])

    /// How far outside 0–1 an intensity may be and still count as in the
    /// gamut (LRGB.c's EPS); such values are then clamped.
    static let gamutSlack = 0.001

    /// One channel's table: device values (16 bits) with the intensity each
    /// gives, rising. The first two entries are both intensity 0.
    struct IntensityTable {
        let values: [UInt16]
        let intensities: [Double]

        /// A table whose entries after the first two are every 0x0505 from
        /// `firstStep` to 0xffff.
        init(zeroUpTo lastDark: UInt16, firstStep: UInt16, intensities steps: [Double]) {
            var values: [UInt16] = [0, lastDark]
            for index in 0..<steps.count { values.append(firstStep + UInt16(index) * 0x0505) }
            precondition(values.last == 0xFFFF, "an intensity table ends at full intensity")
            self.values = values
            intensities = [0, 0] + steps
        }

        /// The 8-bit device value for an intensity: the table interpolated
        /// linearly, then the nearest of the 256 levels an 8-bit visual has
        /// (`bits_per_rgb` 8; a tie goes down), as LRGB.c's
        /// `_XcmsIntensityInterpolation` computes it. Xlib keeps the top 8
        /// bits of a 16-bit value, and the X server reports such a colour as
        /// the byte twice (`c1` as `c1c1`), which is what xterm replies.
        func deviceValue(_ intensity: Double) -> UInt8 {
            // Zero intensity (and below) is always value 0. Far above 1 the
            // extrapolation would leave C's `long` (undefined there): capped.
            guard intensity > intensities[0] else { return 0 }
            let intensity = min(intensity, 1e9)
            // The first entry at or above the key; past the end, the last
            // pair is extrapolated, as Xlib's binary search leaves it.
            var high = 1
            while high < intensities.count - 1 && intensities[high] < intensity { high += 1 }
            let low = high - 1
            let ratio = (intensity - intensities[low]) / (intensities[high] - intensities[low])
            // C `long` arithmetic: the product truncates toward zero.
            let target = Int(Double(Int(values[high]) - Int(values[low])) * ratio) + Int(values[low])
            var up = ((target >> 8) * 0xFFFF) / 255
            var down: Int
            if up < target {
                down = up
                up = (min((down >> 8) + 1, 255) * 0xFFFF) / 255
            } else {
                down = (max((up >> 8) - 1, 0) * 0xFFFF) / 255
            }
            let nearest = (up - target) < (target - down) ? up : down
            return UInt8(truncatingIfNeeded: UInt16(truncatingIfNeeded: nearest) >> 8)
        }
    }

    static let red = IntensityTable(
        zeroUpTo: 0x0909, firstStep: 0x0A0A,
        intensities: [
            0.000936, 0.001481, 0.002329, 0.003529, 0.005127, 0.007169, 0.009699, 0.012759, 0.016392, 0.020637,
            0.025533, 0.031119, 0.037431, 0.044504, 0.052373, 0.061069, 0.070624, 0.081070, 0.092433, 0.104744,
            0.118026, 0.132307, 0.147610, 0.163958, 0.181371, 0.199871, 0.219475, 0.240202, 0.262069, 0.285089,
            0.309278, 0.334647, 0.361208, 0.388971, 0.417945, 0.448138, 0.479555, 0.512202, 0.546082, 0.581199,
            0.617552, 0.655144, 0.693971, 0.734031, 0.775322, 0.817837, 0.861571, 0.906515, 0.952662, 1.000000,
        ])
    static let green = IntensityTable(
        zeroUpTo: 0x1313, firstStep: 0x1414,
        intensities: [
            0.000832, 0.001998, 0.003612, 0.005736, 0.008428, 0.011745, 0.015740, 0.020463, 0.025960, 0.032275,
            0.039449, 0.047519, 0.056520, 0.066484, 0.077439, 0.089409, 0.102418, 0.116485, 0.131625, 0.147853,
            0.165176, 0.183604, 0.203140, 0.223783, 0.245533, 0.268384, 0.292327, 0.317351, 0.343441, 0.370580,
            0.398747, 0.427919, 0.458068, 0.489165, 0.521176, 0.554067, 0.587797, 0.622324, 0.657604, 0.693588,
            0.730225, 0.767459, 0.805235, 0.843491, 0.882164, 0.921187, 0.960490, 1.000000,
        ])
    static let blue = IntensityTable(
        zeroUpTo: 0x0E0E, firstStep: 0x0F0F,
        intensities: [
            0.001341, 0.002080, 0.003188, 0.004729, 0.006766, 0.009357, 0.012559, 0.016424, 0.021004, 0.026344,
            0.032489, 0.039481, 0.047357, 0.056154, 0.065903, 0.076634, 0.088373, 0.101145, 0.114968, 0.129862,
            0.145841, 0.162915, 0.181095, 0.200386, 0.220791, 0.242309, 0.264937, 0.288670, 0.313499, 0.339410,
            0.366390, 0.394421, 0.423481, 0.453547, 0.484592, 0.516587, 0.549498, 0.583291, 0.617925, 0.653361,
            0.689553, 0.726454, 0.764013, 0.802178, 0.840891, 0.880093, 0.919723, 0.959715, 1.000000,
        ])

    /// The colour an 8-bit TrueColor screen shows for RGB intensities.
    static func device(_ intensity: RGBIntensity) -> RGB {
        RGB(
            red.deviceValue(intensity.red), green.deviceValue(intensity.green),
            blue.deviceValue(intensity.blue))
    }

    static func multiply(_ matrix: [[Double]], _ a: Double, _ b: Double, _ c: Double) -> (Double, Double, Double) {
        // Each row summed left to right from 0, as Xlib's `_XcmsMatVec`.
        func row(_ index: Int) -> Double {
            var sum = 0.0
            sum += matrix[index][0] * a
            sum += matrix[index][1] * b
            sum += matrix[index][2] * c
            return sum
        }
        return (row(0), row(1), row(2))
    }

    static func intensity(of color: CIEXYZ) -> RGBIntensity {
        let (red, green, blue) = multiply(xyzToRGB, color.x, color.y, color.z)
        return RGBIntensity(red: red, green: green, blue: blue)
    }

    static func xyz(of intensity: RGBIntensity) -> CIEXYZ {
        let (x, y, z) = multiply(rgbToXYZ, intensity.red, intensity.green, intensity.blue)
        return CIEXYZ(x: x, y: y, z: z)
    }

    /// True when every intensity is within the gamut's slack of 0–1.
    static func inGamut(_ intensity: RGBIntensity) -> Bool {
        let low = min(intensity.red, intensity.green, intensity.blue)
        let high = max(intensity.red, intensity.green, intensity.blue)
        return low >= -gamutSlack && high <= 1 + gamutSlack
    }

    /// Intensities clamped to 0–1 (after the gamut check let them be slightly
    /// outside).
    static func clamped(_ intensity: RGBIntensity) -> RGBIntensity {
        RGBIntensity(
            red: min(max(intensity.red, 0), 1), green: min(max(intensity.green, 0), 1),
            blue: min(max(intensity.blue, 0), 1))
    }
}
