import Foundation
import TestSupport
import Testing

@testable import TermCore

/// Reproducers of crashes and unbounded growth found by fuzzing and code
/// reading (issue #16), each kept as the input that showed it, and the
/// properties behind them checked on random input.
@Suite("Hostile input")
struct HostileInputTests {
    // MARK: Saved cursors across resizes

    @Test("a cursor saved low on the primary screen survives shrinking, the alternate screen and growing")
    func savedPrimaryCursorIsClampedOnResize() {
        // `termengine dump --scrollback 0 --cols 80 --rows 50 --resize 80x20@10
        // --resize 80x30@16` of these 16 bytes read outside the grid (SIGSEGV).
        let t = Terminal(columns: 80, rows: 50, scrollback: 0)
        t.feed("\(CSI)50;1H\(CSI)s")
        t.resize(columns: 80, rows: 20)
        #expect(t.savedCursor(alternateScreen: false)?.position == ScreenPosition(row: 19, column: 0))
        t.feed("\(CSI)?47h")
        t.resize(columns: 80, rows: 30)
        #expect(t.state.invariantViolations() == [])
        // Back on the primary screen, CSI u (SCORC) restores what was saved,
        // moved onto the 20-row screen it was clamped to.
        t.feed("\(CSI)?47l\(CSI)u")
        #expect(t.at == [19, 0])
    }

    @Test("a cursor saved on a 16x4 screen is clamped by a resize to 1x1")
    func savedCursorIsClampedToOneCell() {
        // Compacting after this trapped in StateEncoder.writeSavedCursor.
        let t = Terminal(columns: 16, rows: 4, scrollback: 100)
        t.feed("\u{0B}\(CSI)s")
        t.resize(columns: 1, rows: 1)
        #expect(t.savedCursor(alternateScreen: false)?.position == ScreenPosition(row: 0, column: 0))
        #expect(t.state.invariantViolations() == [])
    }

    @Test("a cursor saved on the alternate screen is clamped, and DECRC lands on the screen")
    func savedAlternateCursorIsClamped() {
        let t = Terminal(columns: 40, rows: 10, scrollback: 10)
        t.feed("\(CSI)?1049h\(CSI)10;40H\u{1B}7")
        t.resize(columns: 5, rows: 3)
        #expect(t.savedCursor(alternateScreen: true)?.position == ScreenPosition(row: 2, column: 4))
        t.feed("\(CSI)H\u{1B}8")
        #expect(t.at == [2, 4])
    }

    @Test("resizes in any order among saved cursors, both screens, margins and DECOM keep every position valid")
    func randomResizesKeepEveryPositionValid() {
        var random = SplitMix64(seed: 16)
        let operations = [
            "\u{1B}7", "\u{1B}8", "\(CSI)s", "\(CSI)u", "\(CSI)?47h", "\(CSI)?47l", "\(CSI)?1047h", "\(CSI)?1047l",
            "\(CSI)?1048h", "\(CSI)?1048l", "\(CSI)?1049h", "\(CSI)?1049l", "\(CSI)?6h", "\(CSI)?6l", "\(CSI)?69h",
            "\(CSI)?69l", "\(CSI)?40h", "\(CSI)?3h", "\(CSI)?3l", "\u{1B}c", "\(CSI)!p", "\r\n", "\u{1B}M", "x",
            "漢", "\u{1B}#6", "\(CSI)2J", "\(CSI)3J",
        ]
        // `TERMENGINE_LONG=1 swift test` runs 100 times as many (README).
        let rounds = ProcessInfo.processInfo.environment["TERMENGINE_LONG"] == "1" ? 20_000 : 200
        for round in 0..<rounds {
            let t = Terminal(
                columns: random.int(in: 1...90), rows: random.int(in: 1...40), scrollback: random.int(in: 0...20))
            for _ in 0..<40 {
                switch random.int(in: 0...9) {
                case 0, 1:
                    t.resize(columns: random.int(in: 1...140), rows: random.int(in: 1...60))
                case 2:
                    t.feed("\(CSI)\(random.int(in: 0...70));\(random.int(in: 0...150))H")
                case 3:
                    t.feed("\(CSI)\(random.int(in: 0...70));\(random.int(in: 0...70))r")
                case 4:
                    t.feed("\(CSI)\(random.int(in: 0...150));\(random.int(in: 0...150))s")
                default:
                    t.feed(operations[random.int(in: 0...(operations.count - 1))])
                }
                #expect(t.state.invariantViolations() == [], "round \(round)")
                let snapshot = t.snapshot(scrollback: 0..<t.scrollbackCount)
                for row in 0..<snapshot.rows {
                    _ = snapshot.line(row).text
                    #expect(snapshot.line(row).runs.reduce(0) { $0 + $1.width } == snapshot.columns)
                }
            }
            // The cursors a later restore would use lie on the screen.
            for alternate in [false, true] {
                if let saved = t.savedCursor(alternateScreen: alternate)?.position {
                    #expect(saved.row < t.rows && saved.column < t.columns)
                }
            }
        }
    }

    // MARK: DECCOLM from inside a feed

    @Test("DECCOLM from inside a feed gives snapshots of the new width, with the screen cleared")
    func columnModeSwitchInvalidatesSnapshotRows() {
        let t = Terminal(columns: 80, rows: 24, scrollback: 100)
        t.feed("hello\(CSI)?40h")
        #expect(t.snapshot().line(0).text == "hello")
        t.feed("\(CSI)?3h")
        let wide = t.snapshot()
        #expect(wide.columns == 132)
        for row in 0..<wide.rows {
            #expect(wide.line(row).text == "")
            #expect(wide.line(row).runs.reduce(0) { $0 + $1.width } == 132)
            #expect(wide.line(row).cell(131).scalars == [])
        }
        // Back to 80 columns: DECCOLM clears again (VT510 manual), so the old
        // "hello" must not come back from a cached row.
        t.feed("\(CSI)?3l")
        let narrow = t.snapshot()
        #expect(narrow.columns == 80)
        #expect((0..<narrow.rows).map { narrow.line($0).text } == Array(repeating: "", count: 24))
        #expect(narrow.line(0).runs.reduce(0) { $0 + $1.width } == 80)
    }

