import VTParser

// Replies to queries (xterm ctlseqs: DA, DSR, DECRQM, DECRQSS, XTVERSION,
// XTWINOPS, DECRQCRA, OSC colour queries). Replies are collected during a feed
// and written back by `Terminal` after it, or kept for the embedder to drain,
// only when the embedder listens.

/// A DCS whose data the terminal collects, with a bound
/// (``Limits/decrqssBytes``).
struct DCSRequest {
    enum Kind { case decrqss, ignored }
    var kind: Kind
    var data: [UInt8] = []
}

extension TerminalState {
    /// Collects a reply, or drops and counts it past
    /// ``Limits/replyBytesPerFeed`` bytes in this feed, or past
    /// ``Limits/queuedReplyBytes`` waiting to be drained.
    mutating func reply(_ text: String) {
        guard wantsReplies else { return }
        let bytes = text.utf8
        guard replies.count - queuedReplyBytes + bytes.count <= Limits.replyBytesPerFeed else {
            counters.droppedReplies += 1
            return
        }
        guard replies.count + bytes.count <= Limits.queuedReplyBytes else {
            counters.droppedQueuedReplies += 1
            return
        }
        replies.append(contentsOf: bytes)
    }

    /// Collects an event, or drops and counts it past
    /// ``Limits/eventsPerFeed`` events in this feed, or past
    /// ``Limits/queuedEvents`` waiting to be drained.
    mutating func emit(_ event: TerminalEvent) {
        guard wantsEvents else { return }
        guard events.count - queuedEventCount < Limits.eventsPerFeed else {
            counters.droppedEvents += 1
            return
        }
        guard events.count < Limits.queuedEvents else {
            counters.droppedQueuedEvents += 1
            return
        }
        events.append(event)
    }

    // MARK: Device attributes and status

    /// DA1 (`CSI c`): a VT420-class terminal (64) with 132 columns (1),
    /// selective erase (6), ANSI colour (22) and rectangular editing (28).
    mutating func primaryDeviceAttributes() { reply("\u{1B}[?64;1;6;22;28c") }

    /// DA2 (`CSI > c`): terminal type 41, a VT420, as DA1's class 64 says
    /// (VT510 manual, DA2: 1 VT220, 24 VT320, 41 VT420, 61 VT510); firmware
    /// 379, the xterm patch level whose behaviour the engine is measured
    /// against (esctest2), as xterm reports its own; ROM 0.
    mutating func secondaryDeviceAttributes() { reply("\u{1B}[>41;379;0c") }

    /// DA3 (`CSI = c`): unit id 0.
    mutating func tertiaryDeviceAttributes() { reply("\u{1B}P!|00000000\u{1B}\\") }

    /// DSR (`CSI Ps n`): 5 status (OK), 6 cursor position (CPR).
    mutating func deviceStatusReport(_ request: Int) {
        guard wantsReplies else { return }  // nothing to build for nobody
        switch request {
        case 5: reply("\u{1B}[0n")
        case 6: reply("\u{1B}[\(reportedRow + 1);\(reportedColumn + 1)R")
        default: counters.unknownSequences += 1
        }
    }

    /// DEC-specific DSR (`CSI ? Ps n`, VT510 manual DECDSR): 6 extended
    /// cursor position (DECXCPR), 15 printer (none), 25 user-defined keys
    /// (locked), 26 keyboard (North American), 55 locator status (none: 50),
    /// 56 locator type (unknown: 57;0), 63 macro space checksum (DECCKSR, no
    /// macros: `DCS Pid ! ~ 0000 ST`), 75 data integrity (no errors: 70),
    /// 85 multiple sessions (not configured: 83).
    mutating func decDeviceStatusReport(_ request: Int, _ identifier: Int) {
        guard wantsReplies else { return }
        switch request {
        case 6: reply("\u{1B}[?\(reportedRow + 1);\(reportedColumn + 1);1R")
        case 15: reply("\u{1B}[?13n")
        case 25: reply("\u{1B}[?21n")
        case 26: reply("\u{1B}[?27;1;0;0n")
        case 55: reply("\u{1B}[?50n")
        case 56: reply("\u{1B}[?57;0n")
        case 63: reply("\u{1B}P\(identifier)!~0000\u{1B}\\")
        case 75: reply("\u{1B}[?70n")
        case 85: reply("\u{1B}[?83n")
        default: counters.unknownSequences += 1
        }
    }

