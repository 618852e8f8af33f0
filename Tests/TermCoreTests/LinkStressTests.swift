import TestSupport
import Testing

@testable import TermCore

/// Every linked character is a scalar of its own that names exactly one link
/// (a URI of 20 to 4,096 bytes, and an id or none): whatever moves cells
/// about (DECCRA, scrolls between margins, IL/DL, ICH/DCH, erases, lines
/// into the scrollback and the eras they reset, the alternate screen,
/// resizes) and however the pages' link tables are compacted, a cell
/// showing scalar k must name link k, and an ASCII letter or a blank none.
/// Pages of 1, 2 or 4 rows put page boundaries everywhere.
@Suite("Links through random operations")
struct LinkStressTests {
    static let scalars: [UInt32] = Array(0x100...0x24F) + Array(0x410...0x44F)

    struct Links {
        var uris: [String] = []
        var ids: [String?] = []
        var byScalar: [UInt32: Int] = [:]
    }

    static func makeLinks(_ rng: inout SplitMix64) -> Links {
        var links = Links()
        for (index, scalar) in scalars.enumerated() {
            let long = Int.random(in: 0..<10, using: &rng) < 4
            let length = long ? Int.random(in: 1_000...4_096, using: &rng) : Int.random(in: 20...200, using: &rng)
            // Pairs of links share a URI: one with an id and one without,
            // or with two ids.
            let base = index & ~1
            let head = "https://h.example/\(base)/"
            let uri =
                head
                + String(
                    repeating: Character(UnicodeScalar(UInt8(97 + base % 26))), count: max(0, length - head.utf8.count))
            let id: String?
            switch (index & 1, base % 3) {
            case (0, 0): id = nil
            case (1, 0): id = "id\(base)"
            case (0, _): id = "a\(base)"
            default: id = Int.random(in: 0..<2, using: &rng) == 0 ? nil : "b\(base)"
            }
            links.uris.append(uri)
            links.ids.append(id)
            links.byScalar[scalar] = index
        }
        // Links sharing a URI must differ: make pair members with the same id distinct.
        for index in stride(from: 0, to: links.uris.count - 1, by: 2) where links.ids[index] == links.ids[index + 1] {
            links.ids[index + 1] = "c\(index)"
        }
        return links
    }

    static func osc8(_ links: Links, _ index: Int?) -> String {
        guard let index else { return "\u{1B}]8;;\u{1B}\\" }
        let params = links.ids[index].map { "id=\($0)" } ?? ""
        return "\u{1B}]8;\(params);\(links.uris[index])\u{1B}\\"
    }

    static func check(_ content: CellContent, _ links: Links, _ place: String) -> String? {
        guard let scalar = content.scalars.first else {
            if content.hyperlink != nil { return "\(place): blank with link \(content.hyperlink!.uri.prefix(40))" }
            return nil
        }
        if let index = links.byScalar[scalar.value] {
            guard let link = content.hyperlink else { return "\(place): scalar \(index) lost its link" }
            if link.uri != links.uris[index] || link.id != links.ids[index] {
                return
                    "\(place): scalar \(index) shows \(link.uri.prefix(30)) id \(link.id ?? "-") want id \(links.ids[index] ?? "-")"
            }
            return nil
        }
        if content.hyperlink != nil {
            return "\(place): ascii '\(scalar)' has link \(content.hyperlink!.uri.prefix(30))"
        }
        return nil
    }

    static func verify(_ terminal: Terminal, _ links: Links) -> [String] {
        var problems: [String] = []
        for row in 0..<terminal.rows {
            for col in 0..<terminal.columns {
                if let p = check(terminal.cellAt(row, col), links, "screen \(row),\(col)") { problems.append(p) }
            }
        }
        if !terminal.isAlternateScreen {
            for line in 0..<terminal.scrollbackCount {
                for col in 0..<terminal.columns {
                    if let p = check(
                        terminal.scrollbackCell(line: ScrollbackLine(line), column: col), links,
                        "history \(line),\(col)")
                    {
                        problems.append(p)
                    }
                }
            }
        }
        // Ids within their page's table, both grids.
        for grid in [terminal.state.active, terminal.state.inactive] {
            for row in 0..<grid.rows {
                let cells = grid.readRow(ScreenRow(row))
                let count = grid.tables(ofScreenRow: ScreenRow(row)).links.count
                for col in 0..<grid.columns where Int(cells[col].linkID) >= count {
                    problems.append("row \(row) col \(col) id \(cells[col].linkID) >= \(count)")
                }
            }
        }
        return problems
    }

