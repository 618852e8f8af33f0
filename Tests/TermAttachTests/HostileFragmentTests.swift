import Foundation
import TermCore
import TermRender
import Testing

@testable import TermAttach

extension HostileTests {
    @Suite("Finding 3: fragment reassembly is linear")
    struct Fragments {
        static func fragments(of message: [UInt8], size: Int) -> [UInt8] {
            var wire: [UInt8] = []
            wire.reserveCapacity(message.count + message.count / size * 4 + 16)
            var offset = 0
            while offset < message.count {
                let end = min(offset + size, message.count)
                let opcode: UInt8 = offset == 0 ? 0x1 : 0x0
                wire.append((end == message.count ? 0x80 : 0) | opcode)
                let count = end - offset
                if count < 126 {
                    wire.append(UInt8(count))
                } else {
                    wire += [126, UInt8(count >> 8), UInt8(count & 0xFF)]
                }
                wire += message[offset..<end]
                offset = end
            }
            return wire
        }

        @Test("15 MiB in 1 KiB fragments is reassembled copying at most twice its size")
        func linearReassembly() throws {
            let size = 15 << 20
            let message = [UInt8](repeating: UInt8(ascii: "a"), count: size)
            let wire = Self.fragments(of: message, size: 1024)
            var parser = WebSocketFrameParser(messageLimit: WireLimits.defaultMessageLimit)
            var events: [WebSocketEvent] = []
            // Fed in the reader's chunk size, as the connection does.
            var offset = 0
            while offset < wire.count {
                let end = min(offset + WebSocketConnection.readChunk, wire.count)
                try wire[offset..<end].withUnsafeBytes { try parser.consume($0, into: &events) }
                offset = end
            }
            #expect(events.count == 1)
            if case .text(let bytes) = events.first {
                #expect(bytes == message)
            } else {
                Issue.record("no text message")
            }
            #expect(parser.reassemblyBytesCopied <= 2 * size, "copied \(parser.reassemblyBytesCopied) bytes")
        }

        @Test("a small fragmented message is handed on at its size, not with the limit's capacity")
        func smallFragmentedMessage() throws {
            let message = [UInt8](repeating: UInt8(ascii: "b"), count: 3000)
            var parser = WebSocketFrameParser(messageLimit: WireLimits.defaultMessageLimit)
            var events: [WebSocketEvent] = []
            try Self.fragments(of: message, size: 1024).withUnsafeBytes { try parser.consume($0, into: &events) }
            guard case .text(let bytes)? = events.first else {
                Issue.record("no text message: \(events)")
                return
            }
            #expect(bytes == message)
            #expect(bytes.capacity < 3000 + WebSocketFrameParser.slackKept)
            #expect(parser.reassemblyBytesCopied <= 2 * 3000)
        }

        @Test("a fragmented message reserves 64 KiB on its first fragment, not the message limit (1 GiB here)")
        func firstFragmentReservation() throws {
            var parser = WebSocketFrameParser(messageLimit: 1 << 30)
            var events: [WebSocketEvent] = []
            // The first of a message's fragments: 10 bytes, FIN clear.
            let first: [UInt8] = [0x01, 10] + Array(repeating: UInt8(ascii: "c"), count: 10)
            try first.withUnsafeBytes { try parser.consume($0, into: &events) }
            #expect(events.isEmpty)
            #expect(parser.reservedBytes < 2 * WebSocketFrameParser.firstReservation, "\(parser.reservedBytes) bytes")
            // It grows as fragments come: 200 KiB in 1 KiB fragments.
            var wire: [UInt8] = []
            for _ in 0..<200 { wire += [0x00, 126, 0x04, 0x00] + Array(repeating: UInt8(ascii: "c"), count: 1024) }
            try wire.withUnsafeBytes { try parser.consume($0, into: &events) }
            #expect(parser.reservedBytes >= 200 * 1024 + 10)
            #expect(parser.reservedBytes < 2 * 4 * 256 * 1024)
        }

        @Test("attach --new --dump prints a 15 MiB replay sent in 1 KiB fragments: exit 0, under 10 s and 100 MiB")
        func fragmentedReplayCLI() async throws {
            let peer = try TestPeer.hostile(
                "fragmented-replay", ["--replay-bytes", "\(15 << 20)", "--fragment-bytes", "1024"])
            defer { peer.stop() }
            let run = try await MeasuredRun.termengine(
                ["attach", peer.baseURL, "--new", "--dump", "--timeout", "30"], deadline: 40)
            #expect(run.status == 0, "\(run.errors)")
            // 15 MiB of 68-byte JSON lines (64 characters and an escaped CR LF):
            // the last whole line is number 15 MiB / 68 - 1, minus the envelope.
            let lastLine = (15 << 20) - 36
            #expect(run.output.contains(String(format: "replay line %08ld the quick", lastLine / 68 - 1)))
            HostileTests.expectResources(run, seconds: 10)
        }

        @Test("a 30 MiB replay in 4 KiB fragments is refused at the message limit with the actionable message")
        func oversizedReplayCLI() async throws {
            let peer = try TestPeer.hostile(
                "fragmented-replay", ["--replay-bytes", "\(30 << 20)", "--fragment-bytes", "4096"])
            defer { peer.stop() }
            let run = try await MeasuredRun.termengine(
                ["attach", peer.baseURL, "--new", "--dump", "--timeout", "30"], deadline: 40)
            #expect(run.status == 2)
            #expect(
                run.errors
                    == "termengine attach: the replay is larger than the client's message limit of 16 MiB: "
                    + "lower the server's SCROLLBACK_BYTES or raise the client's limit (--max-message)\n")
            HostileTests.expectResources(run)
        }
    }
}
