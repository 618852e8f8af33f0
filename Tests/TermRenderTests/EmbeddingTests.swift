import TermCore
import TermRender
import Testing

// The non-UI code of docs/EMBEDDING.md, compiled and run here.

struct Frame {
    var snapshot: Snapshot
    var dirtyRows: [Int]
}

final class TerminalModel: @unchecked Sendable {
    let terminal = LockedTerminal(Terminal(columns: 80, rows: 24))
    private var last: Snapshot?

    func received(_ bytes: [UInt8]) { terminal.feed(bytes) }

    func nextFrame() -> Frame? {
        let snapshot = terminal.snapshot()
        if snapshot.modes.synchronizedOutput, last != nil { return nil }
        let dirty = last.map { snapshot.changedRows(since: $0) } ?? Array(0..<snapshot.rows)
        last = snapshot
        return dirty.isEmpty ? nil : Frame(snapshot: snapshot, dirtyRows: dirty)
    }
}

func colors(of run: StyleRun, in snapshot: Snapshot) -> (foreground: RGB, background: RGB) {
    ThumbnailRenderer.colors(of: run.style, palette: snapshot.palette, reverseVideo: snapshot.modes.reverseVideo)
}

@Suite("Embedding guide")
struct EmbeddingTests {
    @Test func frameLoopRedrawsOnlyWhatChanged() {
        let model = TerminalModel()
        #expect(model.nextFrame()?.dirtyRows.count == 24)
        #expect(model.nextFrame() == nil)
        model.received(Array("\u{1B}[3;1H\u{1B}[31mred".utf8))
        let frame = model.nextFrame()
        #expect(frame?.dirtyRows == [2])
        let run = frame!.snapshot.line(2).runs[0]
        #expect(colors(of: run, in: frame!.snapshot).foreground == Palette.xterm.colors[1])
        model.received(Array("\u{1B}[?2026hx".utf8))
        #expect(model.nextFrame() == nil)  // synchronized update in progress
        model.received(Array("\u{1B}[?2026l".utf8))
        #expect(model.nextFrame()?.dirtyRows == [2])
    }
}

@Suite("Rendering while feeding")
struct ConcurrentRenderingTests {
    /// Snapshots taken through the lock are rendered on another thread while
    /// feeding goes on (run under `swift test --sanitize=thread`).
    @Test func snapshotsRenderOnAnotherThreadWhileFeeding() async {
        let shared = LockedTerminal(Terminal(columns: 40, rows: 10, scrollback: 100))
        let lines = (0..<1500).map { Array("line \($0) \u{1B}[3\($0 % 8)m漢字 colour\u{1B}[0m\r\n".utf8) }
        await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for line in lines { shared.feed(line) }
                return 0
            }
            group.addTask {
                var bytes = 0
                for _ in 0..<60 {
                    let snapshot = shared.snapshot(scrollback: 0..<100)
                    bytes += ThumbnailRenderer.png(snapshot, size: .minimap).count
                    bytes += TextRenderer.render(snapshot).utf8.count + HTMLRenderer.render(snapshot).utf8.count
                }
                return bytes
            }
            for await _ in group {}
        }
        #expect(TextRenderer.render(shared.snapshot()).contains("line 1499 漢字 colour"))
    }
}
