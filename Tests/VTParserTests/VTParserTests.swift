import TestSupport
import Testing
import VTParser

/// Records every action as a readable line, merging adjacent print actions.
struct Recorder: VTHandler {
    var events: [String] = []
    var text = ""

    mutating func flush() {
        if !text.isEmpty { events.append("print \(text)") }
        text = ""
    }
    mutating func printASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
        text += String(decoding: bytes, as: UTF8.self)
    }
    mutating func print(_ scalar: UInt32) {
        text.unicodeScalars.append(Unicode.Scalar(scalar)!)
    }
    mutating func execute(_ control: UInt8) {
        flush()
        events.append("exec \(control)")
    }
    mutating func escDispatch(_ intermediates: Intermediates, final: UInt8) {
        flush()
        var name = "esc "
        if intermediates.count > 0 { name += String(UnicodeScalar(intermediates.first)) }
        if intermediates.count > 1 { name += String(UnicodeScalar(intermediates.second)) }
        events.append(name + String(UnicodeScalar(final)))
    }
    mutating func csiDispatch(_ sequence: ControlSequenceView) {
        flush()
        events.append("csi " + describe(sequence))
    }
    mutating func oscDispatch(_ data: UnsafeBufferPointer<UInt8>) {
        flush()
        events.append("osc " + String(decoding: data, as: UTF8.self))
    }
    mutating func dcsHook(_ sequence: ControlSequenceView) {
        flush()
        events.append("dcs " + describe(sequence))
    }
    mutating func dcsPut(_ bytes: UnsafeBufferPointer<UInt8>) {
        flush()
        if let last = events.last, last.hasPrefix("put ") {
            events[events.count - 1] = last + String(decoding: bytes, as: UTF8.self)
        } else {
            events.append("put " + String(decoding: bytes, as: UTF8.self))
        }
    }
    mutating func dcsUnhook() {
        flush()
        events.append("unhook")
    }

    func describe(_ sequence: ControlSequenceView) -> String {
        var out = ""
        if sequence.prefix != 0 { out += String(UnicodeScalar(sequence.prefix)) }
        for index in 0..<sequence.count {
            out += sequence.isPresent(index) ? String(sequence[index]) : "_"
            if index + 1 < sequence.count { out += sequence.hasSubparameter(after: index) ? ":" : ";" }
        }
        let intermediates = sequence.intermediates
        if intermediates.count > 0 { out += String(UnicodeScalar(intermediates.first)) }
        if intermediates.count > 1 { out += String(UnicodeScalar(intermediates.second)) }
        return out + String(UnicodeScalar(sequence.final))
    }
}

func parse(_ input: [UInt8], chunk: Int? = nil) -> [String] {
    var parser = VTParser()
    var recorder = Recorder()
    if let chunk {
        var start = 0
        while start < input.count {
            parser.feed(input[start..<min(start + chunk, input.count)], into: &recorder)
            start += chunk
        }
    } else {
        parser.feed(input, into: &recorder)
    }
    recorder.flush()
    return recorder.events
}

func parse(_ input: String) -> [String] { parse(Array(input.utf8)) }

@Suite("Parser: ground state")
struct GroundTests {
    @Test("Printable ASCII is one run") func printableASCIIIsOneRun() {
        #expect(parse("hello") == ["print hello"])
    }

    @Test("C0 controls execute") func c0ControlsExecute() {
        #expect(parse("a\r\nb") == ["print a", "exec 13", "exec 10", "print b"])
    }

