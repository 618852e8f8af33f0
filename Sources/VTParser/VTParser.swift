/// The DEC/ANSI escape-sequence parser with UTF-8 decoding.
///
/// A byte-level state machine after Paul Williams' chart
/// (https://vt100.net/emu/dec_ansi_parser), extended as xterm and every modern
/// terminal do: UTF-8 is decoded before the chart is consulted (C1 controls
/// therefore arrive as U+0080–U+009F), CSI parameters may carry colon
/// sub-parameters (`38:2::r:g:b`, `4:3`), and OSC strings also end with BEL.
///
/// The parser keeps all of its state between calls to `feed(_:into:)`, so any
/// split of the input into chunks, down to single bytes, produces the same
/// actions. Every buffer has a limit in ``Limits``; input past a limit is
/// dropped and counted in ``statistics``.
public struct VTParser: Sendable {
    /// Bounds on what input can make the parser hold.
    public enum Limits {
        /// The longest OSC string kept (1 MiB). OSC 52 clipboard payloads are
        /// the largest legitimate strings; a longer OSC is consumed to its
        /// terminator and dropped.
        public static let oscBytes = 1 << 20
        /// OSC buffer capacity kept between strings; a string that grew the
        /// buffer past this gives the memory back when it ends.
        public static let oscRetainedCapacity = 4096
    }

    /// What the parser dropped or replaced, for diagnostics.
    @frozen
    public struct Statistics: Equatable, Sendable {
        /// OSC strings longer than ``Limits/oscBytes``, dropped.
        public var droppedOSCStrings = 0
        /// Control sequences that had more than ``ControlSequence/maxParams``
        /// parameters (dispatched with the first ones).
        public var overflowedParameterLists = 0
        /// Invalid UTF-8 sequences, each replaced by one U+FFFD.
        public var invalidUTF8 = 0
    }

    /// The states of the chart.
    @usableFromInline enum State: UInt8, Sendable {
        case ground, escape, escapeIntermediate
        case csiEntry, csiParam, csiIntermediate, csiIgnore
        case dcsEntry, dcsParam, dcsIntermediate, dcsPassthrough, dcsIgnore
        case oscString, sosPmApcString
    }

    @usableFromInline var state = State.ground
    @usableFromInline var sequence = ControlSequence()
    /// Index of the parameter being accumulated.
    @usableFromInline var paramIndex = 0
    /// True once the current sequence has any parameter character.
    @usableFromInline var hasParams = false
    /// The parameter being read, before it is stored.
    @usableFromInline var accumulator: UInt32 = 0
    @usableFromInline var accumulatorHasDigits = false
    /// The OSC string so far: the first `oscCount` bytes of `osc`, whose
    /// storage only grows (up to ``Limits/oscRetainedCapacity`` kept between
    /// strings), so that starting, adding to and ending a string moves a
    /// count and copies bytes, no more. Emptying and appending to the array
    /// instead (`removeAll(keepingCapacity:)`, `append(contentsOf:)`) cost
    /// about 130 instructions a string: a tenth of feeding output that
    /// opens an OSC 8 link a word (callgrind, `link_churn`).
    @usableFromInline var osc: [UInt8] = []
    @usableFromInline var oscCount = 0
    @usableFromInline var oscOverflowed = false

    // UTF-8 decoder state: continuation bytes still needed, the scalar so far,
    // and the range the next byte must fall in (Unicode §3.9, Table 3-7).
    @usableFromInline var utf8Needed: UInt8 = 0
    @usableFromInline var utf8Scalar: UInt32 = 0
    @usableFromInline var utf8Lower: UInt8 = 0x80
    @usableFromInline var utf8Upper: UInt8 = 0xBF

    @usableFromInline var counters = Statistics()
    /// Counters of dropped and replaced input.
    public var statistics: Statistics { counters }

    /// A parser in the ground state.
    public init() {}

    /// Feeds bytes, calling `handler` for each action.
    ///
    /// - Complexity: O(n) in the number of bytes; runs of printable ASCII and
    ///   of OSC/DCS data are handed over in bulk.
    @inlinable
    public mutating func feed<H: VTHandler>(_ bytes: UnsafeBufferPointer<UInt8>, into handler: inout H) {
        guard let base = bytes.baseAddress else { return }
        let end = bytes.count
        var index = 0
        while index < end {
            switch state {
            case .ground where utf8Needed == 0:
                index = consumeGround(base, index, end, &handler)
            case .csiEntry where utf8Needed == 0, .csiParam where utf8Needed == 0:
                // (A UTF-8 sequence begun inside the sequence is finished or
                // replaced byte by byte first, as in ground.)
                index = consumeCSI(base, index, end, &handler, resuming: true)
            case .escape where utf8Needed == 0 && base[index] == UInt8(ascii: "]"):
                // Here rather than in `consumeGround`, whose CSI fast path
                // the compiler then no longer inlined (callgrind, gcc_diag:
                // +5% instructions).
                let after = Self.consumeWholeOSC(base, index, end, &handler)
                if after != index {
                    state = .ground
                    index = after
                } else {
                    step(base[index], &handler)
                    index += 1
                }
            case .oscString:
                index = consumeOSC(base, index, end, &handler)
            case .dcsPassthrough:
                index = consumeDCS(base, index, end, &handler)
            default:
                step(base[index], &handler)
                index += 1
            }
        }
    }

