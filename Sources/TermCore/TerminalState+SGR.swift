import VTParser

// Select Graphic Rendition (ECMA-48 §8.3.117; xterm ctlseqs "CSI Pm m";
// ITU T.416 for the colon forms of 38/48/58).

extension TerminalState {
    /// Makes `style` the pen, interning it and its erase style.
    mutating func setPen(_ style: Style) {
        let backgroundChanged = style.background != pen.background
        pen = style
        penID = styleID(for: style)
        // The erase style depends on the background only.
        if backgroundChanged { eraseID = styleID(for: style.erased) }
    }

    mutating func selectGraphicRendition(_ sequence: ControlSequence) {
        let style = sequence.withParameterValues { values in
            renditionApplied(to: pen, SGRParameters(values: values, colons: sequence.subparameterMask))
        }
        if style != pen { setPen(style) }
    }

    /// `style` with the renditions of `parameters` applied, left to right.
    func renditionApplied(to style: Style, _ parameters: SGRParameters) -> Style {
        var style = style
        let count = parameters.count
        if count == 0 { return Style() }
        var index = 0
        while index < count {
            // A parameter and its colon sub-parameters form one group.
            var groupEnd = index
            while parameters.hasSubparameter(after: groupEnd) { groupEnd += 1 }
            let hasColons = groupEnd > index
            let code = parameters[index]
            switch code {
            case 0: style = Style()
            case 1: style.flags.insert(.bold)
            case 2: style.flags.insert(.dim)
            case 3: style.flags.insert(.italic)
            case 4:
                if hasColons {
                    style.underline =
                        Style.Underline(rawValue: UInt8(clamping: parameters[index + 1])) ?? style.underline
                } else {
                    style.underline = .single
                }
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
            case 30...37: style.foreground = .indexed(UInt8(code - 30))
            case 39: style.foreground = .default
            case 40...47: style.background = .indexed(UInt8(code - 40))
            case 49: style.background = .default
            case 53: style.flags.insert(.overline)
            case 55: style.flags.remove(.overline)
            case 59: style.underlineColor = .default
            case 90...97: style.foreground = .indexed(UInt8(code - 90 + 8))
            case 100...107: style.background = .indexed(UInt8(code - 100 + 8))
            case 38, 48, 58:
                let (color, consumed) = extendedColor(parameters, at: index, groupEnd: groupEnd)
                if let color {
                    if code == 38 {
                        style.foreground = color
                    } else if code == 48 {
                        style.background = color
                    } else {
                        style.underlineColor = color
                    }
                }
                if !hasColons { groupEnd = index + consumed }
            default:
                break  // unknown renditions are ignored (ECMA-48 leaves them to the device)
            }
            index = groupEnd + 1
        }
        return style
    }

    /// Reads the colour after 38/48/58 at `index`: `5;n`, `2;r;g;b`, or the
    /// colon forms `5:n`, `2:r:g:b` and `2:cs:r:g:b` (T.416 puts a colour-space
    /// id before the components). Returns the colour and, for the semicolon
    /// form, how many parameters after `index` it used.
    func extendedColor(_ parameters: SGRParameters, at index: Int, groupEnd: Int) -> (Color?, Int) {
        let colon = groupEnd > index
        let last = colon ? groupEnd : parameters.count - 1
        guard index + 1 <= last else { return (nil, 0) }
        switch parameters[index + 1] {
        case 5:
            guard index + 2 <= last else { return (nil, 1) }
            return (.indexed(UInt8(clamping: parameters[index + 2])), 2)
        case 2:
            // Colon form with all six fields carries the colour space first.
            let first = colon && groupEnd - index >= 5 ? index + 3 : index + 2
            guard first + 2 <= last else { return (nil, last - index) }
            let color = Color.rgb(
                UInt8(clamping: parameters[first]), UInt8(clamping: parameters[first + 1]),
                UInt8(clamping: parameters[first + 2]))
            return (color, first + 2 - index)
        default:
            return (nil, 1)
        }
    }
}

/// The parameters of one SGR sequence, read straight from a buffer.
struct SGRParameters {
    let values: UnsafeBufferPointer<UInt16>
    let colons: UInt32

    var count: Int { values.count }

    /// Parameter `index`, 0 past the end.
    subscript(index: Int) -> Int { index < values.count ? Int(values[index]) : 0 }

    func hasSubparameter(after index: Int) -> Bool {
        index < values.count && index < 32 && colons & (1 &<< UInt32(index)) != 0
    }
}