    /// A handler that takes CR LF as one call gets it for the pair in one
    /// buffer, and two `execute`s otherwise (split, alone, reversed).
    @Test("Carriage return line feed is one call when the handler takes it")
    func carriageReturnLineFeedIsOneCallWhenTheHandlerTakesIt() {
        struct LineEnds: VTHandler {
            var events: [String] = []
            mutating func printASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
                events.append("print " + String(decoding: bytes, as: UTF8.self))
            }
            mutating func execute(_ control: UInt8) { events.append("exec \(control)") }
            mutating func carriageReturnLineFeed() { events.append("crlf") }
        }
        var parser = VTParser()
        var handler = LineEnds()
        parser.feed(Array("a\r\nb\n\r\r\r\n\r".utf8), into: &handler)
        parser.feed(Array("\nc\u{1B}[1m\r\n".utf8), into: &handler)
        #expect(
            handler.events == [
                "print a", "crlf", "print b", "exec 10", "exec 13", "exec 13", "crlf", "exec 13", "exec 10",
                "print c", "crlf",
            ])
    }

    /// After a CR LF the parser offers the plain lines that follow (printable
    /// ASCII or nothing, then CR LF, whole in the buffer); the handler takes
    /// those it wants, up to a length, and the parser goes on from the first
    /// line not taken with its usual calls.
    @Test("Plain lines after a line end are offered to the handler")
    func plainLinesAfterALineEndAreOfferedToTheHandler() {
        struct LineTaker: VTHandler {
            var events: [String] = []
            mutating func printASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
                events.append("print " + String(decoding: bytes, as: UTF8.self))
            }
            mutating func print(_ scalar: UInt32) {
                events.append("print " + String(Character(Unicode.Scalar(scalar)!)))
            }
            mutating func execute(_ control: UInt8) { events.append("exec \(control)") }
            mutating func carriageReturnLineFeed() { events.append("crlf") }
            mutating func printLines(_ lines: inout PlainTextLines) {
                while let text = lines.next(maxLength: 3) {
                    events.append("line " + String(decoding: text, as: UTF8.self))
                }
            }
            mutating func csiDispatch(_ sequence: ControlSequenceView) { events.append("csi") }
        }
        var parser = VTParser()
        var handler = LineTaker()
        // "abcd" is too long for this handler, "\u{1B}[m" and "x\ty" are not
        // plain, "é" is not ASCII, and "tail" has no CR LF in this buffer.
        let first = "a\r\nbc\r\n\r\nabcd\r\nde\r\n\u{1B}[m\r\nx\ty\r\nok\r\né\r\n\r\ntail"
        parser.feed(Array(first.utf8), into: &handler)
        parser.feed(Array("\r\nzz\r\n".utf8), into: &handler)
        #expect(
            handler.events == [
                "print a", "crlf", "line bc", "line ", "print abcd", "crlf", "line de", "csi", "crlf", "print x",
                "exec 9", "print y", "crlf", "line ok", "print é", "crlf", "line ", "print tail", "crlf", "line zz",
            ])
    }

    /// `next(maxLength:handingOutEights:)` hands out a line's bytes eight at
    /// a time from its start while it scans, only where eight more fit in
    /// `maxLength` and in the buffer, and then takes what `next(maxLength:)`
    /// would.
    @Test("Lines hand out their bytes eight at a time") func linesHandOutTheirBytesEightAtATime() {
        struct EightTaker: VTHandler {
            var maxLength: Int
            var events: [String] = []
            mutating func printLines(_ lines: inout PlainTextLines) {
                while true {
                    var eights: [String] = []
                    let taken = lines.next(
                        maxLength: maxLength,
                        handingOutEights: { offset, bytes in
                            // CR LF shows as "|".
                            let shown = withUnsafeBytes(of: bytes.littleEndian) { eight in
                                eight.filter { $0 != 0x0A }.map { $0 == 0x0D ? UInt8(ascii: "|") : $0 }
                            }
                            eights.append("\(offset):" + String(decoding: shown, as: UTF8.self))
                        })
                    events.append(eights.joined(separator: " "))
                    guard let (text, handedOut) = taken else { return }
                    events.append("line " + String(decoding: text, as: UTF8.self) + " handed out \(handedOut)")
                }
            }
        }
        var wide = EightTaker(maxLength: 16)
        var parser = VTParser()
        // Ten bytes: the second eight holds the line's end and the next
        // line's start. Then a line of 17, too long: nil after two eights.
        parser.feed(Array("\r\nabcdefghij\r\n0123456789abcdefg\r\n".utf8), into: &wide)
        #expect(
            wide.events == [
                "0:abcdefgh 8:ij|0123", "line abcdefghij handed out 10", "0:01234567 8:89abcdef",
            ])
        var narrow = EightTaker(maxLength: 12)
        parser = VTParser()
        // Eight more do not fit in 12 after the first: the rest is scanned
        // byte by byte and not handed out. "xy" is near the buffer's end.
        parser.feed(Array("\r\nabcdefghij\r\nxy\r\n".utf8), into: &narrow)
        #expect(narrow.events == ["0:abcdefgh", "line abcdefghij handed out 8", "", "line xy handed out 0", ""])
    }

    /// On random lines, `next(maxLength:handingOutEights:)` takes exactly
    /// what `next(maxLength:)` takes, and hands out the buffer's own bytes.
    @Test("Handing out eights takes what next takes") func handingOutEightsTakesWhatNextTakes() {
        struct Comparer: VTHandler {
            var maxLength = 0
            var lines = 0
            var mismatches: [String] = []
            mutating func printLines(_ lines: inout PlainTextLines) {
                while true {
                    var plain = lines
                    let expected = plain.next(maxLength: maxLength).map { Array($0) }
                    var handed: [(Int, UInt64)] = []
                    let taken = lines.next(maxLength: maxLength, handingOutEights: { handed.append(($0, $1)) })
                    let text = taken.map { Array($0.text) }
                    if text != expected {
                        mismatches.append("took \(String(describing: text)), not \(String(describing: expected))")
                    }
                    for (index, (offset, _)) in handed.enumerated() where offset != index * 8 || offset + 8 > maxLength
                    {
                        mismatches.append("eight at \(offset)")
                    }
                    guard let (taken, handedOut) = taken else { return }
                    self.lines += 1
                    let start = taken.baseAddress!
                    for (offset, bytes) in handed {
                        let inBuffer = UnsafeRawPointer(start).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        if bytes != inBuffer { mismatches.append("bytes at \(offset)") }
                    }
                    if handedOut != min(taken.count, handed.count * 8) { mismatches.append("handed out \(handedOut)") }
                }
            }
        }
        var random = SplitMix64(seed: 0x5EED_0008)
        var handler = Comparer()
        let alphabet = Array("abc xyz~".utf8) + [0x0D, 0x0A, 0x1B, 0x7F, 0xC3, 0xA9]
        for _ in 0..<300 {
            handler.maxLength = Int.random(in: 0...40, using: &random)
            var bytes: [UInt8] = [0x0D, 0x0A]
            for _ in 0..<Int.random(in: 0...400, using: &random) {
                if Int.random(in: 0..<12, using: &random) == 0 {
                    bytes += [0x0D, 0x0A]
                } else {
                    bytes.append(alphabet[Int.random(in: 0..<alphabet.count, using: &random)])
                }
            }
            var parser = VTParser()
            parser.feed(bytes, into: &handler)
        }
        #expect(handler.mismatches == [])
        #expect(handler.lines > 500)
    }

    /// A handler that does not take lines sees every line as before.
    @Test("A handler that takes no lines gets the usual calls") func aHandlerThatTakesNoLinesGetsTheUsualCalls() {
        #expect(
            parse("a\r\nb\r\n\r\nc") == [
                "print a", "exec 13", "exec 10", "print b", "exec 13", "exec 10", "exec 13", "exec 10", "print c",
            ])
    }

    @Test("Delete is ignored in ground") func deleteIsIgnoredInGround() {
        #expect(parse("a\u{7F}b") == ["print ab"])
    }

    @Test("UTF-8 is decoded") func utf8IsDecoded() {
        #expect(parse("é漢😀") == ["print é漢😀"])
    }

    @Test("C1 control encoded as UTF-8 executes") func c1ControlEncodedAsUTF8Executes() {
        // U+0085 NEL in UTF-8 is C2 85.
        #expect(parse([0x61, 0xC2, 0x85, 0x62]) == ["print a", "exec 133", "print b"])
    }

    @Test("C1 CSI encoded as UTF-8 starts a sequence") func c1CSIEncodedAsUTF8StartsASequence() {
        #expect(parse([0xC2, 0x9B, 0x33, 0x41]) == ["csi 3A"])
    }
}

