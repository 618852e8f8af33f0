import FuzzSupport
import TermCore
import TermRender

// The server's session preview: `{"id", "cols", "rows", "data"}` JSON, as
// `GET /live-sessions/:id/preview` sends it, to a thumbnail (what
// `termengine sessions --thumbnails` and `termengine thumbnail --preview` do).
//
// The whole input is the JSON text. Checks: decoding never traps (a refusal
// is a thrown Preview.Failure); a preview that decodes has a size in 1…1000;
// cleanData is a suffix of data; the terminal it builds has the preview's
// size and renders.

/// Cells drawn at most per run: a 1000x1000 preview is legal but its
/// thumbnail takes seconds; past this only the decoding and cleanData run.
let maxRenderedCells = 200 * 60

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPreview(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    if KnownBugs.workAround && hasHugeNumber(input.bytes) { return 0 }
    let preview: Preview
    do {
        preview = try Preview(json: input.bytes)
    } catch {
        _ = "\(error)"
        return 0
    }
    fuzzCheck(
        Terminal.Limits.dimensions.contains(preview.columns) && Terminal.Limits.dimensions.contains(preview.rows),
        "a preview of \(preview.columns)x\(preview.rows) decoded")
    let clean = preview.cleanData
    fuzzCheck(
        clean.endIndex == preview.data.endIndex && clean.startIndex >= preview.data.startIndex,
        "cleanData \(clean.startIndex)..<\(clean.endIndex) is not a suffix of \(preview.data.count) bytes")
    guard preview.columns * preview.rows <= maxRenderedCells else { return 0 }
    let terminal = preview.terminal()
    fuzzCheck(
        terminal.columns == preview.columns && terminal.rows == preview.rows,
        "the preview's terminal is \(terminal.columns)x\(terminal.rows), not \(preview.columns)x\(preview.rows)")
    let snapshot = terminal.snapshot()
    _ = ThumbnailRenderer.raster(snapshot, size: .minimap)
    if preview.columns * preview.rows <= 80 * 24 {
        _ = ThumbnailRenderer.png(snapshot, size: .full, compressionLevel: 1)
    }
    return 0
}

/// True when the text has a number token (as Preview's reader takes one: a
/// '-' or digit, then digits and ".eE+-") that Int cannot hold
/// (`previewHugeNumber`). Numbers inside strings count too: a superset is
/// enough for skipping.
func hasHugeNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let numberBytes = Set("0123456789.eE+-".utf8)
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        guard byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
            index += 1
            continue
        }
        var end = index + 1
        while end < bytes.count, numberBytes.contains(bytes[end]) { end += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
        if Int(text) == nil, let value = Double(text), !(value > -9.2e18 && value < 9.2e18) { return true }
        index = end
    }
    return false
}
