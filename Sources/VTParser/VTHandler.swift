/// The receiver of a ``VTParser``'s actions.
///
/// The parser knows nothing of screens: it turns bytes into the actions of the
/// DEC/ANSI state machine (https://vt100.net/emu/dec_ansi_parser) and hands them
/// to a handler. Every method has an empty default, so a handler implements only
/// what it needs (a test handler may record just `csiDispatch`, say).
///
/// The parser is generic over its handler, so calls specialise and inline; keep
/// conforming types as structs and feed them `inout`.
public protocol VTHandler {
    /// A run of printable ASCII bytes (0x20–0x7E), in order. The buffer is only
    /// valid during the call.
    mutating func printASCII(_ bytes: UnsafeBufferPointer<UInt8>)

    /// One printable Unicode scalar that is not ASCII (U+00A0 and above, or
    /// U+FFFD standing for invalid UTF-8). Never a control character.
    mutating func print(_ scalar: UInt32)

    /// A run of printable scalars that are not ASCII, each as ``print(_:)``
    /// would get it, in order. The buffer is only valid during the call.
    mutating func printScalars(_ scalars: UnsafeBufferPointer<UInt32>)

    /// A run of printable text that mixes non-ASCII scalars with short
    /// stretches of printable ASCII (0x20–0x7E, one scalar a byte): the
    /// spaces between words of CJK or Cyrillic text, the letters between
    /// combining marks. The same text as ``printASCII(_:)`` of each ASCII
    /// stretch and ``printScalars(_:)`` of each other stretch, in order, which
    /// is what the default does (``printTextInStretches(_:)``); a handler
    /// that prints both kinds alike takes the run in one call. The buffer is
    /// only valid during the call.
    mutating func printText(_ scalars: UnsafeBufferPointer<UInt32>)

    /// Where a run of non-ASCII text starts: the printable text from there
    /// on, for a handler that prints it faster by decoding each character
    /// where it places it. Taking text (``PrintableText/take(upTo:)``) must
    /// do what ``printText(_:)``, ``printScalars(_:)`` or ``print(_:)`` of
    /// its characters would; the parser hands what is not taken to those as
    /// usual. The default takes none.
    mutating func printText(ahead text: inout PrintableText)

    /// A C0 control (0x00–0x1F) or a C1 control (0x80–0x9F, received as its
    /// UTF-8 encoding) that is executed, not one that starts a sequence.
    mutating func execute(_ control: UInt8)

    /// CR immediately followed by LF in ground state, the end of nearly every
    /// line of output: what `execute(0x0D)` then `execute(0x0A)` do (the
    /// default makes those two calls), in one call for a handler that does
    /// both at once.
    mutating func carriageReturnLineFeed()
    /// After a CR LF: the whole plain lines that follow it in the buffer, for
    /// a handler that prints them faster in a loop of its own. Taking a line
    /// (``PlainTextLines/next(maxLength:)`` or
    /// ``PlainTextLines/next(maxLength:handingOutEights:)``) must do what
    /// ``printASCII(_:)`` of its text (when not empty) and then
    /// ``carriageReturnLineFeed()`` would; the parser hands the lines not
    /// taken to those as usual. The default takes none.
    mutating func printLines(_ lines: inout PlainTextLines)

    /// An escape sequence: `ESC` intermediates final.
    mutating func escDispatch(_ intermediates: Intermediates, final: UInt8)

    /// A control sequence: `CSI` prefix params intermediates final. The view
    /// reads the sequence where the parser holds it and is only valid during
    /// the call (``ControlSequenceView/copy()`` keeps it).
    mutating func csiDispatch(_ sequence: ControlSequenceView)

    /// A complete operating system command (the bytes between `OSC` and its
    /// terminator, BEL or ST). Strings over ``VTParser/Limits/oscBytes`` are
    /// dropped and counted instead of dispatched.
    mutating func oscDispatch(_ data: UnsafeBufferPointer<UInt8>)