@Suite("Parser: UTF-8 errors")
struct UTF8ErrorTests {
    @Test("Lone continuation byte is replaced") func loneContinuationByteIsReplaced() {
        #expect(parse([0x61, 0x80, 0x62]) == ["print a\u{FFFD}b"])
    }

    @Test("Truncated sequence is one replacement then the next byte")
    func truncatedSequenceIsOneReplacementThenTheNextByte() {
        // E2 82 is the start of U+20AC; "A" ends it early.
        #expect(parse([0xE2, 0x82, 0x41]) == ["print \u{FFFD}A"])
    }

    @Test("Overlong forms are rejected") func overlongFormsAreRejected() {
        // C0 80 is an overlong NUL: two replacements (maximal subparts of one byte each).
        #expect(parse([0xC0, 0x80]) == ["print \u{FFFD}\u{FFFD}"])
        // E0 80 80: E0 needs A0..BF next, so three replacements.
        #expect(parse([0xE0, 0x80, 0x80]) == ["print \u{FFFD}\u{FFFD}\u{FFFD}"])
    }

    @Test("Surrogates are rejected") func surrogatesAreRejected() {
        // ED A0 80 would be U+D800.
        #expect(parse([0xED, 0xA0, 0x80]) == ["print \u{FFFD}\u{FFFD}\u{FFFD}"])
    }

