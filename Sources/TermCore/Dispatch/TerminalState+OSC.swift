// Operating system commands (xterm ctlseqs "OSC Ps ; Pt"): titles, colours,
// working directory, hyperlinks, notifications, clipboard, shell marks.

/// OSC 133 shell-integration marks (FinalTerm's protocol): what a row starts.
public enum SemanticMark: Equatable, Sendable {
    /// `A`: a prompt starts on this row.
    case prompt
    /// `B`: the user's input starts on this row.
    case input
    /// `C`: the command's output starts on this row.
    case output
    /// `D`: the command ended on this row, with its exit status if given.
    case commandEnd(exitStatus: Int?)
}

extension TerminalState {
    mutating func operatingSystemCommand(_ command: Int, _ text: UnsafeBufferPointer<UInt8>) {
        switch command {
        case 0, 1, 2:
            let sanitized = TitleSanitizer.sanitize(text)
            if command != 1 { setTitle(sanitized) }
            if command != 2 { setIconName(sanitized) }
        case 4: paletteCommand(String(decoding: text, as: UTF8.self))
        case 5: specialColorCommand(String(decoding: text, as: UTF8.self))
        case 7:
            let url = TitleSanitizer.sanitize(text, limit: Limits.workingDirectoryScalars)
            workingDirectory = url
            emit(.workingDirectoryChanged(url))
        case 8: hyperlinkCommand(text)
        case 9:
            // iTerm2's notification. ConEmu reuses OSC 9 with a numeric
            // sub-command (`9;4;…` progress): those are not notifications.
            let body = String(decoding: text, as: UTF8.self)
            if let first = body.first, first.isNumber, body.dropFirst().first == ";" { return }
            let sanitized = TitleSanitizer.sanitize(Array(body.utf8), limit: Limits.notificationBodyScalars)
            emit(.notification(title: "", body: sanitized))
        case 10, 11, 12: dynamicColorCommand(command, String(decoding: text, as: UTF8.self))
        case 52: clipboardCommand(String(decoding: text, as: UTF8.self))
        case 104: resetPaletteCommand(String(decoding: text, as: UTF8.self))
        case 105: resetSpecialColorCommand(String(decoding: text, as: UTF8.self))
        case 110: palette.defaultForeground = Palette.xterm.defaultForeground
        case 111: palette.defaultBackground = Palette.xterm.defaultBackground
        case 112: palette.cursor = Palette.xterm.cursor
        case 133: semanticMarkCommand(String(decoding: text, as: UTF8.self))
        case 777:
            let parts = String(decoding: text, as: UTF8.self).split(separator: ";", maxSplits: 2)
            guard parts.first == "notify" else { return }
            let title = parts.count > 1 ? TitleSanitizer.sanitize(Array(parts[1].utf8)) : ""
            let body =
                parts.count > 2
                ? TitleSanitizer.sanitize(Array(parts[2].utf8), limit: Limits.notificationBodyScalars) : ""
            emit(.notification(title: title, body: body))
        default:
            counters.unknownSequences += 1
        }
    }

    mutating func setTitle(_ newTitle: String?) {
        title = newTitle
        emit(.titleChanged(newTitle))
    }

    mutating func setIconName(_ newName: String?) {
        iconName = newName
        emit(.iconNameChanged(newName))
    }

    /// XTWINOPS 22: push the title (2), icon name (1) or both (0); past
    /// ``Limits/titleStackDepth`` entries the oldest goes (counted).
    mutating func pushTitle(which: Int) {
        if titleStack.count >= Limits.titleStackDepth {
            titleStack.removeFirst()
            counters.droppedTitles += 1
        }
        // Room for the whole stack with its first entry: grown an entry at
        // a time, a program that pushes more than it pops (vim_scroll,
        // replayed) allocated again at its 2nd, 3rd, 5th and 9th push.
        if titleStack.capacity < Limits.titleStackDepth { titleStack.reserveCapacity(Limits.titleStackDepth) }
        titleStack.append((which == 1 ? nil : title, which == 2 ? nil : iconName))
    }

