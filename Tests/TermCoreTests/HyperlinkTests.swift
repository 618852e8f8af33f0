import Testing

@testable import TermCore

/// OSC 8 links are interned by their bytes: the same link is stored once,
/// whatever the number of times it is printed.
@Suite("Hyperlinks")
struct HyperlinkTests {
    /// Looks `uri` (with the `id=` value `linkID`) up in `table`.
    func id(_ table: inout HyperlinkTable, _ uri: [UInt8], _ linkID: [UInt8]? = nil) -> UInt16? {
        uri.withUnsafeBufferPointer { uriBytes in
            guard let linkID else { return table.id(uri: uriBytes, linkID: nil) }
            return linkID.withUnsafeBufferPointer { table.id(uri: uriBytes, linkID: $0) }
        }
    }

    @Test("A link seen again keeps its ID") func aLinkSeenAgainKeepsItsID() throws {
        var table = HyperlinkTable()
        let first = try #require(id(&table, Array("https://a.example".utf8)))
        #expect(id(&table, Array("https://a.example".utf8)) == first)
        #expect(id(&table, Array("https://b.example".utf8)) != first)
        #expect(table.count == 3)  // "no link" and the two
        #expect(table[first] == Hyperlink(uri: "https://a.example"))
    }

    @Test("The ID parameter tells links apart") func theIDParameterTellsLinksApart() throws {
        var table = HyperlinkTable()
        let uri = Array("https://a.example".utf8)
        let none = try #require(id(&table, uri))
        let empty = try #require(id(&table, uri, []))
        let named = try #require(id(&table, uri, Array("x".utf8)))
        #expect(Set([none, empty, named]).count == 3)
        #expect(id(&table, uri, Array("x".utf8)) == named)
        #expect(table[named] == Hyperlink(uri: "https://a.example", id: "x"))
        #expect(table[empty] == Hyperlink(uri: "https://a.example", id: ""))
    }

    @Test("Invalid UTF-8 is matched by its bytes") func invalidUTF8IsMatchedByItsBytes() throws {
        var table = HyperlinkTable()
        let first = try #require(id(&table, [0x68, 0xFF, 0x41]))
        #expect(id(&table, [0x68, 0xFF, 0x41]) == first)
        #expect(table.count == 2)
        #expect(table[first]?.uri == "h\u{FFFD}A")
    }

    @Test("ID among other parameters") func idAmongOtherParameters() {
        let t = terminal(20, 1, "\(ESC)]8;foo=1:id=abc:bar=2;https://x.example\(ESC)\\ab")
        #expect(t.cellAt(0, 1).hyperlink == Hyperlink(uri: "https://x.example", id: "abc"))
    }

    @Test("Many distinct links never run out") func manyDistinctLinksNeverRunOut() {
        // More links than 16-bit ids: the table compacts to the links cells
        // still use, and the newest ones stay right.
        let t = Terminal(columns: 80, rows: 1, scrollback: 0)
        var input = ""
        for index in 0..<70_000 { input += "\(ESC)]8;;https://e.example/\(index)\(ESC)\\X" }
        t.feed(input)
        #expect(t.counters.hyperlinkCompactions >= 1)
        #expect(t.cellAt(0, t.cursor.position.column).hyperlink?.uri == "https://e.example/69999")
        #expect(t.cellAt(0, t.cursor.position.column - 1).hyperlink?.uri == "https://e.example/69998")
    }
    @Test("Compaction keeps the links kept with their bytes") func compactionKeepsTheLinksKeptWithTheirBytes() throws {
        var table = HyperlinkTable()
        let a = try #require(id(&table, Array("https://a.example".utf8)))
        let b = try #require(id(&table, Array("https://b.example".utf8), Array("x".utf8)))
        let c = try #require(id(&table, Array("https://c.example".utf8), Array("y".utf8)))
        var used = [Bool](repeating: false, count: table.count)
        used[Int(a)] = true
        used[Int(c)] = true
        let map = compact(&table, keeping: used)
        #expect(map[Int(b)] == 0)
        #expect(table.count == 3)
        #expect(table[map[Int(a)]] == Hyperlink(uri: "https://a.example"))
        #expect(table[map[Int(c)]] == Hyperlink(uri: "https://c.example", id: "y"))
        // Found again by their bytes under the new ids; the dropped one is new.
        #expect(id(&table, Array("https://c.example".utf8), Array("y".utf8)) == map[Int(c)])
        #expect(id(&table, Array("https://b.example".utf8), Array("x".utf8)) == 3)
        let key = table.withKey(map[Int(c)]) { Array($0) }
        let expected = Array("https://c.example".utf8).withUnsafeBufferPointer { uri in
            Array("y".utf8).withUnsafeBufferPointer { HyperlinkTable.key(uri: uri, linkID: $0) }
        }
        #expect(key == expected)
        #expect(key == [1, 0, 1, UInt8(ascii: "y")] + Array("https://c.example".utf8))
    }

    /// Links opened and closed line after line, the same few again and again
    /// and new ones among them, over many pages (512 rows of 80 columns
    /// each): every cell keeps its own link, and the pen reports the open one.
    @Test("Links opened and closed over many pages stay right") func linksOpenedAndClosedOverManyPagesStayRight() {
        let t = Terminal(columns: 80, rows: 4, scrollback: 3000)
        var expected: [Hyperlink?] = []
        var input = ""
        for line in 0..<2500 {
            let link: Hyperlink? =
                switch line % 5 {
                case 0: nil
                case 1, 3: Hyperlink(uri: "https://gcc.gnu.org/onlinedocs/gcc/Warning-Options.html#\(line % 3)")
                case 2: Hyperlink(uri: "file:///src/\(line).c", id: "f\(line)")
                default: Hyperlink(uri: "https://e.example/", id: "x")
                }
            if let link {
                input += "\(ESC)]8;\(link.id.map { "id=" + $0 } ?? "");\(link.uri)\(ESC)\\L\(ESC)]8;;\(ESC)\\."
            } else {
                input += "L."
            }
            input += "\r\n"
            expected.append(link)
        }
        input += "\(ESC)]8;id=open;https://open.example/\(ESC)\\"
        t.feed(input)
        #expect(t.penHyperlink == Hyperlink(uri: "https://open.example/", id: "open"))
        #expect(t.scrollbackCount == 2500 - 3)
        var wrong = 0
        for line in 0..<t.scrollbackCount {
            let first = t.scrollbackCell(line: ScrollbackLine(line), column: 0)
            let second = t.scrollbackCell(line: ScrollbackLine(line), column: 1)
            if first.hyperlink != expected[line] || second.hyperlink != nil { wrong += 1 }
        }
        #expect(wrong == 0)
    }
}

/// Compacts `table` keeping the links `used` marks: the map from old id to
/// new one, as the table's `renumber` gets it.
/// Compacts a cluster table keeping the ids `used` marks; returns the map.
func compact(_ table: inout ClusterTable, keeping used: [Bool]) -> [UInt32] {
    var map: [UInt32] = []
    table.compact(
        markUsed: { mark in for id in used.indices where used[id] { mark(UInt32(id)) } },
        renumber: { map = Array($0.prefix(used.count)) })
    return map
}

func compact(_ table: inout HyperlinkTable, keeping used: [Bool]) -> [UInt16] {
    var map: [UInt16] = []
    table.compact(
        markUsed: { mark in for id in used.indices where used[id] { mark(UInt16(id)) } },
        renumber: { map = Array($0.prefix(used.count)) })
    return map
}