    @Test("Beyond U+10FFFF is rejected") func beyondU10FFFFIsRejected() {
        #expect(parse([0xF4, 0x90, 0x80, 0x80]) == ["print \u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"])
        #expect(parse([0xF5]) == ["print \u{FFFD}"])
    }

    @Test("Escape inside a UTF-8 sequence ends it and starts the escape")
    func escapeInsideAUTF8SequenceEndsItAndStartsTheEscape() {
        #expect(parse([0xE2, 0x1B, 0x5B, 0x41]) == ["print \u{FFFD}", "csi A"])
    }

    @Test("A truncated sequence inside a control sequence does not join its parameters")
    func aTruncatedSequenceInsideAControlSequenceDoesNotJoinItsParameters() {
        // C3 starts a two-byte sequence that "5" (or "m") cuts short: one
        // U+FFFD (Unicode §3.9), a character, stands between "1" and "5", so
        // no CSI with the parameter 15 (or 87) may come out, and the
        // whole-buffer fast path must agree with the byte-at-a-time path
        // (the fast path used to resume the sequence without finishing the
        // UTF-8 first).
        let inputs: [[UInt8]] = [
            [0x1B, 0x5B, 0x31, 0xC3, 0x35, 0x6D, 0x78],
            [0x1B, 0x5B, 0x38, 0x37, 0xC3, 0x6D, 0x78],
            [0x1B, 0x5B, 0xE2, 0x82, 0x32, 0x41, 0x78],
            [0x1B, 0x5B, 0x3F, 0xF0, 0x9F, 0x31, 0x68, 0x78],
        ]
        for input in inputs {
            let whole = parse(input)
            #expect(!whole.contains("csi 15m") && !whole.contains("csi 87m"), "\(input)")
            #expect(whole.last == "print x", "\(input)")
            #expect(whole == parse(input, chunk: 1), "\(input)")
        }
    }

