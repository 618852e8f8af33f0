// A row's text: built cell by cell as UTF-8, with its trailing blanks dropped
// (rows end in blank cells). Every text extraction goes through here: screen
// and scrollback lines, snapshot rows and runs, selections, search.

/// The UTF-8 bytes of a row's text, appended a character at a time.
///
/// Appending to a byte array is a few instructions a character;
/// `String.UnicodeScalarView.append` went through the string's generic
/// append at about 500 instructions a call, most of `termengine dump`'s time.
package struct RowText {
    private var bytes: [UInt8] = []

    package init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// True when nothing was appended.
    package var isEmpty: Bool { bytes.isEmpty }

    /// Appends the scalar `value` as UTF-8; a value that is not a scalar
    /// (a surrogate, past U+10FFFF) as U+FFFD.
    @inline(__always)
    package mutating func append(_ value: UInt32) {
        if value < 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value))
        } else if value < 0x800 {
            bytes.append(0xC0 | UInt8(truncatingIfNeeded: value >> 6))
            bytes.append(0x80 | UInt8(truncatingIfNeeded: value & 0x3F))
        } else if value < 0x10000 {
            let scalar = (0xD800...0xDFFF).contains(value) ? 0xFFFD : value
            bytes.append(0xE0 | UInt8(truncatingIfNeeded: scalar >> 12))
            bytes.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
            bytes.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
        } else if value < 0x11_0000 {
            bytes.append(0xF0 | UInt8(truncatingIfNeeded: value >> 18))
            bytes.append(0x80 | UInt8(truncatingIfNeeded: (value >> 12) & 0x3F))
            bytes.append(0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F))
            bytes.append(0x80 | UInt8(truncatingIfNeeded: value & 0x3F))
        } else {
            append(0xFFFD)
        }
    }

    /// Appends a cell's characters: a blank as a space, a wide character's
    /// right half as nothing, a cluster's scalars from `cluster` (by id).
    @inline(__always)
    mutating func append(_ cell: Cell, cluster: (UInt32) -> ClusterScalars) {
        switch cell.width {
        case .wideTail: return
        default: break
        }
        if cell.isBlank {
            append(0x20)
        } else if cell.isCluster {
            for value in cluster(cell.value) { append(value) }
        } else {
            append(cell.value)
        }
    }

    /// The text so far without its trailing spaces (U+0020); other white
    /// space is text a program wrote and stays.
    package func droppingTrailingSpaces() -> String {
        var end = bytes.count
        while end > 0 && bytes[end - 1] == 0x20 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The text so far, whole.
    package var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Empties the text, keeping its capacity.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }
}

extension String {
    /// The string without its trailing spaces (U+0020).
    ///
    /// The end is found by stepping back over the scalars and the string is
    /// made once: `removeLast()` on a string is a generic replacement that
    /// costs about ten thousand instructions a call, which made `termengine
    /// dump` of 10,000 lines of 200 columns take two seconds.
    package func droppingTrailingSpaces() -> String {
        let scalars = unicodeScalars
        var end = scalars.endIndex
        while end > scalars.startIndex {
            let before = scalars.index(before: end)
            guard scalars[before] == " " else { break }
            end = before
        }
        return String(scalars[..<end])
    }
}
