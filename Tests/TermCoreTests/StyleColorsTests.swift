import Testing

@testable import TermCore

/// `Palette.colors(of:reverseVideo:)`, the one resolution from a style to
/// the colours drawn (issue #19, item 6): renderers and front ends use it
/// from TermCore.
@Suite("Style colours")
struct StyleColorsTests {
    let palette = Palette.xterm

    @Test("Defaults and palette entries") func defaultsAndPaletteEntries() {
        let plain = palette.colors(of: Style())
        #expect(plain.foreground == palette.defaultForeground && plain.background == palette.defaultBackground)
        let red = palette.colors(of: Style(foreground: .indexed(1), background: .rgb(1, 2, 3)))
        #expect(red.foreground == palette.colors[1] && red.background == RGB(1, 2, 3))
        #expect(red.underline == red.foreground)
    }

    @Test("Inverse and reverse video swap and cancel") func inverseAndReverseVideoSwapAndCancel() {
        let style = Style(foreground: .indexed(2), background: .indexed(4))
        let inverse = palette.colors(of: Style(foreground: .indexed(2), background: .indexed(4), flags: .inverse))
        #expect(inverse.foreground == palette.colors[4] && inverse.background == palette.colors[2])
        // DECSCNM swaps every cell; on an inverse cell the two cancel (xterm).
        let reversed = palette.colors(of: style, reverseVideo: true)
        #expect(reversed == inverse)
        let both = palette.colors(
            of: Style(foreground: .indexed(2), background: .indexed(4), flags: .inverse), reverseVideo: true)
        #expect(both == palette.colors(of: style))
    }

    @Test("Hidden draws the background and the underline has its own colour")
    func hiddenDrawsTheBackgroundAndTheUnderlineHasItsOwnColour() {
        let hidden = palette.colors(of: Style(foreground: .indexed(1), background: .indexed(3), flags: .hidden))
        #expect(hidden.foreground == hidden.background && hidden.background == palette.colors[3])
        let underlined = palette.colors(
            of: Style(foreground: .indexed(1), underlineColor: .rgb(9, 8, 7), flags: .inverse, underline: .curly))
        #expect(underlined.underline == RGB(9, 8, 7))
        #expect(underlined.foreground == palette.defaultBackground)  // swapped
    }

    @Test("A snapshot resolves with its own palette and reverse video")
    func aSnapshotResolvesWithItsOwnPaletteAndReverseVideo() {
        let terminal = Terminal(columns: 4, rows: 1, scrollback: 0)
        terminal.feed("\u{1B}]4;1;rgb:12/34/56\u{7}\u{1B}[?5h\u{1B}[31mX")
        let snapshot = terminal.snapshot()
        let colors = snapshot.colors(of: snapshot.line(0).cell(0).style)
        #expect(colors.background == RGB(0x12, 0x34, 0x56))  // reverse video: the red is behind
        #expect(colors.foreground == snapshot.palette.defaultBackground)
    }
}

@Suite("Palettes from embedders")
struct EmbedderPaletteTests {
    @Test("A sixteen colour theme is completed not a trap") func aSixteenColourThemeIsCompletedNotATrap() {
        // An embedder's 16-colour theme: colour 200 and OSC 4 queries past 15
        // must still work (they trapped on a 16-entry array).
        let terminal = Terminal(columns: 10, rows: 2, scrollback: 0)
        var palette = Palette.xterm
        palette.colors = (0..<16).map { RGB(UInt8($0), 0, 0) }
        palette.specialColors = []
        terminal.palette = palette
        #expect(terminal.palette.colors.count == 256 && terminal.palette.specialColors.count == 5)
        #expect(terminal.palette.colors[3] == RGB(3, 0, 0))
        #expect(terminal.palette.colors[200] == Palette.xterm.colors[200])
        var replies: [UInt8] = []
        terminal.writeBack = { replies += $0 }
        terminal.feed("\u{1B}[38;5;200mX\u{1B}]4;200;?\u{7}\u{1B}]5;4;?\u{7}")
        let snapshot = terminal.snapshot()
        #expect(snapshot.colors(of: snapshot.line(0).cell(0).style).foreground == Palette.xterm.colors[200])
        #expect(String(decoding: replies, as: UTF8.self).contains("]4;200;rgb:"))
        // Too many entries are cut.
        palette.colors = [RGB](repeating: RGB(1, 1, 1), count: 300)
        #expect(palette.colors.count == 256)
    }
}
