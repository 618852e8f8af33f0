import TermCore
import TermRender
import TestSupport
import Testing

/// TermRender's ANSI renderer writes a snapshot through this module's state
/// encoder (the replay compactor's): the round trip of random screens is
/// checked here, beside the compaction round trips and their generators.
@Suite("ANSI renderer")
struct ANSIRendererTests {
    /// Random screens (text, styles, links, wide characters, clusters,
    /// scrollback): rendered, fed into a fresh terminal, equal snapshots.
    @Test("Round trip of random screens", arguments: 0..<4)
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
