import Foundation
import Testing

@testable import TermCore

/// Colour specifications as xterm takes them (XParseColor: X11 "TerminalColor
/// Specification Strings", Xlib manual chapter 6) and xterm's special colours
/// (ctlseqs OSC 5, OSC 105). The device-independent expectations are the
/// replies esctest2 expects and xterm 379 gives (tests/change_color.py,
/// change_dynamic_color.py, change_special_color.py); the rest follow from
/// the specification and Xlib's default screen data (LRGB.c).
@Suite("Colour specifications and special colours")
struct ColorSpecificationTests {
    func replies(_ input: String) -> String {
        let t = Terminal(columns: 20, rows: 3)
        var out: [UInt8] = []
        t.writeBack = { out += $0 }
        t.feed(input)
        return String(decoding: out, as: UTF8.self)
    }

    /// What colour 1 reports after `OSC 4 ; 1 ; spec`.
    func reported(_ spec: String) -> String {
        replies("\(ESC)]4;1;\(spec)\(ESC)\\\(ESC)]4;1;?\(ESC)\\")
    }

    func reply(_ body: String, index: Int = 1) -> String { "\(ESC)]4;\(index);rgb:\(body)\(ESC)\\" }

    @Test("RGB intensities go through the screen's intensity tables")
    func rgbIntensitiesGoThroughTheScreensIntensityTables() {
        #expect(reported("rgbi:1/1/1") == reply("ffff/ffff/ffff"))
        // Red's table differs from green's and blue's (esctest2 RGBI).
        #expect(reported("rgbi:0.5/0.5/0.5") == reply("c1c1/bbbb/bbbb"))
        #expect(reported("RGBi:0/0/0") == reply("0000/0000/0000"))
    }

    @Test("CIE xyY outside the gamut is clipped in chroma") func cieXYYOutsideTheGamutIsClippedInChroma() {
        #expect(reported("CIExyY:1/1/1") == reply("ffff/ffff/ffff"))
        #expect(reported("CIExyY:0.5/0.5/0.5") == reply("f7f7/b3b3/0e0e"))
    }

    @Test("CIE u'v'Y") func cieUVY() {
        #expect(reported("CIEuvY:1/1/1") == reply("ffff/ffff/ffff"))
        #expect(reported("CIEuvY:0.5/0.5/0.5") == reply("ffff/a3a3/aeae"))
    }

    @Test("CIE L*a*b* with Xlib's constants") func cieLabWithXlibsConstants() {
        // Xlib's dark branch divides L* by 9.03292: L* 1 is not black.
        #expect(reported("CIELab:1/1/1") == reply("6c6c/6767/6767"))
        #expect(reported("CIELab:0.5/0.5/0.5") == reply("5252/4f4f/4f4f"))
    }

    @Test("CIE L*u*v*") func cieLuv() {
        #expect(reported("CIELuv:1/1/1") == reply("1616/1414/0e0e"))
        #expect(reported("CIELuv:0.5/0.5/0.5") == reply("0e0e/1313/0e0e"))
    }

    @Test("Tek HVC") func tekHVC() {
        #expect(reported("TekHVC:1/1/1") == reply("1a1a/1313/0f0f"))
        #expect(reported("TekHVC:0.5/0.5/0.5") == reply("1111/1313/0e0e"))
    }

    @Test("CIE XYZ of the screen white is white") func cieXYZOfTheScreenWhiteIsWhite() {
        // The screen white is the sum of each row of Xlib's default
        // RGB-to-XYZ matrix: X 0.9496644, Y 1, Z 1.4060403.
        #expect(reported("CIEXYZ:0.9496644/1/1.4060403") == reply("ffff/ffff/ffff"))
        #expect(reported("CIEXYZ:0/0/0") == reply("0000/0000/0000"))
    }

    @Test("Specifications are case insensitive and take a decimal comma")
    func specificationsAreCaseInsensitiveAndTakeADecimalComma() {
        #expect(reported("cielab:1/1/1") == reply("6c6c/6767/6767"))
        #expect(reported("TEKHVC:1/1/1") == reply("1a1a/1313/0f0f"))
        // Xlib reads the numbers again with '.' and ',' swapped.
        #expect(reported("rgbi:0,5/0,5/0,5") == reply("c1c1/bbbb/bbbb"))
    }

    @Test("Invalid specifications leave the colour") func invalidSpecificationsLeaveTheColour() {
        // xterm's colour 1 is #cd0000; each of these fails in XParseColor.
        let unchanged = reply("cdcd/0000/0000")
        #expect(reported("CIELab:101/0/0") == unchanged)  // L* above 100
        #expect(reported("CIExyY:2/0.3/0.3") == unchanged)  // x above 1
        #expect(reported("CIEXYZ:0.5/2/0.5") == unchanged)  // Y above 1
        #expect(reported("TekHVC:0/101/0") == unchanged)  // value above 100
        #expect(reported("TekHVC:0/50/-1") == unchanged)  // negative chroma
        #expect(reported("rgbi:1/1") == unchanged)  // two numbers
        #expect(reported("rgbi:1;1;1") == unchanged)
        #expect(reported("cmyk:1/1/1") == unchanged)  // no such space
        #expect(reported("rgb:12345/0/0") == unchanged)  // five digits
        #expect(reported("rgb:/0/0") == unchanged)  // none
        #expect(reported("#12345") == unchanged)
        #expect(reported("red") == unchanged)  // names are the X server's
    }