    /// The OSC fast path (a whole string in one buffer, straight from it)
    /// gives the actions the chart gives a byte a feed, where it never
    /// applies: strings ended by BEL and by ST, empty ones, ones with C0, C1,
    /// DEL and UTF-8 inside, ones that CAN aborts or an ESC other than ST
    /// ends, and ones still open at the buffer's end.
    @Test("Whole OSC strings in one buffer give the actions a byte a feed gives")
    func oscFastPathAgreesWithTheChart() {
        let esc: UInt8 = 0x1B
        let pieces: [[UInt8]] = [
            [esc] + Array("]8;id=1;file://h/a.c".utf8) + [esc, 0x5C],
            Array("a.c ".utf8),
            [esc] + Array("]8;;".utf8) + [esc, 0x5C],
            [esc] + Array("]0;tïtle".utf8) + [0x07],
            [esc] + Array("]2;a".utf8) + [0x0A] + Array("b".utf8) + [0x07],
            [esc] + Array("]2;x".utf8) + [0x18] + Array("y".utf8),
            [esc] + Array("]2;x".utf8) + [esc] + Array("[1m".utf8),
            [esc] + Array("]133;A".utf8) + [0x9C, 0x7F] + [0x07],
            [esc] + Array("]".utf8) + [esc, 0x5C],
            [esc] + Array("]7;file://h/a/very/long/path/indeed".utf8),
            [esc], [0x5C], [0x07], [0x0D, 0x0A],
        ]
        var random = SplitMix64(seed: 0x05C8)
        for _ in 0..<500 {
            var input: [UInt8] = []
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                input += pieces[Int.random(in: 0..<pieces.count, using: &random)]
            }
            #expect(parse(input) == parse(input, chunk: 1), "\(input)")
        }
        // What the chart gives, spelled out for the two terminators.
        #expect(
            parse("\u{1B}]8;;u\u{1B}\\x\u{1B}]0;t\u{07}y") == ["osc 8;;u", "esc \\", "print x", "osc 0;t", "print y"])
    }

    @Test("Invalid sequences are counted") func invalidSequencesAreCounted() {
        var parser = VTParser()
        var recorder = Recorder()
        parser.feed([0x80, 0x80, 0x41] as [UInt8], into: &recorder)
        #expect(parser.statistics.invalidUTF8 == 2)
    }
}

@Suite("Parser: escape and control sequences")
struct SequenceTests {
    @Test("Escape sequence with intermediate") func escapeSequenceWithIntermediate() {
        #expect(parse("\u{1B}(0\u{1B}7\u{1B}#8") == ["esc (0", "esc 7", "esc #8"])
    }

    @Test("CSI with parameters") func csiWithParameters() {
        #expect(parse("\u{1B}[12;34H") == ["csi 12;34H"])
    }

    @Test("Empty parameters are kept") func emptyParametersAreKept() {
        #expect(parse("\u{1B}[;5H") == ["csi _;5H"])
        #expect(parse("\u{1B}[5;H") == ["csi 5;_H"])
        #expect(parse("\u{1B}[H") == ["csi H"])
    }

    @Test("Private prefix and intermediate") func privatePrefixAndIntermediate() {
        #expect(parse("\u{1B}[?1049h\u{1B}[>c\u{1B}[2 q\u{1B}[!p") == ["csi ?1049h", "csi >c", "csi 2 q", "csi !p"])
    }

    @Test("Colon subparameters") func colonSubparameters() {
        #expect(parse("\u{1B}[4:3m") == ["csi 4:3m"])
        #expect(parse("\u{1B}[38:2::10:20:30m") == ["csi 38:2:_:10:20:30m"])
        #expect(parse("\u{1B}[1;58:5:9m") == ["csi 1;58:5:9m"])
    }

    @Test("Control inside CSI executes and the sequence goes on") func controlInsideCSIExecutesAndTheSequenceGoesOn() {
        #expect(parse("\u{1B}[1\n2H") == ["exec 10", "csi 12H"])
    }

    @Test("Private marker after parameters ignores the sequence") func privateMarkerAfterParametersIgnoresTheSequence()
    {
        #expect(parse("\u{1B}[1?5hX") == ["print X"])
    }

    @Test("CAN and SUB abort a sequence") func canAndSubAbortASequence() {
        #expect(parse("\u{1B}[12\u{18}A") == ["exec 24", "print A"])
        #expect(parse("\u{1B}[12\u{1A}A") == ["exec 26", "print A"])
    }

    @Test("Escape restarts a sequence") func escapeRestartsASequence() {
        #expect(parse("\u{1B}[12\u{1B}[3A") == ["csi 3A"])
    }

    @Test("Parameter values saturate") func parameterValuesSaturate() {
        #expect(parse("\u{1B}[99999999A") == ["csi 65535A"])
    }

    @Test("Too many parameters keep the first and count") func tooManyParametersKeepTheFirstAndCount() {
        let params = (1...40).map(String.init).joined(separator: ";")
        var parser = VTParser()
        var recorder = Recorder()
        parser.feed(Array("\u{1B}[\(params)m".utf8), into: &recorder)
        recorder.flush()
        let expected = (1...32).map(String.init).joined(separator: ";")
        #expect(recorder.events == ["csi \(expected)m"])
        #expect(parser.statistics.overflowedParameterLists == 1)
    }
}

