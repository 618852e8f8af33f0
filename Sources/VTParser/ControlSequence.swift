/// Up to two intermediate bytes (0x20–0x2F) of an escape or control sequence.
///
/// No sequence in xterm's ctlseqs uses more than two; a sequence with more is
/// marked ``overflowed`` and its handler should ignore it.
public struct Intermediates: Equatable, Sendable {
    /// The bytes, first in the low byte.
    @usableFromInline var packed: UInt16 = 0
    @usableFromInline var storedCount: UInt8 = 0
    @usableFromInline var storedOverflow = false
    /// How many bytes are stored (0, 1 or 2).
    @inlinable public var count: UInt8 { storedCount }
    /// True when more intermediates arrived than can be stored.
    @inlinable public var overflowed: Bool { storedOverflow }

    /// No intermediates, not overflowed: what an escape sequence without any has.
    @inlinable public init() {}

    /// The whole value in one word (packed bytes, count, overflow), for
    /// ``ControlSequence``'s header.
    @inlinable var bits: UInt32 {
        UInt32(packed) | UInt32(storedCount) << 16 | (storedOverflow ? 1 << 24 : 0)
    }

    @inlinable init(bits: UInt32) {
        packed = UInt16(truncatingIfNeeded: bits)
        storedCount = UInt8(truncatingIfNeeded: bits >> 16)
        storedOverflow = bits & (1 << 24) != 0
    }

    /// Intermediates from a literal list, for tests and handlers.
    public init(_ bytes: [UInt8]) {
        for byte in bytes { append(byte) }
    }

    @inlinable mutating func append(_ byte: UInt8) {
        if storedCount >= 2 {
            storedOverflow = true
            return
        }
        packed |= UInt16(byte) << (8 * UInt16(storedCount))
        storedCount += 1
    }

    /// The first intermediate, or 0 when there is none.
    @inlinable public var first: UInt8 { UInt8(truncatingIfNeeded: packed) }
    /// The second intermediate, or 0 when there are fewer than two.
    @inlinable public var second: UInt8 { UInt8(truncatingIfNeeded: packed >> 8) }
    /// True when there is no intermediate at all.
    @inlinable public var isEmpty: Bool { count == 0 && !overflowed }
    /// True when there is exactly the one intermediate `byte`.
    @inlinable public func isOnly(_ byte: UInt8) -> Bool {
        count == 1 && !overflowed && first == byte
    }
}

/// The reading API of a control sequence, declared once for the value
/// (``ControlSequence``) and the view of it a handler is lent
/// (``ControlSequenceView``), as `StringProtocol` is for `String` and
/// `Substring`.
///
/// Each type implements the stored parts; the rest (``count(at:default:)``,
/// ``isPresent(_:)``, ``hasSubparameter(after:)``) is written once here.
/// Everything is `@inlinable`, so a handler's call on a concrete view
/// compiles to the same loads as before the protocol existed.
public protocol ControlSequenceProtocol {
    /// How many parameters the sequence has, empty ones included.
    var count: Int { get }
    /// The private-parameter prefix (`?`, `>`, `<` or `=`), or 0 when absent.
    var prefix: UInt8 { get }
    /// The intermediate bytes before the final byte.
    var intermediates: Intermediates { get }
    /// The final byte (0x40–0x7E).
    var final: UInt8 { get }
    /// True when the sequence had more than ``ControlSequence/maxParams`` parameters.
    var paramsOverflowed: Bool { get }
    /// The final byte when the sequence has neither a prefix nor
    /// intermediates, the form of most sequences (CUP, SGR, ED…), else 0:
    /// one test for a handler's common cases.
    var plainFinal: UInt8 { get }
    /// Bit `i` set: parameter `i` is followed by a colon sub-parameter.
    var subparameterMask: UInt32 { get }
    /// Bit `i` set: parameter `i` was given with digits (an empty parameter
    /// means "default" and reads as 0).
    var presenceMask: UInt32 { get }
    /// Parameter `index` as a number (0 when empty or absent).
    subscript(index: Int) -> Int { get }
    /// Calls `body` with the parameter values as a buffer of ``count``
    /// entries (empty parameters read 0), valid only during the call: for
    /// handlers that read many parameters (SGR), one read instead of one a
    /// parameter.
    func withParameterValues<Result>(_ body: (UnsafeBufferPointer<UInt16>) throws -> Result) rethrows -> Result
}

