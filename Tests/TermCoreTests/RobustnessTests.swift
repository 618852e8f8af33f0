import Foundation
import TermCore
import TestSupport
import Testing

/// Everything observable that the dump contract reports, and what else a
/// cell and a row hold: every cell's width role, style, protection and link
/// (screen and scrollback), soft wraps, and the number of styles interned.
struct ScreenState: Equatable {
    var screen: [String]
    var scrollback: [String]
    /// Lines the scrollback dropped: every line numbered after them shifts.
    var evicted: Int
    var cursor: CursorState
    var cells: [[CellContent]]
    var scrollbackCells: [[CellContent]]
    var wrapped: [Bool]
    var scrollbackWrapped: [Bool]
    var styleCount: Int
    var title: String?
    var alternate: Bool

    init(_ terminal: Terminal) {
        screen = terminal.screenLines
        scrollback = terminal.scrollbackLines
        evicted = terminal.evictedLineCount
        cursor = terminal.cursor
        cells = (0..<terminal.rows).map { row in (0..<terminal.columns).map { terminal.cellAt(row, $0) } }
        let lines = (0..<terminal.scrollbackCount).map { ScrollbackLine($0) }
        scrollbackCells = lines.map { line in
            (0..<terminal.columns).map { terminal.scrollbackCell(line: line, column: $0) }
        }
        wrapped = (0..<terminal.rows).map { terminal.isWrapped(row: $0) }
        scrollbackWrapped = lines.map { terminal.isWrapped(line: $0) }
        styleCount = terminal.styleCount
        title = terminal.title
        alternate = terminal.isAlternateScreen
    }
}

@Suite("Robustness")
struct RobustnessTests {
    /// Terminal-flavoured random input: text, UTF-8 (valid and broken),
    /// controls and sequences with random parameters.
    static func randomInput(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        let pieces: [[UInt8]] = [
            Array("hello world ".utf8), Array("漢字é\u{301}😀👩\u{200D}👧".utf8), [0x0D, 0x0A], [0x0A], [0x08], [0x09],
            Array("\u{1B}[".utf8), Array("\u{1B}]0;".utf8), Array("\u{1B}P".utf8), [0x07], Array("\u{1B}\\".utf8),
            Array("\u{1B}(0".utf8), [0x0E], [0x0F], Array("\u{1B}7".utf8), Array("\u{1B}8".utf8), [0xE2, 0x82],
            [0xFF], [0xC2, 0x9B], Array("\u{1B}[?1049h".utf8), Array("\u{1B}[?1049l".utf8), Array("\u{1B}M".utf8),
        ]
        let finals = Array("@ABCDEFGHIJKLMPSTXZ`abdefghlmnrsu".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 64)
        while bytes.count < count {
            switch generator.next() % 4 {
            case 0:
                bytes += pieces[Int(generator.next() % UInt64(pieces.count))]
            case 1:
                bytes += Array("\u{1B}[".utf8)
                if generator.next() % 3 == 0 { bytes.append(UInt8(ascii: "?")) }
                for index in 0..<Int(generator.next() % 4) {
                    if index > 0 { bytes.append(generator.next() % 5 == 0 ? UInt8(ascii: ":") : UInt8(ascii: ";")) }
                    bytes += Array(String(generator.next() % 60).utf8)
                }
                bytes.append(finals[Int(generator.next() % UInt64(finals.count))])
            case 2:
                bytes.append(UInt8(truncatingIfNeeded: generator.next()))
            default:
                for _ in 0..<Int(generator.next() % 30) { bytes.append(UInt8(0x20 + generator.next() % 95)) }
            }
        }
        return bytes
    }

    @Test("Any chunking gives the same screen", arguments: [1, 2, 3, 7, 64, 4096])
    func anyChunkingGivesTheSameScreen(chunk: Int) {
        let input = Self.randomInput(count: 40_000, seed: 7)
        let whole = Terminal(columns: 30, rows: 8, scrollback: 50)
        whole.feed(input)
        let pieces = Terminal(columns: 30, rows: 8, scrollback: 50)
        var start = 0
        while start < input.count {
            pieces.feed(input[start..<min(start + chunk, input.count)])
            start += chunk
        }
        #expect(ScreenState(pieces) == ScreenState(whole))
    }

