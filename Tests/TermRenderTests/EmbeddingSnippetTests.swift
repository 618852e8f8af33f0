import Foundation
import TermCore
import TermRender
import Testing

// The short snippets of docs/EMBEDDING.md ("Drawing while feeding", "Piped
// output", "Resizing", "Thumbnails and text"), compiled and run here; the
// longer recipes have tests of their own (named in each section's title).

@Suite("Embedding guide: snippets")
struct EmbeddingSnippetTests {
    /// "Drawing while feeding": a reader thread feeds, the UI thread takes
    /// snapshots and draws them, the terminal shared through its lock (run
    /// under ThreadSanitizer by scripts/test.sh).
    @Test("Drawing while feeding") func drawingWhileFeeding() async {
        let shared = LockedTerminal(Terminal(columns: 80, rows: 24))
        let output = (0..<2_000).map { Array("line \($0) \u{1B}[1;3\($0 % 8)mcolour\u{1B}[0m\r\n".utf8) }
        let reader = Task.detached {
            for chunk in output { shared.feed(chunk) }
        }
        var last: Snapshot?
        var frames = 0
        while frames < 200 {
            let snapshot = shared.snapshot()
            let changes = last.map { snapshot.changes(since: $0) }
            if changes?.isEmpty != true {
                for row in changes?.rows ?? Array(0..<snapshot.rows) {
                    for run in snapshot.line(row).runs { _ = (run.text, snapshot.colors(of: run.style)) }
                }
            }
            last = snapshot
            frames += 1
        }
        await reader.value
        #expect(shared.snapshot().line(22).text == "line 1999 colour")
    }

    @Test("Piped output") func pipedOutput() {
        let terminal = Terminal(columns: 20, rows: 3, scrollback: 0)
        let pipe: [[UInt8]] = [Array("one\ntw".utf8), Array("o\nthree".utf8)]
        for chunk in pipe { terminal.feed(LineDiscipline.onlcr(chunk)) }
        #expect((0..<3).map { terminal.screenLine($0) } == ["one", "two", "three"])
    }

    @Test("Resizing") func resizing() {
        let terminal = Terminal(columns: 80, rows: 24)
        terminal.reflowsOnResize = false  // default true
        terminal.resize(columns: 100, rows: 30)
        #expect(terminal.columns == 100 && terminal.rows == 30)
    }

    @Test("Thumbnails and text") func thumbnailsAndText() {
        let terminal = Terminal(columns: 20, rows: 4)
        terminal.feed("\u{1B}[31mred\u{1B}[0m text")
        let snapshot = terminal.snapshot()
        let png = ThumbnailRenderer.png(snapshot, size: .minimap)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(TextRenderer.render(snapshot, joinWrapped: true).hasPrefix("red text"))
        #expect(HTMLRenderer.render(snapshot).contains("red"))
        #expect(!ANSIRenderer.render(snapshot).isEmpty)
    }
}
