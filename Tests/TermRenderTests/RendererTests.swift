import TermCore
import TermRender
import TestSupport
import Testing

@Suite("Text and HTML renderers")
struct RendererTests {
    @Test("Text trims and keeps wide characters once") func textTrimsAndKeepsWideCharactersOnce() {
        let t = terminal(10, 3, "a漢e\u{301}  \r\nb")
        #expect(TextRenderer.render(t.snapshot()) == "a漢é\nb\n")
    }

    @Test("Text joins soft wrapped lines on request") func textJoinsSoftWrappedLinesOnRequest() {
        let t = terminal(5, 3, "abcdefgh\r\nz")
        #expect(TextRenderer.render(t.snapshot(), joinWrapped: false) == "abcde\nfgh\nz")
        #expect(TextRenderer.render(t.snapshot(), joinWrapped: true) == "abcdefgh\nz")
    }

    @Test("Text includes the scrollback the snapshot holds") func textIncludesTheScrollbackTheSnapshotHolds() {
        let t = terminal(5, 2, "1\r\n2\r\n3")
        #expect(TextRenderer.render(t.snapshot(scrollback: 0..<10)) == "1\n2\n3")
        #expect(TextRenderer.render(t.snapshot()) == "2\n3")
    }

    @Test("HTML escapes text and styles runs") func htmlEscapesTextAndStylesRuns() {
        let t = terminal(12, 1, "<a>&\(CSI)1;31mred")
        let html = HTMLRenderer.render(t.snapshot())
        #expect(html.contains("&lt;a&gt;&amp;"))
        #expect(html.contains("<span style=\"color:#cd0000;font-weight:bold\">red</span>"))
        #expect(!html.contains("<a>"))
    }

    @Test("HTML links only safe schemes") func htmlLinksOnlySafeSchemes() {
        let t = terminal(
            20, 2, "\(ESC)]8;;https://e.com/?a=\"x\"\u{07}ok\(ESC)]8;;\u{07}\r\n\(ESC)]8;;javascript:alert(1)\u{07}no")
        let html = HTMLRenderer.render(t.snapshot())
        #expect(html.contains("<a href=\"https://e.com/?a=&quot;x&quot;\">ok</a>"))
        #expect(!html.contains("javascript"))
    }
}