    @Test("RGB channels scale to sixteen bits and the screen keeps the top byte")
    func rgbChannelsScaleToSixteenBitsAndTheScreenKeepsTheTopByte() {
        // One digit is scaled by 0x1111; xterm keeps the top 8 bits of each
        // 16-bit channel on a 24-bit TrueColor screen and reports the byte
        // twice.
        #expect(reported("rgb:F0F0/0/8") == reply("f0f0/0000/8888"))
        #expect(reported("rgb:7fff/8000/80ff") == reply("7f7f/8080/8080"))
        #expect(reported("#fff") == reply("f0f0/f0f0/f0f0"))  // digits are the high bits
    }

    @Test("Special colours start as the default foreground") func specialColoursStartAsTheDefaultForeground() {
        // xterm's colorBD … colorIT resources default to XtDefaultForeground.
        #expect(replies("\(ESC)]5;0;?\(ESC)\\") == "\(ESC)]5;0;rgb:e5e5/e5e5/e5e5\(ESC)\\")
        #expect(Palette.xterm.specialColors == Array(repeating: Palette.xterm.defaultForeground, count: 5))
    }

    @Test("Special colours set and query in pairs") func specialColoursSetAndQueryInPairs() {
        #expect(
            replies("\(ESC)]5;0;rgb:f0f0/f0f0/f0f0;1;rgb:f0f0/0000/0000\(ESC)\\\(ESC)]5;0;?;1;?\(ESC)\\")
                == "\(ESC)]5;0;rgb:f0f0/f0f0/f0f0\(ESC)\\\(ESC)]5;1;rgb:f0f0/0000/0000\(ESC)\\")
        // Device-independent specifications work here too.
        #expect(replies("\(ESC)]5;4;CIELab:1/1/1\u{07}\(ESC)]5;4;?\u{07}") == "\(ESC)]5;4;rgb:6c6c/6767/6767\(ESC)\\")
        // There are five: 5 is no special colour.
        #expect(replies("\(ESC)]5;5;?\u{07}") == "")
    }

    @Test("OSC four from 256 is the special colours") func oscFourFrom256IsTheSpecialColours() {
        #expect(replies("\(ESC)]5;2;#aaaabbbbcccc\u{07}\(ESC)]4;258;?\u{07}") == reply("aaaa/bbbb/cccc", index: 258))
        #expect(replies("\(ESC)]4;260;#102030\u{07}\(ESC)]5;4;?\u{07}") == "\(ESC)]5;4;rgb:1010/2020/3030\(ESC)\\")
        #expect(replies("\(ESC)]4;261;?\u{07}") == "")
    }

    @Test("OSC one hundred five resets special colours") func oscOneHundredFiveResetsSpecialColours() {
        let set = "\(ESC)]5;0;#aaaabbbbcccc;1;#ddddeeeeffff\u{07}"
        #expect(
            replies(set + "\(ESC)]105;1\u{07}\(ESC)]5;0;?;1;?\u{07}")
                == "\(ESC)]5;0;rgb:aaaa/bbbb/cccc\(ESC)\\\(ESC)]5;1;rgb:e5e5/e5e5/e5e5\(ESC)\\")
        #expect(
            replies(set + "\(ESC)]105\u{07}\(ESC)]5;0;?;1;?\u{07}")
                == "\(ESC)]5;0;rgb:e5e5/e5e5/e5e5\(ESC)\\\(ESC)]5;1;rgb:e5e5/e5e5/e5e5\(ESC)\\")
        // OSC 104 with a special colour's OSC 4 number resets it as well.
        #expect(replies(set + "\(ESC)]104;256\u{07}\(ESC)]5;0;?\u{07}") == "\(ESC)]5;0;rgb:e5e5/e5e5/e5e5\(ESC)\\")
    }

    @Test("Numbers that are not finite are refused and huge ones do not trap")
    func numbersThatAreNotFiniteAreRefusedAndHugeOnesDoNotTrap() {
        let unchanged = reply("cdcd/0000/0000")
        #expect(reported("cielab:nan/0/0") == unchanged)
        #expect(reported("rgbi:inf/0/0") == unchanged)
        #expect(reported("tekhvc:50/-inf/0") == unchanged)
        // Finite but far out of range: some colour or none, and no trap.
        let huge = [
            "tekhvc:1e308/50/50", "rgbi:1e308/-1e308/1e-320", "ciexyz:1e308/0.5/-1e308", "cieluv:50/1e308/1e308",
        ]
        for spec in huge {
            #expect(reported(spec).hasPrefix("\(ESC)]4;1;rgb:"))
        }
    }

    @Test("Xcms arc tangent is within its documented error everywhere")
    func xcmsArcTangentIsWithinItsDocumentedErrorEverywhere() {
        // Xlib's arctangent stops its mean at a relative error of 1e-6; for
        // a negative argument it runs until the mean settles.
        var worst = 0.0
        for step in -8000...8000 {
            for sign in [-1.0, 1.0] {
                let x = sign * pow(10, Double(step) / 1000)
                worst = max(worst, abs(XcmsMath.arcTangent(x) - atan(x)) / abs(atan(x)))
            }
        }
        #expect(worst <= 2e-6)
    }

    @Test("RIS resets special colours") func risResetsSpecialColours() {
        let t = terminal(10, 2, "\(ESC)]5;3;#123456\u{07}")
        #expect(t.palette[special: .reverse] == RGB(0x12, 0x34, 0x56))
        t.feed("\(ESC)c")
        #expect(t.palette[special: .reverse] == Palette.xterm.defaultForeground)
    }
}