    /// Ground fast path: stays in one loop while the parser is in the ground
    /// state, so text, controls and the CSI sequences between them (an SGR
    /// before every character, a CUP before every run) are told apart by
    /// direct branches rather than a jump on the state for each. Returns at
    /// the end of the bytes or where the state is no longer ground.
    @inlinable
    mutating func consumeGround<H: VTHandler>(
        _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ handler: inout H
    ) -> Int {
        // Indices stay below `end`, a buffer's count: wrapping operators
        // spare the overflow checks.
        var index = start
        var decoded: UInt32 = 0
        while index < end {
            // A run of printable ASCII goes out in one call.
            let runEnd = Self.printableRunEnd(base, from: index, to: end)
            if runEnd > index {
                handler.printASCII(UnsafeBufferPointer(start: base + index, count: runEnd &- index))
                index = runEnd
                if index == end { break }
            }
            let byte = base[index]
            if byte == 0x1B && index &+ 1 < end && base[index &+ 1] == UInt8(ascii: "[") {
                // ESC [ : straight to a fresh CSI (what `enterEscape` would clear
                // starts cleared in the fast path's locals).
                index = consumeCSI(base, index &+ 2, end, &handler, resuming: false)
                if state != .ground { return index }
            } else if byte < 0x20 && byte != 0x1B && byte != 0x18 && byte != 0x1A {
                // C0 in ground (CR, LF, BS, HT…): no state change. CR LF,
                // which ends most lines, goes out as one call, and the plain
                // lines after it (text or none, then CR LF) to the handler
                // at once.
                if byte == 0x0D && index &+ 1 < end && base[index &+ 1] == 0x0A {
                    handler.carriageReturnLineFeed()
                    index = Self.plainLinesAfterLineEnd(base, index &+ 2, end, &handler)
                } else {
                    handler.execute(byte)
                    index &+= 1
                }
            } else if byte >= 0xC2, case let length = Self.decodeUTF8(base, index, end, &decoded), length > 0 {
                // Whole, valid, printable UTF-8 sequences: the run of them
                // goes out in one call.
                index = consumeScalars(base, index + length, end, first: decoded, &handler)
            } else {
                step(byte, &handler)
                index += 1
                if state != .ground || utf8Needed != 0 { return index }
            }
        }
        return index
    }

    /// OSC fast path: at the `]` of `ESC ]` (the ESC taken, the parser in
    /// the escape state), a whole OSC string in this buffer, ended by BEL or
    /// ST (`ESC \`) with no other control in it, goes to the handler
    /// straight from the buffer, followed by the `escDispatch` of ST's `\`
    /// as the chart makes it; returns the index after the terminator, the
    /// parser then to be in ground. Returns `bracket` itself, having done
    /// nothing, for anything else (a control the chart treats otherwise, a
    /// string longer than ``Limits/oscBytes`` or not ended in this buffer),
    /// which the byte-at-a-time path then handles: the scan it repeats ends
    /// where this one did, so work stays linear. The string is not copied
    /// into `osc` and the chart's states are not visited: a hyperlink, a
    /// title or a prompt mark (OSC 8, 0/2, 133) cost 1,500 instructions an
    /// OSC that way (callgrind, `link_churn`).
    @inlinable @inline(never)
    static func consumeWholeOSC<H: VTHandler>(
        _ base: UnsafePointer<UInt8>, _ bracket: Int, _ end: Int, _ handler: inout H
    ) -> Int {
        let start = bracket &+ 1
        let scanEnd = min(end, start &+ Limits.oscBytes &+ 1)
        let control = controlRunEnd(base, from: start, to: scanEnd)
        guard control < scanEnd else { return bracket }
        let body = UnsafeBufferPointer(start: base + start, count: control &- start)
        switch base[control] {
        case 0x07:
            handler.oscDispatch(body)
            return control &+ 1
        case 0x1B where control &+ 1 < end && base[control &+ 1] == UInt8(ascii: "\\"):
            handler.oscDispatch(body)
            handler.escDispatch(Intermediates(), final: UInt8(ascii: "\\"))
            return control &+ 2
        default:
            return bracket
        }
    }

