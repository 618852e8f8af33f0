import FuzzSupport
import TermAttach
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
