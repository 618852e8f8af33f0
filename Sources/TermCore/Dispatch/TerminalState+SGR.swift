import VTParser

// Select Graphic Rendition (ECMA-48 §8.3.117; xterm ctlseqs "CSI Pm m";
// ITU T.416 for the colon forms of 38/48/58).

extension TerminalState {
    /// Makes `style` the pen and interns it. The erase style (`pen.erased`)
    /// is interned only when an erase needs it (`eraseKey`): colour-heavy
    /// output changes the background far more often than it erases.
    mutating func setPen(_ style: Style) {
        setPen(style, key: styleKey(for: style))
    }

    /// Makes `style` the pen when its key is already known (an inline style,
    /// a looked-up transition).
    @inline(__always)
    mutating func setPen(_ style: Style, key: StyleKey) {
        if style.background != pen.background {
            cachedEraseKey = nil
            eraseFillIsCurrent = false
        }
        pen = style
        penKey = key
    }

    /// True when `penKey` names `pen`. It does not only while a style table
    /// full of styles cells still use left a new pen unnamed: `styleKey(for:)`
    /// then falls back to the default key.
    var penKeyNamesPen: Bool { penKey != .default || pen == Style() }

    mutating func selectGraphicRendition(_ sequence: ControlSequenceView) {
        // The values are read in place from their bytes, for whichever path
        // applies them, without a closure: one with the whole function in it
        // kept the cache's lookup from being inlined (callgrind, vim_scroll:
        // 3.7 million more instructions on 2 MiB), and one per path kept the
        // inline arithmetic out of line.
        selectGraphicRendition(SGRValues(sequence.parameterBytes), colons: sequence.subparameterMask)
    }

    @inline(__always)
    mutating func selectGraphicRendition(_ values: SGRValues, colons: UInt32) {
        if colons == 0 && (penKey.isInline || (penKey == .default && pen == Style())),
            let key = Self.inlineApplied(values, to: penKey)
        {
            // An inline style to an inline style: no table, no page.
            setPen(key.isInline ? key.inlineStyle : Style(), key: key)
            return
        }
        if colons == 0 && values.isReset {
            // The commonest SGR (the end of each coloured word), from a pen
            // of the tables (from an inline one it took the path above): the
            // default style, whose key is the same in every page.
            // Through the cache it was a lookup from each pen (callgrind,
            // SGR's instructions on 2 MiB at 80×24: agent_tui, whose
            // truecolor pens end in 17K `CSI 0 m`, 4.46M -> 3.69M; vim_scroll
            // 16.19M -> 15.30M). Tested before the inline path, it kept
            // `inlineApplied` out of line (dense_cells +2%).
            setPen(Style(), key: .default)
            return
        }
        // A short list without colons may have been applied to this pen
        // before (see `SGRTransitions`); a pen its key does not name is not
        // looked up, as its transitions would be another pen's. The keys are
        // ids of the page the pen is bound to, whichever it is (a print
        // binds it to its row's page); the cursor's row's when none is.
        if active.penPage < 0 { bindPen(toRow: cursor.row) }
        let packed = colons == 0 && penKeyNamesPen && sgrTransitions.isActive() ? SGRTransitions.pack(values) : nil
        if let packed, let (style, key) = sgrTransitions.lookup(packed, from: penKey, epoch: tablesEpoch) {
            setPen(style, key: key)
            return
        }
        let (from, epoch) = (penKey, tablesEpoch)
        let style = renditionApplied(to: pen, SGRParameters(values: values, colons: colons))
        if style != pen { setPen(style) }
        // Interning the style may have compacted the table (the old pen's
        // key then means something else) or found no room for it (the key
        // does not name the new pen): then the transition is not kept.
        if let packed, tablesEpoch == epoch && penKeyNamesPen {
            sgrTransitions.store(packed, from: from, epoch: epoch, style: pen, key: penKey)
        }
    }