extension ControlSequenceProtocol {
    /// Parameter `index`, or `defaultValue` when it is absent, empty or 0
    /// (the rule for counts and positions: "a parameter value of zero or one
    /// moves the active position by one", ECMA-48 §8.3).
    @inlinable public func count(at index: Int, default defaultValue: Int = 1) -> Int {
        let value = self[index]
        return value == 0 ? defaultValue : value
    }

    /// True when parameter `index` was given with digits.
    @inlinable public func isPresent(_ index: Int) -> Bool {
        index < count && presenceMask & (1 << UInt32(index)) != 0
    }

    /// True when parameter `index` is followed by a colon sub-parameter.
    @inlinable public func hasSubparameter(after index: Int) -> Bool {
        index < count && subparameterMask & (1 << UInt32(index)) != 0
    }
}

/// The parameters, prefix, intermediates and final byte of a CSI sequence or
/// of a DCS header, held in fixed storage so that dispatch never allocates.
/// Its reading API is ``ControlSequenceProtocol``'s.
public struct ControlSequence: ControlSequenceProtocol, Sendable {
    /// The most parameters kept. xterm keeps 30 (NPARAM in its charproc.c);
    /// 32 leaves room for SGR lines with colon sub-parameters. Further
    /// parameters are dropped and the sequence is marked ``paramsOverflowed``.
    public static let maxParams = 32

