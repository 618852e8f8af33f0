import VTParser

// The parser's actions mapped to terminal operations. References: xterm's
// ctlseqs (https://invisible-island.net/xterm/ctlseqs/ctlseqs.html) and
// ECMA-48 (section numbers below).

extension TerminalState: VTHandler {
    mutating func print(_ scalar: UInt32) {
        if !modes.graphemeClustering && !modes.insert && !protectedPen && printSingleScalar(scalar) { return }
        printScalar(scalar)
    }

    mutating func printScalars(_ scalars: UnsafeBufferPointer<UInt32>) {
        printRunOfScalars(scalars)
    }

    mutating func printText(_ scalars: UnsafeBufferPointer<UInt32>) {
        printMixedRun(scalars)
    }

    mutating func printText(ahead text: inout PrintableText) {
        text.take(upTo: printTextAhead(text, from: text.position))
    }

    mutating func execute(_ control: UInt8) {
        lastGraphic = nil  // REP repeats only a character that came just before it (xterm)
        switch control {
        case 0x07:  // BEL
            counters.bells += 1
            emit(.bell)
        case 0x08: backspace()  // BS
        case 0x09: tabForward(1)  // HT
        case 0x0A, 0x0B, 0x0C:  // LF, VT, FF (ECMA-48 §8.3.74: FF moves down like LF here)
            lineFeed()
            if modes.newline { carriageReturn() }
        case 0x0D: carriageReturn()  // CR
        case 0x0E: charsets.gl = 1  // SO: invoke G1
        case 0x0F: charsets.gl = 0  // SI: invoke G0
        case 0x84: lineFeed()  // IND
        case 0x85:  // NEL: index, then carriage return (xterm): whether the
            // region scrolls depends on the column before the return
            lineFeed()
            carriageReturn()
        case 0x88: tabStops[cursor.col] = true  // HTS
        case 0x8D: reverseIndex()  // RI
        case 0x8E: charsets.singleShift = 2  // SS2
        case 0x8F: charsets.singleShift = 3  // SS3
        case 0x96: startProtectedArea()  // SPA
        case 0x97: endProtectedArea()  // EPA
        default: break
        }
    }

    /// CR LF as `execute` does them one after the other, without its
    /// dispatch twice (the end of every line of plain output).
    mutating func carriageReturnLineFeed() {
        lastGraphic = nil
        carriageReturn()
        lineFeed()
        if modes.newline { carriageReturn() }
    }

    /// The plain lines after a CR LF, printed in one loop
    /// (`printPlainLines`, inlined here for the parser's lines). Kept out of
    /// the parser's loop, as the compiler kept the body when it was this
    /// function's: inlined there, its line closure stayed a call per line.
    @inline(never)
    mutating func printLines(_ lines: inout PlainTextLines) {
        printPlainLines(&lines)
    }

    mutating func escDispatch(_ intermediates: Intermediates, final: UInt8) {
        lastGraphic = nil
        if intermediates.isEmpty {
            switch final {
            case UInt8(ascii: "6"): backIndex()  // DECBI
            case UInt8(ascii: "7"): saveCursor()  // DECSC
            case UInt8(ascii: "8"): restoreCursor()  // DECRC
            case UInt8(ascii: "9"): forwardIndex()  // DECFI
            case UInt8(ascii: "D"): execute(0x84)  // IND
            case UInt8(ascii: "E"): execute(0x85)  // NEL
            case UInt8(ascii: "H"): execute(0x88)  // HTS
            case UInt8(ascii: "M"): execute(0x8D)  // RI
            case UInt8(ascii: "N"): execute(0x8E)  // SS2
            case UInt8(ascii: "O"): execute(0x8F)  // SS3
            case UInt8(ascii: "V"): execute(0x96)  // SPA
            case UInt8(ascii: "W"): execute(0x97)  // EPA
            case UInt8(ascii: "c"): fullReset()  // RIS
            case UInt8(ascii: "Z"): primaryDeviceAttributes()  // DECID
            case UInt8(ascii: "="): modes.applicationKeypad = true  // DECKPAM
            case UInt8(ascii: ">"): modes.applicationKeypad = false  // DECKPNM
            case UInt8(ascii: "n"): charsets.gl = 2  // LS2
            case UInt8(ascii: "o"): charsets.gl = 3  // LS3
            case UInt8(ascii: "\\"): break  // ST (ECMA-48 §8.3.143): the string it ends is dispatched already
            default: counters.unknownSequences += 1
            }
            return
        }
        guard intermediates.count == 1 else {
            counters.unknownSequences += 1
            return
        }
        switch intermediates.first {
        case UInt8(ascii: "#"):
            switch final {
            case UInt8(ascii: "3"): setLineSize(.doubleHeightTop)  // DECDHL top
            case UInt8(ascii: "4"): setLineSize(.doubleHeightBottom)  // DECDHL bottom
            case UInt8(ascii: "5"): setLineSize([])  // DECSWL
            case UInt8(ascii: "6"): setLineSize(.doubleWidth)  // DECDWL
            case UInt8(ascii: "8"): screenAlignment()  // DECALN
            default: counters.unknownSequences += 1
            }
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"):
            // SCS: designate G0…G3 (ECMA-35 §14.3).
            guard let set = Charset(final: final) else { return }
            charsets.designations[Int(intermediates.first - UInt8(ascii: "("))] = set
        default:
            counters.unknownSequences += 1
        }
    }