    /// The key after the renditions of `values` from the pen of `key`, an
    /// inline style or the default, when the result is one too and every
    /// rendition is one whose effect on an inline style is plain: 0, 1, 4,
    /// 7, 22–29, 30–37, 39, 40–47, 49, 55, 59, 90–97, 100–107, and the
    /// `5;n` forms of 38 and 48 with every index below 256. The bits change
    /// as `renditionApplied` changes the style (a test holds them to it);
    /// nil for anything else, which that function handles. Output that
    /// colours text with the palette sends nothing else, so its SGRs touch
    /// no table and no cache; colour-dense output sends these with no two
    /// alike, where a cache could not help.
    /// - Precondition: `key.isInline` or `key == .default` (the caller tests
    ///   it before reading the parameters).
    @inline(__always)
    static func inlineApplied(_ values: SGRValues, to key: StyleKey) -> StyleKey? {
        let count = values.count
        if count == 0 { return .default }
        var raw = key.isInline ? key.rawValue : StyleKey.inlineDefault
        var index = 0
        while index < count {
            let code = values[index]
            if code == 38 || code == 48 {
                // Tested before the switch, which compiles to a chain of
                // comparisons: colour-dense output is all these.
                guard index &+ 2 < count && values[index &+ 1] == 5 && values[index &+ 2] < 256 else { return nil }
                let color = UInt32(values[index &+ 2])
                raw =
                    code == 38
                    ? raw & ~(0xFF00 | StyleKey.defaultForeground) | color << 8
                    : raw & ~(0xFF | StyleKey.defaultBackground) | color
                index &+= 3
                continue
            }
            switch code {
            case 0: raw = StyleKey.inlineDefault
            case 1: raw |= StyleKey.bold
            case 4: raw |= StyleKey.underline
            case 7: raw |= StyleKey.inverse
            case 22: raw &= ~StyleKey.bold  // and dim, which an inline style has not
            case 24: raw &= ~StyleKey.underline
            case 27: raw &= ~StyleKey.inverse
            case 23, 25, 28, 29, 55, 59: break  // attributes an inline style has not
            case 30...37: raw = raw & ~(0xFF00 | StyleKey.defaultForeground) | UInt32(code &- 30) << 8
            case 39: raw = raw & ~0xFF00 | StyleKey.defaultForeground
            case 40...47: raw = raw & ~(0xFF | StyleKey.defaultBackground) | UInt32(code &- 40)
            case 49: raw = raw & ~0xFF | StyleKey.defaultBackground
            case 90...97: raw = raw & ~(0xFF00 | StyleKey.defaultForeground) | UInt32(code &- 82) << 8
            case 100...107: raw = raw & ~(0xFF | StyleKey.defaultBackground) | UInt32(code &- 92)
            default:
                return nil
            }
            index &+= 1
        }
        return StyleKey(rawValue: raw == StyleKey.inlineDefault ? 0 : raw)
    }

    /// `style` with the renditions of `parameters` applied, left to right.
    func renditionApplied(to style: Style, _ parameters: SGRParameters) -> Style {
        var style = style
        let values = parameters.values
        let count = values.count
        if count == 0 { return Style() }
        var index = 0
        while index < count {
            let code = values[index]
            // A parameter followed by a colon starts a group of sub-parameters
            // (T.416). Only 4 and 38/48/58 read theirs; any other code applies
            // as it would alone and its group is skipped.
            var next = index &+ 1
            if parameters.hasSubparameter(after: index) {
                var groupEnd = index + 1
                while parameters.hasSubparameter(after: groupEnd) { groupEnd += 1 }
                next = groupEnd + 1
                if code == 4 {
                    style.underline = Style.Underline(rawValue: UInt8(clamping: values[index + 1])) ?? style.underline
                    index = next
                    continue
                }
                if code == 38 || code == 48 || code == 58 {
                    if let color = colonColor(values, from: index + 1, through: groupEnd) {
                        style.setExtendedColor(code, color)
                    }
                    index = next
                    continue
                }
            }
            if code == 38 || code == 48 || code == 58 {
                // Semicolon form: `5;n` or `2;r;g;b` take the next parameters.
                // Tested before the switch, which compiles to a chain of range
                // tests: colour-heavy output is mostly these.
                let (color, used) = semicolonColor(values, after: index)
                if let color { style.setExtendedColor(code, color) }
                index = next &+ used
                continue
            }
            switch code {
            case 0: style = Style()
            case 1: style.flags.insert(.bold)
            case 2: style.flags.insert(.dim)
            case 3: style.flags.insert(.italic)
            case 4: style.underline = .single
            case 5, 6: style.flags.insert(.blink)
            case 7: style.flags.insert(.inverse)
            case 8: style.flags.insert(.hidden)
            case 9: style.flags.insert(.strikethrough)
            case 21: style.underline = .double
            case 22: style.flags.subtract([.bold, .dim])
            case 23: style.flags.remove(.italic)
            case 24: style.underline = .none
            case 25: style.flags.remove(.blink)
            case 27: style.flags.remove(.inverse)
            case 28: style.flags.remove(.hidden)
            case 29: style.flags.remove(.strikethrough)
            case 30...37: style.foreground = .indexed(UInt8(truncatingIfNeeded: code - 30))
            case 39: style.foreground = .default
            case 40...47: style.background = .indexed(UInt8(truncatingIfNeeded: code - 40))
            case 49: style.background = .default
            case 53: style.flags.insert(.overline)
            case 55: style.flags.remove(.overline)
            case 59: style.underlineColor = .default
            case 90...97: style.foreground = .indexed(UInt8(truncatingIfNeeded: code - 90 + 8))
            case 100...107: style.background = .indexed(UInt8(truncatingIfNeeded: code - 100 + 8))
            default:
                break  // unknown renditions are ignored (ECMA-48 leaves them to the device)
            }
            index = next
        }
        return style
    }

