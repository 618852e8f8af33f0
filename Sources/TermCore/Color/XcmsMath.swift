#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The arithmetic Xlib's colour management (Xcms) does its conversions with.
///
/// Xcms does not call the C library for these: it has its own square and cube
/// roots (Newton's method to `DBL_EPSILON`), sine and cosine (rational
/// approximations from Hart et al., *Computer Approximations*, 1968, tables
/// 3063 and 3843) and arctangent (Gauss's arithmetic-geometric mean as in
/// Acton, *Numerical Methods That Work*, 1970, stopped at a relative error of
/// 1e-6). The arctangent is the one that matters: it is off from `atan` by up
/// to 1e-6, and gamut compression (``XcmsGamut``) puts a colour exactly on the
/// edge of the gamut, where one channel is zero within rounding; whether that
/// channel comes out as 0x00 or as the first step of the screen's intensity
/// table (0x0e for blue) depends on these last bits. esctest2's
/// `CIExyY:0.5/0.5/0.5` → `f7f7/b3b3/0e0e` and `CIELuv:1/1/1` →
/// `1616/1414/0e0e`, which xterm 379 passes, need the same arithmetic.
enum XcmsMath {
    static let pi = 3.14159265358979323846264338327950
    static let twoPi = 6.28318530717958620
    static let halfPi = 1.57079632679489660
    static let quarterPi = 0.785398163397448280
    /// Below this x⁶ would underflow in the polynomials.
    static let tiny = 4.209340e-52

    /// √a by Newton's method from a/4 (or 4a below 1); 0 for a ≤ 0.
    static func squareRoot(_ a: Double) -> Double {
        guard a > 0 else { return 0 }
        var guess = a > 1 ? a / 4 : a * 4
        var delta: Double
        repeat {
            delta = (guess - a / guess) / 2
            guess -= delta
            delta = abs(delta)
        } while delta >= guess * Double.ulpOfOne
        return guess
    }

    /// ∛a by Newton's method from |a|/8 (or 8|a| below 1).
    static func cubeRoot(_ a: Double) -> Double {
        guard a != 0 else { return 0 }
        let magnitude = abs(a)
        var guess = magnitude > 1 ? magnitude / 8 : magnitude * 8
        var delta: Double
        repeat {
            delta = (guess - magnitude / (guess * guess)) / 3
            guess -= delta
            delta = abs(delta)
        } while delta >= guess * Double.ulpOfOne
        return a < 0 ? -guess : guess
    }

    /// arctan x by the arithmetic-geometric mean of √(1/(1+x²)) and 1,
    /// stopped when the two differ by less than 1e-6 (times x below 1).
    /// For a negative x that bound is negative, so Xlib's mean runs until the
    /// two agree exactly or 10,000 rounds have passed. For about 1 negative x
    /// in 250 they settle one ulp apart and stop changing: every further
    /// round gives the same pair, so stopping there gives Xlib's result
    /// without its 10,000 rounds (a program could otherwise make each colour
    /// cost that many, a hundred times over in gamut compression).
    static func arcTangent(_ x: Double) -> Double {
        guard x != 0 else { return 0 }
        let maximumError = x < 1 ? x * 0.000001 : 0.000001
        var a = squareRoot(1 / (1 + x * x))
        var b = 1.0
        var nextA = 0.0
        var nextB = 0.0
        for _ in 0..<Limits.xcmsArcTangentRounds {
            nextA = (a + b) / 2
            nextB = squareRoot(nextA * b)
            if nextA == nextB || abs(nextA - nextB) < maximumError { break }
            if nextA == a && nextB == b { break }  // settled: the same pair from now on
            a = nextA
            b = nextB
        }
        let mean = nextA > nextB ? nextB : nextA
        return x / (squareRoot(1 + x * x) * mean)
    }

    /// Hart's coefficients for cos(πy/4) = p(y²)/q(y²), |y| ≤ 1 (table 3843).
    static let cosineP = [
        0.12905394659037374438e7, -0.37456703915723204710e6, 0.13432300986539084285e5, -0.11231450823340933092e3,
    ]
    static let cosineQ = [0.12905394659037373590e7, 0.23467773107245835052e5, 0.20969518196726306286e3, 1.0]
    /// Hart's coefficients for sin(πy/4) = y·p(y²)/q(y²), |y| ≤ 1 (table 3063).
    static let sineP = [
        0.20664343336995858240e7, -0.18160398797407332550e6, 0.35999306949636188317e4, -0.20107483294588615719e2,
    ]
    static let sineQ = [0.26310659102647698963e7, 0.39270242774649000308e5, 0.27811919481083844087e3, 1.0]

    /// Horner's rule over ascending coefficients.
    static func polynomial(_ coefficients: [Double], _ x: Double) -> Double {
        var value = coefficients[coefficients.count - 1]
        for index in stride(from: coefficients.count - 2, through: 0, by: -1) {
            value = coefficients[index] + x * value
        }
        return value
    }

    /// Brings an angle outside [-π, π] back into it the way Xlib does: x/2π
    /// less the whole turns in |x/2π|, times 2π (for the non-negative angles
    /// the conversions pass, the fractional part).
    static func reduced(_ x: Double) -> Double {
        guard x < -pi || x > pi else { return x }
        let turns = x / twoPi
        var reduced = (turns - floor(abs(turns))) * twoPi
        if reduced > pi { reduced -= twoPi } else if reduced < -pi { reduced += twoPi }
        return reduced
    }

    static func cosine(_ angle: Double) -> Double {
        let x = reduced(angle)
        if x > halfPi { return -cosine(x - pi) }
        if x < -halfPi { return -cosine(x + pi) }
        if x > quarterPi { return sine(halfPi - x) }
        if x < -quarterPi { return sine(halfPi + x) }
        if abs(x) < tiny { return squareRoot(1 - x * x) }
        let y = x / quarterPi
        return polynomial(cosineP, y * y) / polynomial(cosineQ, y * y)
    }

    static func sine(_ angle: Double) -> Double {
        let x = reduced(angle)
        if x > halfPi { return -sine(x - pi) }
        if x < -halfPi { return -sine(x + pi) }
        if x > quarterPi { return cosine(halfPi - x) }
        if x < -quarterPi { return -cosine(halfPi + x) }
        if abs(x) < tiny { return x }
        let y = x / quarterPi
        return y * (polynomial(sineP, y * y) / polynomial(sineQ, y * y))
    }
}