    mutating func csiDispatch(_ sequence: ControlSequenceView) {
        // Cursor positioning and colours are most of what redrawing programs
        // send (a CUP per character, an SGR per cell): straight to them, with
        // no test of prefix and intermediates one by one.
        switch sequence.plainFinal {
        case UInt8(ascii: "H"):  // CUP §8.3.21
            lastGraphic = nil
            setPosition(row: sequence.count(at: 0) - 1, col: sequence.count(at: 1) - 1)
        case UInt8(ascii: "m"):  // SGR §8.3.117
            lastGraphic = nil
            selectGraphicRendition(sequence)
        default:
            csiDispatchAny(sequence)
        }
    }

    /// Every control sequence, by prefix, then intermediates, then final byte.
    @inline(never)
    mutating func csiDispatchAny(_ sequence: ControlSequenceView) {
        // The parts tested below, read once: a borrowed sequence cannot be
        // captured by the conditions' autoclosures.
        let prefix = sequence.prefix
        let final = sequence.final
        let intermediates = sequence.intermediates
        // REP repeats only a character printed just before it.
        if final != UInt8(ascii: "b") || prefix != 0 || !intermediates.isEmpty { lastGraphic = nil }
        guard !intermediates.overflowed else {
            counters.unknownSequences += 1
            return
        }
        switch prefix {
        case 0: csiStandard(sequence)
        case UInt8(ascii: "?"): csiPrivate(sequence)
        case UInt8(ascii: ">"): csiGreater(sequence)
        case UInt8(ascii: "<") where final == UInt8(ascii: "u") && intermediates.isEmpty:
            popKittyFlags(sequence.count(at: 0))
        case UInt8(ascii: "=") where intermediates.isEmpty:
            switch final {
            case UInt8(ascii: "c"): tertiaryDeviceAttributes()  // DA3
            case UInt8(ascii: "u"): setKittyFlags(sequence[0], mode: sequence.count(at: 1))
            default: counters.unknownSequences += 1
            }
        default: counters.unknownSequences += 1
        }
    }

