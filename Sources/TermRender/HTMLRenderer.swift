import TermCore
import TermReplay

/// Renders a `Snapshot` as an HTML fragment: a `<pre>` of the screen rows,
/// one `<span>` per run of equal style with inline colours, text escaped,
/// and OSC 8 links as `<a href>` (only `http`, `https`, `ftp`, `mailto` and
/// `file` URIs; any other scheme, `javascript:` among them, stays text).
public enum HTMLRenderer {
    /// The fragment for the snapshot's scrollback lines (those it holds) and
    /// screen rows. Trailing default blanks are left out.
    /// - Complexity: O(cells).
    public static func render(_ snapshot: Snapshot, includeScrollback: Bool = true) -> String {
        let palette = snapshot.palette
        let reverse = snapshot.modes.reverseVideo
        let background = reverse ? palette.defaultForeground : palette.defaultBackground
        let foreground = reverse ? palette.defaultBackground : palette.defaultForeground
        var html = "<pre class=\"termengine\" style=\"color:\(css(foreground));background:\(css(background))\">"
        var lines: [SnapshotLine] = []
        if includeScrollback { lines += snapshot.scrollbackRange.map { snapshot.scrollbackLine($0) } }
        lines += (0..<snapshot.rows).map { snapshot.line($0) }
        for (index, line) in lines.enumerated() {
            if index > 0 { html += "\n" }
            var runs = line.runs
            // Drop the default-styled blanks at the end of the row.
            while let last = runs.last, last.style == Style(), last.hyperlink == nil,
                last.text.unicodeScalars.allSatisfy({ $0 == " " })
            {
                runs.removeLast()
            }
            if let last = runs.last, last.style == Style(), last.hyperlink == nil {
                runs[runs.count - 1].text = last.text.droppingTrailingSpaces()
            }
            for run in runs { html += span(run, palette: palette, reverseVideo: reverse) }
        }
        return html + "</pre>"
    }

    static func span(_ run: StyleRun, palette: Palette, reverseVideo: Bool) -> String {
        var text = escape(run.text)
        let style = run.style
        if style != Style() || reverseVideo {
            let colors = palette.colors(of: style, reverseVideo: reverseVideo)
            let (foreground, background) = (colors.foreground, colors.background)
            var declarations = ["color:\(css(foreground))"]
            if style.background != .default || style.flags.contains(.inverse) != reverseVideo {
                declarations.append("background:\(css(background))")
            }
            if style.flags.contains(.bold) { declarations.append("font-weight:bold") }
            if style.flags.contains(.italic) { declarations.append("font-style:italic") }
            var decorations: [String] = []
            if style.underline != .none { decorations.append("underline") }
            if style.flags.contains(.strikethrough) { decorations.append("line-through") }
            if style.flags.contains(.overline) { decorations.append("overline") }
            if !decorations.isEmpty { declarations.append("text-decoration:" + decorations.joined(separator: " ")) }
            text = "<span style=\"\(declarations.joined(separator: ";"))\">\(text)</span>"
        }
        if let link = run.hyperlink, isSafe(link.uri) {
            text = "<a href=\"\(escape(link.uri))\">\(text)</a>"
        }
        return text
    }

    /// Schemes a link may have to become `<a href>`.
    static let safeSchemes = ["http", "https", "ftp", "mailto", "file"]

    static func isSafe(_ uri: String) -> Bool {
        guard let colon = uri.firstIndex(of: ":") else { return false }
        return safeSchemes.contains(uri[..<colon].lowercased())
    }

    /// Text for HTML content and attribute values: `& < > " '` escaped.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `#rrggbb`, the form the state encoder writes for OSC 4 (TermReplay).
    static func css(_ color: RGB) -> String { Palette.hex(color) }
}