    /// 32 parameter values of 16 bits, in eight words: read and written
    /// through their bytes, which compiles to plain loads and stores (a
    /// `SIMD32` indexed at run time went through the stack every time).
    @usableFromInline var values: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0)

    @inlinable func value(at index: Int) -> UInt16 {
        withUnsafeBytes(of: values) { $0.load(fromByteOffset: index &* 2, as: UInt16.self) }
    }

    @inlinable mutating func setValue(_ value: UInt16, at index: Int) {
        withUnsafeMutableBytes(of: &values) { $0.storeBytes(of: value, toByteOffset: index &* 2, as: UInt16.self) }
    }

    /// `present` (bits 0–31) and `colonAfter` (32–63) in lane 0, the
    /// parameter count in lane 1; the prefix, final byte and flags in
    /// `header`. The parser finishes a sequence just before it hands it over,
    /// and the hand-over copies the sequence in 16- and 8-byte loads: a load
    /// of data from a narrower store still in flight stalls on store
    /// forwarding, which with these in fields of their own showed as a third
    /// of the parser's samples on CUP-per-character output. The fast path
    /// writes `shape` and `header` each with one store of the loads' width.
    @usableFromInline var shape: SIMD2<UInt64> = .zero
    @inlinable var parameterBits: UInt64 {
        get { shape[0] }
        set { shape[0] = newValue }
    }
    @inlinable var storedCount: Int {
        get { Int(truncatingIfNeeded: shape[1]) }
        set { shape[1] = UInt64(truncatingIfNeeded: newValue) }
    }
    /// Bit `i` set: parameter `i` had at least one digit (an empty parameter
    /// means "default" and reads as 0).
    @inlinable var present: UInt32 {
        get { UInt32(truncatingIfNeeded: parameterBits) }
        set { parameterBits = parameterBits & 0xFFFF_FFFF_0000_0000 | UInt64(newValue) }
    }
    /// Bit `i` set: parameter `i` is followed by a colon, so parameter `i + 1`
    /// is a sub-parameter of the same group (ECMA-48 §5.4.2 b, ITU T.416).
    @inlinable var colonAfter: UInt32 {
        get { UInt32(truncatingIfNeeded: parameterBits >> 32) }
        set { parameterBits = parameterBits & 0xFFFF_FFFF | UInt64(newValue) << 32 }
    }
    /// The prefix (bits 0–7), the final byte (8–15), the parameter overflow
    /// flag (16) and the intermediates (32–63).
    @usableFromInline var header: UInt64 = 0

    @inlinable var storedPrefix: UInt8 {
        get { UInt8(truncatingIfNeeded: header) }
        set { header = header & ~0xFF | UInt64(newValue) }
    }
    @inlinable var storedFinal: UInt8 {
        get { UInt8(truncatingIfNeeded: header >> 8) }
        set { header = header & ~0xFF00 | UInt64(newValue) << 8 }
    }
    @inlinable var storedOverflow: Bool {
        get { header & 0x1_0000 != 0 }
        set { header = newValue ? header | 0x1_0000 : header & ~0x1_0000 }
    }
    @inlinable var storedIntermediates: Intermediates {
        get { Intermediates(bits: UInt32(truncatingIfNeeded: header >> 32)) }
        set { header = header & 0xFFFF_FFFF | UInt64(newValue.bits) << 32 }
    }

    // The reading API (ControlSequenceProtocol documents it), from the
    // packed storage above.
    /// `ControlSequenceProtocol.count`, from the packed storage.
    @inlinable public var count: Int { storedCount }
    /// `ControlSequenceProtocol.prefix`, from the packed storage.
    @inlinable public var prefix: UInt8 { storedPrefix }
    /// `ControlSequenceProtocol.intermediates`, from the packed storage.
    @inlinable public var intermediates: Intermediates { storedIntermediates }
    /// `ControlSequenceProtocol.final`, from the packed storage.
    @inlinable public var final: UInt8 { storedFinal }
    /// `ControlSequenceProtocol.paramsOverflowed`, from the packed storage.
    @inlinable public var paramsOverflowed: Bool { storedOverflow }
    /// `ControlSequenceProtocol.plainFinal`, from the packed storage.
    @inlinable public var plainFinal: UInt8 {
        header & 0xFFFF_FFFF_0000_00FF == 0 ? storedFinal : 0
    }
    /// `ControlSequenceProtocol.subparameterMask`, from the packed storage.
    @inlinable public var subparameterMask: UInt32 { colonAfter }
    /// `ControlSequenceProtocol.presenceMask`, from the packed storage.
    @inlinable public var presenceMask: UInt32 { present }

    /// An empty sequence: no parameters, no prefix, no intermediates, final 0.
    /// The parser keeps one and refills it in place for each sequence.
    @inlinable public init() {}

    /// A sequence from literal parts, for tests and handlers.
    public init(
        prefix: UInt8 = 0, params: [Int], colonAfter: Set<Int> = [], intermediates: [UInt8] = [],
        final: UInt8
    ) {
        storedPrefix = prefix
        for (index, value) in params.prefix(Self.maxParams).enumerated() {
            setValue(UInt16(clamping: value), at: index)
            present |= 1 << UInt32(index)
            if colonAfter.contains(index) { self.colonAfter |= 1 << UInt32(index) }
        }
        storedCount = min(params.count, Self.maxParams)
        storedIntermediates = Intermediates(intermediates)
        storedFinal = final
    }

    /// `ControlSequenceProtocol`'s subscript, from the packed storage.
    @inlinable public subscript(index: Int) -> Int {
        index >= 0 && index < count ? Int(value(at: index)) : 0
    }

    /// `ControlSequenceProtocol.withParameterValues(_:)`, over a copy of the
    /// values: a value has no address of its own to lend.
    @inlinable
    public func withParameterValues<Result>(_ body: (UnsafeBufferPointer<UInt16>) throws -> Result) rethrows -> Result {
        var copy = values
        return try withUnsafeBytes(of: &copy) { raw in
            try body(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt16.self), count: count))
        }
    }

    /// Clears everything but the values, which the parser overwrites for
    /// every parameter it counts (`VTParser.commitParameter`).
    @usableFromInline mutating func reset() {
        shape = .zero
        header = 0
    }
}