    /// CSI sequences without a private prefix. Inlined into `csiDispatchAny`,
    /// its only caller: one call less for most sequences.
    @inline(__always)
    mutating func csiStandard(_ sequence: ControlSequenceView) {
        let intermediates = sequence.intermediates
        if !intermediates.isEmpty {
            csiWithIntermediate(sequence)
            return
        }
        let count = sequence.count(at: 0)
        switch sequence.final {
        case UInt8(ascii: "@"): insertBlankCells(count)  // ICH §8.3.64
        case UInt8(ascii: "A"): cursorUp(count)  // CUU §8.3.22
        case UInt8(ascii: "B"): cursorDown(count)  // CUD §8.3.19
        case UInt8(ascii: "C"): cursorForward(count)  // CUF §8.3.20
        case UInt8(ascii: "D"): cursorBackward(count)  // CUB §8.3.18
        case UInt8(ascii: "E"):  // CNL §8.3.12
            cursorDown(count)
            carriageReturn()
        case UInt8(ascii: "F"):  // CPL §8.3.13
            cursorUp(count)
            carriageReturn()
        case UInt8(ascii: "G"), UInt8(ascii: "`"): setColumn(count - 1)  // CHA §8.3.9, HPA §8.3.57
        case UInt8(ascii: "H"), UInt8(ascii: "f"):  // CUP §8.3.21, HVP §8.3.63
            setPosition(row: count - 1, col: sequence.count(at: 1) - 1)
        case UInt8(ascii: "I"): tabForward(count)  // CHT §8.3.10
        case UInt8(ascii: "J"): eraseDisplay(sequence[0])  // ED §8.3.39
        case UInt8(ascii: "K"): eraseLine(sequence[0])  // EL §8.3.41
        case UInt8(ascii: "L"): insertLines(count)  // IL §8.3.67
        case UInt8(ascii: "M"): deleteLines(count)  // DL §8.3.32
        case UInt8(ascii: "P"): deleteCharacters(count)  // DCH §8.3.26
        case UInt8(ascii: "S"): scrollUp(count)  // SU §8.3.147
        case UInt8(ascii: "T") where sequence.count <= 1: scrollDown(count)  // SD §8.3.113
        case UInt8(ascii: "X"): eraseCharacters(count)  // ECH §8.3.38
        case UInt8(ascii: "Z"): tabBackward(count)  // CBT §8.3.7
        case UInt8(ascii: "a"): setColumn(reportedColumn + count)  // HPR §8.3.59: not bounded by margins
        case UInt8(ascii: "b"): repeatLastCharacter(count)  // REP §8.3.103
        case UInt8(ascii: "c") where sequence[0] == 0: primaryDeviceAttributes()  // DA §8.3.24
        case UInt8(ascii: "d"): setRow(count - 1)  // VPA §8.3.158
        case UInt8(ascii: "e"): setRow(reportedRow + count)  // VPR §8.3.160: not bounded by margins
        case UInt8(ascii: "g"): clearTabStops(sequence[0])  // TBC §8.3.154
        case UInt8(ascii: "h"), UInt8(ascii: "l"):  // SM §8.3.125, RM §8.3.106
            for index in 0..<sequence.count { setANSIMode(sequence[index], sequence.final == UInt8(ascii: "h")) }
        // HPB (CSI j) and VPB (CSI k) are ECMA-48 only: xterm has neither and
        // ignores them (real-xterm screens in xterm.js's t0032/t0033), so do we.
        case UInt8(ascii: "m"): selectGraphicRendition(sequence)  // SGR §8.3.117
        case UInt8(ascii: "n"): deviceStatusReport(sequence[0])  // DSR §8.3.35
        case UInt8(ascii: "r"): setScrollRegion(top: sequence[0], bottom: sequence[1])  // DECSTBM
        case UInt8(ascii: "s"):
            // With DECLRMM, CSI s is DECSLRM, a VT400 feature; otherwise
            // SCOSC (xterm).
            if modes.leftRightMargins && conformanceLevel >= 4 {
                setLeftRightMargins(left: sequence[0], right: sequence[1])
            } else {
                saveCursor()
            }
        case UInt8(ascii: "t"): windowOperation(sequence)  // XTWINOPS
        case UInt8(ascii: "u"): restoreCursor()  // SCORC
        default: counters.unknownSequences += 1
        }
    }

    /// CSI sequences with one intermediate byte.
    mutating func csiWithIntermediate(_ sequence: ControlSequenceView) {
        let count = sequence.count(at: 0)
        let intermediates = sequence.intermediates
        if intermediates.isOnly(UInt8(ascii: " ")) {
            // SL/SR act on the scroll region, and only with the cursor inside
            // it (xterm; xterm.js's t600/t601).
            if sequence.final == UInt8(ascii: "q") {
                setCursorStyle(sequence[0])
                return
            }
            guard cursor.row >= scrollTop && cursor.row <= scrollBottom else { return }
            switch sequence.final {
            case UInt8(ascii: "@"): deleteColumns(at: leftMargin, count: count)  // SL §8.3.121
            case UInt8(ascii: "A"): insertColumns(at: leftMargin, count: count)  // SR §8.3.135
            case UInt8(ascii: "q"): setCursorStyle(sequence[0])  // DECSCUSR
            default: counters.unknownSequences += 1
            }
        } else if intermediates.isOnly(UInt8(ascii: "'")) {
            // DEC STD 070: ignored when the cursor is outside the scroll
            // area, the left and right margins included.
            guard cursorInScrollRegion else { return }
            switch sequence.final {
            case UInt8(ascii: "}"): insertColumns(at: cursor.col, count: count)  // DECIC
            case UInt8(ascii: "~"): deleteColumns(at: cursor.col, count: count)  // DECDC
            default: counters.unknownSequences += 1
            }
        } else if intermediates.isOnly(UInt8(ascii: "$")) && sequence.final == UInt8(ascii: "p") {
            // DECRQM is a VT300 feature; the rectangle operations and
            // checksums below are VT400 ones (xterm gates them the same way).
            if conformanceLevel >= 3 { reportANSIMode(sequence[0]) }
        } else if intermediates.isOnly(UInt8(ascii: "*")) && sequence.final == UInt8(ascii: "y") {
            if conformanceLevel >= 4 { reportRectangleChecksum(sequence) }  // DECRQCRA
        } else if intermediates.isOnly(UInt8(ascii: "$")) {
            if conformanceLevel >= 4 { rectangleOperation(sequence) }  // DECFRA, DECERA, DECSERA, DECCRA
        } else if intermediates.isOnly(UInt8(ascii: "!")) && sequence.final == UInt8(ascii: "p") {
            softReset()  // DECSTR
        } else if intermediates.isOnly(UInt8(ascii: "\"")) && sequence.final == UInt8(ascii: "p") {
            setConformanceLevel(sequence[0])  // DECSCL
        } else if intermediates.isOnly(UInt8(ascii: "\"")) && sequence.final == UInt8(ascii: "q") {
            selectCharacterProtection(sequence[0])  // DECSCA
        } else {
            counters.unknownSequences += 1
        }
    }