    /// The index of the first C0 control (a byte below 0x20) from `start`,
    /// or `end`: eight bytes at a time, as SWAR flags. `word - 0x20…` borrows
    /// into the top bit of a byte below 0x20, and `& ~word` drops the bytes
    /// of 0x80 and above, which have it already; borrows only start at a
    /// flagged byte and only move up, so the lowest flag is exact.
    @inlinable
    static func controlRunEnd(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var index = start
        let raw = UnsafeRawPointer(base)
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let flagged = (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
            if flagged != 0 { return index &+ flagged.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < end, base[index] >= 0x20 { index &+= 1 }
        return index
    }

    /// After a CR LF: the plain lines from `start`, when there may be any,
    /// to the handler at once; returns the index after the last line it
    /// took. Out of line, and called after every CR LF: with the test of
    /// the next byte or the offer inside `consumeGround`, the compiler no
    /// longer inlined `consumeCSI` there (callgrind, cursor_motion: +10%
    /// instructions); with the CR LF moved in here as well, region scrolls
    /// at 200×50 ran 16% slower.
    @inlinable @inline(never)
    static func plainLinesAfterLineEnd<H: VTHandler>(
        _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ handler: inout H
    ) -> Int {
        guard start < end && (base[start] &- 0x20 < 0x5F || base[start] == 0x0D) else { return start }
        var lines = PlainTextLines(base, from: start, to: end)
        handler.printLines(&lines)
        return lines.position
    }

    /// The most scalars handed over in one ``VTHandler/printScalars(_:)`` or
    /// ``VTHandler/printText(_:)`` call (a buffer on the stack).
    @usableFromInline static let scalarRunCapacity = 64

    /// The longest stretch of printable ASCII that joins a run of non-ASCII
    /// text (``VTHandler/printText(_:)``). The spaces between CJK or Cyrillic
    /// words and the letters between combining marks are this short; a
    /// longer stretch is a run of its own for ``VTHandler/printASCII(_:)``,
    /// which stores ASCII eight bytes at a time.
    @usableFromInline static let asciiStretchInText = 8

    /// Decodes the run of whole, valid, printable non-ASCII UTF-8 sequences
    /// after `first` (already decoded, ending at `start`), with the short
    /// stretches of printable ASCII between them, and hands it over in one
    /// call: ``VTHandler/printScalars(_:)`` when it holds no ASCII,
    /// ``VTHandler/printText(_:)`` when it does. A stretch of ASCII joins only
    /// when a lead byte of non-ASCII text follows it in the buffer and fits,
    /// so a run ends in ASCII only when that sequence turns out not whole or
    /// not valid. A character alone before an ESC goes to
    /// ``VTHandler/print(_:)`` instead. Returns the index after the run.
    ///
    /// Text in scripts that separate words with spaces, or that writes
    /// accents as combining marks, alternated between one call for each
    /// stretch (callgrind, 2 MiB of CJK words of 1–4 characters: 2.4
    /// characters a call), and the calls were most of its cost. Kept out of
    /// the ground loop: inlined there, its stretch loop cost the loop's
    /// other paths registers (callgrind, 2 MiB of dense_cells, all ASCII, at
    /// 80×24: 2.7% more instructions).
    @inlinable @inline(never)
    mutating func consumeScalars<H: VTHandler>(
        _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, first: UInt32, _ handler: inout H
    ) -> Int {
        // One character before an escape sequence (colour-dense output sets
        // a colour for each) goes out alone, without the run's buffer, to
        // the handler's path for one (callgrind, 2 MiB of truecolor_dense at
        // 80×24: 106.0M -> 100.4M instructions).
        if start < end && base[start] == 0x1B {
            handler.print(first)
            return start
        }
        // A handler that decodes the text where it places it takes what it
        // can (the whole line, for text in one script on a screen's row).
        let textStart = start &- (first < 0x800 ? 2 : first < 0x1_0000 ? 3 : 4)
        var text = PrintableText(base, from: textStart, to: end)
        handler.printText(ahead: &text)
        if text.position != textStart { return text.position }
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Self.scalarRunCapacity) { run in
            run[0] = first
            var count = 1
            var index = start
            var decoded: UInt32 = 0
            var holdsASCII = false
            // `count` stays within the capacity and `index` within the
            // buffer: wrapping operators spare the overflow checks.
            while count < Self.scalarRunCapacity && index < end {
                let byte = base[index]
                if byte >= 0xC2 {
                    let length = Self.decodeUTF8(base, index, end, &decoded)
                    guard length > 0 else { break }
                    run[count] = decoded
                    count &+= 1
                    index &+= length
                    // The same character twice: the rest of its repeats are
                    // its bytes again, compared instead of decoded.
                    if decoded == run[count &- 2] {
                        (count, index) = Self.repeatedSequences(
                            of: decoded, length: length, base, index, end, into: run, count: count)
                    } else if length == 3 {
                        (count, index) = Self.threeByteSequences(base, index, end, into: run, count: count)
                    }
                    continue
                }
                guard byte &- 0x20 < 0x5F else { break }
                // One printable byte before the next lead byte: the space
                // between two words, the letter under a combining mark, most
                // stretches in such text. Taken without the scan below
                // (callgrind, the run loop on 2 MiB at 80×24:
                // unicode_combining 57.5M -> 39.9M instructions,
                // unicode_letters 38.0M -> 33.6M, unicode 29.5M -> 28.4M).
                if index &+ 1 < end && base[index &+ 1] >= 0xC2 && count &+ 1 < Self.scalarRunCapacity {
                    run[count] = UInt32(byte)
                    count &+= 1
                    index &+= 1
                    holdsASCII = true
                    continue
                }
                // A stretch of at most `asciiStretchInText` printable bytes,
                // then non-ASCII text, with room for the stretch and one
                // scalar after it.
                let limit = min(end, index &+ Self.asciiStretchInText &+ 1)
                let stretchEnd = Self.printableRunEnd(base, from: index, to: limit)
                let length = stretchEnd &- index
                guard stretchEnd < limit && base[stretchEnd] >= 0xC2 && count &+ length < Self.scalarRunCapacity
                else { break }
                for offset in 0..<length { run[count &+ offset] = UInt32(base[index &+ offset]) }
                count &+= length
                index = stretchEnd
                holdsASCII = true
            }
            let scalars = UnsafeBufferPointer(rebasing: run[0..<count])
            if holdsASCII {
                handler.printText(scalars)
            } else {
                handler.printScalars(scalars)
            }
            return index
        }
    }

    /// Appends `scalar` to `run` for each repeat, from `index`, of the
    /// `length` bytes that encode it and end at `index`, while the buffer
    /// has room: returns the new count and index. The same bytes decode to
    /// the same valid scalar, so a repeat costs a 4-byte load and a compare
    /// where decoding costs some 25 instructions: box-drawing borders, bars
    /// of block elements and rules repeat one character along a row
    /// (callgrind, 2 MiB of agent_tui at 80×24, 92% of whose 329K non-ASCII
    /// scalars repeat the one before: the run loop 14.3M -> 6.1M
    /// instructions, the whole replay 99.5M -> 91.3M). Text that does not
    /// repeat pays a compare a scalar, in the caller (2 MiB of CJK words:
    /// +1.3%). Stops 4 bytes before the end of the buffer (the load's
    /// width); the caller decodes what is left. Out of line: inlined, the
    /// run loop kept more in registers for it, and text with few repeats
    /// ran 3–4% slower in wall time (16 MiB of the unicode corpus at
    /// 80×24, 25 interleaved replays) for as many instructions.
    @inlinable @inline(never)
    static func repeatedSequences(
        of scalar: UInt32, length: Int, _ base: UnsafePointer<UInt8>, _ index: Int, _ end: Int,
        into run: UnsafeMutableBufferPointer<UInt32>, count: Int
    ) -> (count: Int, index: Int) {
        var count = count
        var index = index
        // `length` is 2...4 and `index - length` starts the sequence, so a
        // load of 4 bytes there stays within the buffer when one at `index`
        // does.
        guard index &+ 4 <= end else { return (count, index) }
        let raw = UnsafeRawPointer(base)
        let mask = UInt32.max &>> UInt32(truncatingIfNeeded: (4 &- length) &* 8)
        // Little-endian, so that the sequence's bytes are the mask's.
        let sequence = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index &- length, as: UInt32.self)) & mask
        while count < scalarRunCapacity && index &+ 4 <= end
            && UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt32.self)) & mask == sequence
        {
            run[count] = scalar
            count &+= 1
            index &+= length
        }
        return (count, index)
    }

    /// Appends to `run` the three-byte sequences from `index` while they come
    /// one after another and the buffer has room: returns the new count and
    /// index. CJK, kana, Hangul and most symbols are three bytes each, and
    /// come in runs; each is checked and decoded from one 4-byte load (its
    /// lead 1110xxxx and both continuations 10xxxxxx by one mask, then the
    /// value as ``decodeUTF8(_:_:_:_:)`` checks it: not below U+0800, not a
    /// surrogate) rather than through the lead's classification a byte at a
    /// time. Anything else, a repeat of the character before included (left
    /// to ``repeatedSequences(of:length:_:_:_:into:count:)`` by the caller's
    /// loop), ends the stretch. Stops 4 bytes before the end of the buffer.
    @inlinable @inline(__always)
    static func threeByteSequences(
        _ base: UnsafePointer<UInt8>, _ index: Int, _ end: Int, into run: UnsafeMutableBufferPointer<UInt32>,
        count: Int
    ) -> (count: Int, index: Int) {
        var count = count
        var index = index
        let raw = UnsafeRawPointer(base)
        var previous = run[count &- 1]
        while count < scalarRunCapacity && index &+ 4 <= end {
            let word = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt32.self))
            guard word & 0x00C0_C0F0 == 0x0080_80E0 else { break }
            let value = (word & 0x0F) << 12 | (word & 0x3F00) >> 2 | (word >> 16) & 0x3F
            guard value >= 0x800 && value & 0xF800 != 0xD800 && value != previous else { break }
            run[count] = value
            previous = value
            count &+= 1
            index &+= 3
        }
        return (count, index)
    }

    /// The end of the run of printable ASCII (0x20–0x7E) starting at `start`,
    /// eight bytes at a time (``nonPrintableBytes(_:)``), with no
    /// byte-by-byte loop but for the buffer's last few bytes (a loop whose
    /// exit, after a run of random length, the CPU mispredicted).
    @inlinable
    static func printableRunEnd(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var index = start
        let raw = UnsafeRawPointer(base)
        while index &+ 8 <= end {
            let flagged = nonPrintableBytes(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if flagged != 0 { return index &+ flagged.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < end, base[index] &- 0x20 < 0x5F { index &+= 1 }
        return index
    }

    /// The bytes of `word` (eight bytes of input, loaded little-endian) that
    /// are not printable ASCII, as SWAR flags: the lowest set bit is the top
    /// bit of the first such byte, so its offset is the trailing zero count
    /// / 8; zero when all eight are printable. `word - 0x20…` borrows into the
    /// top bit of a byte below 0x20, `word + 0x01…` carries into it for 0x7F,
    /// and `word` has it for bytes of 0x80 and above. Borrows and carries only
    /// start at a byte that is itself flagged and only move up, so bits above
    /// the lowest may be wrong and the lowest is exact.
    @inlinable @inline(__always)
    static func nonPrintableBytes(_ word: UInt64) -> UInt64 {
        ((word &- 0x2020_2020_2020_2020) | (word &+ 0x0101_0101_0101_0101) | word) & 0x8080_8080_8080_8080
    }

    /// Decodes one whole UTF-8 sequence at `index` when it is valid, complete
    /// in this buffer and printable (not a C1 control): returns its length
    /// and sets `scalar`; returns 0 otherwise, and the byte-at-a-time decoder
    /// handles it (errors, sequences split across calls).
    ///
    /// Validity per Unicode §3.9, Table 3-7, checked on the decoded value
    /// rather than byte by byte: each continuation byte XOR 0x80 is below
    /// 0x40 exactly when it is 10xxxxxx, and with those in place the table's
    /// special second-byte ranges are value ranges: E0 A0–BF is "not below
    /// U+0800", ED 80–9F "not a surrogate", F0 90–BF "not below U+10000",
    /// F4 80–8F "not above U+10FFFF". One test on the ORed continuation bytes
    /// and one or two on the value replace a test per byte and per special
    /// lead (callgrind, 2 MiB of the unicode corpus, 682K scalars: decoding
    /// and the ground loop around it 32.5M -> 29.1M instructions).
    @inlinable @inline(__always)
    static func decodeUTF8(_ base: UnsafePointer<UInt8>, _ index: Int, _ end: Int, _ scalar: inout UInt32) -> Int {
        // `index < end`, both buffer offsets: `index + 3` cannot overflow.
        let lead = base[index]
        if lead < 0xE0 {
            guard lead >= 0xC2, index &+ 1 < end else { return 0 }
            let c1 = base[index &+ 1] ^ 0x80
            let value = UInt32(lead & 0x1F) << 6 | UInt32(c1)
            // Leads from C2 make it at least U+0080; below U+00A0 is C1.
            guard c1 < 0x40 && value >= 0xA0 else { return 0 }
            scalar = value
            return 2
        }
        if lead < 0xF0 {
            guard index &+ 2 < end else { return 0 }
            let c1 = base[index &+ 1] ^ 0x80
            let c2 = base[index &+ 2] ^ 0x80
            let value = UInt32(lead & 0x0F) << 12 | UInt32(c1) << 6 | UInt32(c2)
            guard c1 | c2 < 0x40 && value >= 0x800 && value & 0xF800 != 0xD800 else { return 0 }
            scalar = value
            return 3
        }
        guard lead <= 0xF4, index &+ 3 < end else { return 0 }
        let c1 = base[index &+ 1] ^ 0x80
        let c2 = base[index &+ 2] ^ 0x80
        let c3 = base[index &+ 3] ^ 0x80
        let value = UInt32(lead & 0x07) << 18 | UInt32(c1) << 12 | UInt32(c2) << 6 | UInt32(c3)
        guard c1 | c2 | c3 < 0x40 && value &- 0x10000 < 0x10_0000 else { return 0 }
        scalar = value
        return 4
    }

    /// Feeds bytes from any contiguous collection (an array, `Data`, a slice).
    @inlinable
    public mutating func feed<H: VTHandler, C: Collection>(_ bytes: C, into handler: inout H)
    where C.Element == UInt8 {
        let fed: Void? = bytes.withContiguousStorageIfAvailable { feed($0, into: &handler) }
        if fed == nil {
            Array(bytes).withUnsafeBufferPointer { feed($0, into: &handler) }
        }
    }

    /// The reference path: one byte through the decoder and the chart.
    @inlinable
    mutating func step<H: VTHandler>(_ byte: UInt8, _ handler: inout H) {
        switch state {
        case .oscString, .dcsPassthrough, .dcsIgnore, .sosPmApcString:
            // Strings carry raw bytes: their UTF-8 is the consumer's business.
            stringByte(byte, &handler)
            return
        default:
            break
        }
        if utf8Needed == 0 {
            if byte < 0x80 {
                advance(UInt32(byte), &handler)
            } else {
                startUTF8(byte, &handler)
            }
            return
        }
        if byte >= utf8Lower && byte <= utf8Upper {
            utf8Scalar = utf8Scalar << 6 | UInt32(byte & 0x3F)
            utf8Needed -= 1
            utf8Lower = 0x80
            utf8Upper = 0xBF
            if utf8Needed == 0 { advance(utf8Scalar, &handler) }
            return
        }
        // An ill-formed sequence ends before this byte: one U+FFFD for the
        // maximal subpart (Unicode §3.9, "U+FFFD Substitution of Maximal
        // Subparts"), then the byte starts afresh.
        utf8Needed = 0
        invalidUTF8(&handler)
        step(byte, &handler)
    }

    @inlinable
    mutating func startUTF8<H: VTHandler>(_ byte: UInt8, _ handler: inout H) {
        utf8Lower = 0x80
        utf8Upper = 0xBF
        switch byte {
        case 0xC2...0xDF:
            utf8Needed = 1
            utf8Scalar = UInt32(byte & 0x1F)
        case 0xE0...0xEF:
            utf8Needed = 2
            utf8Scalar = UInt32(byte & 0x0F)
            if byte == 0xE0 { utf8Lower = 0xA0 }  // no overlong forms
            if byte == 0xED { utf8Upper = 0x9F }  // no surrogates
        case 0xF0...0xF4:
            utf8Needed = 3
            utf8Scalar = UInt32(byte & 0x07)
            if byte == 0xF0 { utf8Lower = 0x90 }  // no overlong forms
            if byte == 0xF4 { utf8Upper = 0x8F }  // nothing past U+10FFFF
        default:
            invalidUTF8(&handler)
        }
    }

    @inlinable
    mutating func invalidUTF8<H: VTHandler>(_ handler: inout H) {
        counters.invalidUTF8 += 1
        advance(0xFFFD, &handler)
    }

    /// One decoded unit through the chart: an ASCII byte, a C1 control
    /// (0x80–0x9F) or a printable scalar (0xA0 and above).
    @inlinable
    mutating func advance<H: VTHandler>(_ unit: UInt32, _ handler: inout H) {
        // "Anywhere" transitions of the chart.
        switch unit {
        case 0x18, 0x1A:
            handler.execute(UInt8(unit))
            state = .ground
            return
        case 0x1B:
            enterEscape()
            return
        case 0x80...0x9F:
            c1Control(UInt8(unit), &handler)
            return
        default:
            break
        }
        let byte = unit < 0x80 ? UInt8(unit) : 0xFF  // 0xFF: "a printable non-ASCII scalar"
        switch state {
        case .ground:
            if byte < 0x20 {
                handler.execute(byte)
            } else if byte == 0xFF {
                handler.print(unit)
            } else if byte != 0x7F {
                withUnsafePointer(to: byte) { handler.printASCII(UnsafeBufferPointer(start: $0, count: 1)) }
            }
        case .escape:
            escape(byte, unit, &handler)
        case .escapeIntermediate:
            if byte < 0x20 {
                handler.execute(byte)
            } else if byte < 0x30 {
                sequence.storedIntermediates.append(byte)
            } else if byte < 0x7F {
                handler.escDispatch(sequence.intermediates, final: byte)
                state = .ground
            } else if byte == 0xFF {
                state = .ground
                handler.print(unit)
            }
        case .csiEntry, .csiParam, .csiIntermediate, .csiIgnore:
            csi(byte, &handler)
        case .dcsEntry, .dcsParam, .dcsIntermediate:
            dcsHeader(byte, &handler)
        case .oscString, .dcsPassthrough, .dcsIgnore, .sosPmApcString:
            break  // strings never reach the decoder (see `step`)
        }
    }

    @inlinable
    mutating func enterEscape() {
        // Leaving a string through ESC ends it; the `\` that follows (ST) is
        // then an ordinary, ignored escape sequence.
        sequence.reset()
        paramIndex = 0
        hasParams = false
        accumulator = 0
        accumulatorHasDigits = false
        state = .escape
    }

    @inlinable
    mutating func escape<H: VTHandler>(_ byte: UInt8, _ unit: UInt32, _ handler: inout H) {
        switch byte {
        case 0x00...0x1F:
            handler.execute(byte)
        case 0x20...0x2F:
            sequence.storedIntermediates.append(byte)
            state = .escapeIntermediate
        case UInt8(ascii: "["):
            state = .csiEntry
        case UInt8(ascii: "]"):
            beginOSC()
        case UInt8(ascii: "P"):
            state = .dcsEntry
        case UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
            state = .sosPmApcString
        case 0x7F:
            break
        case 0xFF:
            // Not part of any sequence: abandon the escape, keep the character.
            state = .ground
            handler.print(unit)
        default:
            handler.escDispatch(sequence.intermediates, final: byte)
            state = .ground
        }
    }

    @inlinable
    mutating func c1Control<H: VTHandler>(_ control: UInt8, _ handler: inout H) {
        if state == .oscString { endOSC(&handler) }
        if state == .dcsPassthrough { handler.dcsUnhook() }
        sequence.reset()
        paramIndex = 0
        hasParams = false
        accumulator = 0
        accumulatorHasDigits = false
        switch control {
        case 0x90: state = .dcsEntry
        case 0x9B: state = .csiEntry
        case 0x9D: beginOSC()
        case 0x98, 0x9E, 0x9F: state = .sosPmApcString
        case 0x9C: state = .ground  // ST with nothing open
        default:
            state = .ground
            handler.execute(control)
        }
    }

    /// One parameter byte: a digit goes into `accumulator`, a separator
    /// stores it (so the parameter array is written once per parameter).
    /// `paramIndex` stays below `maxParams`, so the shifts and increments use
    /// wrapping operators: no overflow checks in the hot loop.
    @inlinable
    mutating func parameter(_ byte: UInt8) {
        hasParams = true
        if byte <= 0x39 {
            // Saturates: values past 65,535 read as 65,535, as xterm caps them.
            accumulator = min(accumulator &* 10 &+ UInt32(byte &- 0x30), 0x1_0000)
            accumulatorHasDigits = true
            return
        }
        commitParameter()
        if paramIndex &+ 1 < ControlSequence.maxParams {
            if byte == UInt8(ascii: ":") { sequence.colonAfter |= 1 &<< UInt32(truncatingIfNeeded: paramIndex) }
            paramIndex &+= 1
        } else {
            sequence.storedOverflow = true
        }
    }

    /// Stores the parameter being read. Every parameter is written, empty
    /// ones as 0, so the value array never needs clearing between sequences.
    @inlinable @inline(__always)
    mutating func commitParameter() {
        if !sequence.storedOverflow {
            sequence.setValue(UInt16(truncatingIfNeeded: min(accumulator, 0xFFFF)), at: paramIndex)
            if accumulatorHasDigits { sequence.present |= 1 &<< UInt32(truncatingIfNeeded: paramIndex) }
        }
        accumulator = 0
        accumulatorHasDigits = false
    }

    @inlinable @inline(__always)
    mutating func finishParameters() {
        commitParameter()
        sequence.storedCount = hasParams ? paramIndex + 1 : 0
        if sequence.paramsOverflowed { counters.overflowedParameterLists += 1 }
    }

    @inlinable
    mutating func csi<H: VTHandler>(_ byte: UInt8, _ handler: inout H) {
        if byte < 0x20 {
            handler.execute(byte)  // C0 controls execute inside a CSI (chart)
            return
        }
        if byte == 0x7F { return }
        if byte == 0xFF {
            state = .csiIgnore
            return
        }
        if byte >= 0x40 {
            if state != .csiIgnore {
                sequence.storedFinal = byte
                finishParameters()
                withUnsafePointer(to: &sequence) { handler.csiDispatch(ControlSequenceView($0)) }
            }
            state = .ground
            return
        }
        switch state {
        case .csiEntry:
            if byte >= 0x3C && byte <= 0x3F {
                sequence.storedPrefix = byte
                state = .csiParam
            } else if byte >= 0x30 {
                parameter(byte)
                state = .csiParam
            } else {
                sequence.storedIntermediates.append(byte)
                state = .csiIntermediate
            }
        case .csiParam:
            if byte >= 0x3C {
                state = .csiIgnore
            } else if byte >= 0x30 {
                parameter(byte)
            } else {
                sequence.storedIntermediates.append(byte)
                state = .csiIntermediate
            }
        case .csiIntermediate:
            if byte >= 0x30 {
                state = .csiIgnore
            } else {
                sequence.storedIntermediates.append(byte)
            }
        default:
            break  // csiIgnore: everything up to the final byte
        }
    }

    @inlinable
    mutating func dcsHeader<H: VTHandler>(_ byte: UInt8, _ handler: inout H) {
        if byte < 0x20 || byte == 0x7F { return }  // ignored in DCS headers (chart)
        if byte == 0xFF {
            state = .dcsIgnore
            return
        }
        if byte >= 0x40 {
            sequence.storedFinal = byte
            finishParameters()
            withUnsafePointer(to: &sequence) { handler.dcsHook(ControlSequenceView($0)) }
            state = .dcsPassthrough
            return
        }
        switch state {
        case .dcsEntry:
            if byte >= 0x3C {
                sequence.storedPrefix = byte
                state = .dcsParam
            } else if byte >= 0x30 {
                parameter(byte)
                state = .dcsParam
            } else {
                sequence.storedIntermediates.append(byte)
                state = .dcsIntermediate
            }
        case .dcsParam:
            if byte >= 0x3C {
                state = .dcsIgnore
            } else if byte >= 0x30 {
                parameter(byte)
            } else {
                sequence.storedIntermediates.append(byte)
                state = .dcsIntermediate
            }
        default:
            if byte >= 0x30 {
                state = .dcsIgnore
            } else {
                sequence.storedIntermediates.append(byte)
            }
        }
    }

    // MARK: Strings (OSC, DCS data, SOS/PM/APC)

    @inlinable
    mutating func beginOSC() {
        oscCount = 0
        oscOverflowed = false
        state = .oscString
    }

    @inlinable
    mutating func appendOSC(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !oscOverflowed, let source = bytes.baseAddress else { return }
        let count = oscCount &+ bytes.count
        if count > Limits.oscBytes {
            oscOverflowed = true
            osc = []
            oscCount = 0
            return
        }
        if osc.count < count {
            // Doubling keeps the growth amortised O(1) a byte, within the
            // limit a string may reach.
            let size = min(max(count, 2 * osc.count, 64), Limits.oscBytes)
            osc.append(contentsOf: repeatElement(0, count: size - osc.count))
        }
        let start = oscCount
        osc.withUnsafeMutableBufferPointer {
            ($0.baseAddress.unsafelyUnwrapped + start).update(from: source, count: bytes.count)
        }
        oscCount = count
    }

    @inlinable
    mutating func endOSC<H: VTHandler>(_ handler: inout H) {
        if oscOverflowed {
            counters.droppedOSCStrings += 1
        } else {
            let count = oscCount
            osc.withUnsafeBufferPointer { handler.oscDispatch(UnsafeBufferPointer(rebasing: $0[..<count])) }
        }
        endOSCString()
    }

    /// Forgets the OSC string, keeping its storage up to
    /// ``Limits/oscRetainedCapacity``.
    @inlinable
    mutating func endOSCString() {
        if osc.count > Limits.oscRetainedCapacity { osc = [] }
        oscCount = 0
        oscOverflowed = false
    }

    /// CSI fast path: parameter bytes (digits, `;`, `:`) and the final byte,
    /// the whole of most sequences (SGR, CUP), without the general chart.
    /// `resuming` is false right after `ESC [` in ground (a fresh sequence)
    /// and true when continuing one that an earlier feed or the byte-at-a-time
    /// path started. The parameter being read, its index and the flag words
    /// stay in locals, written back whole when the sequence ends or leaves
    /// the fast path: reading fields back right after narrower stores to them
    /// stalls on store forwarding, which cost a third of the parser's time on
    /// SGR- and CUP-heavy output (the handler reads the sequence in place,
    /// see ``ControlSequenceView``). Separators store values as `parameter` and
    /// `commitParameter` would; anything else (a prefix, an intermediate, a
    /// control, non-ASCII) goes through `step`. A fresh SGR of direct colours
    /// is read whole first where it can be (``directColourListEnd(_:_:_:into:)``).
    @inlinable @inline(__always)
    mutating func consumeCSI<H: VTHandler>(
        _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ handler: inout H, resuming: Bool
    ) -> Int {
        if !resuming {
            // One test of the bytes left and one of the head that other lists
            // almost never pass: a branch on the first byte alone went either
            // way at random on CUPs (rows and columns from 30 to 49 start
            // with `3` or `4`; cursor_motion at 200×50 ran 12–16% slower).
            if end &- start >= Self.directColourBytes && Self.mayStartDirectColour(base, start) {
                let after = Self.directColourListEnd(base, start, end, into: &sequence)
                if after > 0 {
                    dispatchSequence(&handler)
                    return after
                }
            }
            sequence.reset()
        }
        var index = start
        var value = resuming ? accumulator : 0
        // Every value the parameter has passed through, ORed together: a
        // bit above the low 16 means it went past 65,535 (first below 655,360,
        // long before a wrap), so it reads as 65,535, as xterm caps it. One OR
        // beside the chain of multiplies instead of a saturating compare and
        // conditional move on it.
        var passed = value
        var hasDigits = resuming ? accumulatorHasDigits : false
        var position = resuming ? paramIndex : 0
        var seenParameters = resuming ? hasParams : false
        var entry = resuming ? state : .csiEntry
        var present = resuming ? sequence.present : 0
        var colons = resuming ? sequence.colonAfter : 0
        while index < end {
            let byte = base[index]
            let digit = byte &- 0x30
            if digit < 10 {
                value = value &* 10 &+ UInt32(digit)
                passed |= value
                hasDigits = true
                index &+= 1
                continue
            }
            let bit: UInt32 = 1 &<< UInt32(truncatingIfNeeded: position)
            if byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":") {
                seenParameters = true
                entry = .csiParam
                if !sequence.storedOverflow {
                    sequence.setValue(Self.parameter(value, passed: passed), at: position)
                    if hasDigits { present |= bit }
                }
                if position &+ 1 < ControlSequence.maxParams {
                    if byte == UInt8(ascii: ":") { colons |= bit }
                    position &+= 1
                } else {
                    sequence.storedOverflow = true
                }
                value = 0
                passed = 0
                hasDigits = false
                index &+= 1
                continue
            }
            if hasDigits {
                seenParameters = true
                entry = .csiParam
            }
            if byte >= 0x40 && byte <= 0x7E {
                // finishParameters, from the locals.
                if !sequence.storedOverflow {
                    sequence.setValue(Self.parameter(value, passed: passed), at: position)
                    if hasDigits { present |= bit }
                } else {
                    counters.overflowedParameterLists += 1
                }
                let count = seenParameters ? position &+ 1 : 0
                sequence.shape = SIMD2(UInt64(present) | UInt64(colons) << 32, UInt64(truncatingIfNeeded: count))
                sequence.storedFinal = byte
                accumulator = 0
                accumulatorHasDigits = false
                state = .ground
                withUnsafePointer(to: &sequence) { handler.csiDispatch(ControlSequenceView($0)) }
                return index &+ 1
            }
            storeCSI(passed > 0xFFFF ? 0x1_0000 : value, hasDigits, position, seenParameters, entry, present, colons)
            step(byte, &handler)
            return index &+ 1
        }
        storeCSI(passed > 0xFFFF ? 0x1_0000 : value, hasDigits, position, seenParameters, entry, present, colons)
        return index
    }

    /// The SGR of one or two direct colours in their semicolon form
    /// (`38;2;r;g;b`, `48;2;r;g;b`, or one then the other, then `m`; xterm's
    /// ctlseqs, "CSI Pm m"), read from `start` (just after `ESC [`) with no
    /// branch on how many digits a component has: stores the parameters in
    /// `sequence` as `consumeCSI` would and returns the index after the `m`.
    /// Returns 0, having set nothing `consumeCSI` reads, for any other list,
    /// a component of no digit or of more than three, or fewer than
    /// ``directColourBytes`` bytes left; `consumeCSI` then reads it byte by
    /// byte.
    ///
    /// Byte by byte, a component took 12 instructions a digit and 30 for
    /// its separator, and the digit loop's exit went with its length, which
    /// output of random colours (image previews) varies at random: that loop
    /// was most of truecolor_dense's parser time. Here the three components'
    /// ends come from one set of flags over 16 bytes, and each value from
    /// one load.
    @inlinable @inline(__always)
    static func directColourListEnd(
        _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sequence: inout ControlSequence
    ) -> Int {
        guard end &- start >= directColourBytes else { return 0 }
        let raw = UnsafeRawPointer(base)
        var offset = start
        var position = 0
        while true {
            // `38;2;` or `48;2;`: the low five bytes of a little-endian load.
            let head = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let group = head & 0xFF_FFFF_FFFF
            guard group == 0x3B_323B_3833 || group == 0x3B_323B_3834 else { return 0 }
            // The first three bytes after the components' start that are not
            // digits: two separators and what follows the list.
            let first = offset &+ 5
            let low = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: first, as: UInt64.self))
            let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: first &+ 8, as: UInt64.self))
            let flags = byteBits(nonDigitBytes(low)) | byteBits(nonDigitBytes(high)) &<< 8
            let red = flags.trailingZeroBitCount
            let rest = flags & (flags &- 1)
            let green = rest.trailingZeroBitCount
            let blue = (rest & (rest &- 1)).trailingZeroBitCount
            // Each component one to three digits (unsigned: a length of 0
            // wraps round).
            guard UInt(bitPattern: red &- 1) < 3, UInt(bitPattern: green &- red &- 2) < 3,
                UInt(bitPattern: blue &- green &- 2) < 3,
                base[first &+ red] == UInt8(ascii: ";"), base[first &+ green] == UInt8(ascii: ";")
            else { return 0 }
            sequence.setValue(UInt16(truncatingIfNeeded: head & 0x0F) &* 10 &+ 8, at: position)
            sequence.setValue(2, at: position &+ 1)
            sequence.setValue(decimal(raw, at: first, length: red), at: position &+ 2)
            sequence.setValue(decimal(raw, at: first &+ red &+ 1, length: green &- red &- 1), at: position &+ 3)
            sequence.setValue(decimal(raw, at: first &+ green &+ 1, length: blue &- green &- 1), at: position &+ 4)
            position &+= 5
            let after = first &+ blue
            if base[after] == UInt8(ascii: "m") {
                let present = UInt64(1) &<< UInt64(position) &- 1
                sequence.shape = SIMD2(present, UInt64(truncatingIfNeeded: position))
                sequence.header = UInt64(UInt8(ascii: "m")) << 8
                return after &+ 1
            }
            // A second colour may follow the first, nothing else.
            guard position == 5 && base[after] == UInt8(ascii: ";") else { return 0 }
            offset = after &+ 1
        }
    }

    /// True when the list at `start` may start `38;2;` or `48;2;`: its first
    /// five bytes, the first with its low three bits dropped (`0`–`7`), in
    /// one compare of a load. ``directColourListEnd(_:_:_:into:)`` tests the
    /// head exactly.
    /// - Precondition: eight bytes from `start` are in the buffer.
    @inlinable @inline(__always)
    static func mayStartDirectColour(_ base: UnsafePointer<UInt8>, _ start: Int) -> Bool {
        let head = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: start, as: UInt64.self))
        return head & 0xFF_FFFF_FFF8 == 0x3B_323B_3830
    }

    /// The bytes ``directColourListEnd(_:_:_:into:)`` needs ahead: its loads
    /// reach 37 bytes past the list's start for two colours.
    @usableFromInline static let directColourBytes = 40

    /// The value of the `length` (0–4) decimal digits at `offset`, from one
    /// four-byte load: the digits' low nibbles shifted so that the last is
    /// in the top byte (the bytes after them shifted out), then paired,
    /// tens with units, and the pairs joined.
    @inlinable @inline(__always)
    static func decimal(_ raw: UnsafeRawPointer, at offset: Int, length: Int) -> UInt16 {
        let loaded = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        let digits = loaded &<< UInt64((4 &- length) &* 8) & 0x0F0F_0F0F
        let pairs = (digits &* 10 &+ digits &>> 8) & 0x00FF_00FF
        return UInt16(truncatingIfNeeded: (pairs &* 0x0064_0001) &>> 16)
    }

    /// The top bit of each byte of `word` (eight bytes of input, loaded
    /// little-endian) that is not an ASCII digit, exact in every byte (where
    /// ``nonPrintableBytes(_:)`` is exact only in the lowest): XORed with
    /// `0x30`, a digit is 0–9; a byte of 0x80 or above has the top bit
    /// already, and below, `| 0x80` then `- 0x0A` keeps it where the byte is
    /// 10 or more, with no borrow from one byte into the next.
    @inlinable @inline(__always)
    static func nonDigitBytes(_ word: UInt64) -> UInt64 {
        let shifted = word ^ 0x3030_3030_3030_3030
        return ((shifted | 0x8080_8080_8080_8080) &- 0x0A0A_0A0A_0A0A_0A0A | shifted) & 0x8080_8080_8080_8080
    }

    /// The top bits of the eight bytes of `flags` as the low eight bits of
    /// the result, byte 0's in bit 0: the multiply moves each to its own bit
    /// of the top byte, where no other product lands.
    @inlinable @inline(__always)
    static func byteBits(_ flags: UInt64) -> UInt64 {
        ((flags &>> 7) &* 0x0102_0408_1020_4080) &>> 56
    }

    /// Hands the sequence ``directColourListEnd(_:_:_:into:)`` stored to the
    /// handler, out of line: with a second inlined call site of
    /// `csiDispatch` beside `consumeCSI`'s, the compiler inlined the handler's
    /// dispatch at both and took `consumeCSI` out of the ground loop
    /// (vim_scroll and gcc_diag 14–18% slower).
    @inlinable @inline(never)
    mutating func dispatchSequence<H: VTHandler>(_ handler: inout H) {
        withUnsafePointer(to: &sequence) { handler.csiDispatch(ControlSequenceView($0)) }
    }

    /// The fast path's parameter as dispatched: 65,535 once any value it
    /// passed through went past that (see `passed` in `consumeCSI`).
    @inlinable @inline(__always)
    static func parameter(_ value: UInt32, passed: UInt32) -> UInt16 {
        passed > 0xFFFF ? 0xFFFF : UInt16(truncatingIfNeeded: value)
    }

    /// Hands the fast path's locals back to the parser's fields, for `step`
    /// or the next feed to continue the sequence.
    @inlinable @inline(__always)
    mutating func storeCSI(
        _ value: UInt32, _ hasDigits: Bool, _ position: Int, _ seenParameters: Bool, _ entry: State,
        _ present: UInt32, _ colons: UInt32
    ) {
        sequence.parameterBits = UInt64(present) | UInt64(colons) << 32
        accumulator = value
        accumulatorHasDigits = hasDigits
        paramIndex = position
        hasParams = seenParameters
        state = entry
    }

    /// Bulk OSC path: appends the run up to the next control byte.
    @inlinable
    mutating func consumeOSC<H: VTHandler>(
        _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ handler: inout H
    ) -> Int {
        var runEnd = start
        while runEnd < end, base[runEnd] >= 0x20 { runEnd += 1 }
        if runEnd > start {
            appendOSC(UnsafeBufferPointer(start: base + start, count: runEnd - start))
        }
        if runEnd < end {
            stringByte(base[runEnd], &handler)
            runEnd += 1
        }
        return runEnd
    }

    /// Bulk DCS path: passes the run up to the next byte that can end it.
    @inlinable
    mutating func consumeDCS<H: VTHandler>(
        _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ handler: inout H
    ) -> Int {
        var runEnd = start
        while runEnd < end {
            let byte = base[runEnd]
            if byte == 0x1B || byte == 0x18 || byte == 0x1A || byte == 0x7F { break }
            runEnd += 1
        }
        if runEnd > start {
            handler.dcsPut(UnsafeBufferPointer(start: base + start, count: runEnd - start))
        }
        if runEnd < end {
            stringByte(base[runEnd], &handler)
            runEnd += 1
        }
        return runEnd
    }

    /// One byte inside a string state.
    @inlinable
    mutating func stringByte<H: VTHandler>(_ byte: UInt8, _ handler: inout H) {
        switch byte {
        case 0x1B, 0x18, 0x1A:
            if state == .oscString {
                // CAN and SUB abort the string; ESC ends it (ESC \ is ST).
                if byte == 0x1B {
                    endOSC(&handler)
                } else {
                    endOSCString()
                }
            } else if state == .dcsPassthrough {
                handler.dcsUnhook()
            }
            if byte == 0x1B {
                enterEscape()
            } else {
                handler.execute(byte)
                state = .ground
            }
        case 0x07 where state == .oscString:
            endOSC(&handler)  // xterm accepts BEL as the OSC terminator
            state = .ground
        default:
            switch state {
            case .oscString:
                if byte >= 0x20 {
                    withUnsafePointer(to: byte) { appendOSC(UnsafeBufferPointer(start: $0, count: 1)) }
                }
            case .dcsPassthrough:
                if byte != 0x7F {
                    withUnsafePointer(to: byte) { handler.dcsPut(UnsafeBufferPointer(start: $0, count: 1)) }
                }
            default:
                break  // dcsIgnore, SOS/PM/APC: consumed and dropped
            }
        }
    }
}
