/// A colour as SGR sets it: the default, one of the 256 indexed colours, or RGB.
@frozen
public struct TerminalColor: Hashable, Sendable {
    /// Top byte: kind (0 default, 1 indexed, 2 RGB); low 24 bits: index or 0xRRGGBB.
    @usableFromInline let packed: UInt32

    @inlinable init(packed: UInt32) { self.packed = packed }

    /// The terminal's default colour (foreground or background by context).
    public static let `default` = TerminalColor(packed: 0)

    /// Palette entry `index`: 0–7 the ANSI colours, 8–15 their bright forms,
    /// 16–231 the 6×6×6 cube, 232–255 the grey ramp (xterm's 256-colour palette).
    @inlinable public static func indexed(_ index: UInt8) -> TerminalColor {
        TerminalColor(packed: 1 << 24 | UInt32(index))
    }

    /// A direct colour.
    @inlinable public static func rgb(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> TerminalColor {
        TerminalColor(packed: 2 << 24 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue))
    }

    /// The three forms a colour takes.
    public enum Kind: Equatable, Sendable {
        /// The terminal's default colour.
        case `default`
        /// Palette entry 0–255.
        case indexed(UInt8)
        /// A direct colour (SGR 38;2 / 48;2 / 58;2).
        case rgb(red: UInt8, green: UInt8, blue: UInt8)
    }

    /// The colour taken apart.
    public var kind: Kind {
        switch packed >> 24 {
        case 1: return .indexed(UInt8(truncatingIfNeeded: packed))
        case 2:
            return .rgb(
                red: UInt8(truncatingIfNeeded: packed >> 16), green: UInt8(truncatingIfNeeded: packed >> 8),
                blue: UInt8(truncatingIfNeeded: packed))
        default: return .default
        }
    }
}

/// The visual attributes of a cell, as SGR sets them (ECMA-48 §8.3.117 and
/// xterm's extensions: underline styles `4:n`, underline colour 58/59, overline 53).
@frozen
public struct Style: Hashable, Sendable {
    /// Boolean attributes.
    public struct Flags: OptionSet, Hashable, Sendable {
        /// The flags as bits, ``bold`` in the lowest.
        public let rawValue: UInt16
        /// The flags whose bits are set in `rawValue`.
        @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
        /// SGR 1 (cleared by 22).
        public static let bold = Flags(rawValue: 1 << 0)
        /// SGR 2, faint (cleared by 22): the foreground drawn halfway to the
        /// background.
        public static let dim = Flags(rawValue: 1 << 1)
        /// SGR 3 (cleared by 23).
        public static let italic = Flags(rawValue: 1 << 2)
        /// SGR 5 and 6 (cleared by 25).
        public static let blink = Flags(rawValue: 1 << 3)
        /// SGR 7 (cleared by 27): foreground and background swapped when drawn.
        public static let inverse = Flags(rawValue: 1 << 4)
        /// SGR 8, concealed (cleared by 28): drawn in the background colour.
        public static let hidden = Flags(rawValue: 1 << 5)
        /// SGR 9 (cleared by 29).
        public static let strikethrough = Flags(rawValue: 1 << 6)
        /// SGR 53 (cleared by 55).
        public static let overline = Flags(rawValue: 1 << 7)
    }

    /// Underline styles of `SGR 4:n` (kitty and VTE's extension, adopted by xterm).
    public enum Underline: UInt8, Hashable, Sendable {
        /// No underline (SGR 24, or `4:0`).
        case none = 0
        /// `4:1` to `4:5`; SGR 4 is single, SGR 21 double.
        case single, double, curly, dotted, dashed
    }

    /// The text colour (SGR 30–37, 90–97, 38, reset by 39).
    public var foreground: TerminalColor = .default
    /// The cell colour behind the text (SGR 40–47, 100–107, 48, reset by 49).
    public var background: TerminalColor = .default
    /// The underline's own colour (SGR 58, reset by 59); the default means
    /// the foreground's.
    public var underlineColor: TerminalColor = .default
    /// Bold, dim, italic, blink, inverse, hidden, strikethrough, overline.
    public var flags: Flags = []
    /// The underline style.
    public var underline: Underline = .none

    /// The default style (no attributes, default colours).
    public init() {}

    /// A style from its parts.
    public init(
        foreground: TerminalColor = .default, background: TerminalColor = .default,
        underlineColor: TerminalColor = .default,
        flags: Flags = [], underline: Underline = .none
    ) {
        self.foreground = foreground
        self.background = background
        self.underlineColor = underlineColor
        self.flags = flags
        self.underline = underline
    }