    /// The start of a device control string: its header, parsed like a CSI
    /// and lent like ``csiDispatch(_:)``'s.
    mutating func dcsHook(_ sequence: ControlSequenceView)

    /// A fragment of the current device control string's data. DCS data is
    /// streamed, never buffered by the parser, so its length is unbounded here;
    /// the handler bounds what it keeps.
    mutating func dcsPut(_ bytes: UnsafeBufferPointer<UInt8>)

    /// The end of the current device control string (ST, or an abort by
    /// CAN, SUB or ESC).
    mutating func dcsUnhook()
}

extension VTHandler {
    /// Ignores the text.
    @inlinable public mutating func printASCII(_ bytes: UnsafeBufferPointer<UInt8>) {}
    /// Ignores the scalar.
    @inlinable public mutating func print(_ scalar: UInt32) {}
    /// Calls ``print(_:)`` for each scalar, in order.
    /// - Complexity: O(n) in the scalars.
    @inlinable public mutating func printScalars(_ scalars: UnsafeBufferPointer<UInt32>) {
        for scalar in scalars { print(scalar) }
    }
    /// Calls ``printTextInStretches(_:)``.
    /// - Complexity: O(n) in the scalars.
    @inlinable public mutating func printText(_ scalars: UnsafeBufferPointer<UInt32>) {
        printTextInStretches(scalars)
    }
    /// Takes no text: the parser then hands it to ``printText(_:)``,
    /// ``printScalars(_:)`` or ``print(_:)``.
    @inlinable public mutating func printText(ahead text: inout PrintableText) {}
    /// Ignores the control.
    @inlinable public mutating func execute(_ control: UInt8) {}
    /// Calls ``execute(_:)`` with CR (0x0D), then with LF (0x0A).
    @inlinable public mutating func carriageReturnLineFeed() {
        execute(0x0D)
        execute(0x0A)
    }
    /// Takes no line: the parser then hands each line to ``printASCII(_:)`` and
    /// ``carriageReturnLineFeed()``.
    @inlinable public mutating func printLines(_ lines: inout PlainTextLines) {}
    /// Ignores the escape sequence.
    @inlinable public mutating func escDispatch(_ intermediates: Intermediates, final: UInt8) {}
    /// Ignores the control sequence.
    @inlinable public mutating func csiDispatch(_ sequence: ControlSequenceView) {}
    /// Ignores the operating system command.
    @inlinable public mutating func oscDispatch(_ data: UnsafeBufferPointer<UInt8>) {}
    /// Ignores the device control string's header.
    @inlinable public mutating func dcsHook(_ sequence: ControlSequenceView) {}
    /// Ignores the device control string's data.
    @inlinable public mutating func dcsPut(_ bytes: UnsafeBufferPointer<UInt8>) {}
    /// Ignores the end of the device control string.
    @inlinable public mutating func dcsUnhook() {}
}

extension VTHandler {
    /// Hands a ``printText(_:)`` run over as its stretches: each stretch of
    /// ASCII to ``printASCII(_:)`` (as bytes), each stretch of other scalars
    /// to ``printScalars(_:)``, in order.
    /// - Complexity: O(n) in the scalars.
    @inlinable public mutating func printTextInStretches(_ scalars: UnsafeBufferPointer<UInt32>) {
        let count = scalars.count
        var start = 0
        while start < count {
            let isASCII = scalars[start] < 0x80
            var end = start &+ 1
            while end < count && (scalars[end] < 0x80) == isASCII { end &+= 1 }
            if isASCII {
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: end &- start) { bytes in
                    for offset in 0..<(end &- start) {
                        bytes[offset] = UInt8(truncatingIfNeeded: scalars[start &+ offset])
                    }
                    printASCII(UnsafeBufferPointer(bytes))
                }
            } else {
                printScalars(UnsafeBufferPointer(rebasing: scalars[start..<end]))
            }
            start = end
        }
    }
}
