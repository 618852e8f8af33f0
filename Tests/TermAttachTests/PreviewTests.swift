import TermAttach
import TermCore
import TermRender
import Testing

/// The server's session preview (PROTOCOL.md), read with the wire's JSON
/// reader: a cut inside an escape or a surrogate pair, drawn as a thumbnail.
@Suite("Session previews")
struct PreviewTests {
    @Test("Preview cut inside a sequence is cleaned") func previewCutInsideASequenceIsCleaned() throws {
        let json = #"{"id":"s1","cols":20,"rows":3,"data":"5;1Hjunk\r\nhello \u001b[31mred\ud800"}"#
        let preview = try Preview(json: Array(json.utf8))
        #expect(preview.columns == 20)
        let t = preview.terminal()
        #expect(t.screenLine(0) == "hello red\u{FFFD}")
        let png = ThumbnailRenderer.png(t.snapshot(), size: .minimap)
        #expect(png.count > 60)
    }

    @Test("A surrogate pair joins; a lone high or low surrogate becomes U+FFFD")
    func surrogates() throws {
        // RFC 8259 §7: a character outside the BMP is a UTF-16 pair; Node
        // cuts a string by UTF-16 index, leaving half a pair.
        let json = #"{"cols":4,"rows":1,"data":"\ud83d\ude00|\ud83d|\ude00"}"#
        let preview = try Preview(json: Array(json.utf8))
        #expect(String(decoding: preview.data, as: UTF8.self) == "\u{1F600}|\u{FFFD}|\u{FFFD}")
        #expect(preview.id == "")
    }

    @Test("A size written as 80.0 is read; 80.5, a string or a missing size is refused")
    func sizes() throws {
        let whole = try Preview(json: Array(#"{"id":"a","cols":80.0,"rows":24,"data":"","extra":[1,{"x":null}]}"#.utf8))
        #expect(whole.columns == 80 && whole.rows == 24 && whole.id == "a")
        for json in [
            #"{"cols":80.5,"rows":24,"data":""}"#, #"{"cols":"80","rows":24,"data":""}"#, #"{"rows":24,"data":""}"#,
        ] {
            #expect(throws: Preview.Failure.self, "\(json)") { try Preview(json: Array(json.utf8)) }
        }
    }

    @Test("Text that is not one JSON object is refused, naming the JSON error")
    func malformed() {
        for json in [#"[1]"#, #"{"cols":1,"rows":1,"data":"x""#, ""] {
            #expect(throws: Preview.Failure.self, "\(json)") { try Preview(json: Array(json.utf8)) }
        }
        do {
            _ = try Preview(json: Array(#"{"cols":1,"#.utf8))
            Issue.record("a truncated object was read")
        } catch {
            #expect("\(error)".hasPrefix("JSON: "))
        }
    }
}
