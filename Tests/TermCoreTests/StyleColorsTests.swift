import Testing

@testable import TermCore

/// `Palette.colors(of:reverseVideo:)`, the one resolution from a style to
/// the colours drawn (issue #19, item 6): renderers and front ends use it
/// from TermCore.
@Suite("Style colours")
struct StyleColorsTests {
    let palette = Palette.xterm

    @Test func defaultsAndPaletteEntries() {
        let plain = palette.colors(of: Style())
        #expect(plain.foreground == palette.defaultForeground && plain.background == palette.defaultBackground)
        let red = palette.colors(of: Style(foreground: .indexed(1), background: .rgb(1, 2, 3)))
        #expect(red.foreground == palette.colors[1] && red.background == RGB(1, 2, 3))
        #expect(red.underline == red.foreground)
    }

    @Test func inverseAndReverseVideoSwapAndCancel() {
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

    @Test func hiddenDrawsTheBackgroundAndTheUnderlineHasItsOwnColour() {
        let hidden = palette.colors(of: Style(foreground: .indexed(1), background: .indexed(3), flags: .hidden))
        #expect(hidden.foreground == hidden.background && hidden.background == palette.colors[3])
        let underlined = palette.colors(
            of: Style(foreground: .indexed(1), underlineColor: .rgb(9, 8, 7), flags: .inverse, underline: .curly))
        #expect(underlined.underline == RGB(9, 8, 7))
        #expect(underlined.foreground == palette.defaultBackground)  // swapped
    }

    @Test func aSnapshotResolvesWithItsOwnPaletteAndReverseVideo() {
        let terminal = Terminal(columns: 4, rows: 1, scrollback: 0)
        terminal.feed("\u{1B}]4;1;rgb:12/34/56\u{7}\u{1B}[?5h\u{1B}[31mX")
        let snapshot = terminal.snapshot()
        let colors = snapshot.colors(of: snapshot.line(0).cell(0).style)
        #expect(colors.background == RGB(0x12, 0x34, 0x56))  // reverse video: the red is behind
        #expect(colors.foreground == snapshot.palette.defaultBackground)
    }
}