@Suite("Parser: strings")
struct StringTests {
    @Test("OSC ends with BEL") func oscEndsWithBEL() {
        #expect(parse("\u{1B}]0;title\u{07}x") == ["osc 0;title", "print x"])
    }

    @Test("OSC ends with ST") func oscEndsWithST() {
        #expect(parse("\u{1B}]2;tïtle\u{1B}\\x") == ["osc 2;tïtle", "esc \\", "print x"])
    }

    @Test("OSC aborted by CAN is not dispatched") func oscAbortedByCANIsNotDispatched() {
        #expect(parse("\u{1B}]0;t\u{18}x") == ["exec 24", "print x"])
    }

    @Test("OSC ignores C0 controls") func oscIgnoresC0Controls() {
        #expect(parse("\u{1B}]0;a\nb\u{07}") == ["osc 0;ab"])
    }

    @Test("Oversized OSC is dropped and counted") func oversizedOSCIsDroppedAndCounted() {
        var parser = VTParser()
        var recorder = Recorder()
        var input = Array("\u{1B}]0;".utf8)
        input += [UInt8](repeating: 0x41, count: VTParser.Limits.oscBytes + 10)
        input += [0x07, 0x42]
        parser.feed(input, into: &recorder)
        recorder.flush()
        #expect(recorder.events == ["print B"])
        #expect(parser.statistics.droppedOSCStrings == 1)
    }

    @Test("A shorter OSC string after a longer one is only its own bytes, whole or a byte a feed")
    func shorterOSCAfterALongerOne() {
        let long = "\u{1B}]0;" + String(repeating: "a", count: 5_000) + "\u{07}"
        let input = long + "\u{1B}]2;b\u{1B}\\\u{1B}]8;;\u{07}" + long + "\u{1B}]1;c\u{18}\u{1B}]0;d\u{07}"
        let expected = [
            "osc 0;" + String(repeating: "a", count: 5_000), "osc 2;b", "esc \\", "osc 8;;",
            "osc 0;" + String(repeating: "a", count: 5_000), "exec 24", "osc 0;d",
        ]
        #expect(parse(input) == expected)
        var parser = VTParser()
        var recorder = Recorder()
        for byte in Array(input.utf8) { parser.feed([byte], into: &recorder) }
        recorder.flush()
        #expect(recorder.events == expected)
    }

    @Test("DCS streams its data") func dcsStreamsItsData() {
        #expect(parse("\u{1B}P1$qm\u{1B}\\") == ["dcs 1$q", "put m", "unhook", "esc \\"])
    }

    @Test("APC, PM and SOS are consumed") func apcPmSosAreConsumed() {
        #expect(
            parse("\u{1B}_Gabc\u{1B}\\\u{1B}^pm\u{1B}\\\u{1B}Xsos\u{1B}\\z") == [
                "esc \\", "esc \\", "esc \\", "print z",
            ])
    }
}

@Suite("Parser: chunking")
struct ChunkingTests {
    static let sample: [UInt8] =
        Array(
            "ab\u{1B}[1;31mé漢\u{1B}]0;tïtle\u{07}\u{1B}P1$qm\u{1B}\\😀\u{1B}[38:2::1:2:3m\r\n".utf8) + [
            0xE2, 0x82, 0x41, 0x80, 0xF0, 0x9F, 0x98,
        ]

    @Test("Any split gives the same actions", arguments: [1, 2, 3, 5, 7, 13])
    func anySplitGivesTheSameActions(chunk: Int) {
        #expect(parse(Self.sample, chunk: chunk) == parse(Self.sample))
    }

    @Test("Random splits give the same actions") func randomSplitsGiveTheSameActions() {
        var generator = SplitMix64(seed: 42)
        let expected = parse(Self.sample)
        for _ in 0..<200 {
            var parser = VTParser()
            var recorder = Recorder()
            var start = 0
            while start < Self.sample.count {
                let length = Int(generator.next() % 6) + 1
                parser.feed(Self.sample[start..<min(start + length, Self.sample.count)], into: &recorder)
                start += length
            }
            recorder.flush()
            #expect(recorder.events == expected)
        }
    }
}

