import TermCore
import Testing

@Suite("Selection, search and viewport")
struct SelectionSearchViewportTests {
    @Test("Character selection across rows") func characterSelectionAcrossRows() {
        let t = terminal(10, 3, "hello\r\nworld")
        let selection = Selection(anchor: BufferPoint(line: 0, column: 1), head: BufferPoint(line: 1, column: 2))
        #expect(t.text(of: selection) == "ello\nwor")
    }

    @Test("Soft wrapped rows join without a newline") func softWrappedRowsJoinWithoutANewline() {
        let t = terminal(5, 3, "abcdefgh")
        let selection = Selection(anchor: BufferPoint(line: 0, column: 0), head: BufferPoint(line: 1, column: 4))
        #expect(t.text(of: selection) == "abcdefgh")
    }

    @Test("Selection is normalised when dragged backwards") func selectionIsNormalisedWhenDraggedBackwards() {
        let t = terminal(10, 2, "hello")
        let selection = Selection(anchor: BufferPoint(line: 0, column: 3), head: BufferPoint(line: 0, column: 1))
        #expect(t.text(of: selection) == "ell")
    }

    @Test("Word selection expands to the word") func wordSelectionExpandsToTheWord() {
        let t = terminal(30, 2, "see /usr/local/bin now")
        let selection = Selection(anchor: BufferPoint(line: 0, column: 8), granularity: .word)
        #expect(t.text(of: selection) == "/usr/local/bin")
    }

    @Test("Word selection follows soft wraps") func wordSelectionFollowsSoftWraps() {
        let t = terminal(6, 3, "ab verylongword")
        let selection = Selection(anchor: BufferPoint(line: 1, column: 2), granularity: .word)
        #expect(t.text(of: selection) == "verylongword")
    }

    @Test("Line selection takes the whole logical line") func lineSelectionTakesTheWholeLogicalLine() {
        let t = terminal(5, 4, "x\r\nabcdefg\r\ny")
        let selection = Selection(anchor: BufferPoint(line: 2, column: 0), granularity: .line)
        #expect(t.text(of: selection) == "abcdefg")
    }

    @Test("Selection reaches into scrollback") func selectionReachesIntoScrollback() {
        let t = terminal(10, 2, "one\r\ntwo\r\nthree")
        #expect(t.scrollbackCount == 1)
        let selection = Selection(anchor: BufferPoint(line: 0, column: 0), head: BufferPoint(line: 2, column: 9))
        #expect(t.text(of: selection) == "one\ntwo\nthree")
    }

    @Test("Search finds matches in scrollback and screen") func searchFindsMatchesInScrollbackAndScreen() {
        let t = terminal(10, 2, "foo\r\nbar foo\r\nfoo")
        let matches = t.search("foo")
        #expect(
            matches.map(\.start) == [
                BufferPoint(line: 0, column: 0), BufferPoint(line: 1, column: 4), BufferPoint(line: 2, column: 0),
            ])
        #expect(matches[1].end == BufferPoint(line: 1, column: 6))
    }

    @Test("Search crosses soft wraps but not hard line ends") func searchCrossesSoftWrapsButNotHardLineEnds() {
        let t = terminal(4, 4, "xxneedle\r\nne\r\ndle")
        let matches = t.search("needle")
        #expect(matches == [BufferRange(start: BufferPoint(line: 0, column: 2), end: BufferPoint(line: 1, column: 3))])
    }

    @Test("Case insensitive search") func caseInsensitiveSearch() {
        #expect(terminal(20, 1, "Hello HELLO").search("hello", caseSensitive: false).count == 2)
        #expect(terminal(20, 1, "Hello HELLO").search("hello").isEmpty)
    }

    @Test("Search results are bounded") func searchResultsAreBounded() {
        let t = terminal(80, 2, String(repeating: "a", count: 150))
        #expect(t.search("a", limit: 7).count == 7)
    }

    @Test("Search match covers a wide character") func searchMatchCoversAWideCharacter() {
        let t = terminal(10, 1, "a漢b")
        #expect(
            t.search("漢") == [BufferRange(start: BufferPoint(line: 0, column: 1), end: BufferPoint(line: 0, column: 2))]
        )
    }

    @Test("Viewport shows scrollback above the screen") func viewportShowsScrollbackAboveTheScreen() {
        let t = terminal(10, 3, "1\r\n2\r\n3\r\n4\r\n5")
        var viewport = Viewport()
        viewport.scroll(by: 2, scrollbackCount: t.scrollbackCount)
        let range = viewport.scrollbackRange(rows: t.rows, scrollbackCount: t.scrollbackCount)
        #expect(range == 0..<2)
        let lines = viewport.lines(of: t.snapshot(scrollback: range))
        #expect(lines.map(\.text) == ["1", "2", "3"])
        #expect(viewport.lines(of: t.snapshot(viewport: viewport)).map(\.text) == ["1", "2", "3"])  // EMBEDDING.md
        viewport.scroll(by: 100, scrollbackCount: t.scrollbackCount)
        #expect(viewport.offset == 2)
        viewport.scrollToBottom()
        #expect(viewport.lines(of: t.snapshot()).map(\.text) == ["3", "4", "5"])
    }

    @Test("Viewport follows new output while scrolled back") func viewportFollowsNewOutputWhileScrolledBack() {
        var viewport = Viewport()
        viewport.scroll(by: 1, scrollbackCount: 5)
        viewport.follow(newScrollbackLines: 3, scrollbackCount: 8)
        #expect(viewport.offset == 4)
    }
}