    /// The style an erased cell takes: only the background survives (background
    /// colour erase, as xterm and the VT420+ do).
    @inlinable var erased: Style { Style(background: background) }

    /// Field by field, as the derived `==` (which `hash(into:)` matches), but
    /// inlinable: every SGR compares the new pen with the old, and the
    /// derived function was a call each time.
    @inlinable public static func == (lhs: Style, rhs: Style) -> Bool {
        lhs.foreground.packed == rhs.foreground.packed && lhs.background.packed == rhs.background.packed
            && lhs.underlineColor.packed == rhs.underlineColor.packed && lhs.flags == rhs.flags
            && lhs.underline == rhs.underline
    }
}

/// How a cell names its style: an id in its page's style table, or the style
/// itself when it is simple enough to fit in the key (an *inline* style).
///
/// An inline style has a foreground and a background that are each the
/// default colour or one of the 256 palette colours, no underline colour,
/// and no attributes but bold, a single underline and inverse (the VT100's
/// renditions, with blink left out). That is what most coloured output uses:
/// `ls`, `git`, compilers and pagers send `1`, `3x`, `4x`, `9x`, `38;5;n`
/// and `0`; colour-dense output gives cells thousands of palette pairs
/// (vtebench's dense_cells uses all 65,536). Carried in the cell, such a
/// style needs no table entry and no lookup, means the same in every page
/// (so writing in another page interns nothing for it), and SGR can change
/// it arithmetically (`TerminalState.inlineApplied`). The table's 16-bit
/// ids stay for styles with direct colours or other attributes.
///
/// Bits: 0–7 the background index, 8–15 the foreground index (or 0–15 the
/// table id); 16 inline; 17 the foreground is the default, 18 the background
/// is; 19 bold, 20 single underline, 21 inverse. A default colour's index
/// bits are 0, and the default style is always table id 0 (never inline),
/// so one style has one key. The cell keeps bits 16–21 in its content word
/// (`Cell.inlineStyleMask`).
@usableFromInline
struct StyleKey: Hashable, Sendable {
    @usableFromInline let rawValue: UInt32

    @inlinable init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The default style (table id 0).
    static let `default` = StyleKey(rawValue: 0)
    @usableFromInline static let inlineFlag: UInt32 = 1 << 16
    static let defaultForeground: UInt32 = 1 << 17
    static let defaultBackground: UInt32 = 1 << 18
    static let bold: UInt32 = 1 << 19
    static let underline: UInt32 = 1 << 20
    static let inverse: UInt32 = 1 << 21
    /// The bits above the 16 a table id uses.
    @usableFromInline static let inlineBits: UInt32 = 0x3F_0000
    /// The inline form of the default style, which is never a key itself:
    /// what `TerminalState.inlineApplied` starts from and tests for.
    static let inlineDefault: UInt32 = inlineFlag | defaultForeground | defaultBackground

    /// The key of the style with id `id` in the style table.
    @inlinable init(tableID id: UInt16) { rawValue = UInt32(id) }

    /// The key of `style` when it needs no table: an inline style, or the
    /// default style (id 0); nil otherwise.
    @inline(__always)
    init?(inline style: Style) {
        // Colour kinds (TerminalColor.packed's top byte): 0 default, 1 indexed.
        let foreground = style.foreground.packed
        let background = style.background.packed
        let flags = UInt32(style.flags.rawValue)
        let foregroundKind = foreground >> 24
        let backgroundKind = background >> 24
        guard foregroundKind | backgroundKind <= 1, style.underlineColor.packed == 0,
            flags & ~UInt32(Style.Flags.bold.rawValue | Style.Flags.inverse.rawValue) == 0,
            style.underline.rawValue <= Style.Underline.single.rawValue
        else { return nil }
        let raw =
            Self.inlineFlag | (foreground & 0xFF) << 8 | background & 0xFF
            | (foregroundKind ^ 1) << 17 | (backgroundKind ^ 1) << 18 | (flags & 1) << 19
            | UInt32(style.underline.rawValue) << 20 | (flags >> 4 & 1) << 21
        rawValue = raw == Self.inlineDefault ? 0 : raw
    }

    /// True when the key is an inline style rather than a table id.
    @inlinable var isInline: Bool { rawValue & Self.inlineFlag != 0 }

    /// The table id, for a key that is not inline.
    @inlinable var tableID: UInt16 { UInt16(truncatingIfNeeded: rawValue) }

    /// The style the key names, with `styles` the table's styles by id.
    @inline(__always)
    func style(in styles: [Style]) -> Style {
        isInline ? inlineStyle : styles[Int(tableID)]
    }