    /// Runs of non-ASCII characters take a batched path when they arrive
    /// whole and the one-scalar path when they arrive byte by byte: both must
    /// draw the same screen, at the edges, in the margins, on double-width
    /// rows, without autowrap, in insert mode and with mode 2027.
    @Test("Runs of wide and combining characters match one by one", arguments: [(17, 5), (2, 3), (1, 2), (80, 24)])
    func runsOfWideAndCombiningCharactersMatchOneByOne(columns: Int, rows: Int) {
        var generator = SplitMix64(seed: UInt64(columns * 100 + rows))
        let pieces: [String] = [
            "漢字かな", "é\u{301}", "a\u{300}\u{301}", "😀", "👩\u{200D}👧", "🇫🇷", "☺\u{FE0F}", "─│┌┐", "ＡＢ", "x",
            "\r\n", "\r", "\u{1B}[?7l", "\u{1B}[?7h", "\u{1B}[?69h\u{1B}[2;9s", "\u{1B}[?69l", "\u{1B}#6", "\u{1B}#5",
            "\u{1B}[4h", "\u{1B}[4l", "\u{1B}[?2027h", "\u{1B}[?2027l", "\u{1B}[1;31m", "\u{1B}[0m", "\u{1B}[1\"q",
            "\u{1B}[0\"q", "\u{1B}[H", "\u{1B}[3G", "\u{1B}[2;16H", "\u{1B}[5C",
        ]
        var text = ""
        for _ in 0..<4_000 { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
        let input = Array(text.utf8)
        let whole = Terminal(columns: columns, rows: rows, scrollback: 20)
        whole.feed(input)
        let byteByByte = Terminal(columns: columns, rows: rows, scrollback: 20)
        for byte in input { byteByByte.feed([byte]) }
        #expect(ScreenState(byteByByte) == ScreenState(whole))
    }

    @Test("Random chunk sizes give the same screen") func randomChunkSizesGiveTheSameScreen() {
        var generator = SplitMix64(seed: 99)
        for seed in 0..<5 {
            let input = Self.randomInput(count: 10_000, seed: UInt64(seed))
            let whole = Terminal(columns: 20, rows: 6, scrollback: 30)
            whole.feed(input)
            let pieces = Terminal(columns: 20, rows: 6, scrollback: 30)
            var start = 0
            while start < input.count {
                let length = Int(generator.next() % 17) + 1
                pieces.feed(input[start..<min(start + length, input.count)])
                start += length
            }
            #expect(ScreenState(pieces) == ScreenState(whole))
        }
    }

    @Test("Sixteen MiB of seeded random bytes feed without a crash")
    func sixteenMiBOfSeededRandomBytesFeedWithoutACrash() {
        // Uniformly random bytes (not terminal-flavoured): every byte value,
        // broken UTF-8, unterminated strings, absurd parameters.
        var generator = SplitMix64(seed: 2026)
        var bytes = [UInt8](repeating: 0, count: 16 << 20)
        bytes.withUnsafeMutableBytes { buffer in
            let words = buffer.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = generator.next() }
        }
        let t = Terminal(columns: 80, rows: 24)
        t.feed(bytes)
        #expect(t.cursor.position.row < 24 && t.cursor.position.column < 80)
        #expect(t.scrollbackCount <= 10_000)
        #expect(t.screenLines.count == 24)
        // And the flavoured generator, which reaches far more sequences.
        let u = Terminal(columns: 80, rows: 24)
        u.feed(Self.randomInput(count: 16 << 20, seed: 1))
        #expect(u.scrollbackCount <= 10_000)
    }

    @Test("Huge parameters are clamped") func hugeParametersAreClamped() {
        let t = terminal(10, 4, "\(CSI)65535;65535H\(CSI)65535@\(CSI)65535L\(CSI)65535b\(CSI)99999999999S")
        // IL returns the cursor to the first column; REP after IL has nothing to repeat.
        #expect(t.at == [3, 0])
    }

    @Test("Extreme sizes work") func extremeSizesWork() {
        let tiny = Terminal(columns: 1, rows: 1, scrollback: 0)
        tiny.feed("ab漢\r\n\(CSI)5;5Hc")
        #expect(tiny.screenLine(0) == "c")
        let large = Terminal(columns: 1000, rows: 1000, scrollback: 10)
        large.feed("\(CSI)1000;1000Hz")
        #expect(large.screenLine(999).hasSuffix("z"))
    }
}
