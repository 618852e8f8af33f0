import Foundation
import TestSupport

@testable import TermCore

/// Random terminal output: text (ASCII, wide, combining, emoji), styles,
/// links, and optionally the whole range of state-changing sequences.
enum RandomStream {
    static let texts = [
        "a", "hello", "x y", "漢字", "é", "e\u{301}", "😀", "👩\u{200D}👧", "─│┼", "Ж", "한", "🇫🇷", "#", "qrs", " ",
    ]

    /// Scalars whose cells depend on mode 2027: emoji and text presentation
    /// selectors, a joiner, lone regional indicators, a keycap, a skin tone.
    static let clusterTexts = [
        "❤\u{FE0F}", "😀\u{FE0E}", "\u{FE0F}", "\u{FE0E}", "\u{200D}", "\u{301}", "🇫", "🇷", "1\u{FE0F}\u{20E3}",
        "👍\u{1F3FD}", "a\u{FE0F}", "☺", "\u{1F469}\u{200D}\u{1F467}", "✌\u{FE0F}",
    ]

    static func style(_ rng: inout SplitMix64) -> String {
        var parameters: [String] = []
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            switch Int.random(in: 0..<12, using: &rng) {
            case 0: parameters.append(String(Int.random(in: 1...9, using: &rng)))
            case 1: parameters.append(String(Int.random(in: 30...37, using: &rng)))
            case 2: parameters.append(String(Int.random(in: 40...47, using: &rng)))
            case 3: parameters.append("38;5;\(Int.random(in: 0...255, using: &rng))")
            case 4:
                parameters.append(
                    "48;2;\(Int.random(in: 0...255, using: &rng));7;\(Int.random(in: 0...255, using: &rng))")
            case 5: parameters.append("4:\(Int.random(in: 0...5, using: &rng))")
            case 6: parameters.append("58;5;\(Int.random(in: 0...255, using: &rng))")
            case 7:
                parameters.append(["22", "23", "24", "27", "39", "49", "53", "55", "59"].randomElement(using: &rng)!)
            case 8: parameters.append(String(Int.random(in: 90...97, using: &rng)))
            default: parameters.append("0")
            }
        }
        return "\u{1B}[" + parameters.joined(separator: ";") + "m"
    }

    /// Text and styles only: what the ANSI renderer's round trip covers.
    static func screen(_ rng: inout SplitMix64, operations: Int) -> String {
        var out = ""
        for _ in 0..<operations {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1: out += style(&rng)
            case 2: out += "\r\n"
            case 3: out += "\u{1B}]8;;https://example.com/\(Int.random(in: 0..<3, using: &rng))\u{07}"
            case 4: out += "\u{1B}]8;;\u{07}"
            default: out += texts.randomElement(using: &rng)!
            }
        }
        return out
    }

    /// Everything: cursor motion, erasing, editing, scrolling, modes, both
    /// screens, saved cursors, margins, tabs, charsets, titles, palette.
    static func anything(_ rng: inout SplitMix64, operations: Int, columns: Int, rows: Int) -> String {
        pieces(&rng, operations: operations, columns: columns, rows: rows).joined()
    }

    /// The operations of ``anything(_:operations:columns:rows:)`` one by one,
    /// for a test that shortens a failing stream by leaving some out.
    static func pieces(_ rng: inout SplitMix64, operations: Int, columns: Int, rows: Int) -> [String] {
        var pieces: [String] = []
        func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        // Line sizes (DECDWL, DECDHL, DECSWL) only with
        // TERMENGINE_LINE_SIZES=1: DECRC onto a double-width row past its
        // half no longer traps TermCore, but compaction still fails about 1
        // session in 200 with them (the vttest recordings have them too).
        let withLineSizes = ProcessInfo.processInfo.environment["TERMENGINE_LINE_SIZES"] != nil
        for _ in 0..<operations {
            var out = ""
            defer { pieces.append(out) }
            var choice = number(0...65)
            if withLineSizes && [25, 57, 59].contains(choice) { choice = 0 }
            if !withLineSizes && choice == 34 { choice = 0 }
            switch choice {
            case 0...9: out += texts.randomElement(using: &rng)!
            case 10...12: out += String(repeating: "abcdefghij", count: number(1...3))
            case 13, 14: out += style(&rng)
            case 15: out += "\r\n"
            case 16: out += "\u{1B}[\(number(1...rows));\(number(1...columns))H"
            case 17: out += "\u{1B}[\(number(0...3))J".replacingOccurrences(of: "3J", with: "2J")
            case 18: out += "\u{1B}[\(number(0...2))K"
            case 19: out += "\u{1B}[\(number(1...5))X"
            case 20: out += "\u{1B}[\(number(1...4))@"
            case 21: out += "\u{1B}[\(number(1...4))P"
            case 22: out += "\u{1B}[\(number(1...3))L"
            case 23: out += "\u{1B}[\(number(1...3))M"
            case 24: out += "\u{1B}7"
            case 25: out += "\u{1B}8"
            case 26:
                out += [
                    "\u{1B}[?47h", "\u{1B}[?47l", "\u{1B}[?1049h", "\u{1B}[?1049l", "\u{1B}[?1047h", "\u{1B}[?1047l",
                ].randomElement(using: &rng)!
            case 27:
                let top = number(1...rows)
                out += "\u{1B}[\(top);\(number(top...rows))r"
            case 28:
                out += "\u{1B}[?69h\u{1B}[\(number(1...max(1, columns / 2)));\(number(max(1, columns / 2)...columns))s"
            case 29: out += "\u{1B}[?69l"
            case 30: out += ["\u{1B}[?6h", "\u{1B}[?6l"].randomElement(using: &rng)!
            case 31: out += ["\u{1B}H", "\u{1B}[0g", "\u{1B}[3g", "\t"].randomElement(using: &rng)!
            case 32:
                out += ["\u{1B}(0", "\u{1B}(B", "\u{1B})0", "\u{1B}*A", "\u{0E}", "\u{0F}", "\u{1B}n", "\u{1B}N"]
                    .randomElement(using: &rng)!
            case 33:
                out += ["\u{1B}[1\"q", "\u{1B}[0\"q", "\u{1B}[?1J", "\u{1B}[?2K", "\u{1B}V", "\u{1B}W"]
                    .randomElement(using: &rng)!
            case 34: out += ["\u{1B}#6", "\u{1B}#3", "\u{1B}#4", "\u{1B}#5"].randomElement(using: &rng)!
            case 35: out += "\u{1B}]133;\(["A", "B", "C", "D;\(number(0...2))", "D"].randomElement(using: &rng)!)\u{07}"
            case 36:
                out += [
                    "\u{1B}[>\(number(0...31))u", "\u{1B}[<\(number(1...2))u",
                    "\u{1B}[=\(number(0...31));\(number(1...3))u",
                ].randomElement(using: &rng)!
            case 37:
                out += [
                    "\u{1B}[22;\(number(0...2))t", "\u{1B}[23;\(number(0...2))t",
                    "\u{1B}]2;title \(number(0...9))\u{07}", "\u{1B}]1;icon\u{07}", "\u{1B}]0;both\u{07}",
                ].randomElement(using: &rng)!
            case 38:
                out += [
                    "\u{1B}]4;\(number(0...255));#\(number(100...999))\u{07}", "\u{1B}]10;#123456\u{07}",
                    "\u{1B}]11;rgb:10/20/30\u{07}", "\u{1B}]104\u{07}",
                    "\u{1B}]5;\(number(0...4));#\(number(100...999))\u{07}", "\u{1B}]105\u{07}",
                ].randomElement(using: &rng)!
            case 39: out += "\u{1B}M"
            case 40: out += "\u{1B}D"
            case 41: out += "\u{1B}[\(number(1...3))S"
            case 42: out += "\u{1B}[\(number(1...3))T"
            case 43: out += ["\u{1B}[?7l", "\u{1B}[?7h", "\u{1B}[4h", "\u{1B}[4l"].randomElement(using: &rng)!
            case 44: out += "\u{1B}[\(number(1...5))b"
            case 45: out += "\u{1B}]8;id=\(number(0...2));https://e.com/\(number(0...2))\u{07}"
            case 46: out += "\u{1B}]8;;\u{07}"
            case 47: out += "\u{1B}[\(number(1...columns))G"
            case 48: out += "\u{08}"
            case 49:
                out += [
                    "\u{1B}[?25l", "\u{1B}[?1000h", "\u{1B}[?1006h", "\u{1B}[?2004h", "\u{1B}[?1h", "\u{1B}=",
                    "\u{1B}[4 q", "\u{1B}[?12l", "\u{1B}[?5h", "\u{1B}[?45h",
                ].randomElement(using: &rng)!
            case 50: out += "\u{1B}[?20h".replacingOccurrences(of: "?", with: "")
            case 51: out += "\u{1B}[20l"
            case 52: out += "\u{1B}]7;file://host/tmp/\(number(0...9))\u{07}"
            case 53: out += "\u{1B}[\(number(1...3))A\u{1B}[\(number(1...9))C"
            case 54:
                out += "\u{1B}[\(number(1...rows));\(number(1...columns));\(number(1...rows));\(number(1...columns))$z"
            case 55:
                out +=
                    "\u{1B}[\(["35", "42", "120"].randomElement(using: &rng)!);\(number(1...rows));\(number(1...columns));\(number(1...rows));\(number(1...columns))$x"
            case 56: out += "\u{1B}[!p"
            case 57: out += "\u{1B}[s\u{1B}[u"
            case 58: out += "\u{1B}#8"
            case 59: out += "\u{1B}[?1048h"
            case 60, 61: out += clusterTexts.randomElement(using: &rng)!
            case 62: out += ["\u{1B}[?2027h", "\u{1B}[?2027l"].randomElement(using: &rng)!
            case 63:
                // A title near the 256-scalar cap, cut where a space may end it.
                let word = ["ab ", "a ", "é ", "e\u{301}\u{301} ", "xyz"].randomElement(using: &rng)!
                out += "\u{1B}]\([0, 1, 2].randomElement(using: &rng)!);"
                out += String(repeating: word, count: number(60...130)) + "\u{07}"
            case 64:
                // RIS; DECOM, DECSC, a region, DECRC (the saved cursor is
                // relative to no region).
                out += ["\u{1B}c", "\u{1B}[?6h\u{1B}[s\u{1B}[\(number(1...rows))r\u{1B}8"].randomElement(using: &rng)!
            default: out += "\u{0B}\u{1B}[s"
            }
        }
        return pieces
    }
}