    /// XTWINOPS 23: pop what 22 pushed.
    mutating func popTitle(which: Int) {
        guard let entry = titleStack.popLast() else { return }
        if which != 1 { setTitle(entry.title) }
        if which != 2 { setIconName(entry.iconName) }
    }

    // MARK: Colours

    /// OSC 4 ; index ; spec (repeatable): `?` queries, a spec sets. Indexes
    /// 256–260 are the special colours of OSC 5 (xterm: "the special colors
    /// can also be set by adding the maximum number of colors to these codes
    /// in an OSC 4 control"), reported with the index they were asked by.
    mutating func paletteCommand(_ text: String) {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        var index = 0
        while index + 1 < parts.count {
            defer { index += 2 }
            guard let entry = Int(parts[index]), (0..<256 + Palette.specialColorCount).contains(entry) else { continue }
            if parts[index + 1] == "?" {
                let color = entry < 256 ? palette.colors[entry] : palette.specialColors[entry - 256]
                reply("\u{1B}]4;\(entry);\(Self.colorSpec(color))\u{1B}\\")
            } else if let color = ColorSpecification.parse(parts[index + 1]) {
                if entry < 256 { palette.colors[entry] = color } else { palette.specialColors[entry - 256] = color }
            }
        }
    }

    /// OSC 104 ; index… resets entries (256–260 the special colours); with
    /// no index, the 256 indexed colours.
    mutating func resetPaletteCommand(_ text: String) {
        let entries = text.split(separator: ";").compactMap { Int($0) }.filter {
            (0..<256 + Palette.specialColorCount).contains($0)
        }
        if entries.isEmpty {
            palette.colors = Palette.xterm.colors
        } else {
            for entry in entries {
                if entry < 256 {
                    palette.colors[entry] = Palette.xterm.colors[entry]
                } else {
                    palette.specialColors[entry - 256] = Palette.xterm.specialColors[entry - 256]
                }
            }
        }
    }

    /// OSC 5 ; c ; spec (repeatable): xterm's special colours, 0 colorBD
    /// (bold), 1 colorUL (underline), 2 colorBL (blink), 3 colorRV
    /// (reverse), 4 colorIT (italic); `?` queries (`OSC 5 ; c ; rgb:… ST`).
    mutating func specialColorCommand(_ text: String) {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        var index = 0
        while index + 1 < parts.count {
            defer { index += 2 }
            guard let entry = Int(parts[index]), (0..<Palette.specialColorCount).contains(entry) else { continue }
            if parts[index + 1] == "?" {
                reply("\u{1B}]5;\(entry);\(Self.colorSpec(palette.specialColors[entry]))\u{1B}\\")
            } else if let color = ColorSpecification.parse(parts[index + 1]) {
                palette.specialColors[entry] = color
            }
        }
    }

    /// OSC 105 ; c… resets special colours; with none, all five.
    mutating func resetSpecialColorCommand(_ text: String) {
        let entries = text.split(separator: ";").compactMap { Int($0) }.filter {
            (0..<Palette.specialColorCount).contains($0)
        }
        if entries.isEmpty {
            palette.specialColors = Palette.xterm.specialColors
        } else {
            for entry in entries { palette.specialColors[entry] = Palette.xterm.specialColors[entry] }
        }
    }

    /// OSC 10/11/12 ; spec…: foreground, background, cursor colour; each
    /// further parameter moves to the next of the three (xterm).
    mutating func dynamicColorCommand(_ command: Int, _ text: String) {
        // The parts between semicolons, walked without an array: programs
        // query these colours at every start.
        var rest = Substring(text)
        var which = command
        while which <= 12 {
            let separator = rest.firstIndex(of: ";")
            let part = rest[..<(separator ?? rest.endIndex)]
            if part == "?" {
                let color: RGB
                switch which {
                case 10: color = palette.defaultForeground
                case 11: color = palette.defaultBackground
                default: color = palette.cursor
                }
                // Made only when someone listens: programs query at every start.
                if wantsReplies { reply("\u{1B}]\(which);\(Self.colorSpec(color))\u{1B}\\") }
            } else if let color = ColorSpecification.parse(part) {
                switch which {
                case 10: palette.defaultForeground = color
                case 11: palette.defaultBackground = color
                default: palette.cursor = color
                }
            }
            guard let separator else { break }
            rest = rest[rest.index(after: separator)...]
            which += 1
        }
    }

