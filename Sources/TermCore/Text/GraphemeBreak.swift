/// Grapheme-cluster boundaries (UAX #29, extended clusters) for mode 2027,
/// exactly as utf8proc 2.8's `utf8proc_grapheme_break_stateful` finds them,
/// in Swift: each code point's class comes from `GraphemeBreakTable`
/// (generated from utf8proc, committed), and `isBoundary` replays utf8proc's
/// rules and state on those classes. utf8proc stays the reference on Linux
/// (GraphemeBreakTests compare the table for every code point, the rules for
/// every pair of classes in every state, and random sequences), but TermCore
/// never calls it, so it builds where there is no utf8proc (Apple platforms).
/// Only consulted for scalars that are not ASCII.
enum GraphemeBreak {
    /// utf8proc's boundary classes (`utf8proc_boundclass_t` in utf8proc.h):
    /// what the table stores and what the state carries between calls.
    enum Class {
        /// No character yet: the state of a new sequence (GB1).
        static let start: Int32 = 0
        static let other: Int32 = 1
        static let cr: Int32 = 2
        static let lf: Int32 = 3
        static let control: Int32 = 4
        static let extend: Int32 = 5
        // Hangul jamo and syllables.
        static let l: Int32 = 6
        static let v: Int32 = 7
        static let t: Int32 = 8
        static let lv: Int32 = 9
        static let lvt: Int32 = 10
        static let regionalIndicator: Int32 = 11
        static let spacingMark: Int32 = 12
        static let prepend: Int32 = 13
        static let zwj: Int32 = 14
        // 15-18 are Unicode 9's emoji classes (E_Base, E_Modifier,
        // Glue_After_Zwj, E_Base_GAZ): utf8proc 2.8 declares them and gives
        // them to no code point (the table has none of them).
        /// Extended_Pictographic, which utf8proc keeps in the same field.
        static let extendedPictographic: Int32 = 19
        /// No code point's class: the state after Extended_Pictographic
        /// Extend* ZWJ, before which a pictograph joins (GB11).
        static let pictographicZWJ: Int32 = 20
    }

    /// The unpacked class table (one allocation, never freed: see
    /// `TwoStageTable.unpack`). Immutable after start-up, hence `Sendable`.
    struct ClassTable: @unchecked Sendable {
        let table: UnsafePointer<UInt8>
    }

    static let classes = ClassTable(
        table: TwoStageTable.unpack(
            stage1Hex: GraphemeBreakTable.stage1Hex, stage2Digits: GraphemeBreakTable.stage2Digits))

    /// The class of `scalar` (a value past U+10FFFF gets utf8proc's default,
    /// as `utf8proc_get_property` gives it).
    static func breakClass(of scalar: UInt32) -> Int32 {
        guard scalar < 0x110000 else { return Int32(GraphemeBreakTable.outOfRangeClass) }
        let table = classes.table
        let block = Int(table[Int(truncatingIfNeeded: scalar &>> 8)])
        return Int32(table[TwoStageTable.stage1Count &+ (block &<< 8 | Int(truncatingIfNeeded: scalar & 0xFF))])
    }

    /// True when a cluster boundary lies between `previous` and `next`;
    /// `state` carries what the rules need across calls (regional-indicator
    /// parity, emoji ZWJ sequences) and starts at 0 for a new sequence. The
    /// same answers and states as `utf8proc_grapheme_break_stateful`.
    static func isBoundary(between previous: UInt32, and next: UInt32, state: inout Int32) -> Bool {
        isBoundary(previousClass: breakClass(of: previous), nextClass: breakClass(of: next), state: &state)
    }

    /// The stateful step on classes. A state of 0 starts from
    /// `previousClass`; any other state stands for everything before `next`
    /// (the class of the last scalar, or what the sequence so far amounts
    /// to), and `previousClass` is not looked at.
    static func isBoundary(previousClass: Int32, nextClass: Int32, state: inout Int32) -> Bool {
        if state == Class.start { state = previousClass }
        let allowed = pairAllowsBreak(state, nextClass)
        if state == Class.regionalIndicator && nextClass == Class.regionalIndicator {
            // The pair is a flag: a third indicator stands after Other and
            // breaks (GB12/GB13 by way of GB999).
            state = Class.other
        } else if state == Class.extendedPictographic {
            // GB11: Extend after a pictograph keeps it a pictograph; ZWJ
            // makes the state that joins the next one.
            state =
                nextClass == Class.extend
                ? Class.extendedPictographic : nextClass == Class.zwj ? Class.pictographicZWJ : nextClass
        } else {
            state = nextClass
        }
        return allowed
    }

    /// UAX #29's rules for one pair of classes, in utf8proc's order; `left`
    /// is the state, so GB11 and GB12/GB13 need no look-behind.
    static func pairAllowsBreak(_ left: Int32, _ right: Int32) -> Bool {
        if left == Class.start { return true }  // GB1
        if left == Class.cr && right == Class.lf { return false }  // GB3
        if (Class.cr...Class.control).contains(left) || (Class.cr...Class.control).contains(right) {
            return true  // GB4, GB5
        }
        // GB6-GB8: Hangul syllables.
        if left == Class.l && (right == Class.l || right == Class.v || right == Class.lv || right == Class.lvt) {
            return false
        }
        if (left == Class.lv || left == Class.v) && (right == Class.v || right == Class.t) { return false }
        if (left == Class.lvt || left == Class.t) && right == Class.t { return false }
        // GB9, GB9a, GB9b.
        if right == Class.extend || right == Class.zwj || right == Class.spacingMark || left == Class.prepend {
            return false
        }
        if left == Class.pictographicZWJ && right == Class.extendedPictographic { return false }  // GB11
        if left == Class.regionalIndicator && right == Class.regionalIndicator { return false }  // GB12, GB13
        return true  // GB999
    }

    /// Whether `next` continues the cluster `scalars` (the scalars of one
    /// cell, in order): the state is rebuilt from the cell itself, so the
    /// answer depends on the screen alone.
    /// - Complexity: O(scalars).
    static func continues(_ scalars: some Collection<UInt32>, with next: UInt32) -> Bool {
        guard var last = scalars.first else { return false }
        var state: Int32 = 0
        for scalar in scalars.dropFirst() {
            _ = isBoundary(between: last, and: scalar, state: &state)
            last = scalar
        }
        return !isBoundary(between: last, and: next, state: &state)
    }

    /// The columns a whole cluster takes with mode 2027 (the rules Ghostty,
    /// WezTerm and kitty share): a text-presentation selector (VS15, U+FE0E)
    /// makes it narrow, an emoji-presentation selector (VS16, U+FE0F) wide, a
    /// pair of regional indicators (a flag) wide; otherwise the width of its
    /// first scalar that has one (emoji ZWJ sequences and skin-tone modifiers
    /// take their base's two columns).
    static func width(of scalars: some Collection<UInt32>) -> Int {
        if scalars.contains(0xFE0E) { return 1 }
        if scalars.contains(0xFE0F) { return 2 }
        var leading = scalars.makeIterator()
        if let first = leading.next(), let second = leading.next(), isRegionalIndicator(first),
            isRegionalIndicator(second)
        {
            return 2
        }
        for scalar in scalars {
            let width = scalar < 0x80 ? 1 : UnicodeWidth.width(of: scalar)
            if width > 0 { return width }
        }
        return 1
    }

    static func isRegionalIndicator(_ scalar: UInt32) -> Bool { (0x1F1E6...0x1F1FF).contains(scalar) }
}
