import Testing

@testable import TermAttach

@Suite("Wire codec")
struct WireCodecTests {
    let id = SessionID("1b4e28ba-2fa1-4d3b-9a5c-0e1a2b3c4d5e")!

    func text(_ frame: ClientFrame) throws -> String { String(decoding: try WireCodec.encode(frame), as: UTF8.self) }

    func decode(_ json: String) -> ServerFrame? {
        if case .success(let frame) = WireCodec.decodeServerFrame(Array(json.utf8)) { return frame }
        return nil
    }

    func output(_ json: String) -> [UInt8]? {
        if case .output(let bytes)? = decode(json) { return Array(bytes) }
        return nil
    }

    @Test("attach always carries the sessionId key, null for a new session")
    func attachAlwaysCarriesTheSessionIdKeyNullForANewSession() throws {
        #expect(try text(.attach(sessionID: nil, cwd: nil)) == #"{"type":"attach","sessionId":null}"#)
        #expect(
            try text(.attach(sessionID: id, cwd: "/tmp/a b"))
                == #"{"type":"attach","sessionId":"1b4e28ba-2fa1-4d3b-9a5c-0e1a2b3c4d5e","cwd":"/tmp/a b"}"#)
    }

    @Test("input is escaped as a JSON string and passed through") func inputIsEscapedAsAJSONStringAndPassedThrough()
        throws
    {
        #expect(try text(.input("a\"\\\r\u{1B}é")) == #"{"type":"input","data":"a\"\\\r\u001bé"}"#)
    }

    @Test("resize, approve and reject have the documented shapes") func resizeApproveAndRejectHaveTheDocumentedShapes()
        throws
    {
        #expect(try text(.resize(columns: 120, rows: 40)) == #"{"type":"resize","cols":120,"rows":40}"#)
        #expect(try text(.approve(mode: .acceptEdits)) == #"{"type":"approve","mode":"acceptEdits"}"#)
        #expect(try text(.approve(mode: nil)) == #"{"type":"approve"}"#)
        #expect(try text(.reject) == #"{"type":"reject"}"#)
    }

    @Test("invalid outgoing values are refused, not sent") func invalidOutgoingValuesAreRefusedNotSent() {
        #expect(throws: WireError.self) { try WireCodec.encode(.resize(columns: 0, rows: 24)) }
        #expect(throws: WireError.self) { try WireCodec.encode(.resize(columns: 80, rows: 1001)) }
        #expect(throws: WireError.self) { try WireCodec.encode(.attach(sessionID: nil, cwd: "relative/dir")) }
    }

    @Test("every client frame decodes back to itself") func everyClientFrameDecodesBackToItself() throws {
        let frames: [ClientFrame] = [
            .attach(sessionID: nil, cwd: nil), .attach(sessionID: id, cwd: "/home"), .input("x\u{1B}[A"),
            .resize(columns: 1, rows: 1000), .approve(mode: .plan), .approve(mode: nil), .reject,
        ]
        for frame in frames {
            #expect(try WireCodec.decodeClientFrame(WireCodec.encode(frame)).get() == frame)
        }
    }