    /// xterm's reply form: `rgb:rrrr/gggg/bbbb` (16 bits per channel; an
    /// 8-bit screen's byte twice, as the X server reports it).
    static func colorSpec(_ color: RGB) -> String {
        func channel(_ value: UInt8) -> String {
            let hex = String(value, radix: 16)
            let byte = hex.count == 1 ? "0" + hex : hex
            return byte + byte
        }
        return "rgb:\(channel(color.red))/\(channel(color.green))/\(channel(color.blue))"
    }

    // MARK: Hyperlinks

    /// OSC 8 ; params ; URI: the following characters link to URI (the empty
    /// URI ends the link). `params` is `key=value` pairs split by `:`; only
    /// `id` has a meaning (the last one wins). Read as bytes: a link printed
    /// before is found without making strings.
    mutating func hyperlinkCommand(_ text: UnsafeBufferPointer<UInt8>) {
        guard let separator = text.firstIndex(of: UInt8(ascii: ";")) else { return }
        let uri = UnsafeBufferPointer(rebasing: text[(separator + 1)...])
        guard !uri.isEmpty else {
            setPenTarget(nil)
            return
        }
        // The bounds hold for the text as stored (invalid UTF-8 becomes
        // U+FFFD, three bytes each), so that a link written back out, by
        // compaction or a copy, is within them too.
        guard HyperlinkTable.storedLength(uri) <= Limits.hyperlinkURIBytes else {
            counters.droppedHyperlinks += 1
            setPenTarget(nil)
            return
        }
        var linkID: UnsafeBufferPointer<UInt8>?
        var start = 0
        while start <= separator {
            var end = start
            while end < separator && text[end] != UInt8(ascii: ":") { end += 1 }
            let pair = UnsafeBufferPointer(rebasing: text[start..<end])
            if pair.count >= 3 && pair[0] == UInt8(ascii: "i") && pair[1] == UInt8(ascii: "d")
                && pair[2] == UInt8(ascii: "=")
            {
                linkID = UnsafeBufferPointer(rebasing: pair[3...])
            }
            start = end + 1
        }
        if let id = linkID, HyperlinkTable.storedLength(id) > Limits.hyperlinkIDBytes {
            // The link stays, without its id (VTE does the same): each such
            // link is its own, and no id can make a table entry of more than
            // `Limits.hyperlinkIDBytes` (300 links with 1 MiB ids held 946 MB
            // before).
            counters.droppedHyperlinkIDs += 1
            linkID = nil
        }
        setPenLink(uri: uri, linkID: linkID)
    }

    // MARK: Clipboard

    /// OSC 52 ; selections ; base64 | `?`.
    mutating func clipboardCommand(_ text: String) {
        guard let separator = text.firstIndex(of: ";") else { return }
        var selection = String(text[..<separator])
        if selection.isEmpty { selection = "s0" }  // xterm's default selection list
        let payload = text[text.index(after: separator)...]
        if payload == "?" {
            if allowsClipboardRead {
                emit(.clipboardReadRequest(selection: selection))
            } else {
                counters.refusedClipboardReads += 1
            }
            return
        }
        guard let data = Base64.decode(payload) else {
            counters.unknownSequences += 1
            return
        }
        emit(.clipboardWrite(selection: selection, data: data))
    }

    // MARK: Shell integration

    /// OSC 133 ; A | B | C | D [; status]: marks the cursor's row.
    mutating func semanticMarkCommand(_ text: String) {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        guard let kind = parts.first else { return }
        let mark: SemanticMark
        switch kind {
        case "A": mark = .prompt
        case "B": mark = .input
        case "C": mark = .output
        case "D": mark = .commandEnd(exitStatus: parts.count > 1 ? Int(parts[1]) : nil)
        default: return
        }
        active.setMark(ScreenRow(cursor.row), mark)
    }
}