    static func run(seed: UInt64, steps: Int, mode: Int = 0) -> [String] {
        var rng = SplitMix64(seed: seed)
        let links = makeLinks(&rng)
        var columns = Int.random(in: 3...16, using: &rng)
        var rows = Int.random(in: 3...10, using: &rng)
        let rowsPerPage = [1, 2, 4].randomElement(using: &rng)!
        let scrollback = [0, 3, 20].randomElement(using: &rng)!
        let terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback, rowsPerPage: rowsPerPage)
        var log: [String] = []
        // A few links that get used a lot, for copies of the same links.
        let hot = (0..<8).map { _ in Int.random(in: 0..<links.uris.count, using: &rng) }
        for step in 0..<steps {
            var input = ""
            var op = Int.random(in: 0..<100, using: &rng)
            // Mode 1: prints and copies only; mode 2: no scrollback or resize.
            if mode == 1 && (68..<95).contains(op) { op = op % 2 == 0 ? 10 : 40 }
            if mode == 2 && (76..<95).contains(op) && op != 80 { op = op % 2 == 0 ? 10 : 40 }
            switch op {
            case 0..<35:  // print a run
                input += "\u{1B}[\(Int.random(in: 1...rows, using: &rng));\(Int.random(in: 1...columns, using: &rng))H"
                for _ in 0..<Int.random(in: 1...(2 * columns), using: &rng) {
                    let r = Int.random(in: 0..<10, using: &rng)
                    if r < 2 {
                        input +=
                            osc8(links, nil) + String(UnicodeScalar(UInt8(97 + Int.random(in: 0..<26, using: &rng))))
                    } else {
                        let index =
                            r < 6 ? hot.randomElement(using: &rng)! : Int.random(in: 0..<links.uris.count, using: &rng)
                        input += osc8(links, index) + String(UnicodeScalar(scalars[index])!)
                    }
                }
                if Int.random(in: 0..<3, using: &rng) == 0 { input += osc8(links, nil) }
            case 35..<55:  // DECCRA, sometimes repeated
                let top = Int.random(in: 1...rows, using: &rng)
                let left = Int.random(in: 1...columns, using: &rng)
                let bottom = Int.random(in: top...rows, using: &rng)
                let right = Int.random(in: left...columns, using: &rng)
                let dt = Int.random(in: 1...rows, using: &rng)
                let dl = Int.random(in: 1...columns, using: &rng)
                let seq = "\u{1B}[\(top);\(left);\(bottom);\(right);1;\(dt);\(dl);1$v"
                input += String(repeating: seq, count: Int.random(in: 1...3, using: &rng))
            case 55..<68:  // margins and scrolls
                let left = Int.random(in: 1...columns, using: &rng)
                let right = Int.random(in: left...columns, using: &rng)
                let top = Int.random(in: 1...rows, using: &rng)
                let bottom = Int.random(in: top...rows, using: &rng)
                input += "\u{1B}[?69h\u{1B}[\(left);\(right)s\u{1B}[\(top);\(bottom)r"
                input +=
                    "\u{1B}[\(Int.random(in: top...bottom, using: &rng));\(Int.random(in: left...right, using: &rng))H"
                let n = Int.random(in: 1...3, using: &rng)
                input += [
                    "\u{1B}[\(n)S", "\u{1B}[\(n)T", "\u{1B}[\(n)L", "\u{1B}[\(n)M", "\u{1B}[\(n)@", "\u{1B}[\(n)P",
                ]
                .randomElement(using: &rng)!
                input += "\u{1B}[r\u{1B}[?69l"
            case 68..<76:  // erases
                input += "\u{1B}[\(Int.random(in: 1...rows, using: &rng));\(Int.random(in: 1...columns, using: &rng))H"
                input += ["\u{1B}[K", "\u{1B}[1K", "\u{1B}[2K", "\u{1B}[J", "\u{1B}[1J", "\u{1B}[2X", "\u{1B}[3X"]
                    .randomElement(using: &rng)!
            case 76..<86:  // line feeds at the bottom: scrollback, era resets
                input +=
                    "\u{1B}[\(rows);1H" + String(repeating: "\n", count: Int.random(in: 1...(2 * rows), using: &rng))
            case 86..<91:  // the alternate screen
                input += terminal.isAlternateScreen ? "\u{1B}[?1049l" : "\u{1B}[?1049h"
            case 91..<95:  // resize
                columns = Int.random(in: 3...16, using: &rng)
                rows = Int.random(in: 3...10, using: &rng)
                log.append("resize \(columns)x\(rows)")
                terminal.resize(columns: columns, rows: rows)
            default:  // many new links over one cell
                input += "\u{1B}[1;1H"
                for _ in 0..<Int.random(in: 5...40, using: &rng) {
                    let index = Int.random(in: 0..<links.uris.count, using: &rng)
                    input += osc8(links, index) + String(UnicodeScalar(scalars[index])!) + "\u{1B}[1;1H"
                }
            }
            terminal.feed(input)
            let problems = verify(terminal, links)
            if !problems.isEmpty {
                return [
                    "seed \(seed) step \(step) op \(op) size \(columns)x\(rows) rpp \(rowsPerPage) sb \(scrollback)"
                ]
                    + Array(problems.prefix(5))
            }
        }
        return []
    }

    /// Modes: 0 every operation; 1 prints and copies only (no erase,
    /// scrollback, alternate screen or resize); 2 no scrollback or resize.
    @Test(
        "Random prints, copies, scrolls, erases, resizes: every cell keeps its character's link", arguments: 0..<8,
        0..<3)
    func randomOperations(seed: Int, mode: Int) {
        let problems = Self.run(seed: UInt64(seed) &* 7919 &+ 17 &+ UInt64(mode) << 32, steps: 300, mode: mode)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