/// Keeps what a handler can read from the lent sequences: the parameter
/// buffer (read in place) and a copy taken during the call.
struct ViewKeeper: VTHandler {
    var buffers: [[UInt16]] = []
    var copies: [ControlSequence] = []
    mutating func csiDispatch(_ sequence: ControlSequenceView) {
        buffers.append(sequence.withParameterValues { Array($0) })
        copies.append(sequence.copy())
    }
}

@Suite("Parser: the lent control sequence")
struct ControlSequenceViewTests {
    @Test("Parameter buffer holds the values in order with empty ones as zero")
    func parameterBufferHoldsTheValuesInOrderWithEmptyOnesAsZero() {
        var parser = VTParser()
        var keeper = ViewKeeper()
        parser.feed(Array("\u{1B}[38;5;196;48;2;;7;255m\u{1B}[H\u{1B}[?25l".utf8), into: &keeper)
        #expect(keeper.buffers == [[38, 5, 196, 48, 2, 0, 7, 255], [], [25]])
    }

    @Test("A copy outlives the call and the next sequence") func aCopyOutlivesTheCallAndTheNextSequence() {
        var parser = VTParser()
        var keeper = ViewKeeper()
        // The second sequence overwrites the parser's storage: the first copy keeps its values.
        parser.feed(Array("\u{1B}[12;34H\u{1B}[5A".utf8), into: &keeper)
        #expect(keeper.copies.count == 2)
        #expect(keeper.copies[0].count == 2 && keeper.copies[0][0] == 12 && keeper.copies[0][1] == 34)
        #expect(keeper.copies[0].final == UInt8(ascii: "H"))
        #expect(keeper.copies[1].count == 1 && keeper.copies[1][0] == 5 && keeper.copies[1].final == UInt8(ascii: "A"))
    }

    @Test("A sequence split across feeds is lent whole") func aSequenceSplitAcrossFeedsIsLentWhole() {
        var parser = VTParser()
        var keeper = ViewKeeper()
        for byte in "\u{1B}[4:3;1;58:5:9m".utf8 { parser.feed([byte], into: &keeper) }
        #expect(keeper.buffers == [[4, 3, 1, 58, 5, 9]])
        #expect(keeper.copies.first?.subparameterMask == 0b1_1001)
    }

    @Test("Plain final only without prefix and intermediates") func plainFinalOnlyWithoutPrefixAndIntermediates() {
        var parser = VTParser()
        var keeper = ViewKeeper()
        let tooMany = (1...40).map(String.init).joined(separator: ";")
        parser.feed(Array("\u{1B}[5;9H\u{1B}[?5H\u{1B}[1 H\u{1B}[m\u{1B}[\(tooMany)m\u{1B}[>1!m".utf8), into: &keeper)
        let plain = keeper.copies.map {
            Character(UnicodeScalar($0.plainFinal == 0 ? UInt8(ascii: "-") : $0.plainFinal))
        }
        // CUP, CUP with a prefix, an intermediate; SGR, SGR past 32 parameters, SGR with both.
        #expect(String(plain) == "H--mm-")
    }

    @Test("A literal sequence can be lent") func aLiteralSequenceCanBeLent() {
        let literal = ControlSequence(prefix: UInt8(ascii: "?"), params: [1049, 0, 7], colonAfter: [1], final: 0x68)
        literal.withView { view in
            #expect(view.prefix == UInt8(ascii: "?") && view.final == 0x68 && view.count == 3)
            #expect(view[0] == 1049 && view[1] == 0 && view[2] == 7 && view[3] == 0 && view[-1] == 0)
            #expect(view.count(at: 1, default: 9) == 9 && view.count(at: 2) == 7)
            #expect(view.hasSubparameter(after: 1) && !view.hasSubparameter(after: 0))
            #expect(view.withParameterValues { Array($0) } == [1049, 0, 7])
        }
    }
}
