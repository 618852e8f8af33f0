import Foundation
import TermCore
import TermRender
import Testing

// The non-UI code of docs/EMBEDDING.md, compiled and run here.

struct Frame {
    var snapshot: Snapshot
    var dirtyRows: [Int]
    var changes: SnapshotChanges
}

final class TerminalModel: @unchecked Sendable {
    let terminal: LockedTerminal
    private var last: Snapshot?

    init(_ terminal: sending Terminal = Terminal(columns: 80, rows: 24)) {
        self.terminal = LockedTerminal(terminal)
    }

    func received(_ bytes: [UInt8]) { terminal.feed(bytes) }

    func nextFrame() -> Frame? {
        let snapshot = terminal.snapshot()
        if snapshot.isHoldingFrame, last != nil { return nil }
        guard let last else {
            self.last = snapshot
            return Frame(snapshot: snapshot, dirtyRows: Array(0..<snapshot.rows), changes: SnapshotChanges())
        }
        let changes = snapshot.changes(since: last)
        self.last = snapshot
        if changes.isEmpty { return nil }
        var rows = Set(changes.needsFullRedraw ? Array(0..<snapshot.rows) : changes.rows)
        if changes.cursor {
            rows.insert(last.cursor.position.row)
            rows.insert(snapshot.cursor.position.row)
        }
        return Frame(snapshot: snapshot, dirtyRows: rows.sorted(), changes: changes)
    }
}

func colors(of run: StyleRun, in snapshot: Snapshot) -> (foreground: RGB, background: RGB) {
    let colors = snapshot.colors(of: run.style)
    return (colors.foreground, colors.background)
}

@Suite("Embedding guide")
struct EmbeddingTests {
    @Test("Frame loop redraws only what changed") func frameLoopRedrawsOnlyWhatChanged() {
        let model = TerminalModel()
        #expect(model.nextFrame()?.dirtyRows.count == 24)
        #expect(model.nextFrame() == nil)
        model.received(Array("\u{1B}[3;1H\u{1B}[31mred".utf8))
        let frame = model.nextFrame()
        #expect(frame?.dirtyRows == [0, 2])  // the text's row, and the row the cursor left
        let run = frame!.snapshot.line(2).runs[0]
        #expect(colors(of: run, in: frame!.snapshot).foreground == Palette.xterm.colors[1])
        model.received(Array("\u{1B}[?2026hx".utf8))
        #expect(model.nextFrame() == nil)  // synchronized update in progress
        model.received(Array("\u{1B}[?2026l".utf8))
        #expect(model.nextFrame()?.dirtyRows == [2])
        // What changes no cell still makes a frame: the cursor (the rows it
        // left and entered), reverse video and colours (every row).
        model.received(Array("\u{1B}[6;1H".utf8))
        let moved = model.nextFrame()
        #expect(moved?.changes.cursor == true && moved?.dirtyRows == [2, 5])
        model.received(Array("\u{1B}[?5h".utf8))
        #expect(model.nextFrame()?.dirtyRows.count == 24)
        model.received(Array("\u{1B}]11;rgb:00/00/40\u{7}".utf8))
        #expect(model.nextFrame()?.changes.colors == true)
        #expect(model.nextFrame() == nil)
    }

    @Test("A synchronized update never ended is released after its timeout")
    func aSynchronizedUpdateNeverEndedIsReleasedAfterItsTimeout() throws {
        let terminal = Terminal(columns: 20, rows: 4)
        terminal.synchronizedOutputTimeout = 0.05
        let model = TerminalModel(terminal)
        _ = model.nextFrame()
        model.received(Array("\u{1B}[?2026hhalf a fra".utf8))  // and the program dies
        #expect(model.nextFrame() == nil)
        let remaining = try #require(model.terminal.frameHoldRemaining)
        #expect(remaining > 0 && remaining <= 0.05)
        var frame: Frame?
        for _ in 0..<500 where frame == nil {
            frame = model.nextFrame()
            if frame == nil { Thread.sleep(forTimeInterval: 0.002) }
        }
        #expect(frame?.dirtyRows == [0])
    }
}

@Suite("Rendering while feeding")
struct ConcurrentRenderingTests {
    /// Snapshots taken through the lock are rendered on another thread while
    /// feeding goes on (run under `swift test --sanitize=thread`).
    @Test("Snapshots render on another thread while feeding") func snapshotsRenderOnAnotherThreadWhileFeeding() async {
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
