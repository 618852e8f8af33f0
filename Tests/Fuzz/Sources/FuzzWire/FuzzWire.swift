import FuzzSupport

// The reader and the string encoder are internal: this target is built with
// -enable-testing (scripts/fuzz.sh), which is what @testable needs.
@testable import TermAttach

// The wire codec: the JSON text of one WebSocket message.
//
// The whole input is one message (no header), so seeds are real frames and
// the dictionary's JSON tokens splice straight in. Checks:
// 1. JSONReader, decodeServerFrame, decodeClientFrame and ServerFrameDecoder
//    take any bytes without trapping; every string range the reader returns
//    lies inside the buffer, and an `output` slice inside the message.
// 2. A client frame that decodes encodes again (decode accepts nothing that
//    encode refuses) and decodes to the same frame.
// 3. The input read as text, written as a JSON string by the encoder, comes
//    back unchanged: as an `input` client frame, and as the `data` of an
//    `output` server frame (unescaped in place).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let message = Array(input.bytes)

    var buffer = message
    let count = buffer.count
    buffer.withUnsafeMutableBufferPointer { pointer in
        if let value = try? JSONReader.read(pointer) { checkRanges(value, count: count, depth: 0) }
    }

    if case .success(.output(let slice)) = WireCodec.decodeServerFrame(message) {
        fuzzCheck(
            slice.startIndex >= 0 && slice.endIndex <= message.count && slice.count <= message.count,
            "output slice \(slice.startIndex)..<\(slice.endIndex) of a \(message.count)-byte message")
    }
    var decoder = ServerFrameDecoder()
    _ = decoder.decode(message)
    fuzzCheck(
        decoder.statistics.decoded + decoder.statistics.malformed + decoder.statistics.unknownType == 1,
        "ServerFrameDecoder counted \(decoder.statistics) for one message")

    if case .success(let frame) = WireCodec.decodeClientFrame(message) {
        let encoded: [UInt8]
        do {
            encoded = try WireCodec.encode(frame)
        } catch {
            fuzzCheck(false, "decoded client frame \(frame) does not encode: \(error)")
            return 0
        }
        let again = WireCodec.decodeClientFrame(encoded)
        fuzzCheck(
            again == .success(frame), "client frame \(frame) encoded as '\(escaped(encoded))' decodes as \(again)")
    }

    let text = String(decoding: message, as: UTF8.self)
    let inputFrame = ClientFrame.input(text)
    if let encoded = try? WireCodec.encode(inputFrame) {
        let decoded = WireCodec.decodeClientFrame(encoded)
        fuzzCheck(decoded == .success(inputFrame), "input '\(escaped(message))' decodes as \(decoded)")
    } else {
        fuzzCheck(false, "an input frame does not encode")
    }
    var output = Array(#"{"type":"output","data":"#.utf8)
    WireCodec.appendJSONString(text, to: &output)
    output.append(UInt8(ascii: "}"))
    switch WireCodec.decodeServerFrame(output) {
    case .success(.output(let slice)):
        fuzzCheck(
            Array(slice) == Array(text.utf8), "output data '\(escaped(text.utf8))' came back as '\(escaped(slice))'")
    case let other:
        fuzzCheck(false, "output frame '\(escaped(output))' decodes as \(other)")
    }
    return 0
}

/// Every string and key range lies inside the `count`-byte buffer.
func checkRanges(_ value: JSONValue, count: Int, depth: Int) {
    fuzzCheck(depth <= JSONReader.maxDepth + 1, "JSON nested \(depth) deep came back")
    switch value {
    case .string(let range):
        fuzzCheck(range.lowerBound >= 0 && range.upperBound <= count, "string range \(range) outside \(count) bytes")
    case .array(let elements):
        fuzzCheck(elements.count <= JSONReader.maxContainerCount, "an array of \(elements.count)")
        for element in elements { checkRanges(element, count: count, depth: depth + 1) }
    case .object(let members):
        fuzzCheck(members.count <= JSONReader.maxContainerCount, "an object of \(members.count)")
        for member in members {
            fuzzCheck(
                member.key.lowerBound >= 0 && member.key.upperBound <= count,
                "key range \(member.key) outside \(count) bytes")
            checkRanges(member.value, count: count, depth: depth + 1)
        }
    case .null, .bool, .number: break
    }
}
