import TermCore
import TermReplay
import Testing

/// The state #18 added, rebuilt by compaction: the protection mode (DEC
/// after DECSCA, ISO after SPA) and xterm's special colours (OSC 5).
@Suite("Replay compaction: protection mode and special colours")
struct CompactionProtectionTests {
    func compacted(_ input: String) -> (original: Terminal, problems: [String]) {
        let t = Terminal(columns: 8, rows: 3)
        t.feed(input)
        return (t, compactionProblems(t))
    }

    @Test(
        "Protection mode survives",
        arguments: [
            "ab\u{1B}Vc\u{1B}Wd",  // ISO, pen not protected
            "ab\u{1B}Vc",  // ISO, pen protected
            "a\u{1B}[1\"qb\u{1B}[0\"q\u{1B}Vc\u{1B}W",  // DEC cells, then ISO mode
            "a\u{1B}Vb\u{1B}W\u{1B}[0\"q",  // ISO cells, then DEC mode
            "\u{1B}[0\"q",  // DEC mode, nothing protected
            "\u{1B}V\u{1B}7\u{1B}W",  // the saved cursor protected, ISO mode
            "a\u{1B}[1\"qb\u{1B}[!pc",  // DEC cells, then DECSTR: mode off
            "\u{1B}[3;4H\u{1B}7\u{1B}Va\u{1B}[!p\u{1B}[2;2H\u{1B}7b",  // mode off, a saved cursor again
            "\u{1B}[1;31m\u{1B}Va\u{1B}[?6h\u{1B}[2;3r\u{1B}[!p\u{1B}[?1h",  // off, with other live state
            // Mode off with a protected saved cursor (saved before a DECSTR on the
            // other screen), a pen DECRC protected again, both screens' saved
            // cursors protected, one with origin mode.
            "\u{1B}[1\"qa\u{1B}[2;3H\u{1B}7\u{1B}[?47h\u{1B}[!p\u{1B}[?47l",
            "\u{1B}[1\"qa\u{1B}[2;3H\u{1B}7\u{1B}[?47h\u{1B}[!p\u{1B}[?47l\u{1B}8",
            "\u{1B}[1\"q\u{1B}7\u{1B}[?47h\u{1B}[!p\u{1B}[?47l\u{1B}8\u{1B}[?47h\u{1B}[3;1H\u{1B}7\u{1B}[?47l\u{1B}W",
            "\u{1B}[2;3r\u{1B}[?6h\u{1B}[1\"q\u{1B}7\u{1B}[?6l\u{1B}[r\u{1B}[?47h\u{1B}[!p\u{1B}[?47l\u{1B}8\u{1B}[?6l",
        ])
    func protectionModeSurvives(_ input: String) {
        let (original, problems) = compacted(input)
        #expect(problems.isEmpty)
        // And erases after the rebuild keep the same cells.
        let copy = Terminal(columns: 8, rows: 3)
        copy.feed(ReplayCompactor.compact(original))
        original.feed("\u{1B}[1;1H\u{1B}[2J")
        copy.feed("\u{1B}[1;1H\u{1B}[2J")
        #expect(TerminalComparison.differences(original, copy).isEmpty)
    }

    @Test("Special colours survive") func specialColoursSurvive() {
        #expect(compacted("\u{1B}]5;0;#102030;4;rgb:ff/80/00\u{07}").problems.isEmpty)
        #expect(compacted("\u{1B}]4;257;#abcdef\u{07}").problems.isEmpty)
    }
}
