import TermCore
import TermRender
import TestSupport
import Testing

@Suite("Text and HTML renderers")
struct RendererTests {
    @Test func textTrimsAndKeepsWideCharactersOnce() {
        let t = terminal(10, 3, "a漢e\u{301}  \r\nb")
        #expect(TextRenderer.render(t.snapshot()) == "a漢é\nb\n")
    }

    @Test func textJoinsSoftWrappedLinesOnRequest() {
        let t = terminal(5, 3, "abcdefgh\r\nz")
        #expect(TextRenderer.render(t.snapshot(), joinWrapped: false) == "abcde\nfgh\nz")
        #expect(TextRenderer.render(t.snapshot(), joinWrapped: true) == "abcdefgh\nz")
    }

    @Test func textIncludesTheScrollbackTheSnapshotHolds() {
        let t = terminal(5, 2, "1\r\n2\r\n3")
        #expect(TextRenderer.render(t.snapshot(scrollback: 0..<10)) == "1\n2\n3")
        #expect(TextRenderer.render(t.snapshot()) == "2\n3")
    }

    @Test func htmlEscapesTextAndStylesRuns() {
        let t = terminal(12, 1, "<a>&\(CSI)1;31mred")
        let html = HTMLRenderer.render(t.snapshot())
        #expect(html.contains("&lt;a&gt;&amp;"))
        #expect(html.contains("<span style=\"color:#cd0000;font-weight:bold\">red</span>"))
        #expect(!html.contains("<a>"))
    }

    @Test func htmlLinksOnlySafeSchemes() {
        let t = terminal(
            20, 2, "\(ESC)]8;;https://e.com/?a=\"x\"\u{07}ok\(ESC)]8;;\u{07}\r\n\(ESC)]8;;javascript:alert(1)\u{07}no")
        let html = HTMLRenderer.render(t.snapshot())
        #expect(html.contains("<a href=\"https://e.com/?a=&quot;x&quot;\">ok</a>"))
        #expect(!html.contains("javascript"))
    }
}

@Suite("ANSI renderer")
struct ANSIRendererTests {
    /// Random screens (text, styles, links, wide characters, clusters,
    /// scrollback): rendered, fed into a fresh terminal, equal snapshots.
    @Test(arguments: 0..<4)
    func roundTripOfRandomScreens(batch: Int) {
        var failures: [String] = []
        for seed in (batch * 100)..<(batch * 100 + 100) {
            var rng = SplitMix64(seed: UInt64(seed) &+ 1_000_000)
            let columns = [8, 20, 41].randomElement(using: &rng)!
            let rows = [2, 5, 12].randomElement(using: &rng)!
            let original = Terminal(columns: columns, rows: rows, scrollback: 200)
            original.feed(RandomStream.screen(&rng, operations: 200))
            let snapshot = original.snapshot(scrollback: 0..<original.scrollbackCount)
            let copy = Terminal(columns: columns, rows: rows, scrollback: 200)
            copy.feed(ANSIRenderer.render(snapshot, scrollback: 200))
            let other = copy.snapshot(scrollback: 0..<copy.scrollbackCount)
            var differences: [String] = []
            if other.cursor != snapshot.cursor { differences.append("cursor \(snapshot.cursor) vs \(other.cursor)") }
            if other.modes != snapshot.modes || other.title != snapshot.title { differences.append("modes or title") }
            if other.scrollbackCount != snapshot.scrollbackCount { differences.append("scrollback count") }
            for index in 0..<min(other.scrollbackCount, snapshot.scrollbackCount)
            where !sameLine(snapshot.scrollbackLine(index), other.scrollbackLine(index)) {
                differences.append("scrollback line \(index)")
            }
            for row in 0..<rows where !sameLine(snapshot.line(row), other.line(row)) {
                differences.append("row \(row)")
            }
            if !differences.isEmpty {
                failures.append("seed \(seed): " + differences.prefix(3).joined(separator: ", "))
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    func sameLine(_ left: SnapshotLine, _ right: SnapshotLine) -> Bool {
        left.isWrapped == right.isWrapped && left.size == right.size
            && (0..<left.columnCount).allSatisfy { left.cell($0) == right.cell($0) }
    }
}
