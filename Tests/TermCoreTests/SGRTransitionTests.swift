import TestSupport
import Testing

@testable import TermCore

/// SGRs that repeat from the same pen are looked up (`SGRTransitions`); these
/// check the looked-up styles against a model of SGR written from xterm's
/// ctlseqs ("CSI Pm m"), over streams where most transitions repeat.
@Suite("SGR transitions")
struct SGRTransitionTests {
    /// xterm's SGR for the codes the streams below use.
    static func model(_ style: Style, _ codes: [Int]) -> Style {
        var style = style
        if codes.isEmpty { return Style() }
        var index = 0
        while index < codes.count {
            let code = codes[index]
            switch code {
            case 0: style = Style()
            case 1: style.flags.insert(.bold)
            case 2: style.flags.insert(.dim)
            case 3: style.flags.insert(.italic)
            case 4: style.underline = .single
            case 5, 6: style.flags.insert(.blink)
            case 7: style.flags.insert(.inverse)
            case 8: style.flags.insert(.hidden)
            case 22: style.flags.subtract([.bold, .dim])
            case 23: style.flags.remove(.italic)
            case 24: style.underline = .none
            case 27: style.flags.remove(.inverse)
            case 30...37: style.foreground = .indexed(UInt8(code - 30))
            case 39: style.foreground = .default
            case 40...47: style.background = .indexed(UInt8(code - 40))
            case 49: style.background = .default
            case 90...97: style.foreground = .indexed(UInt8(code - 90 + 8))
            case 38, 48:
                let color: TerminalColor =
                    codes[index + 1] == 5
                    ? .indexed(UInt8(codes[index + 2]))
                    : .rgb(UInt8(codes[index + 2]), UInt8(codes[index + 3]), UInt8(codes[index + 4]))
                if code == 38 { style.foreground = color } else { style.background = color }
                index += codes[index + 1] == 5 ? 2 : 4
            default: break
            }
            index += 1
        }
        return style
    }

    /// A vocabulary of SGRs like an editor's: colours, attributes, resets,
    /// truecolor, some longer than a cached list (8 values) or with values
    /// past 255 (an unknown code, ignored; such lists are not cached).
    static let vocabulary: [[Int]] = [
        [0], [], [1], [22], [3], [23], [4], [24], [7], [27], [31], [32], [39], [44], [49], [94],
        [38, 5, 252], [38, 5, 130], [1, 38, 5, 176], [48, 5, 236], [38, 2, 102, 217, 239],
        [48, 2, 39, 40, 34], [0, 1, 38, 2, 230, 219, 116], [38, 5, 141, 48, 5, 17],
        [0, 1, 3, 4, 7, 38, 5, 9, 48, 5, 4], [1, 300], [1, 2, 3, 4, 5, 6, 7, 8],
    ]

    @Test("Random streams match the model cell by cell") func randomStreamsMatchTheModelCellByCell() {
        // Each round picks six SGRs of the vocabulary and resets the pen every
        // third cell, as an editor's tokens do, to italic (a table style:
        // from an inline style, palette SGRs are arithmetic and not looked
        // up): pens and transitions repeat, so most SGRs are looked up. One
        // round in four starts with 300 cells of random direct colours,
        // whose misses pause the cache, so the rest of it runs through the
        // pause and the cache's return.
        var generator = SplitMix64(seed: 2027)
        let (columns, rows) = (80, 25)
        for round in 0..<8 {
            let words = (0..<6).map { _ in
                Self.vocabulary[Int.random(in: 0..<Self.vocabulary.count, using: &generator)]
            }
            let t = Terminal(columns: columns, rows: rows, scrollback: 0)
            var expected = [Style](repeating: Style(), count: columns * rows)
            var pen = Style()
            var input = ""
            for cell in 0..<(columns * rows) {
                let codes: [Int]
                if round % 4 == 0 && cell < 300 {
                    codes = [38, 2] + (0..<3).map { _ in Int.random(in: 0..<256, using: &generator) }
                } else if cell % 3 == 0 {
                    codes = [0, 3]
                } else {
                    codes = words[Int.random(in: 0..<words.count, using: &generator)]
                }
                input += "\u{1B}[" + codes.map(String.init).joined(separator: ";") + "mX"
                pen = Self.model(pen, codes)
                expected[cell] = pen
            }
            t.feed(input)
            #expect(t.state.sgrTransitions.hits > (round % 4 == 0 ? 400 : 1000), "round \(round)")
            for cell in 0..<(columns * rows) where t.cellAt(cell / columns, cell % columns).style != expected[cell] {
                Issue.record("round \(round), cell \(cell): \(t.cellAt(cell / columns, cell % columns).style)")
                break
            }
        }
    }

