/// Recent SGR transitions: from the pen's style key, by a short parameter
/// list, to the style that results and its key.
///
/// Programs that colour text send the same few SGRs from the same few pens
/// (an editor's syntax colours, a pager's diff colours, a prompt's segments),
/// so most SGRs become one lookup here instead of applying the renditions and
/// interning the result, which hashes the style and probes the style table.
/// Direct-mapped, 256 entries (``Limits/sgrTransitionSlots``), allocated
/// with the terminal. An entry names
/// the tables' epoch it was made in: a compaction renumbers style keys and
/// so retires every entry (`TerminalState.tablesEpoch`).
/// The parameter values of an SGR, read in place from their bytes (the
/// parser's, during its call): 16-bit values, `count` of them.
struct SGRValues {
    let bytes: UnsafeRawPointer?
    let count: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes.baseAddress
        count = bytes.count / 2
    }

    /// `CSI m` or `CSI 0 m`: every rendition back to the default (ctlseqs,
    /// SGR: "Ps = 0 -> Normal (default)", and an omitted Ps is 0).
    @inline(__always)
    var isReset: Bool { count == 0 || (count == 1 && self[0] == 0) }

    /// Value `index`, which must be below `count`.
    @inline(__always)
    subscript(index: Int) -> UInt16 {
        bytes.unsafelyUnwrapped.load(fromByteOffset: index &* 2, as: UInt16.self)
    }
}

struct SGRTransitions {
    struct Entry {
        /// No packed list has a count of 0xFF in its top byte: an empty entry.
        var parameters = UInt64.max
        var from = StyleKey.default
        var epoch = 0
        var style = Style()
        var key = StyleKey.default
    }

    private var entries = [Entry](repeating: Entry(), count: Limits.sgrTransitionSlots)

    /// Output whose colours never repeat (every cell its own random pair)
    /// gains nothing here and would pay a lookup and a store for every SGR:
    /// after `missesBeforePause` misses in a row the cache is left alone for
    /// the next `pauseLength` SGRs, then tried again.
    static let missesBeforePause = 64
    static let pauseLength = 1024
    private var missesInARow = 0
    private var pausedFor = 0
    /// Lookups that found their transition (for tests and diagnostics).
    private(set) var hits = 0

    /// False while the cache is paused (counting the SGR down).
    @inline(__always)
    mutating func isActive() -> Bool {
        guard pausedFor == 0 else {
            pausedFor &-= 1
            return false
        }
        return true
    }

    /// `values` packed in a word (the count in the low byte, then a byte
    /// per value), or nil when there are more than
    /// ``Limits/sgrTransitionParameters`` or one is 256 or more.
    @inline(__always)
    static func pack(_ values: SGRValues) -> UInt64? {
        guard values.count <= Limits.sgrTransitionParameters else { return nil }
        var packed = UInt64(truncatingIfNeeded: values.count)
        var shift: UInt64 = 8
        var index = 0
        while index < values.count {
            let value = values[index]
            guard value < 256 else { return nil }
            packed |= UInt64(value) &<< shift
            shift &+= 8
            index &+= 1
        }
        return packed
    }

    @inline(__always)
    private static func slot(_ parameters: UInt64, _ from: StyleKey) -> Int {
        // Fibonacci hashing of both words: the top byte is the slot.
        let mixed = (parameters &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(from.rawValue) &* 0xC2B2_AE3D_27D4_EB4F
        return Int(truncatingIfNeeded: mixed &>> 56)
    }

    /// The style and key the SGR `parameters` led to from the pen `from`,
    /// if that transition was stored in this epoch.
    @inline(__always)
    mutating func lookup(_ parameters: UInt64, from: StyleKey, epoch: Int) -> (style: Style, key: StyleKey)? {
        let entry = entries[Self.slot(parameters, from)]
        guard entry.parameters == parameters && entry.from == from && entry.epoch == epoch else {
            missesInARow &+= 1
            if missesInARow == Self.missesBeforePause {
                missesInARow = 0
                pausedFor = Self.pauseLength
            }
            return nil
        }
        missesInARow = 0
        hits &+= 1
        return (entry.style, entry.key)
    }

    mutating func store(_ parameters: UInt64, from: StyleKey, epoch: Int, style: Style, key: StyleKey) {
        entries[Self.slot(parameters, from)] = Entry(
            parameters: parameters, from: from, epoch: epoch, style: style, key: key)
    }
}
