import Foundation
import TermCore
import TermRender
import Testing

@testable import TermAttach

extension HostileTests {
    @Suite("Finding 4: JSON numbers outside Int")
    struct Numbers {
        /// Outside Int's range of either sign, or not finite as a double.
        static let outOfRange = [
            "9223372036854775808", "-9223372036854775809", "1e400", "-1e400", "1e19", "-9.3e18",
            "123456789012345678901234567890",
        ]

        @Test("a preview whose cols is outside Int's range is refused as malformed, never a trap")
        func previewNumbers() {
            for number in Self.outOfRange {
                let json = #"{"id":"x","cols":\#(number),"rows":24,"data":"hi"}"#
                #expect(throws: Preview.Failure.self, "\(number)") { try Preview(json: Array(json.utf8)) }
            }
            for number in ["9223372036854775807", "-9223372036854775808", "1e18"] {
                // In Int's range but not a terminal size: refused by the size check.
                let json = #"{"id":"x","cols":\#(number),"rows":24,"data":"hi"}"#
                #expect(throws: Preview.Failure.self, "\(number)") { try Preview(json: Array(json.utf8)) }
            }
            let good = try? Preview(json: Array(#"{"id":"x","cols":8e1,"rows":24,"data":"hi"}"#.utf8))
            #expect(good?.columns == 80)
        }

        @Test("the frame reader refuses numbers outside Int's range: those frames are dropped and counted")
        func frameNumbers() {
            for number in Self.outOfRange {
                var decoder = ServerFrameDecoder()
                #expect(decoder.decode(Array(#"{"type":"exit","code":\#(number)}"#.utf8)) == nil, "\(number)")
                #expect(decoder.decode(Array(#"{"type":"telemetry","at":\#(number)}"#.utf8)) == nil, "\(number)")
                #expect(decoder.decode(Array(#"{"type":"telemetry","at":1,"costUsd":\#(number)}"#.utf8)) == nil)
                #expect(decoder.statistics.malformed == 3)
                #expect(JSONTree.parse(Array("[\(number)]".utf8)) == nil, "\(number)")
            }
            #expect(JSONTree.parse(Array("[9223372036854775807, -9223372036854775808, 1.5e3]".utf8)) != nil)
        }

        @Test("sessions --thumbnails with a preview of cols 1e400 exits 2 with one line, no trap")
        func previewNumberCLI() async throws {
            for number in ["1e400", "9223372036854775808", "-9223372036854775809"] {
                let peer = try TestPeer.hostile("bad-number", ["--number", number, "--number-in", "preview"])
                defer { peer.stop() }
                let directory = temporaryPath("thumbs")
                defer { try? FileManager.default.removeItem(at: directory) }
                let run = try await MeasuredRun.termengine(["sessions", peer.baseURL, "--thumbnails", directory.path])
                #expect(run.status == 2, "\(number): \(run.errors)")
                #expect(
                    run.errors.hasPrefix("termengine sessions: unexpected answer from the server: GET /live-sessions/"))
                #expect(run.errors.contains("number out of range"), "\(run.errors)")
                #expect(run.errors.filter { $0 == "\n" }.count == 1)
            }
        }

        @Test("a listing with a number outside Int's range exits 2 with one line")
        func listingNumberCLI() async throws {
            let peer = try TestPeer.hostile(
                "bad-number", ["--number", "-9223372036854775809", "--number-in", "listing"])
            defer { peer.stop() }
            let run = try await MeasuredRun.termengine(["sessions", peer.baseURL])
            #expect(run.status == 2)
            #expect(
                run.errors
                    == "termengine sessions: unexpected answer from the server: GET /live-sessions did not answer JSON\n"
            )
        }

        @Test("frames with numbers outside Int's range are dropped and counted; the live output after them is fed")
        func frameNumbersLive() async throws {
            let peer = try TestPeer.hostile("bad-number", ["--number", "9223372036854775808", "--number-in", "frames"])
            defer { peer.stop() }
            let session = AttachSession(
                configuration: .init(endpoint: peer.endpoint, pingInterval: nil))
            await session.start()
            try await PeerTests.waitForLine(session) { $0 == "after-bad-numbers" }
            #expect(await session.frameStatistics.malformed == 2)
            await session.close()
        }
    }
}