    @Test("DECCOLM to 132 columns and back inside one feed: the next snapshot shows the cleared screen (fuzz)")
    func columnModeRoundTripInOneFeed() {
        // Tests/Fuzz/crashes/terminal/deccolm-round-trip-stale-text: the width
        // is as before, so no index was out of range, but the rows came from
        // the cache of the grid before both resizes.
        let t = Terminal(columns: 80, rows: 4, scrollback: 10)
        t.feed("stale\(CSI)?40h")
        #expect(t.snapshot().line(0).text == "stale")
        t.feed("\(CSI)?3h\(CSI)?3l")
        #expect(t.screenLine(0) == "")
        #expect(t.snapshot().line(0).text == "")
    }

    @Test("DECCOLM on the alternate screen gives snapshots of the new width on both screens")
    func columnModeSwitchOnAlternateScreen() {
        let t = Terminal(columns: 80, rows: 5, scrollback: 10)
        t.feed("primary\(CSI)?40h\(CSI)?1049h")
        _ = t.snapshot()
        t.feed("alt\(CSI)?3h")
        #expect(t.snapshot().line(0).runs.reduce(0) { $0 + $1.width } == 132)
        t.feed("\(CSI)?1049l")
        let primary = t.snapshot()
        #expect(primary.columns == 132)
        #expect(primary.line(0).text == "primary")
        #expect(primary.line(0).runs.reduce(0) { $0 + $1.width } == 132)
    }

    // MARK: RIS

    @Test("RIS drops the left and right margins, so DECLRMM on again wraps at the screen's edge")
    func fullResetDropsHorizontalMargins() {
        // xterm 379: the 30 letters wrap at column 20.
        let t = Terminal(columns: 20, rows: 4, scrollback: 0)
        t.feed("\(CSI)?69h\(CSI)1;10s\u{1B}c\(CSI)?69h")
        t.feed(String(repeating: "a", count: 30))
        #expect(t.horizontalMargins == 0...19)
        #expect(t.screenLines == [String(repeating: "a", count: 20), String(repeating: "a", count: 10), "", ""])
    }

    // MARK: OSC 8 ids

    @Test("an OSC 8 id over 250 bytes is dropped, the link kept; 250 bytes are kept")
    func longHyperlinkIDsAreDropped() {
        let t = Terminal(columns: 10, rows: 2, scrollback: 0)
        let kept = String(repeating: "k", count: 250)
        let long = String(repeating: "d", count: 251)
        t.feed("\u{1B}]8;id=\(kept);http://a/\u{1B}\\A\u{1B}]8;id=\(long);http://b/\u{1B}\\B\u{1B}]8;;\u{1B}\\")
        #expect(t.cellAt(0, 0).hyperlink == Hyperlink(uri: "http://a/", id: kept))
        #expect(t.cellAt(0, 1).hyperlink == Hyperlink(uri: "http://b/", id: nil))
        #expect(t.counters.droppedHyperlinkIDs == 1)
    }

    @Test("the OSC 8 bounds hold for the link as stored: invalid UTF-8 counts as its U+FFFD replacements (fuzz)")
    func hyperlinkBoundsCountStoredBytes() {
        // Tests/Fuzz/crashes/compaction/hyperlink-id-invalid-utf8: 103 bytes
        // of 0xFF were within 250, stored as 309 bytes of U+FFFD, and written
        // back out by compaction they were over it.
        let t = Terminal(columns: 10, rows: 2, scrollback: 0)
        var bytes = Array("\u{1B}]8;id=x".utf8) + [UInt8](repeating: 0xFF, count: 103) + Array(";http://a/\u{07}A".utf8)
        bytes += Array("\u{1B}]8;;http://b/".utf8) + [UInt8](repeating: 0xFF, count: 2000) + Array("\u{07}B".utf8)
        t.feed(bytes)
        #expect(t.cellAt(0, 0).hyperlink == Hyperlink(uri: "http://a/", id: nil))
        #expect(t.counters.droppedHyperlinkIDs == 1)
        #expect(t.cellAt(0, 1).hyperlink == nil)  // 6,009 bytes stored: over 4 KiB
        #expect(t.counters.droppedHyperlinks == 1)
    }

    @Test("links with ids over 65,535 bytes neither wrap a length nor make one entry each")
    func hugeHyperlinkIDsMakeNoEntries() {
        // Before: 300 links with 1 MiB ids held 946 MB; ids over 65,535 bytes
        // wrapped the key's 16-bit length, so 50 identical links made 50 entries.
        let t = Terminal(columns: 80, rows: 2, scrollback: 0)
        let id = String(repeating: "i", count: 70_000)
        for index in 0..<50 {
            t.feed("\u{1B}]8;id=\(id);http://same/\u{1B}\\\(index % 10)")
        }
        t.feed("\u{1B}]8;;\u{1B}\\")
        let links = t.state.active.tables(ofScreenRow: 0).links
        #expect(links.count == 2)  // none, and the one link without id
        #expect(t.counters.droppedHyperlinkIDs == 50)
        for index in 1..<links.count {
            #expect((links[UInt16(index)]?.id?.utf8.count ?? 0) <= Limits.hyperlinkIDBytes)
        }
    }
}

extension SplitMix64 {
    /// A uniformly drawn integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