    @Test("server frames decode with their fields") func serverFramesDecodeWithTheirFields() {
        #expect(decode(#"{"type":"attached","sessionId":"1B4E28BA-2FA1-4D3B-9A5C-0E1A2B3C4D5E"}"#) == .attached(id))
        #expect(
            decode(#"{"type":"exit","code":-1,"reason":"spawn failed"}"#) == .exit(code: -1, reason: "spawn failed"))
        #expect(decode(#"{"type":"exit","code":0}"#) == .exit(code: 0, reason: nil))
        #expect(
            decode(#"{"type":"status","status":"waiting","detail":"Bash","pending":true,"gate":"plan"}"#)
                == .status(SessionStatus(state: .waiting, detail: "Bash", pending: true, gate: .plan)))
        #expect(
            decode(
                #"{"type":"telemetry","at":1700000000000,"costUsd":1.25,"contextUsedPct":40,"model":"m","pr":{"n":1}}"#)
                == .telemetry(Telemetry(at: 1_700_000_000_000, costUsd: 1.25, contextUsedPct: 40, model: "m")))
        #expect(decode(#"{"type":"telemetry","at":5}"#) == .telemetry(Telemetry(at: 5)))
    }

    @Test("output data is unescaped to UTF-8 bytes") func outputDataIsUnescapedToUTF8Bytes() {
        #expect(output(#"{"type":"output","data":"\u001b[0mhi\r\n\t\"\\\/"}"#) == Array("\u{1B}[0mhi\r\n\t\"\\/".utf8))
        #expect(output(#"{"data":"é€😀","type":"output"}"#) == Array("é€😀".utf8))
        #expect(output(#"{"type":"output","data":"\u00e9\u20ac\ud83d\ude00"}"#) == Array("é€😀".utf8))
        #expect(output(#"{"type":"output","data":""}"#) == [])
        #expect(
            output(#"{"type":"output","data":"\u007f\u0080\u00FF\u001B"}"#) == [0x7F, 0xC2, 0x80, 0xC3, 0xBF, 0x1B])
        #expect(output(#"{"type":"output","data":"\u00zz"}"#) == nil)
    }

    @Test("lone surrogate escapes become U+FFFD instead of failing the frame")
    func loneSurrogateEscapesBecomeUFFFDInsteadOfFailingTheFrame() {
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        #expect(output(#"{"type":"output","data":"a\ud800b"}"#) == [0x61] + replacement + [0x62])
        #expect(output(#"{"type":"output","data":"\udc00"}"#) == replacement)
        #expect(output(#"{"type":"output","data":"\ud83d"}"#) == replacement)
        // A high surrogate followed by a non-surrogate escape: both kept apart.
        #expect(output(#"{"type":"output","data":"\ud83d\u0041"}"#) == replacement + [0x41])
        #expect(output(#"{"type":"output","data":"\ud83d\ud83d\ude00"}"#) == replacement + Array("😀".utf8))
    }

    @Test("long runs without escapes survive the eight-byte path at every alignment")
    func longRunsWithoutEscapesSurviveTheEightBytePathAtEveryAlignment() {
        for prefix in 0..<9 {
            let body =
                String(repeating: "x", count: prefix) + "\\u001b" + String(repeating: "abcdefgh", count: 5) + "\\n"
            let expected = Array(
                (String(repeating: "x", count: prefix) + "\u{1B}" + String(repeating: "abcdefgh", count: 5) + "\n").utf8
            )
            #expect(output(#"{"type":"output","data":"\#(body)"}"#) == expected)
        }
    }

    @Test("the output slice shares the message's storage") func theOutputSliceSharesTheMessagesStorage() {
        let message = Array(#"{"type":"output","data":"abc\u001b"}"#.utf8)
        guard case .success(.output(let slice)) = WireCodec.decodeServerFrame(message) else {
            Issue.record("not decoded")
            return
        }
        #expect(slice.startIndex > 0)  // a slice of the message, not a fresh array
        #expect(Array(slice) == [0x61, 0x62, 0x63, 0x1B])
    }

    @Test(
        "malformed frames are refused",
        arguments: [
            "", "not json", "[1]", "{}", #"{"type":5}"#, #"{"type":"attached","sessionId":"nope"}"#,
            #"{"type":"attached","sessionId":"1b4e28ba-2fa1-3d3b-9a5c-0e1a2b3c4d5e"}"#,
            #"{"type":"output","data":5}"#, #"{"type":"output"}"#, #"{"type":"output","data":"\x"}"#,
            #"{"type":"output","data":"\u12"}"#, "{\"type\":\"output\",\"data\":\"a\u{01}\"}",
            #"{"type":"output","data":"abc"#, #"{"type":"exit","code":1.5}"#, #"{"type":"exit"}"#,
            #"{"type":"status","status":"sleeping","pending":false}"#,
            #"{"type":"status","status":"idle","gate":"door"}"#,
            #"{"type":"status","status":"idle","pending":"yes"}"#, #"{"type":"telemetry","costUsd":1}"#,
            #"{"type":"telemetry","at":1,"costUsd":"1"}"#, #"{"type":"output","data":"x"} trailing"#,
            #"{"type":"output","data":"x",}"#, #"{"type":"exit","code":01}"#,
        ])
    func malformedFramesAreRefused(json: String) {
        if case .success(let frame) = WireCodec.decodeServerFrame(Array(json.utf8)) {
            Issue.record("accepted \(json) as \(frame)")
        }
    }

    @Test("the decoder drops and counts malformed and unknown frames")
    func theDecoderDropsAndCountsMalformedAndUnknownFrames() {
        var decoder = ServerFrameDecoder()
        #expect(decoder.decode(Array("nope".utf8)) == nil)
        #expect(decoder.decode(Array(#"{"type":"future","x":1}"#.utf8)) == nil)
        #expect(decoder.decode(Array(#"{"type":"output","data":"ok"}"#.utf8)) == .output(Array("ok".utf8)[...]))
        decoder.dropBinary()
        #expect(decoder.statistics.malformed == 1)
        #expect(decoder.statistics.unknownType == 1)
        #expect(decoder.statistics.decoded == 1)
        #expect(decoder.statistics.binaryMessages == 1)
    }

    @Test("nesting past the depth limit is refused") func nestingPastTheDepthLimitIsRefused() {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(decode(#"{"type":"telemetry","at":1,"x":\#(deep)}"#) == nil)
    }

    @Test("session ids must be UUID version 4") func sessionIdsMustBeUUIDVersion4() {
        #expect(SessionID("1b4e28ba-2fa1-4d3b-9a5c-0e1a2b3c4d5e") != nil)
        #expect(SessionID("1b4e28ba-2fa1-4d3b-7a5c-0e1a2b3c4d5e") == nil)
        #expect(SessionID("1b4e28ba2fa14d3b9a5c0e1a2b3c4d5e") == nil)
        #expect(SessionID("1b4e28ba-2fa1-4d3b-9a5c-0e1a2b3c4d5g") == nil)
        for _ in 0..<20 { #expect(SessionID(SessionID.random().text) != nil) }
    }

    @Test("telemetry is stale after 30 seconds") func telemetryIsStaleAfter30Seconds() {
        let telemetry = Telemetry(at: 1_000)
        #expect(!telemetry.isStale(nowMilliseconds: 31_000))
        #expect(telemetry.isStale(nowMilliseconds: 31_001))
    }
}