    /// The cursor as reports count it: relative to the margins under DECOM.
    var reportedRow: Int { modes.origin ? cursor.row - scrollTop : cursor.row }
    var reportedColumn: Int { modes.origin && modes.leftRightMargins ? cursor.col - marginLeft : cursor.col }

    // MARK: Mode reports

    /// DECRQM for ANSI modes (`CSI Ps $ p`): 1 set, 2 reset, 4 permanently
    /// reset, 0 not recognised. The ECMA-48 modes a terminal emulator has no
    /// use for are permanently reset, as xterm answers them (`do_rpm`): GATM
    /// (1), SRTM (5), VEM (7), HEM (10), PUM (11), FEAM (13), FETM (14),
    /// MATM (15), TTM (16), SATM (17), TSM (18), EBM (19); CRM (3) is reset.
    mutating func reportANSIMode(_ mode: Int) {
        guard wantsReplies else { return }
        let value: Int
        switch mode {
        case 2: value = modes.keyboardLocked ? 1 : 2  // KAM
        case 3: value = 2  // CRM: controls are acted on, never shown
        case 4: value = modes.insert ? 1 : 2
        case 12: value = modes.sendReceive ? 1 : 2  // SRM
        case 20: value = modes.newline ? 1 : 2
        case 1, 5, 7, 10, 11, 13...19: value = 4
        default: value = 0
        }
        reply("\u{1B}[\(mode);\(value)$y")
    }

    /// DECRQM for DEC private modes (`CSI ? Ps $ p`).
    mutating func reportDECMode(_ mode: Int) {
        guard wantsReplies else { return }
        let value: Int
        if let isSet = decModeState(mode) {
            value = isSet ? 1 : 2
        } else {
            value = 0
        }
        reply("\u{1B}[?\(mode);\(value)$y")
    }

    /// The state of a DEC private mode the terminal implements, or nil.
    func decModeState(_ mode: Int) -> Bool? {
        switch mode {
        case 1: return modes.applicationCursorKeys
        case 3: return columns == 132
        case 4: return modes.smoothScroll
        case 5: return modes.reverseVideo
        case 6: return modes.origin
        case 7: return modes.autowrap
        case 9: return modes.mouseTracking == .x10
        case 12: return modes.cursorBlink
        case 18: return modes.printFormFeed
        case 19: return modes.printFullScreen
        case 25: return modes.cursorVisible
        case 40: return modes.allowColumnSwitch
        case 45: return modes.reverseWrap
        case 47, 1047: return isAlternateScreen
        case 66: return modes.applicationKeypad
        case 67: return modes.backarrowSendsBackspace
        case 69: return modes.leftRightMargins
        case 1000: return modes.mouseTracking == .normal
        case 1002: return modes.mouseTracking == .buttonEvent
        case 1003: return modes.mouseTracking == .anyEvent
        case 1004: return modes.focusEvents
        case 1005: return modes.mouseEncoding == .utf8
        case 1006: return modes.mouseEncoding == .sgr
        case 1007: return modes.alternateScroll
        case 1015: return modes.mouseEncoding == .urxvt
        case 1016: return modes.mouseEncoding == .sgrPixels
        case 1048: return false  // an action, not a state: reported reset as xterm does
        case 1049: return isAlternateScreen
        case 2004: return modes.bracketedPaste
        case 2026: return modes.synchronizedOutput
        case 2027: return modes.graphemeClustering
        default: return nil
        }
    }

    // MARK: DECRQSS

    /// Answers `DCS $ q Pt ST` with `DCS 1 $ r <setting> ST`, or
    /// `DCS 0 $ r ST` for a setting the terminal does not report.
    mutating func answerStatusString(_ name: [UInt8]) {
        guard wantsReplies else { return }
        let request = String(decoding: name, as: UTF8.self)
        let answer: String?
        switch request {
        // A reset, then the pen with colours as T.416 sub-parameters
        // (`0;1;38:2::r:g:b`), each attribute one parameter of the reply.
        case "m": answer = SGRWriter.parametersAfterReset(for: pen, extendedColors: .colons) + "m"
        case "r": answer = "\(scrollTop + 1);\(scrollBottom + 1)r"
        case "s": answer = "\(marginLeft + 1);\(marginRight + 1)s"
        case " q": answer = "\(cursorStyleNumber) q"
        case "\"q": answer = (protectedPen ? "1" : "0") + "\"q"
        case "\"p": answer = "6\(conformanceLevel);1\"p"  // DECSCL: the level, 7-bit controls
        case "t": answer = "\(rows)t"  // DECSLPP
        case "$|": answer = "\(columns)$|"  // DECSCPP
        case "*|": answer = "\(rows)*|"  // DECSNLS
        default: answer = nil
        }
        if let answer {
            reply("\u{1B}P1$r\(answer)\u{1B}\\")
        } else {
            reply("\u{1B}P0$r\u{1B}\\")
        }
    }

