import FuzzSupport
import TermCore

// TitleSanitizer (PROTOCOL.md, "Titles"), for any bytes:
// - the output has no C0 or C1 control, no DEL, no bidi mark, override or
//   isolate and no invisible spacer (checked against the ranges themselves,
//   not against isRemoved, which is what is under test), and ZWJ and ZWNJ only
//   between two visible characters (PROTOCOL.md's amended rule);
// - at most `limit` scalars;
// - never a cut grapheme cluster: the output is the first whole clusters of
//   the same text sanitized without a cap;
// - idempotent: sanitizing the output again changes nothing;
// - valid UTF-8 (a Swift String is, but its bytes are checked anyway, as a
//   front end would read them).
// Byte 0 picks the cap: the default 256 when it is even, else 1…128, so short
// inputs reach the cut too; the rest is the title's bytes.

/// Larger than any input libFuzzer makes here (-max_len is at most 64 KiB),
/// so this cap never cuts.
let uncapped = 1 << 20

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTitle(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte()
    let limit = selector & 1 == 0 ? TitleSanitizer.defaultLimit : 1 + Int(selector >> 1)
    let bytes = input.rest()
    let title =
        limit == TitleSanitizer.defaultLimit
        ? TitleSanitizer.sanitize(bytes) : TitleSanitizer.sanitize(bytes, limit: limit)
    let scalars = Array(title.unicodeScalars)

    func isVisible(_ index: Int) -> Bool {
        scalars.indices.contains(index) && !scalars[index].properties.isWhitespace
            && scalars[index].value != 0x200C && scalars[index].value != 0x200D
    }
    for (index, scalar) in scalars.enumerated() {
        let value = scalar.value
        let forbidden =
            value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value) || value == 0x200B || value == 0x200E || value == 0x200F
            || value == 0x2060 || value == 0xFEFF
        fuzzCheck(!forbidden, "U+\(String(value, radix: 16, uppercase: true)) kept in '\(escaped(title.utf8))'")
        if value == 0x200C || value == 0x200D {
            fuzzCheck(
                isVisible(index - 1) && isVisible(index + 1),
                "a joiner without a visible character on both sides in '\(escaped(title.utf8))'")
        }
    }
    fuzzCheck(scalars.count <= limit, "\(scalars.count) scalars, limit \(limit)")

    let whole = TitleSanitizer.sanitize(bytes, limit: uncapped)
    var prefix: [Unicode.Scalar] = []
    for character in whole {
        if prefix.count >= scalars.count { break }
        prefix.append(contentsOf: character.unicodeScalars)
    }
    fuzzCheck(
        prefix == scalars,
        "'\(escaped(title.utf8))' is not the first whole clusters of '\(escaped(whole.utf8))' (limit \(limit))")

    let again = TitleSanitizer.sanitize(Array(title.utf8), limit: limit)
    fuzzCheck(
        Array(again.unicodeScalars) == scalars,
        "not idempotent (limit \(limit)): '\(escaped(title.utf8))' then '\(escaped(again.utf8))'")
    fuzzCheck(
        !(scalars.first?.properties.isWhitespace ?? false) && !(scalars.last?.properties.isWhitespace ?? false),
        "white space at an end of '\(escaped(title.utf8))'")

    fuzzCheck(String(validating: Array(title.utf8), as: UTF8.self) != nil, "output bytes are not UTF-8")
    return 0
}