    /// CSI ? sequences.
    mutating func csiPrivate(_ sequence: ControlSequenceView) {
        if sequence.intermediates.isOnly(UInt8(ascii: "$")) && sequence.final == UInt8(ascii: "p") {
            if conformanceLevel >= 3 { reportDECMode(sequence[0]) }  // DECRQM (VT300)
            return
        }
        guard sequence.intermediates.isEmpty else {
            counters.unknownSequences += 1
            return
        }
        switch sequence.final {
        case UInt8(ascii: "h"), UInt8(ascii: "l"):  // DECSET / DECRST
            for index in 0..<sequence.count { setDECMode(sequence[index], sequence.final == UInt8(ascii: "h")) }
        case UInt8(ascii: "J"): eraseDisplay(sequence[0], selective: true)  // DECSED
        case UInt8(ascii: "K"): eraseLine(sequence[0], selective: true)  // DECSEL
        case UInt8(ascii: "n"): decDeviceStatusReport(sequence[0], sequence[1])  // DSR, DEC form
        case UInt8(ascii: "s"):  // XTSAVE
            for index in 0..<sequence.count { saveDECMode(sequence[index]) }
        case UInt8(ascii: "r"):  // XTRESTORE
            for index in 0..<sequence.count { restoreDECMode(sequence[index]) }
        case UInt8(ascii: "u"): reply("\u{1B}[?\(modes.kittyKeyboardFlags)u")  // kitty flags query
        default: counters.unknownSequences += 1
        }
    }

    /// CSI > sequences.
    mutating func csiGreater(_ sequence: ControlSequenceView) {
        guard sequence.intermediates.isEmpty else {
            counters.unknownSequences += 1
            return
        }
        switch sequence.final {
        case UInt8(ascii: "c") where sequence[0] == 0: secondaryDeviceAttributes()  // DA2
        case UInt8(ascii: "q") where sequence[0] == 0: reportVersion()  // XTVERSION
        case UInt8(ascii: "u"): pushKittyFlags(sequence[0])
        default: counters.unknownSequences += 1  // XTMODKEYS and kin: key encoding is the front end's
        }
    }

    mutating func oscDispatch(_ data: UnsafeBufferPointer<UInt8>) {
        lastGraphic = nil
        // "Ps ; Pt": the command number, then the text (which may be empty:
        // "OSC 8 ; ; ST" ends a link, "OSC 104 ST" resets the palette).
        var command = 0
        var index = 0
        while index < data.count, data[index] != UInt8(ascii: ";") {
            let byte = data[index]
            guard byte >= 0x30 && byte <= 0x39, command <= Limits.oscCommandNumber / 10 else {
                counters.unknownSequences += 1
                return
            }
            command = command * 10 + Int(byte - 0x30)
            index += 1
        }
        guard index > 0 else {
            counters.unknownSequences += 1
            return
        }
        let textStart = min(index + 1, data.count)
        operatingSystemCommand(command, UnsafeBufferPointer(rebasing: data[textStart...]))
    }

    mutating func dcsHook(_ sequence: ControlSequenceView) {
        lastGraphic = nil
        if sequence.prefix == 0 && sequence.intermediates.isOnly(UInt8(ascii: "$"))
            && sequence.final == UInt8(ascii: "q")
        {
            dcsRequest = DCSRequest(kind: .decrqss)  // DECRQSS
        } else {
            dcsRequest = DCSRequest(kind: .ignored)  // sixel, XTGETTCAP…: consumed and ignored
            counters.unknownSequences += 1
        }
    }

    mutating func dcsPut(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard dcsRequest?.kind == .decrqss else { return }
        let room = Limits.decrqssBytes - (dcsRequest?.data.count ?? 0)
        dcsRequest?.data.append(contentsOf: bytes.prefix(max(0, room)))
    }

    mutating func dcsUnhook() {
        defer { dcsRequest = nil }
        guard let request = dcsRequest, request.kind == .decrqss else { return }
        answerStatusString(request.data)
    }
}

/// The parser's plain lines are what `printPlainLines` takes.
extension PlainTextLines: PlainLineSource {}
extension PrintableText: PrintableCharacters {
    var utf8: (base: UnsafePointer<UInt8>, end: Int)? { bytes }
}
