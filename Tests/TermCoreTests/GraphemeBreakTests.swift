import TestSupport
import Testing

@testable import TermCore

/// The grapheme break in Swift (`GraphemeBreak`, `GraphemeBreakTable`)
/// against utf8proc 2.8's `utf8proc_grapheme_break_stateful`, and the rules
/// it must keep where there is no utf8proc to compare with.
@Suite("Grapheme break")
struct GraphemeBreakTests {
    typealias Class = GraphemeBreak.Class

    /// Every code point, by utf8proc's class (so that a rare class, such as
    /// the one ZWJ, is drawn as often as Other).
    static let codePointsByClass: [Int32: [UInt32]] = {
        var byClass: [Int32: [UInt32]] = [:]
        for scalar in UInt32(0)..<0x110000 {
            byClass[Utf8procReference.breakClass(of: scalar), default: []].append(scalar)
        }
        return byClass
    }()

    /// Values past U+10FFFF, which utf8proc gives its default property.
    static let outOfRange: [UInt32] = [0x110000, 0x11_0001, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF]

    /// The indices of `scalars` that start a new cluster (after the first).
    func breaks(_ scalars: [UInt32]) -> [Int] {
        var state: Int32 = 0
        return scalars.indices.dropFirst().filter {
            GraphemeBreak.isBoundary(between: scalars[$0 - 1], and: scalars[$0], state: &state)
        }
    }

    // MARK: Against utf8proc

    @Test("The table gives every code point 0...0x10FFFF, and values past it, utf8proc's class", .utf8procLinked)
    func tableEqualsUtf8procForEveryCodePoint() {
        var mismatches: [UInt32] = []
        for scalar in UInt32(0)..<0x110000
        where GraphemeBreak.breakClass(of: scalar) != Utf8procReference.breakClass(of: scalar) {
            mismatches.append(scalar)
        }
        for scalar in Self.outOfRange
        where GraphemeBreak.breakClass(of: scalar) != Utf8procReference.breakClass(of: scalar) {
            mismatches.append(scalar)
        }
        #expect(mismatches.isEmpty, "first differences: \(mismatches.prefix(10).map { String($0, radix: 16) })")
    }

    @Test("The table was generated from the installed utf8proc", .utf8procLinked)
    func tableWasGeneratedFromTheInstalledUtf8proc() {
        #expect(GraphemeBreakTable.utf8procVersion == Utf8procReference.version)
    }

    @Test("The Swift break equals utf8proc's for every pair of classes in every state", .utf8procLinked)
    func everyPairOfClassesInEveryStateAgrees() {
        // Three code points of each class (its first, middle and last), and
        // one past U+10FFFF; every state utf8proc can be in (0 and each
        // class, the ZWJ-sequence state 20 included) and, beyond those,
        // values it never leaves behind.
        var representatives = Self.codePointsByClass.keys.sorted().map { breakClass in
            let scalars = Self.codePointsByClass[breakClass]!
            return (breakClass, [scalars.first!, scalars[scalars.count / 2], scalars.last!])
        }
        representatives.append((Utf8procReference.breakClass(of: 0x110000), [0x110000]))
        let states = Array(Int32(-1)...40) + [Int32.min, Int32.max]
        var compared = Set<[Int32]>()
        var mismatches: [String] = []
        for state in states {
            for (previousClass, previousScalars) in representatives {
                for (nextClass, nextScalars) in representatives {
                    for previous in previousScalars {
                        for next in nextScalars {
                            var swiftState = state
                            var referenceState = state
                            let swift = GraphemeBreak.isBoundary(between: previous, and: next, state: &swiftState)
                            let reference = Utf8procReference.isBoundary(
                                between: previous, and: next, state: &referenceState)
                            compared.insert([state, previousClass, nextClass])
                            if swift != reference || swiftState != referenceState {
                                mismatches.append(
                                    "state \(state), U+\(String(previous, radix: 16)) U+\(String(next, radix: 16)): "
                                        + "\(swift) → \(swiftState), utf8proc \(reference) → \(referenceState)")
                            }
                        }
                    }
                }
            }
        }
        // utf8proc 2.8 gives code points 15 classes (Other ... ZWJ, and
        // Extended_Pictographic); each pair in each state was compared.
        #expect(Self.codePointsByClass.count == 15)
        #expect(compared.count == states.count * 15 * 15)
        #expect(mismatches.isEmpty, "\(mismatches.count) differences, first: \(mismatches.prefix(5))")
    }