    /// The style an inline key names.
    /// - Precondition: `isInline`.
    @inline(__always)
    var inlineStyle: Style {
        var style = Style()
        if rawValue & Self.defaultForeground == 0 {
            style.foreground = .indexed(UInt8(truncatingIfNeeded: rawValue >> 8))
        }
        if rawValue & Self.defaultBackground == 0 {
            style.background = .indexed(UInt8(truncatingIfNeeded: rawValue))
        }
        if rawValue & Self.bold != 0 { style.flags.insert(.bold) }
        if rawValue & Self.inverse != 0 { style.flags.insert(.inverse) }
        if rawValue & Self.underline != 0 { style.underline = .single }
        return style
    }
}

/// Interns styles: each distinct style is stored once and cells refer to it by
/// a 16-bit id. Id 0 is always the default style, so a default cell needs no
/// lookup at all. Inline styles never enter the table (``StyleKey``).
///
/// The index is an open-addressing table keyed by the style packed into two
/// words with a multiplicative hash: SGR-heavy output looks a style up for
/// every colour change, and `Hasher` (SipHash) was a fifth of that cost.
struct StyleTable {
    private(set) var styles: [Style] = [Style()]
    /// Slots hold id + 1 (0 = empty) in their low 17 bits and 15 bits of
    /// the style's hash above them (``slotTag(_:)``); the table is at most
    /// half full. 16 to start with: every page has a table, most with a few
    /// styles.
    private var slots: [UInt32] = [UInt32](repeating: 0, count: 16)
    private var mask = 15
    /// The most styles the table holds before its page compacts it.
    let limit: Int

    /// An empty table that holds up to `limit` styles
    /// (``Limits/tableEntries(cells:)`` of its page's cells).
    init(limit: Int = Limits.stylesPerPage) {
        precondition(limit > 1 && limit <= Limits.stylesPerPage, "a style table's limit is 2…65,536")
        self.limit = limit
        insertIntoIndex(id: 0)
    }

    /// An empty table to put in a table's place while it is taken out (a
    /// copy of it shares its arrays: assigning it allocates nothing).
    static let placeholder = StyleTable()

    /// The capacity a table takes when its first style beyond the default
    /// comes (its index twice as many slots): tables keep their capacity
    /// from era to era, so a page allocates only when an era needs more
    /// than any before it, and growing one style at a time from one made
    /// a page allocate seven times before it held 64 (agent_tui, 16 MiB at
    /// 80×24: 30 allocations in the second half of the feed, then 10, each
    /// the first style of a page the first half had not reached). Tables
    /// of pages with no styles stay as small as before.
    static let firstCapacity = 64

    /// Empties the table but for the default style, keeping the arrays'
    /// capacity (an era's reset: the next era fills them again without
    /// allocating). Visits no cell; zeroes the index. A table with no style
    /// but the default is left as it is (see `HyperlinkTable.removeAll()`).
    mutating func removeAll() {
        guard styles.count > 1 else { return }
        styles.removeAll(keepingCapacity: true)
        styles.append(Style())
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        insertIntoIndex(id: 0)
    }

    var count: Int { styles.count }
    /// Full at its `limit` (ids are 16 bits: ``Limits/stylesPerPage`` at
    /// most), when its page compacts it (`Grid.compactStyles(page:)`).
    var isFull: Bool { styles.count >= limit }

    subscript(key: StyleKey) -> Style { key.style(in: styles) }

    @inline(__always)
    static func packed(_ style: Style) -> (UInt64, UInt64) {
        (
            UInt64(style.foreground.packed) | UInt64(style.background.packed) << 32,
            UInt64(style.underlineColor.packed) | UInt64(style.flags.rawValue) << 32
                | UInt64(style.underline.rawValue) << 48
        )
    }

