import Foundation
import TestSupport
import Testing

@testable import TermCore

/// TermCore's own base64 (OSC 52): RFC 4648's vectors, and exactly what
/// Foundation's `Data(base64Encoded:)` accepted when OSC 52 went through it.
@Suite("Base64")
struct Base64Tests {
    func decode(_ text: String) -> [UInt8]? { Base64.decode(Substring(text)) }

    /// RFC 4648 §10.
    static let vectors: [(String, String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test("RFC 4648 §10's test vectors encode and decode")
    func rfcVectors() {
        for (plain, encoded) in Self.vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(decode(encoded) == Array(plain.utf8))
        }
    }

    @Test("Every byte value round-trips, through both ends of the alphabet")
    func everyByteRoundTrips() {
        let bytes = (0...255).map(UInt8.init) + [0xFB, 0xFF, 0xBF]
        #expect(Base64.encode([0xFB, 0xFF, 0xBF]) == "+/+/")
        #expect(decode(Base64.encode(bytes)) == bytes)
    }

    @Test("Decoding refuses whitespace, line breaks, URL-safe characters and anything outside the alphabet")
    func refusesForeignCharacters() {
        for text in [
            " Zg==", "Zg== ", "Z g==", "Zg==\n", "Zg\r\n==", "\tZm9v", "Zm9v\u{0B}", "-_8=", "Zm9v\0", "Zé==", "Zm9v*",
        ] {
            #expect(decode(text) == nil, "\(text.debugDescription)")
        }
    }

    @Test("Decoding refuses input short of whole groups of four: Zg, Zg=, Zm8, Z===, a lone =")
    func refusesMissingPadding() {
        for text in ["Z", "Zg", "Zg=", "Zm8", "Zm9vYg", "Zm9vYg=", "Z===", "=", "==", "==="] {
            #expect(decode(text) == nil, "\(text.debugDescription)")
        }
    }

    @Test("Decoding refuses padding before the last group")
    func refusesInnerPadding() {
        #expect(decode("Zg==Zg==") == nil)
        #expect(decode("Zm8=Zm9v") == nil)
        #expect(decode("Zm9v=A==") == nil)
    }

    @Test("Decoding keeps Foundation's leniencies: extra padding, unchecked bits, a character after =, = alone")
    func keepsFoundationsLeniencies() {
        #expect(decode("Zm9v=") == Array("foo".utf8))
        #expect(decode("Zg===") == Array("f".utf8))
        #expect(decode("Zh==") == Array("f".utf8))  // the low bits of h are not checked
        #expect(decode("Zm9=") == Array("fo".utf8))
        #expect(decode("Zg=a") == [0x66, 0x1A])
        #expect(decode("====") == [0])
        #expect(decode("========") == [0])
    }

    #if os(Linux)
        // On Linux Foundation is swift-foundation, whose decoder OSC 52 used
        // before; Apple's Foundation (NSData) accepts other input.
        @Test("Decoding accepts and rejects what Foundation's Data(base64Encoded:) does, on seeded random input")
        func decodingEqualsFoundation() {
            let characters = Array("ABCZabcz0189+/====-_ \n\r\té*".unicodeScalars)
            var generator = SplitMix64(seed: 52)
            var differences: [String] = []
            for _ in 0..<100_000 {
                var text = ""
                let length = Int.random(in: 0...13, using: &generator)
                for _ in 0..<length {
                    // Mostly the alphabet, so that many inputs decode.
                    let scalar =
                        Int.random(in: 0..<4, using: &generator) == 0
                        ? characters.randomElement(using: &generator)!
                        : Unicode.Scalar(UInt8(ascii: "A") + UInt8.random(in: 0..<26, using: &generator))
                    text.unicodeScalars.append(scalar)
                }
                let expected = Data(base64Encoded: text).map { [UInt8]($0) }
                if decode(text) != expected { differences.append(text.debugDescription) }
            }
            #expect(differences.isEmpty, "\(differences.count) differ, first: \(differences.prefix(10))")
        }
    #endif

    @Test("Encoding equals Foundation's base64EncodedString() on seeded random bytes")
    func encodingEqualsFoundation() {
        var generator = SplitMix64(seed: 4648)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString())
        }
    }

    @Test("OSC 52 writes what its payload decodes to, and counts a payload that is not base64 as unknown")
    func clipboardWriteDecodes() {
        let t = Terminal(columns: 10, rows: 1)
        var seen: [TerminalEvent] = []
        t.onEvent = { seen.append($0) }
        t.feed("\u{1B}]52;c;Zm9vYmFy\u{07}\u{1B}]52;c;Zm9vYg\u{07}\u{1B}]52;;Zg=a\u{07}")
        #expect(
            seen == [
                .clipboardWrite(selection: "c", data: Array("foobar".utf8)),
                .clipboardWrite(selection: "s0", data: [0x66, 0x1A]),
            ])
        #expect(t.counters.unknownSequences == 1)
    }
}