    @Test("Seeded random sequences break where utf8proc breaks, with its state after every scalar", .utf8procLinked)
    func randomSequencesAgree() {
        let classes = Self.codePointsByClass.keys.sorted()
        var generator = SplitMix64(seed: 0x2027)
        var mismatches: [String] = []
        for _ in 0..<50_000 {
            let length = Int.random(in: 2...12, using: &generator)
            let scalars = (0..<length).map { _ -> UInt32 in
                switch Int.random(in: 0..<20, using: &generator) {
                case 0..<4: UInt32.random(in: 0...0x10FFFF, using: &generator)
                case 4: Self.outOfRange.randomElement(using: &generator)!
                default:
                    Self.codePointsByClass[classes.randomElement(using: &generator)!]!.randomElement(using: &generator)!
                }
            }
            var swiftState: Int32 = 0
            var referenceState: Int32 = 0
            for index in scalars.indices.dropFirst() {
                let swift = GraphemeBreak.isBoundary(
                    between: scalars[index - 1], and: scalars[index], state: &swiftState)
                let reference = Utf8procReference.isBoundary(
                    between: scalars[index - 1], and: scalars[index], state: &referenceState)
                if swift != reference || swiftState != referenceState {
                    mismatches.append("\(scalars.map { String($0, radix: 16) }) at \(index)")
                    break
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) sequences differ, first: \(mismatches.prefix(5))")
    }

    // MARK: Without utf8proc

    @Test("No code point has a class utf8proc 2.8 gives to none (Start, Unicode 9's emoji classes, the ZWJ state)")
    func tableHoldsOnlyCodePointClasses() {
        let unused: Set<Int32> = [Class.start, 15, 16, 17, 18, Class.pictographicZWJ]
        let found = (UInt32(0)..<0x110000).first { unused.contains(GraphemeBreak.breakClass(of: $0)) }
        #expect(found == nil)
        #expect(GraphemeBreak.breakClass(of: 0x110000) == Class.other)
    }

    @Test("A pair of regional indicators is one cluster, and a third starts the next")
    func regionalIndicatorsPair() {
        // 🇫🇷🇩🇪 then a lone 🇮
        #expect(breaks([0x1F1EB, 0x1F1F7, 0x1F1E9, 0x1F1EA, 0x1F1EE]) == [2, 4])
    }

    @Test("An emoji ZWJ sequence with skin tones and presentation selectors is one cluster")
    func emojiZWJSequenceJoins() {
        // 👩🏽‍❤️‍👨 : woman, medium skin tone, ZWJ, heart, VS16, ZWJ, man; then "a".
        #expect(breaks([0x1F469, 0x1F3FD, 0x200D, 0x2764, 0xFE0F, 0x200D, 0x1F468, 0x61]) == [7])
    }

    @Test("A pictograph after ZWJ joins only when a pictograph (and Extend) came before the ZWJ")
    func zwjJoinsPictographsOnly() {
        #expect(breaks([0x61, 0x200D, 0x1F468]) == [2])  // a ZWJ 👨: GB11 needs the pictograph
        #expect(breaks([0x1F468, 0x200D, 0x1F468]) == [])
        #expect(breaks([0x1F468, 0x301, 0x301, 0x200D, 0x1F468]) == [])
    }

    @Test("CR LF stays one cluster; a control breaks on both sides, even before a combining mark")
    func controlsBreak() {
        #expect(breaks([0x0D, 0x0A]) == [])
        #expect(breaks([0x0A, 0x0D]) == [1])
        #expect(breaks([0x61, 0x07, 0x301]) == [1, 2])
    }

    @Test("Hangul jamo make syllables: L V T, LV T, LVT T")
    func hangulSyllablesJoin() {
        #expect(breaks([0x1100, 0x1161, 0x11A8]) == [])  // ᄀ ᅡ ᆨ
        #expect(breaks([0xAC00, 0x11A8]) == [])  // 가 ᆨ
        #expect(breaks([0xAC01, 0x11A8, 0x1100]) == [2])  // 각 ᆨ, then ᄀ
        #expect(breaks([0x11A8, 0x1161]) == [1])  // T V breaks
    }

    @Test("Extend and spacing marks join what precedes, a prepended mark what follows")
    func marksJoin() {
        #expect(breaks([0x61, 0x301, 0x903]) == [])  // a, combining acute, Devanagari visarga
        #expect(breaks([0x600, 0x661, 0x662]) == [2])  // Arabic number sign joins the next digit only
    }

    @Test("Continuing a cell's cluster rebuilds the state from the cell's own scalars")
    func continuesRebuildsTheState() {
        #expect(GraphemeBreak.continues([0x1F1EB], with: 0x1F1F7))
        #expect(!GraphemeBreak.continues([0x1F1EB, 0x1F1F7], with: 0x1F1E9))
        #expect(GraphemeBreak.continues([0x1F468, 0x200D], with: 0x1F469))
        #expect(!GraphemeBreak.continues([UInt32](), with: 0x301))
    }
}