    @Test("A transition stored before a compaction is not reused after it")
    func aTransitionStoredBeforeACompactionIsNotReusedAfterIt() {
        // rgb(1,2,3) from the default pen is stored; once no cell uses it, a
        // compaction gives its id to rgb(9,9,9). The same SGR from the default
        // pen must then intern rgb(1,2,3) again, not reuse the old id.
        let t = Terminal(columns: 10, rows: 2, scrollback: 0)
        t.feed("\u{1B}[38;2;1;2;3mA\u{1B}[0m\u{1B}[1;1H\u{1B}[38;2;9;9;9mZ\u{1B}[0m")
        t.state.active.compactStyles(page: t.state.active.page(ofScreenRow: 0))
        t.feed("\u{1B}[38;2;1;2;3mB")
        #expect(t.cellAt(0, 0).style.foreground == .rgb(9, 9, 9))
        #expect(t.cellAt(0, 1).style.foreground == .rgb(1, 2, 3))
    }

    @Test("A looked up background is the one erases use") func aLookedUpBackgroundIsTheOneErasesUse() {
        // The second `48;2;0;0;200` from the default pen is a lookup; the
        // erase after it must fill with that blue, not with the erase style
        // of the pen before.
        let t = Terminal(columns: 10, rows: 2, scrollback: 0)
        t.feed("\u{1B}[48;2;0;0;200mA\u{1B}[0m\u{1B}[1;5H\u{1B}[K\u{1B}[48;2;0;0;200m\u{1B}[2;1H\u{1B}[K")
        #expect(t.state.sgrTransitions.hits == 1)
        #expect(t.cellAt(0, 6).style.background == .default)
        #expect(t.cellAt(1, 3).style.background == .rgb(0, 0, 200))
    }

    @Test("A pen is named whatever the styles in use") func aPenIsNamedWhateverTheStylesInUse() {
        // 65,535 distinct styles in use (the whole of the one terminal-wide
        // table there was before pages): each cell keeps its own, and a new
        // pen is named, looked up and stored as any other.
        let t = Terminal(columns: 256, rows: 256, scrollback: 0)
        var input = "\u{1B}[0;1mA"  // keeps bold interned
        for index in 0..<65_534 { input += "\u{1B}[0;38;2;\(index >> 8);\(index & 0xFF);7mX" }
        t.feed(input)
        for index in stride(from: 0, to: 65_534, by: 997) {
            let cell = index + 1
            #expect(
                t.cellAt(cell / 256, cell % 256).style.foreground == .rgb(UInt8(index >> 8), UInt8(index & 0xFF), 7))
        }
        t.feed(String(repeating: "\u{1B}[0m", count: 1_100))  // past any pause of the cache
        t.feed("\u{1B}[1;38;2;250;250;250m\u{1B}[39m")
        #expect(t.pen == Style(flags: .bold))
        t.feed("\u{1B}[0m\u{1B}[39m")
        #expect(t.pen == Style())
        t.feed("\u{1B}[1;1HZ")
        #expect(t.cellAt(0, 0).style == Style())
    }

    @Test("256-colour forms from a palette pair pen") func twoHundredFiftySixColourFormsFromAPalettePairPen() {
        // After the first SGR the pen is a palette pair; the 256-colour forms
        // after it are applied to a pair (`inlineApplied`), anything
        // else as usual.
        let t = Terminal(columns: 10, rows: 3, scrollback: 0)
        t.feed(
            "\u{1B}[38;5;1;48;5;2mA\u{1B}[38;5;200mB\u{1B}[48;5;201mC\u{1B}[48;5;3;38;5;4mD"
                + "\u{1B}[38;5;5;38;5;6mE\u{1B}[38;5;300mF\u{1B}[2;1H\u{1B}[K"
                + "\u{1B}[48;5;9m\u{1B}[3;1H\u{1B}[K\u{1B}[38;5;7;1mG")
        let colours: [(UInt8, UInt8)] = [(1, 2), (200, 2), (200, 201), (4, 3), (6, 3)]
        for (column, (foreground, background)) in colours.enumerated() {
            let expected = Style(foreground: .indexed(foreground), background: .indexed(background))
            #expect(t.cellAt(0, column).style == expected)
        }
        // An index past 255 is the general path's business: as from any pen.
        let general = Terminal(columns: 10, rows: 1, scrollback: 0)
        general.feed("\u{1B}[38;5;300mX")
        #expect(t.cellAt(0, 5).style.foreground == general.cellAt(0, 0).style.foreground)
        #expect(t.cellAt(0, 5).style.background == .indexed(3))
        // An erase before and after a background change: each takes its own.
        #expect(t.cellAt(1, 5).style.background == .indexed(3))
        #expect(t.cellAt(2, 5).style.background == .indexed(9))
        #expect(t.cellAt(2, 0).style == Style(foreground: .indexed(7), background: .indexed(9), flags: .bold))
    }
}
