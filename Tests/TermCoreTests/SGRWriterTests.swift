import TermCore
import Testing

/// The one SGR writer, for each caller: the DECRQSS reply (colours as
/// sub-parameters), the ANSI renderer and replay encoder (shortest
/// transitions, colours as separate parameters) and the CLI's painter (a
/// reset and the whole style). Expected bytes are the parameter numbers of
/// ECMA-48 §8.3.117 and xterm's ctlseqs ("CSI Pm m"), with the T.416
/// colon form for `38:5`/`38:2`.
@Suite("SGR writer")
struct SGRWriterTests {
    let everyFlag: Style.Flags = [.bold, .dim, .italic, .blink, .inverse, .hidden, .strikethrough, .overline]

    @Test("The default style has no parameters; after a reset it is 0 alone")
    func defaultStyle() {
        #expect(SGRWriter.parameters(for: Style()).isEmpty)
        #expect(SGRWriter.parametersAfterReset(for: Style()) == "0")
        #expect(SGRWriter.sequence(setting: Style()) == "\u{1B}[0m")
    }

    @Test("Attributes are written in number order, the underline style in the place of 4")
    func attributeOrder() {
        let all = Style(flags: everyFlag, underline: .single)
        #expect(SGRWriter.parameters(for: all) == ["1", "2", "3", "4", "5", "7", "8", "9", "53"])
        #expect(SGRWriter.parameters(for: Style(flags: .bold, underline: .double)) == ["1", "21"])
        #expect(SGRWriter.parameters(for: Style(underline: .curly)) == ["4:3"])
        #expect(SGRWriter.parameters(for: Style(underline: .dotted)) == ["4:4"])
        #expect(SGRWriter.parameters(for: Style(flags: .blink, underline: .dashed)) == ["4:5", "5"])
    }

    @Test("Colours 0-15 use the one-number codes 30-37, 90-97, 40-47 and 100-107")
    func shortColours() {
        #expect(SGRWriter.parameters(for: Style(foreground: .indexed(0), background: .indexed(7))) == ["30", "47"])
        #expect(SGRWriter.parameters(for: Style(foreground: .indexed(9), background: .indexed(15))) == ["91", "107"])
    }

    @Test("Other colours go through 38, 48 and 58, with semicolons or as T.416 sub-parameters")
    func extendedColours() {
        let style = Style(
            foreground: .indexed(16), background: .rgb(1, 2, 3), underlineColor: .indexed(3), underline: .curly)
        #expect(SGRWriter.parameters(for: style) == ["4:3", "38;5;16", "48;2;1;2;3", "58;5;3"])
        #expect(
            SGRWriter.parameters(for: style, extendedColors: .colons) == [
                "4:3", "38:5:16", "48:2::1:2:3", "58:5:3",
            ])
        // 58 has no short form, whatever the index.
        #expect(SGRWriter.parameters(for: Style(underlineColor: .rgb(10, 20, 30))) == ["58;2;10;20;30"])
    }

    @Test("The painter's form is a reset and the whole style in one sequence")
    func sequenceSettingAStyle() {
        let style = Style(foreground: .indexed(1), underlineColor: .rgb(0, 128, 255), flags: .bold, underline: .dotted)
        #expect(SGRWriter.sequence(setting: style) == "\u{1B}[0;1;4:4;31;58;2;0;128;255m")
    }

    @Test("Equal styles need no sequence; the default style is CSI m")
    func transitionsToNothingAndToTheDefault() {
        let bold = Style(flags: .bold)
        #expect(SGRWriter.transitionBody(from: bold, to: bold) == nil)
        #expect(SGRWriter.sequence(from: bold, to: bold) == "")
        #expect(SGRWriter.sequence(from: bold, to: Style()) == "\u{1B}[m")
    }

    @Test("From the default style the reset is left out")
    func transitionFromTheDefault() {
        #expect(SGRWriter.transitionBody(from: Style(), to: Style(foreground: .indexed(1), flags: .italic)) == "3;31m")
    }

    @Test("Only what differs is written when that is shorter")
    func relativeTransitions() {
        let red = Style(foreground: .indexed(1), flags: [.bold, .italic])
        #expect(SGRWriter.transitionBody(from: red, to: Style(flags: [.bold, .italic])) == "39m")
        #expect(SGRWriter.transitionBody(from: Style(flags: .bold), to: Style(flags: [.bold, .dim])) == "2m")
        let curly = Style(flags: [.bold, .italic], underline: .curly)
        #expect(SGRWriter.transitionBody(from: curly, to: Style(flags: [.bold, .italic])) == "24m")
        #expect(
            SGRWriter.transitionBody(from: Style(flags: [.bold, .overline]), to: Style(flags: [.bold, .inverse]))
                == "55;7m")
        let underlined = Style(underlineColor: .indexed(5), flags: [.bold, .italic])
        #expect(SGRWriter.transitionBody(from: underlined, to: Style(flags: [.bold, .italic])) == "59m")
    }

    @Test("22 clears bold and faint together, so the one that stays is set again")
    func boldAndFaintShareTheirClear() {
        let both = Style(foreground: .indexed(4), flags: [.bold, .dim])
        #expect(SGRWriter.transitionBody(from: both, to: Style(foreground: .indexed(4), flags: .dim)) == "22;2m")
    }

    @Test("A reset and the whole style is written when that is shorter, the relative form on a tie")
    func resetWhenShorter() {
        // "23;1" against "0;1".
        #expect(SGRWriter.transitionBody(from: Style(flags: .italic), to: Style(flags: .bold)) == "0;1m")
        // "25;27;9" against "0;1;3;9": the same length.
        let old = Style(flags: [.blink, .inverse, .bold, .italic])
        #expect(SGRWriter.transitionBody(from: old, to: Style(flags: [.bold, .italic, .strikethrough])) == "25;27;9m")
    }

    @Test("DECRQSS reports the pen after a reset, colours as sub-parameters")
    func statusStringUsesTheWriter() {
        func reply(_ input: String) -> String {
            let t = Terminal(columns: 10, rows: 2)
            var out: [UInt8] = []
            t.writeBack = { out += $0 }
            t.feed(input + "\u{1B}P$qm\u{1B}\\")
            return String(decoding: out, as: UTF8.self)
        }
        #expect(reply("") == "\u{1B}P1$r0m\u{1B}\\")
        #expect(reply("\u{1B}[1;2;3;21;5;7;8;9;53;91;107m") == "\u{1B}P1$r0;1;2;3;21;5;7;8;9;53;91;107m\u{1B}\\")
        #expect(reply("\u{1B}[4:3;58;2;1;2;3;38;5;200m") == "\u{1B}P1$r0;4:3;38:5:200;58:2::1:2:3m\u{1B}\\")
    }
}
