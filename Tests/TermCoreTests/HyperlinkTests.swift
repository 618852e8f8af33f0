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

    @Test func aLinkSeenAgainKeepsItsID() throws {
        var table = HyperlinkTable()
        let first = try #require(id(&table, Array("https://a.example".utf8)))
        #expect(id(&table, Array("https://a.example".utf8)) == first)
        #expect(id(&table, Array("https://b.example".utf8)) != first)
        #expect(table.count == 3)  // "no link" and the two
        #expect(table[first] == Hyperlink(uri: "https://a.example"))
    }

    @Test func theIDParameterTellsLinksApart() throws {
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

    @Test func invalidUTF8IsMatchedByItsBytes() throws {
        var table = HyperlinkTable()
        let first = try #require(id(&table, [0x68, 0xFF, 0x41]))
        #expect(id(&table, [0x68, 0xFF, 0x41]) == first)
        #expect(table.count == 2)
        #expect(table[first]?.uri == "h\u{FFFD}A")
    }

    @Test func idAmongOtherParameters() {
        let t = terminal(20, 1, "\(ESC)]8;foo=1:id=abc:bar=2;https://x.example\(ESC)\\ab")
        #expect(t.cellAt(0, 1).hyperlink == Hyperlink(uri: "https://x.example", id: "abc"))
    }

    @Test func manyDistinctLinksNeverRunOut() {
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
}
