import TestSupport
import Testing

@testable import TermCore

/// Inline styles (``StyleKey``): SGR's arithmetic on them must give what
/// the general path, `renditionApplied`, gives for the same parameters.
@Suite("Inline styles")
struct InlineStyleTests {
    /// Groups of SGR parameters: the renditions the arithmetic handles,
    /// those it leaves to the general path (other attributes, direct
    /// colours, an index past 255, forms cut short, unknown codes).
    static let groups: [[UInt16]] =
        [[0], [1], [4], [7], [22], [23], [24], [25], [27], [28], [29], [39], [49], [55], [59]]
        + (30...37).map { [$0] } + (40...47).map { [$0] } + (90...97).map { [$0] } + (100...107).map { [$0] }
        + [[38, 5, 0], [38, 5, 17], [38, 5, 255], [48, 5, 0], [48, 5, 231], [48, 5, 255]]
        + [[2], [3], [5], [6], [8], [9], [21], [53], [26], [10], [65], [108], [65535]]
        + [[38, 5, 256], [48, 5, 9999], [38, 2, 1, 2, 3], [48, 2, 0, 0, 0], [58, 5, 3], [38, 9], [38, 5], [38]]

    static func randomInlineStyle(_ random: inout SplitMix64) -> Style {
        func colour() -> TerminalColor {
            let index = Int(random.next() % 258)
            return index >= 256 ? .default : .indexed(UInt8(index))
        }
        var flags: Style.Flags = []
        if random.next() % 2 == 0 { flags.insert(.bold) }
        if random.next() % 3 == 0 { flags.insert(.inverse) }
        return Style(
            foreground: colour(), background: colour(), flags: flags,
            underline: random.next() % 3 == 0 ? .single : .none)
    }

    @Test("Arithmetic agrees with the general path") func arithmeticAgreesWithTheGeneralPath() throws {
        let terminal = Terminal(columns: 4, rows: 2, scrollback: 0)
        var random = SplitMix64(seed: 0x5147_2026)
        var taken = 0
        var inlineResults = 0
        for _ in 0..<40_000 {
            let start = random.next() % 8 == 0 ? Style() : Self.randomInlineStyle(&random)
            let key = try #require(StyleKey(inline: start))
            var values: [UInt16] = []
            for _ in 0..<Int(random.next() % 6) {
                values += Self.groups[Int(random.next() % UInt64(Self.groups.count))]
            }
            let general = values.withUnsafeBytes {
                terminal.state.renditionApplied(to: start, SGRParameters(values: SGRValues($0), colons: 0))
            }
            let fast = values.withUnsafeBytes { TerminalState.inlineApplied(SGRValues($0), to: key) }
            if let fast {
                taken += 1
                #expect(fast == StyleKey(inline: general), "\(values) from \(start)")
                #expect((fast.isInline ? fast.inlineStyle : Style()) == general, "\(values) from \(start)")
                if fast.isInline { inlineResults += 1 }
            } else {
                // Left to the general path only for a rendition outside
                // the set, or a result that is not inline.
                let handled = Set(Self.groups.prefix(53).flatMap { $0.prefix(1) })
                let outside = values.contains { !handled.contains($0) } || values.contains(256) || values.contains(9999)
                #expect(outside || StyleKey(inline: general) == nil || values.contains(38) || values.contains(48))
            }
        }
        // Both outcomes were exercised many times.
        #expect(taken > 5_000 && inlineResults > 5_000 && taken < 39_000)
    }

    @Test("Printed cells keep inline styles across pages") func printedCellsKeepInlineStylesAcrossPages() {
        // Rows of a screen spread over pages of one row each: an inline
        // pen's cells need no table entry in any of them.
        let terminal = Terminal(columns: 10, rows: 4, scrollback: 20, rowsPerPage: 1)
        terminal.feed("\u{1B}[1;4;7;38;5;200;48;5;3mA\r\n\u{1B}[22;24;27;39mB\r\n\u{1B}[91;49mC\r\n\u{1B}[0;107mD")
        #expect(
            terminal.cellAt(0, 0).style
                == Style(
                    foreground: .indexed(200), background: .indexed(3), flags: [.bold, .inverse], underline: .single))
        #expect(terminal.cellAt(1, 0).style == Style(background: .indexed(3)))
        #expect(terminal.cellAt(2, 0).style == Style(foreground: .indexed(9)))
        #expect(terminal.cellAt(3, 0).style == Style(background: .indexed(15)))
        #expect(terminal.state.primary.pages.allSatisfy { $0.styles.count == 1 })  // the default style only
    }
}
