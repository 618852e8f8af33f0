import TermCore

// Building blocks of the escape streams the state encoder writes (for the
// replay compactor and TermRender's ANSI renderer): cursor moves and OSC strings, each in its shortest usual
// form (xterm ctlseqs; ECMA-48 section numbers below). SGR is TermCore's
// `SGRWriter`, shared with the DECRQSS reply.

/// An append-only byte buffer with helpers for control sequences.
struct ANSIBytes {
    var bytes: [UInt8] = []

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// `CSI` followed by `body`.
    mutating func csi(_ body: String) {
        bytes.append(0x1B)
        bytes.append(UInt8(ascii: "["))
        bytes.append(contentsOf: body.utf8)
    }

    /// `OSC body BEL`: BEL is one byte shorter than ST and every parser
    /// that reads OSC accepts it (xterm ctlseqs, "OSC Ps ; Pt BEL").
    mutating func osc(_ body: String) {
        bytes.append(0x1B)
        bytes.append(UInt8(ascii: "]"))
        bytes.append(contentsOf: body.utf8)
        bytes.append(0x07)
    }

    /// `ESC` followed by `body`.
    mutating func esc(_ body: String) {
        bytes.append(0x1B)
        bytes.append(contentsOf: body.utf8)
    }

    /// The UTF-8 of a scalar.
    mutating func append(scalar: Unicode.Scalar) {
        let value = scalar.value
        if value < 0x80 {
            bytes.append(UInt8(value))
        } else {
            bytes.append(contentsOf: UTF8.encode(scalar)!)
        }
    }
}

extension Palette {
    /// `#rrggbb`, a form OSC 4/10/11/12 parse exactly (XParseColor).
    /// TermRender's HTML renderer writes CSS colours with it too.
    package static func hex(_ color: RGB) -> String {
        func byte(_ value: UInt8) -> String {
            let digits = String(value, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + byte(color.red) + byte(color.green) + byte(color.blue)
    }
}
