import TermCore
import TestSupport
import Testing

/// LF → CR LF for output that did not come through a PTY. What a real PTY
/// sends for the same bytes is checked in `TermPTYTests`
/// (`LineDisciplinePTYTests`); here, that chunking never matters.
@Suite("Line discipline: ONLCR")
struct LineDisciplineTests {
    @Test("Every line feed gets a carriage return before it") func everyLineFeedGetsACarriageReturnBeforeIt() {
        #expect(LineDiscipline.onlcr(Array("a\nb\r\nc\r\r\n\n".utf8)) == Array("a\r\nb\r\r\nc\r\r\r\n\r\n".utf8))
        #expect(LineDiscipline.onlcr([UInt8]()).isEmpty)
        #expect(LineDiscipline.onlcr("no line end".utf8) == Array("no line end".utf8))
        // UTF-8 and other controls pass unchanged.
        #expect(LineDiscipline.onlcr("é\u{0B}\u{0C}\n".utf8) == Array("é\u{0B}\u{0C}\r\n".utf8))
    }

    /// Any split of the input, translated chunk by chunk, gives the bytes
    /// of the whole: a CR at the end of one chunk and its LF at the start of
    /// the next become CR CR LF, as they do unsplit.
    @Test("Chunks translate as the whole") func chunksTranslateAsTheWhole() {
        var random = SplitMix64(seed: 19)
        let alphabet: [UInt8] = [0x0A, 0x0D, 0x41, 0x1B, 0xC3, 0xA9]
        for _ in 0..<200 {
            let input = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                alphabet.randomElement(using: &random)!
            }
            let whole = LineDiscipline.onlcr(input)
            var cuts = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                Int.random(in: 0...input.count, using: &random)
            }
            cuts = ([0] + cuts + [input.count]).sorted()
            let chunked = zip(cuts, cuts.dropFirst()).flatMap { LineDiscipline.onlcr(input[$0..<$1]) }
            #expect(chunked == whole, "\(input) cut at \(cuts)")
        }
        #expect(LineDiscipline.onlcr([0x0D]) + LineDiscipline.onlcr([0x0A]) == [0x0D, 0x0D, 0x0A])
    }

    /// A sequence without contiguous storage is translated too.
    @Test("Any sequence is translated") func anySequenceIsTranslated() {
        let bytes = Array("one\ntwo\n".utf8)
        #expect(LineDiscipline.onlcr(bytes.lazy.map { $0 }) == LineDiscipline.onlcr(bytes))
    }
}
