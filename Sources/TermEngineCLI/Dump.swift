import CommandLineOptions
import TermCore

/// `termengine dump`: the `vtdump/1` JSON of the state after a replay
/// (contract: shared/conformance/README.md).
package enum DumpCommand {
    package static let usage = """
        termengine dump [--cols C] [--rows R] [--scrollback N] [--attrs] [--onlcr] [--replies] \
        [--resize COLSxROWS@OFFSET]... FILE|-
        """

    package static let details = """
        Feeds FILE (- for standard input) into a terminal and prints its final state as vtdump/1
        JSON: screen rows, scrollback (oldest first), cursor, pending wrap, alternate screen, title.

          --cols C, --rows R   the terminal's size, each 1…1000 (default 80×24)
          --scrollback N       lines of scrollback, 0…\(Terminal.Limits.maxScrollback) (default \(Terminal.Limits.defaultScrollback))
          --attrs              add the runs of styled cells of each screen row
          --onlcr              turn LF into CR LF first, as a PTY does
          --replies            add the bytes the terminal wrote back (answers to DA, DSR, DECRQM…)
          --resize COLSxROWS@OFFSET
                               resize after OFFSET bytes of FILE, counted before --onlcr (repeatable)
        """

    /// A `--resize COLSxROWS@OFFSET`: after OFFSET bytes of the file.
    struct Resize {
        let columns: Int
        let rows: Int
        let offset: Int

        init(_ text: String) throws {
            let failure = Arguments.Failure(
                description: "--resize takes COLSxROWS@OFFSET (sizes 1…1000, offset ≥ 0), got '\(text)'")
            let parts = text.split(separator: "@")
            guard parts.count == 2, let offset = Int(parts[1]), offset >= 0 else { throw failure }
            let size = parts[0].split(separator: "x")
            guard size.count == 2, let columns = Int(size[0]), let rows = Int(size[1]),
                Terminal.Limits.dimensions.contains(columns), Terminal.Limits.dimensions.contains(rows)
            else { throw failure }
            self.columns = columns
            self.rows = rows
            self.offset = offset
        }
    }

    package static func run(_ arguments: inout Arguments) throws {
        let columns = try arguments.integer("--cols", in: Terminal.Limits.dimensions, default: 80)
        let rows = try arguments.integer("--rows", in: Terminal.Limits.dimensions, default: 24)
        let scrollback = try arguments.integer(
            "--scrollback", in: 0...Terminal.Limits.maxScrollback, default: Terminal.Limits.defaultScrollback)
        let withAttributes = arguments.flag("--attrs")
        let onlcr = arguments.flag("--onlcr")
        let withReplies = arguments.flag("--replies")
        let resizes = try arguments.values("--resize").map(Resize.init).sorted { $0.offset < $1.offset }
        let files = try arguments.positionals()
        guard files.count == 1 else {
            throw Arguments.Failure(description: "dump takes one FILE (or -)\nusage: \(usage)")
        }
        let bytes = try readInput(files[0])
        let terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback)
        var replies: [UInt8] = []
        if withReplies { terminal.writeBack = { replies += $0 } }
        // Offsets count bytes of the file as given, before --onlcr.
        var start = 0
        for resize in resizes {
            let end = min(resize.offset, bytes.count)
            if end > start { feed(terminal, bytes[start..<end], onlcr: onlcr) }
            start = max(start, end)
            terminal.resize(columns: resize.columns, rows: resize.rows)
        }
        if start < bytes.count { feed(terminal, bytes[start...], onlcr: onlcr) }
        print(render(terminal, withAttributes: withAttributes, replies: withReplies ? replies : nil))
    }

    static func feed(_ terminal: Terminal, _ bytes: ArraySlice<UInt8>, onlcr: Bool) {
        if onlcr {
            terminal.feed(LineDiscipline.onlcr(bytes))
        } else {
            terminal.feed(bytes)
        }
    }

    package static func render(_ terminal: Terminal, withAttributes: Bool, replies: [UInt8]? = nil) -> String {
        var json = "{\n"
        json += "  \"schema\": \"vtdump/1\",\n"
        json += "  \"columns\": \(terminal.columns), \"lines\": \(terminal.rows),\n"
        let screen = (0..<terminal.rows).map { jsonString(terminal.screenLine($0)) }
        json += "  \"screen\": [\n    " + screen.joined(separator: ",\n    ") + "\n  ],\n"
        let history = (0..<terminal.scrollbackCount).map { jsonString(terminal.scrollbackLine(ScrollbackLine($0))) }
        json +=
            "  \"scrollback\": [" + (history.isEmpty ? "" : "\n    " + history.joined(separator: ",\n    ") + "\n  ")
            + "],\n"
        let cursor = terminal.cursor
        json += "  \"cursor\": {\"row\": \(cursor.position.row), \"col\": \(cursor.position.column), "
        json += "\"visible\": \(cursor.isVisible)},\n"
        json += "  \"pending_wrap\": \(cursor.pendingWrap), \"alt_screen\": \(terminal.isAlternateScreen),\n"
        json += "  \"title\": " + (terminal.title.map(jsonString) ?? "null")
        if withAttributes {
            let rows = (0..<terminal.rows).map { attributeRuns(terminal, row: $0) }
            json += ",\n  \"attrs\": [\n    " + rows.joined(separator: ",\n    ") + "\n  ]"
        }
        if let replies {
            // Replies are UTF-8 text (controls escaped as \u001b…), so the JSON
            // string's UTF-8 encoding is exactly the bytes written back.
            json += ",\n  \"replies\": " + jsonString(String(decoding: replies, as: UTF8.self))
        }
        return json + "\n}"
    }

    /// Runs of cells with the same non-default style on one row.
    static func attributeRuns(_ terminal: Terminal, row: Int) -> String {
        var runs: [String] = []
        var column = 0
        while column < terminal.columns {
            let style = terminal.cell(at: ScreenPosition(row: row, column: column)).style
            var end = column + 1
            while end < terminal.columns && terminal.cell(at: ScreenPosition(row: row, column: end)).style == style {
                end += 1
            }
            if style != Style() {
                let flags = flagNames(style).map(jsonString).joined(separator: ", ")
                runs.append(
                    "{\"col\": \(column), \"len\": \(end - column), \"fg\": \"\(colorName(style.foreground))\", "
                        + "\"bg\": \"\(colorName(style.background))\", \"flags\": [\(flags)]}")
            }
            column = end
        }
        return "[" + runs.joined(separator: ", ") + "]"
    }

    static func colorName(_ color: TerminalColor) -> String {
        switch color.kind {
        case .default: return "default"
        case .indexed(let index): return "idx:\(index)"
        case .rgb(let red, let green, let blue):
            return "rgb:"
                + [red, green, blue].map { byte in
                    let hex = String(byte, radix: 16)
                    return hex.count == 1 ? "0" + hex : hex
                }.joined()
        }
    }

    static func flagNames(_ style: Style) -> [String] {
        var names: [String] = []
        if style.flags.contains(.bold) { names.append("bold") }
        if style.flags.contains(.dim) { names.append("dim") }
        if style.flags.contains(.italic) { names.append("italic") }
        switch style.underline {
        case .none: break
        case .single: names.append("underline")
        case .double: names.append("double_underline")
        case .curly: names.append("undercurl")
        case .dotted: names.append("dotted_underline")
        case .dashed: names.append("dashed_underline")
        }
        if style.flags.contains(.blink) { names.append("blink") }
        if style.flags.contains(.inverse) { names.append("inverse") }
        if style.flags.contains(.hidden) { names.append("hidden") }
        if style.flags.contains(.strikethrough) { names.append("strikeout") }
        if style.flags.contains(.overline) { names.append("overline") }
        return names
    }
}

/// A JSON string literal (RFC 8259 §7): quotes, backslashes and controls escaped.
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