    /// DECSCUSR's number for the current cursor style.
    var cursorStyleNumber: Int {
        let base: Int
        switch modes.cursorShape {
        case .block: base = 1
        case .underline: base = 3
        case .bar: base = 5
        }
        return modes.cursorBlink ? base : base + 1
    }

    // MARK: XTVERSION and XTWINOPS

    /// XTVERSION (`CSI > q`): the name and version.
    mutating func reportVersion() { reply("\u{1B}P>|TermEngine(0.1)\u{1B}\\") }

    /// XTWINOPS (`CSI Ps ; … t`): size reports and the title stack. Window
    /// manipulation is a front end's business and is ignored; the title is
    /// never reported (21t), since echoing it lets anyone who can set a title
    /// type into the shell.
    mutating func windowOperation(_ sequence: ControlSequenceView) {
        switch sequence[0] {
        case 14, 16, 18, 19: reportSize(sequence[0])
        case 22: pushTitle(which: sequence[1])
        case 23: popTitle(which: sequence[1])
        default: counters.unknownSequences += 1
        }
    }

    /// XTWINOPS 14/16 (text area and cell in pixels), 18/19 (text area and
    /// screen in characters).
    mutating func reportSize(_ operation: Int) {
        guard wantsReplies else { return }  // nothing to build for nobody
        switch operation {
        case 14: reply("\u{1B}[4;\(rows * cellPixelHeight);\(columns * cellPixelWidth)t")
        case 16: reply("\u{1B}[6;\(cellPixelHeight);\(cellPixelWidth)t")
        case 18: reply("\u{1B}[8;\(rows);\(columns)t")
        default: reply("\u{1B}[9;\(rows);\(columns)t")
        }
    }

    // MARK: DECRQCRA

    /// DECRQCRA (`CSI Pid ; Pp ; Pt ; Pl ; Pb ; Pr * y`): a checksum of a
    /// rectangle, computed as xterm 379's default (DEC) mode does: each drawn
    /// cell adds its character code (low 8 bits) plus 0x08 hidden, 0x10
    /// underlined, 0x20 inverse, 0x40 blinking, 0x80 bold; a blank an erase
    /// wrote inside a line counts as a space, a never-written one nothing; a
    /// plain space counts only as a row's first cell; the sum is negated,
    /// modulo 2^16.
    mutating func reportRectangleChecksum(_ sequence: ControlSequenceView) {
        guard wantsReplies else { return }
        let id = sequence[0]
        guard let area = rectangle(sequence, from: 2) else {
            reply("\u{1B}P\(id)!~0000\u{1B}\\")
            return
        }
        var total = 0
        for row in area.top...area.bottom {
            let cells = active.readRow(ScreenRow(row))
            let tables = active.tables(ofScreenRow: ScreenRow(row))
            var first = true
            for col in area.left...area.right {
                let cell = cells[col]
                defer { first = false }
                // A never-written blank counts nothing; one an erase wrote
                // inside a line counts as a space (xterm 379).
                if (cell.isBlank && !cell.isWrittenBlank) || cell.width == .wideTail { continue }
                let style = tables.style(of: cell)
                let character = cell.isCluster ? tables.clusters[cell.value].first ?? 0 : cell.value
                var value = cell.isWrittenBlank ? 0x20 : Int(character & 0xFF)
                // DECSCA protection adds nothing: xterm 379 passes esctest2's
                // DECSED/DECSEL/DECSERA protection tests, which read protected
                // cells back by their plain character.
                if style.flags.contains(.hidden) { value += 0x08 }
                if style.underline != .none { value += 0x10 }
                if style.flags.contains(.inverse) { value += 0x20 }
                if style.flags.contains(.blink) { value += 0x40 }
                if style.flags.contains(.bold) { value += 0x80 }
                if value == 0x20 && !first { continue }
                total += value
            }
        }
        let checksum = (-total) & 0xFFFF
        let hex = String(checksum, radix: 16, uppercase: true)
        reply("\u{1B}P\(id)!~" + String(repeating: "0", count: 4 - hex.count) + hex + "\u{1B}\\")
    }
}