    /// The colour of a semicolon form after 38/48/58 at `index`, and how many
    /// parameters after `index` it used: `5;n` two, `2;r;g;b` four; a form cut
    /// short uses what there is (xterm), an unknown kind just the kind.
    @inline(__always)
    func semicolonColor(_ values: SGRValues, after index: Int) -> (TerminalColor?, Int) {
        // Indices within a list of at most `ControlSequence.maxParams`:
        // wrapping operators spare the overflow checks (a colour-dense
        // SGR takes this path twice).
        let available = values.count &- 1 &- index
        guard available >= 1 else { return (nil, 0) }
        switch values[index &+ 1] {
        case 5:
            guard available >= 2 else { return (nil, 1) }
            return (.indexed(UInt8(clamping: values[index &+ 2])), 2)
        case 2:
            guard available >= 4 else { return (nil, available) }
            let color = TerminalColor.rgb(
                UInt8(clamping: values[index &+ 2]), UInt8(clamping: values[index &+ 3]),
                UInt8(clamping: values[index &+ 4]))
            return (color, 4)
        default:
            return (nil, 1)
        }
    }

    /// The colour of a colon group `kind:…` in `values[first...last]`: `5:n`,
    /// `2:r:g:b`, or `2:cs:r:g:b` (T.416 puts a colour-space id before the
    /// components when all six fields are there).
    func colonColor(_ values: SGRValues, from first: Int, through last: Int) -> TerminalColor? {
        switch values[first] {
        case 5:
            guard first + 1 <= last else { return nil }
            return .indexed(UInt8(clamping: values[first + 1]))
        case 2:
            let red = last - first >= 4 ? first + 2 : first + 1
            guard red + 2 <= last else { return nil }
            return .rgb(
                UInt8(clamping: values[red]), UInt8(clamping: values[red + 1]), UInt8(clamping: values[red + 2]))
        default:
            return nil
        }
    }
}

extension Style {
    /// Sets the colour SGR `code` (38, 48 or 58) names.
    @inline(__always)
    mutating func setExtendedColor(_ code: UInt16, _ color: TerminalColor) {
        switch code {
        case 38: foreground = color
        case 48: background = color
        default: underlineColor = color
        }
    }
}

/// The parameters of one SGR sequence, read straight from a buffer.
struct SGRParameters {
    let values: SGRValues
    let colons: UInt32

    /// True when parameter `index + 1` exists and belongs to the group of
    /// parameter `index` (a colon came between them).
    @inline(__always)
    func hasSubparameter(after index: Int) -> Bool {
        index &+ 1 < values.count && colons & (1 &<< UInt32(truncatingIfNeeded: index)) != 0
    }
}
