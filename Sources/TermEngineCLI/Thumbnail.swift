import CommandLineOptions
import TermCore
import TermRender

/// `termengine thumbnail`: a PNG of the screen after a replay, or of a
/// server's session preview.
package enum ThumbnailCommand {
    package static let usage = "termengine thumbnail FILE|- [--cols C] [--rows R] [--preview] [--minimap] -o OUT.png|-"

    package static let details = """
        Draws the screen after replaying FILE (- for standard input) as a PNG in OUT.png (- for
        standard output): 8×16 pixels a cell.

          --cols C, --rows R   the terminal's size, each 1…1000 (default 80×24, or the preview's)
          --preview            FILE is a server's session preview, JSON {id, cols, rows, data}
          --minimap            2×4 pixels a cell
          -o OUT.png, --output OUT.png
                               where to write the PNG
        """

    /// Reads a server's session preview (JSON `{id, cols, rows, data}`): its
    /// size, and its output from the first clean starting point.
    package typealias PreviewReader = (_ json: [UInt8]) throws -> (columns: Int, rows: Int, data: ArraySlice<UInt8>)

    /// Runs the command; `--preview` needs `readPreview`, which only the
    /// network helper has (the web-terminal client reads previews), so
    /// `termengine` hands `thumbnail --preview` to it.
    package static func run(_ arguments: inout Arguments, readPreview: PreviewReader?) throws {
        let columnValues = try arguments.values("--cols")
        let rowValues = try arguments.values("--rows")
        let minimap = arguments.flag("--minimap")
        let isPreview = arguments.flag("--preview")
        let outputs = try arguments.values("-o") + arguments.values("--output")
        let files = try arguments.positionals()
        guard files.count == 1, outputs.count == 1 else {
            throw Arguments.Failure(description: "thumbnail takes one FILE and one -o OUT.png\nusage: \(usage)")
        }
        func size(_ values: [String], _ name: String) throws -> Int? {
            guard let text = values.last else { return nil }
            guard let value = Int(text), Terminal.Limits.dimensions.contains(value) else {
                throw Arguments.Failure(description: "\(name) must be a whole number in 1…1000, got '\(text)'")
            }
            return value
        }
        let bytes = try readInput(files[0])
        let terminal: Terminal
        if isPreview {
            guard let readPreview else {
                throw Arguments.Failure(description: "--preview needs \(NetworkCommands.helper), which reads previews")
            }
            let preview = try readPreview(bytes)
            terminal = Terminal(
                columns: try size(columnValues, "--cols") ?? preview.columns,
                rows: try size(rowValues, "--rows") ?? preview.rows, scrollback: 0)
            terminal.feed(preview.data)
        } else {
            terminal = Terminal(
                columns: try size(columnValues, "--cols") ?? 80, rows: try size(rowValues, "--rows") ?? 24,
                scrollback: 0)
            terminal.feed(bytes)
        }
        let png = ThumbnailRenderer.png(terminal.snapshot(), size: minimap ? .minimap : .full)
        try writeOutput(png, to: outputs[0])
    }
}
