import TermCore
import TermRender
import Testing

/// TermRender's public SGR forwarders (to TermCore's `SGRWriter`) and OSC 8
/// writer, kept for callers of TermRender. Expected bytes are xterm's
/// ctlseqs forms.
@Suite("SGR and OSC 8 writers")
struct SGRWriterTests {
    @Test("Every rendition from a reset") func everyRenditionFromAReset() {
        #expect(ANSIRenderer.sgr(Style()) == "\u{1B}[0m")
        #expect(ANSIRenderer.sgr(Style(foreground: .indexed(1), flags: .bold)) == "\u{1B}[0;1;31m")
        // Underline styles (4:n) and colour (58) were dropped by the painter's own writer.
        let curly = Style(underlineColor: .indexed(196), underline: .curly)
        #expect(ANSIRenderer.sgr(curly) == "\u{1B}[0;4:3;58;5;196m")
        let dashed = Style(background: .rgb(1, 2, 3), underlineColor: .rgb(10, 200, 30), underline: .dashed)
        #expect(ANSIRenderer.sgr(dashed) == "\u{1B}[0;4:5;48;2;1;2;3;58;2;10;200;30m")
        #expect(ANSIRenderer.sgr(Style(foreground: .indexed(9), flags: .overline)) == "\u{1B}[0;53;91m")
    }

    @Test("Transitions") func transitions() {
        #expect(ANSIRenderer.sgr(from: Style(), to: Style()) == "")
        #expect(ANSIRenderer.sgr(from: Style(flags: .bold), to: Style()) == "\u{1B}[m")
        #expect(ANSIRenderer.sgr(from: Style(), to: Style(flags: .italic)) == "\u{1B}[3m")
    }

    @Test("Hyperlinks open close and refuse controls") func hyperlinksOpenCloseAndRefuseControls() {
        #expect(ANSIRenderer.hyperlink(Hyperlink(uri: "https://e.com/")) == "\u{1B}]8;;https://e.com/\u{1B}\\")
        #expect(ANSIRenderer.hyperlink(Hyperlink(uri: "file:///x", id: "a1")) == "\u{1B}]8;id=a1;file:///x\u{1B}\\")
        #expect(ANSIRenderer.hyperlink(nil) == "\u{1B}]8;;\u{1B}\\")
        // A control character would end the OSC string early: the link is closed instead.
        #expect(ANSIRenderer.hyperlink(Hyperlink(uri: "https://e.com/\u{7}\u{1B}[2J")) == "\u{1B}]8;;\u{1B}\\")
        #expect(ANSIRenderer.hyperlink(Hyperlink(uri: "x", id: "\u{9C}")) == "\u{1B}]8;;\u{1B}\\")
    }
}
