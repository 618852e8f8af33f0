/// One cell of the grid: 8 bytes, all zero when empty.
///
/// The layout follows Ghostty's packed cell: the content word holds either a
/// Unicode scalar or the id of a grapheme cluster kept out of line, plus the
/// cell's width role; the style and hyperlink are ids into side tables (0 is
/// the default style and "no link"; an inline style is held in the cell
/// itself, see `StyleKey`), so a cell is a plain value that is cheap to
/// store, copy and compare. `MemoryLayout<Cell>.size == 8` is pinned by a test.
@frozen
public struct Cell: Equatable, Sendable {
    /// Bits 0–20: scalar value or cluster id; bit 21: cluster flag;
    /// bits 22–23: ``Width``; bit 24: protected (DECSCA, SPA); bits 25–30:
    /// the ``StyleKey``'s bits 16–21 (inline flag, default colours, bold,
    /// underline, inverse); bit 31: a written blank (`writtenBlankFlag`).
    /// Every bit is in use.
    @usableFromInline var content: UInt32
    /// The low 16 bits of the cell's ``StyleKey``: an id into its page's
    /// style table (0 is the default style), or an inline style's colours.
    @usableFromInline var styleBits: UInt16
    /// Index into the hyperlink table; 0 is "no link".
    public var linkID: UInt16

    /// The role of a cell in the layout of wide characters.
    public enum Width: UInt8, Sendable {
        /// An ordinary cell, empty or holding a narrow character.
        case narrow = 0
        /// The left half of a wide character (which owns the content).
        case wide = 1
        /// The right half of a wide character: holds nothing of its own.
        case wideTail = 2
        /// A blank left at the end of a row because the wide character
        /// printed there did not fit and wrapped to the next row.
        case wrapSpacer = 3
    }

    @usableFromInline static let valueMask: UInt32 = 0x1F_FFFF
    @usableFromInline static let clusterFlag: UInt32 = 1 << 21
    @usableFromInline static let widthShift: UInt32 = 22
    /// The ``Width`` bits in place: zero for a narrow cell.
    @usableFromInline static let widthMask: UInt32 = 3 << widthShift
    @usableFromInline static let protectedFlag: UInt32 = 1 << 24
    /// The ``StyleKey``'s bits above its low 16 (``StyleKey/inlineBits``), in place.
    @usableFromInline static let inlineStyleMask: UInt32 = 0x3F << 25
    /// Bit 31: a blank an erase wrote inside a line (ECH, EL 1, ED 1, ICH,
    /// DECIC, DECERA…) rather than one never written. It shows and reads as
    /// any blank; only DECRQCRA tells them apart, as xterm 379 counts such a
    /// cell as a space (0x20) and a never-written one as nothing.
    @usableFromInline static let writtenBlankFlag: UInt32 = 1 << 31
    /// From ``StyleKey/inlineBits`` (bits 16–21) to `inlineStyleMask`.
    @usableFromInline static let inlineStyleShift: UInt32 = 9

    /// The empty cell with the default style.
    public static let empty = Cell(content: 0, style: .default, linkID: 0)

    /// The same bits: the three fields fill the cell's 8 bytes with no
    /// padding (`LayoutTests` holds the size), so one 64-bit compare. The
    /// derived comparison tested field by field, with a branch each (17
    /// instructions in the plain-lines path, which compares its fill with
    /// ``empty`` once per run).
    @inlinable
    public static func == (lhs: Cell, rhs: Cell) -> Bool {
        unsafeBitCast(lhs, to: UInt64.self) == unsafeBitCast(rhs, to: UInt64.self)
    }

    /// A cell from its content word (without the style's bits, which come
    /// from `style`).
    @inlinable init(content: UInt32, style: StyleKey, linkID: UInt16) {
        self.content = content | (style.rawValue & StyleKey.inlineBits) << Cell.inlineStyleShift
        self.styleBits = UInt16(truncatingIfNeeded: style.rawValue)
        self.linkID = linkID
    }

    /// A cell holding one scalar.
    @inlinable init(scalar: UInt32, width: Width, style: StyleKey) {
        self.init(content: scalar | UInt32(width.rawValue) << Cell.widthShift, style: style, linkID: 0)
    }

    /// A blank cell with a style (background colour erase keeps the colour).
    @inlinable static func blank(style: StyleKey) -> Cell {
        Cell(content: 0, style: style, linkID: 0)
    }

    /// A blank as an erase inside a line leaves it (see `writtenBlankFlag`).
    @inlinable static func writtenBlank(style: StyleKey) -> Cell {
        Cell(content: Cell.writtenBlankFlag, style: style, linkID: 0)
    }

    /// True for a blank an erase wrote inside a line.
    @inlinable var isWrittenBlank: Bool { content & Cell.writtenBlankFlag != 0 }

    /// True for the power-on cell, or a blank an erase wrote that is
    /// otherwise the same: nothing a reflow or a text reader must keep.
    @inlinable var isEmptyOrWrittenBlank: Bool { bits & ~UInt64(Cell.writtenBlankFlag) == 0 }

    /// The cell as one word (content in the low half), as stored.
    @inlinable var bits: UInt64 { unsafeBitCast(self, to: UInt64.self) }

    /// The cell's style: a style-table id or an inline style.
    @inlinable var styleKey: StyleKey {
        get {
            StyleKey(rawValue: UInt32(styleBits) | (content & Cell.inlineStyleMask) >> Cell.inlineStyleShift)
        }
        set {
            styleBits = UInt16(truncatingIfNeeded: newValue.rawValue)
            content =
                content & ~Cell.inlineStyleMask
                | (newValue.rawValue & StyleKey.inlineBits) << Cell.inlineStyleShift
        }
    }

    /// True when the cell's style is an id in its page's table other than
    /// the default's: an entry a compaction keeps and a copy to another page
    /// interns.
    @inlinable var namesTableStyle: Bool { content & Cell.inlineStyleMask == 0 && styleBits != 0 }

    /// The cell's role in wide-character layout.
    @inlinable public var width: Width {
        Width(rawValue: UInt8(truncatingIfNeeded: content >> Cell.widthShift) & 3)!
    }

    /// True when the cell holds no character (a blank).
    @inlinable public var isBlank: Bool { content & (Cell.valueMask | Cell.clusterFlag) == 0 }

    /// True when the content is a grapheme-cluster id rather than a scalar.
    @inlinable var isCluster: Bool { content & Cell.clusterFlag != 0 }

    /// True when the content is the id of a cluster in its page's table,
    /// which a compaction keeps and a copy to another page interns (not a
    /// pair held in the id, ``ClusterTable/pairID(base:mark:)``).
    @inlinable var namesTableCluster: Bool {
        content & (Cell.clusterFlag | Cell.clusterPairFlag) == Cell.clusterFlag
    }

    /// Bit 20 of a cluster id: a pair the id holds (``ClusterTable/pairFlag``).
    @usableFromInline static let clusterPairFlag: UInt32 = 1 << 20

    /// The scalar, or the cluster id when ``isCluster``.
    @inlinable var value: UInt32 { content & Cell.valueMask }

    /// True when the cell was printed protected (DECSCA 1, or between SPA
    /// and EPA); ``ProtectionMode`` says which erases keep it.
    @inlinable public var isProtected: Bool { content & Cell.protectedFlag != 0 }

    @inlinable mutating func setCluster(_ id: UInt32) {
        content = (content & ~(Cell.valueMask)) | Cell.clusterFlag | (id & Cell.valueMask)
    }
}