/// A control sequence read in place, where the parser holds it: what
/// ``VTHandler/csiDispatch(_:)`` receives.
///
/// Like the buffer ``VTHandler/printASCII(_:)`` receives, a view is valid
/// only during the call it is passed to; ``copy()`` gives a value to keep.
/// Handing over a view instead of the value spares a copy of the sequence
/// for every CSI, and the copy's wide loads right after the parser's narrow
/// stores of the parameters (a store-forwarding stall on every sequence of
/// cursor-motion and colour-heavy output). Its reading API is
/// ``ControlSequenceProtocol``'s, read through the pointer.
public struct ControlSequenceView: ControlSequenceProtocol {
    @usableFromInline let base: UnsafePointer<ControlSequence>

    /// A view of the sequence at `base`, which must stay valid and unchanged
    /// while the view is used.
    @inlinable public init(_ base: UnsafePointer<ControlSequence>) {
        self.base = base
    }

    // The reading API (documented in ControlSequenceProtocol): the stored
    // parts read in place through the pointer.
    /// `ControlSequenceProtocol.count`, read in place.
    @inlinable public var count: Int { base.pointee.count }
    /// `ControlSequenceProtocol.prefix`, read in place.
    @inlinable public var prefix: UInt8 { base.pointee.prefix }
    /// `ControlSequenceProtocol.intermediates`, read in place.
    @inlinable public var intermediates: Intermediates { base.pointee.intermediates }
    /// `ControlSequenceProtocol.final`, read in place.
    @inlinable public var final: UInt8 { base.pointee.final }
    /// `ControlSequenceProtocol.paramsOverflowed`, read in place.
    @inlinable public var paramsOverflowed: Bool { base.pointee.paramsOverflowed }
    /// `ControlSequenceProtocol.plainFinal`, read in place.
    @inlinable public var plainFinal: UInt8 { base.pointee.plainFinal }
    /// `ControlSequenceProtocol.subparameterMask`, read in place.
    @inlinable public var subparameterMask: UInt32 { base.pointee.subparameterMask }
    /// `ControlSequenceProtocol.presenceMask`, read in place.
    @inlinable public var presenceMask: UInt32 { base.pointee.presenceMask }
    /// `ControlSequenceProtocol`'s subscript, read in place.
    @inlinable public subscript(index: Int) -> Int {
        index >= 0 && index < count ? Int(base.pointee.value(at: index)) : 0
    }

    /// The parameter values' bytes, ``count`` 16-bit values in the
    /// machine's byte order (empty parameters read 0), read in place where
    /// the parser holds them: valid as long as the view is, only during the
    /// handler call it was passed to. Raw bytes, read with
    /// `load(fromByteOffset:as: UInt16.self)`, so a handler's hot path needs
    /// neither a closure (``withParameterValues(_:)``) nor a rebinding.
    @inlinable public var parameterBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: UnsafeRawPointer(base.pointer(to: \.values)!), count: count &* 2)
    }

    /// `ControlSequenceProtocol.withParameterValues(_:)`, in place: no copy.
    @inlinable
    public func withParameterValues<Result>(_ body: (UnsafeBufferPointer<UInt16>) throws -> Result) rethrows
        -> Result
    {
        // `values` is a stored property of a frozen-layout struct: its
        // address comes from the key path at compile time.
        let words = UnsafeRawPointer(base.pointer(to: \.values)!).assumingMemoryBound(to: UInt64.self)
        return try words.withMemoryRebound(to: UInt16.self, capacity: ControlSequence.maxParams) {
            try body(UnsafeBufferPointer(start: $0, count: count))
        }
    }

    /// The sequence as a value, to keep after the call.
    @inlinable public func copy() -> ControlSequence { base.pointee }
}

extension ControlSequence {
    /// Calls `body` with a view of this sequence: for handing a sequence built
    /// from literal parts to a handler, as tests do.
    @inlinable
    public func withView<Result>(_ body: (ControlSequenceView) throws -> Result) rethrows -> Result {
        var copy = self
        return try withUnsafePointer(to: &copy) { try body(ControlSequenceView($0)) }
    }
}
