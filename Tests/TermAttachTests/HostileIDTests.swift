import Foundation
import TermCore
import TermRender
import Testing

@testable import TermAttach

extension HostileTests {
    @Suite("Finding 5: session ids are UUID v4 before any use")
    struct SessionIDs {
        @Test("sessions --thumbnails skips ids that are not UUID v4, with a warning, and writes only inside DIR")
        func craftedIDsCLI() async throws {
            let peer = try TestPeer.hostile("crafted-ids")
            defer { peer.stop() }
            let base = temporaryPath("ids")
            let directory = base.appendingPathComponent("a/b/thumbs")
            defer { try? FileManager.default.removeItem(at: base) }
            let run = try await MeasuredRun.termengine(["sessions", peer.baseURL, "--thumbnails", directory.path])
            #expect(run.status == 0, "\(run.errors)")
            let everything = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
            #expect(everything.filter { $0.hasSuffix(".png") } == ["a/b/thumbs/\(HostileTests.validID).png"])
            #expect(run.errors == "termengine sessions: skipped 3 sessions whose id is not a UUID v4\n")
            #expect(!run.output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
            let rows = run.output.split(separator: "\n").filter { !$0.hasPrefix("ID") && !$0.hasPrefix("wrote") }
            #expect(rows.count == 1)
            #expect(rows.first?.hasPrefix(HostileTests.validID) == true)
        }

        @Test("the HTTP client lists only UUID v4 ids, counts the others, and never puts one in a URL")
        func craftedIDsLibrary() async throws {
            let peer = try TestPeer.hostile("crafted-ids")
            defer { peer.stop() }
            let client = AttachHTTPClient(endpoint: peer.endpoint)
            let listing = try await client.liveSessionListing()
            #expect(listing.sessions.map(\.id) == [HostileTests.validID])
            #expect(listing.skippedInvalidIDs == 3)
            for id in ["../../x", "\u{1B}]0;owned\u{07}", "9e331828-e58c-4113-b88d-a5a945c2749/"] {
                await #expect(throws: AttachError.invalidArgument("not a session id (a UUID v4)")) {
                    _ = try await client.preview(id: id)
                }
                await #expect(throws: AttachError.invalidArgument("not a session id (a UUID v4)")) {
                    try await client.kill(id: id)
                }
            }
        }
    }
}
