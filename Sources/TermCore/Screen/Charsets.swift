/// The character sets that can be designated into G0–G3 (ESC ( F and kin;
/// ECMA-35 / ISO 2022 as the VT100 implements it).
enum Charset: UInt8 {
    case ascii
    /// DEC Special Graphics (final byte `0`): line drawing for 0x5F–0x7E.
    case decSpecialGraphics
    /// United Kingdom (final byte `A`): `#` is `£`.
    case british

    init?(final: UInt8) {
        switch final {
        case UInt8(ascii: "B"): self = .ascii
        case UInt8(ascii: "0"): self = .decSpecialGraphics
        case UInt8(ascii: "A"): self = .british
        default: return nil
        }
    }

    /// DEC Special Graphics for 0x5F–0x7E, from the VT100 User Guide, table
    /// 3-9 (0x5F is a blank).
    private static let decGraphics: [UInt32] = [
        0x0020, 0x25C6, 0x2592, 0x2409, 0x240C, 0x240D, 0x240A, 0x00B0,
        0x00B1, 0x2424, 0x240B, 0x2518, 0x2510, 0x250C, 0x2514, 0x253C,
        0x23BA, 0x23BB, 0x2500, 0x23BC, 0x23BD, 0x251C, 0x2524, 0x2534,
        0x252C, 0x2502, 0x2264, 0x2265, 0x03C0, 0x2260, 0x00A3, 0x00B7,
    ]

    /// The scalar a printable ASCII byte stands for in this set.
    func map(_ byte: UInt8) -> UInt32 {
        switch self {
        case .ascii:
            return UInt32(byte)
        case .decSpecialGraphics:
            return byte >= 0x5F && byte <= 0x7E ? Self.decGraphics[Int(byte - 0x5F)] : UInt32(byte)
        case .british:
            return byte == UInt8(ascii: "#") ? 0x00A3 : UInt32(byte)
        }
    }
}

/// G0–G3 and which of them is invoked into GL.
struct CharsetState: Equatable {
    var designations: [Charset] = [.ascii, .ascii, .ascii, .ascii] {
        didSet { updatePlainASCII() }
    }
    /// The set invoked into GL (SI: 0, SO: 1, LS2: 2, LS3: 3).
    var gl = 0 {
        didSet { updatePlainASCII() }
    }
    /// A single shift (SS2/SS3) waiting for the next character, or nil.
    var singleShift: Int? = nil {
        didSet { updatePlainASCII() }
    }

    /// True when printable ASCII prints as itself (the fast path), kept up to
    /// date on every change so that printing reads one flag.
    private(set) var isPlainASCII = true

    private mutating func updatePlainASCII() {
        isPlainASCII = designations[gl] == .ascii && singleShift == nil
    }

    /// The scalar for the next printable ASCII byte; consumes a single shift.
    mutating func map(_ byte: UInt8) -> UInt32 {
        if let shift = singleShift {
            singleShift = nil
            return designations[shift].map(byte)
        }
        return designations[gl].map(byte)
    }
}