    @inline(__always)
    static func hash(_ key: (UInt64, UInt64)) -> Int {
        let mixed = (key.0 &* 0x9E37_79B9_7F4A_7C15) ^ (key.1 &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 29))
    }

    /// The key of `style`, adding it to the table if it is new and not
    /// inline; nil when the table is full.
    mutating func key(for style: Style) -> StyleKey? {
        if let key = StyleKey(inline: style) { return key }
        return tableKey(for: style)
    }

    /// The key of `style`, which has no inline key, adding it to the table
    /// if it is new; nil when the table is full. For the grid, which tests
    /// for an inline key first: inlined there, the second test and a call
    /// a style are saved.
    @inline(__always)
    mutating func tableKey(for style: Style) -> StyleKey? {
        indexedID(Self.packed(style), style).map(StyleKey.init(tableID:))
    }

    /// The bits of a slot that hold id + 1 (ids go up to 65,535).
    private static let slotIDBits: UInt32 = 0x1_FFFF

    /// The slot's upper 15 bits for a style of hash `hash`: its top bits,
    /// which the slot's position (its low bits) does not already say. A
    /// probe compares a style with the one in a slot only where the tags
    /// match: in colour-dense output nearly every style is new, and the
    /// styles a probe passed were loads from a table of up to 65,536 styles
    /// that missed the cache (perf: a fifth of truecolor_dense's time was in
    /// this function, on the loads of a slot and of the style it named).
    @inline(__always)
    private static func slotTag(_ hash: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: UInt64(bitPattern: Int64(hash)) &>> 49) &<< 17
    }

    /// The id of `style` (packed as `key`) through the hash index, adding it if new.
    private mutating func indexedID(_ key: (UInt64, UInt64), _ style: Style) -> UInt16? {
        let hash = Self.hash(key)
        let tag = Self.slotTag(hash)
        var slot = hash & mask
        while slots[slot] != 0 {
            let entry = slots[slot]
            if entry & ~Self.slotIDBits == tag {
                let id = Int(entry & Self.slotIDBits) - 1
                if Self.packed(styles[id]) == key { return UInt16(id) }
            }
            slot = (slot + 1) & mask
        }
        guard !isFull else { return nil }
        let id = styles.count
        if styles.count == 1 && styles.capacity < Self.firstCapacity {
            // The page's first style beyond the default: room for the
            // styles a page of output commonly has, at once.
            styles.reserveCapacity(Self.firstCapacity)
            if slots.count < Self.firstCapacity * 2 { rebuildIndex(capacity: Self.firstCapacity * 2) }
            slot = hash & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
        }
        styles.append(style)
        if styles.count * 2 > slots.count {
            rebuildIndex(capacity: slots.count * 2)
        } else {
            slots[slot] = tag | UInt32(id + 1)
        }
        return UInt16(id)
    }

    private mutating func insertIntoIndex(id: Int) {
        let hash = Self.hash(Self.packed(styles[id]))
        var slot = hash & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Self.slotTag(hash) | UInt32(id + 1)
    }

    private mutating func rebuildIndex(capacity: Int) {
        if capacity == slots.count {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        } else {
            slots = [UInt32](repeating: 0, count: capacity)
        }
        mask = capacity - 1
        // Every style again, through the arrays' buffers: one uniqueness
        // check for the whole index, where `insertIntoIndex(id:)` made one
        // and checked both arrays' bounds for each style. A table of
        // colour-dense output is rebuilt at each doubling and after each
        // compaction, more than once a style (callgrind, 2 MiB of
        // truecolor_dense at 80×24: 67,475 styles indexed again for 57,698
        // new ones, about 69 instructions each).
        let mask = mask
        styles.withUnsafeBufferPointer { styles in
            slots.withUnsafeMutableBufferPointer { slots in
                for id in styles.indices {
                    let hash = Self.hash(Self.packed(styles[id]))
                    var slot = hash & mask
                    while slots[slot] != 0 { slot = (slot &+ 1) & mask }
                    slots[slot] = Self.slotTag(hash) | UInt32(truncatingIfNeeded: id &+ 1)
                }
            }
        }
    }

    /// Keeps only the styles in use and renumbers them. `markUsed` is called
    /// with a function to report each id in use; `renumber` then gets the map
    /// from old id to new one. The index's slots (at least twice as many as
    /// there are styles) hold that map before the index is made anew, so a
    /// compaction in the middle of a feed allocates nothing.
    mutating func compact(
        markUsed: ((UInt16) -> Void) -> Void, renumber: (UnsafeBufferPointer<UInt32>) -> Void
    ) {
        slots.withUnsafeMutableBufferPointer { map in
            map.update(repeating: 0)
            markUsed { map[Int($0)] = 1 }
            map[0] = 0  // the default style keeps id 0
            var next = 1
            for id in 1..<styles.count where map[id] != 0 {
                map[id] = UInt32(next)
                styles[next] = styles[id]
                next += 1
            }
            styles.removeSubrange(next...)
            renumber(UnsafeBufferPointer(map))
        }
        // The index keeps its size: the table filled it once and will again.
        rebuildIndex(capacity: slots.count)
    }
}

extension StyleTable: HeapCounted {
    /// The heap bytes the table holds (its styles and its index, by
    /// capacity) in buffers not in `counted`, which it adds there.
    func heapBytes(counted: inout Set<UnsafeRawPointer>) -> Int {
        HeapEstimate.array(styles, of: Style.self, counted: &counted)
            + HeapEstimate.array(slots, of: UInt32.self, counted: &counted)
    }
}
