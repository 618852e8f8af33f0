import Foundation
import TermCore
import TestSupport
import Testing

/// `LockedTerminal` against a `Terminal` used directly: the same calls give
/// the same answers, and under concurrent use (run under ThreadSanitizer by
/// `scripts/test.sh`) nothing is lost or reordered.
@Suite("Locked terminal")
struct LockedTerminalTests {
    static let output =
        "\(CSI)?1h\(CSI)?1000h\(CSI)?1006h\(CSI)?2004h\(CSI)?1004h"
        + (0..<40).map { "line \($0) error \($0 % 3)\r\n" }.joined() + "a long line that wraps past thirty"

    /// Every way of feeding gives the screen a plain `Terminal` shows for
    /// the same bytes: arrays, slices, `Data`, raw and typed buffers, and a
    /// sequence without contiguous storage.
    @Test("Every kind of bytes feeds the same") func everyKindOfBytesFeedsTheSame() {
        let bytes = Array(Self.output.utf8)
        let reference = Terminal(columns: 30, rows: 8, scrollback: 100)
        reference.feed(bytes)
        let expected = reference.snapshot(scrollback: 0..<100)
        let feeds: [(String, (LockedTerminal) -> Void)] = [
            ("array", { $0.feed(bytes) }),
            ("slice", { shared in for part in [bytes[..<100], bytes[100...]] { shared.feed(part) } }),
            ("Data", { $0.feed(Data(bytes)) }),
            ("raw buffer", { shared in bytes.withUnsafeBytes { shared.feed($0) } }),
            ("typed buffer", { shared in bytes.withUnsafeBufferPointer { shared.feed($0) } }),
            ("lazy map", { $0.feed(bytes.lazy.map { $0 }) }),
            ("string's UTF-8", { $0.feed(Self.output.utf8) }),
        ]
        for (name, feed) in feeds {
            let shared = LockedTerminal(Terminal(columns: 30, rows: 8, scrollback: 100))
            feed(shared)
            let snapshot = shared.snapshot(scrollback: 0..<100)
            #expect(snapshot.scrollbackCount == expected.scrollbackCount, "\(name)")
            #expect(
                (0..<8).map { snapshot.line($0).text } == (0..<8).map { expected.line($0).text }, "\(name)")
            #expect(
                (0..<snapshot.scrollbackCount).map { snapshot.scrollbackLine($0).text }
                    == (0..<expected.scrollbackCount).map { expected.scrollbackLine($0).text }, "\(name)")
        }
    }

    /// The conveniences answer as the terminal's own calls do.
    @Test("The conveniences answer as the terminal") func theConveniencesAnswerAsTheTerminal() {
        let reference = Terminal(columns: 30, rows: 8, scrollback: 100)
        reference.feed(Self.output)
        let shared = LockedTerminal(Terminal(columns: 30, rows: 8, scrollback: 100))
        shared.feed(Array(Self.output.utf8))
        #expect(shared.scrollbackCount == reference.scrollbackCount)
        #expect((0..<8).map(shared.screenLine) == (0..<8).map(reference.screenLine))
        // The cursor's row: the second half of the wrapped line.
        let line = reference.bufferLine(ofScreenRow: reference.cursor.position.row)
        #expect(shared.withTerminal { $0.bufferLine(ofScreenRow: $0.cursor.position.row) } == line)
        let selection = Selection(anchor: BufferPoint(line: line, column: 0), granularity: .line)
        #expect(shared.text(of: selection) == reference.text(of: selection))
        #expect(shared.text(of: selection) == "a long line that wraps past thirty")
        #expect(shared.search("error 2") == reference.search("error 2"))
        #expect(shared.search("ERROR", caseSensitive: false, limit: 5).count == 5)

        // Input through the modes the output set: DECCKM, SGR mouse, paste, focus.
        let encoder = reference.inputEncoder
        #expect(shared.inputEncoder == encoder)
        #expect(shared.encode(KeyEvent(.up)) == Array("\(ESC)OA".utf8))
        let click = MouseEvent(.press, .left, at: ScreenPosition(row: 2, column: 4))
        #expect(shared.encode(click) == Array("\(CSI)<0;5;3M".utf8))
        #expect(shared.paste(Array("a\nb".utf8)) == Array("\(CSI)200~a\rb\(CSI)201~".utf8))
        #expect(shared.focus(false) == Array("\(CSI)O".utf8))

        shared.resize(columns: 20, rows: 6)
        reference.resize(columns: 20, rows: 6)
        #expect((0..<6).map(shared.screenLine) == (0..<6).map(reference.screenLine))
        #expect(shared.withTerminal { ($0.columns, $0.rows) } == (20, 6))
    }

    /// `withTerminal` passes errors through, typed.
    @Test("With terminal rethrows") func withTerminalRethrows() {
        struct Refused: Error, Equatable {}
        let shared = LockedTerminal(Terminal(columns: 10, rows: 2))
        #expect(throws: Refused()) {
            try shared.withTerminal { (terminal) throws(Refused) -> Int in
                if terminal.columns == 10 { throw Refused() }
                return 0
            }
        }
        // The lock was released on the way out.
        #expect(shared.scrollbackCount == 0)
    }

    /// Taking the lock again from a callback that runs under it is a bug
    /// the error-checking mutex turns into a trap, not a hang.
    @Test("Using the lock from its own callback traps") func usingTheLockFromItsOwnCallbackTraps() async {
        await #expect(processExitsWith: .failure) {
            let shared = LockedTerminal(Terminal(columns: 10, rows: 2))
            shared.withTerminal { $0.writeBack = { _ in shared.feed([0x41]) } }
            shared.feed(Array("\u{1B}[5n".utf8))
        }
        await #expect(processExitsWith: .failure) {
            let shared = LockedTerminal(Terminal(columns: 10, rows: 2))
            _ = shared.withTerminal { _ in shared.scrollbackCount }
        }
    }

    /// One task feeds output full of queries, another drains replies and
    /// events while it does, a third types and draws: what the drains
    /// return, joined, is what closures on a terminal fed alone receive.
    @Test("Concurrent drains give the closures output in order") func concurrentDrainsGiveTheClosuresOutputInOrder()
        async
    {
        let pieces = queryingStream(seed: 7, count: 4000)
        let reference = Terminal(columns: 80, rows: 24)
        var expectedReplies: [UInt8] = []
        var expectedEvents: [TerminalEvent] = []
        reference.writeBack = { expectedReplies += $0 }
        reference.onEvent = { expectedEvents.append($0) }
        for piece in pieces { reference.feed(piece) }

        let terminal = Terminal(columns: 80, rows: 24)
        terminal.queuesReplies = true
        terminal.queuesEvents = true
        let shared = LockedTerminal(terminal)
        let (replies, events) = await withTaskGroup(of: ([UInt8], [TerminalEvent]).self) { group in
            group.addTask {
                for piece in pieces { shared.feed(piece) }
                return ([], [])
            }
            group.addTask {
                var replies: [UInt8] = []
                var events: [TerminalEvent] = []
                for _ in 0..<2000 {
                    replies += shared.drainReplies()
                    events += shared.drainEvents()
                }
                return (replies, events)
            }
            group.addTask {
                for row in 0..<500 {
                    _ = shared.encode(KeyEvent(.up))
                    _ = shared.encode(MouseEvent(.press, .left, at: ScreenPosition(row: row % 24, column: 0)))
                    _ = shared.snapshot()
                }
                return ([], [])
            }
            var replies: [UInt8] = []
            var events: [TerminalEvent] = []
            for await (r, e) in group {
                replies += r
                events += e
            }
            return (replies, events)
        }
        #expect(expectedReplies.count > 10_000 && expectedEvents.count > 500)
        #expect(replies + shared.drainReplies() == expectedReplies)
        #expect(events + shared.drainEvents() == expectedEvents)
    }
}