/// A random session: a terminal size, then feeds and resizes in turn.
struct RandomSession: CustomStringConvertible {
    enum Step {
        case feed(String)
        case resize(columns: Int, rows: Int)
    }

    var columns: Int
    var rows: Int
    var scrollback: Int
    var steps: [Step]

    static let sizes = [(10, 3), (20, 5), (33, 8), (1, 1), (2, 2), (16, 4), (40, 8), (7, 3), (80, 2)]

    /// A session of `segments` random streams of `operations` each, with a
    /// resize to a random size between them.
    static func random(_ rng: inout SplitMix64, segments: Int = 3, operations: Int = 60) -> RandomSession {
        let (columns, rows) = [(10, 3), (20, 5), (33, 8), (16, 4), (40, 8)].randomElement(using: &rng)!
        var session = RandomSession(
            columns: columns, rows: rows, scrollback: [0, 5, 30].randomElement(using: &rng)!, steps: [])
        var (width, height) = (columns, rows)
        for segment in 0..<segments {
            if segment > 0 {
                (width, height) = sizes.randomElement(using: &rng)!
                session.steps.append(.resize(columns: width, rows: height))
            }
            session.steps += RandomStream.pieces(&rng, operations: operations, columns: width, rows: height).map {
                .feed($0)
            }
        }
        return session
    }

    /// A terminal that went through the session; with `rowsPerPage`, one
    /// whose grids keep that many rows per page.
    func replay(rowsPerPage: Int? = nil) -> Terminal {
        let terminal =
            rowsPerPage.map { Terminal(columns: columns, rows: rows, scrollback: scrollback, rowsPerPage: $0) }
            ?? Terminal(columns: columns, rows: rows, scrollback: scrollback)
        for step in steps {
            switch step {
            case .feed(let text): terminal.feed(text)
            case .resize(let columns, let rows): terminal.resize(columns: columns, rows: rows)
            }
        }
        return terminal
    }

    var description: String {
        "\(columns)x\(rows) scrollback \(scrollback): "
            + steps.map { step in
                switch step {
                case .feed(let text): return String(reflecting: text)
                case .resize(let columns, let rows): return "resize \(columns)x\(rows)"
                }
            }.joined(separator: ", ")
    }
}
