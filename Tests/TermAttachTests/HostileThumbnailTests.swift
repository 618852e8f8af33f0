import Foundation
import Testing

@testable import TermAttach

extension HostileTests {
    /// Review finding 3: `sessions --thumbnails` is bounded as a whole.
    @Suite("Review 3: sessions --thumbnails has an overall bound")
    struct ThumbnailBound {
        @Test(
            "a listing of 4,096 entries (100 distinct ids) gets 32 thumbnails, one each, and one warning for the rest")
        func manyIDs() async throws {
            let peer = try TestPeer.hostile("many-ids", ["--ids", "4096", "--ids-distinct", "100"])
            defer { peer.stop() }
            let directory = temporaryPath("thumbs")
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try await MeasuredRun.termengine(
                ["sessions", peer.baseURL, "--thumbnails", directory.path], deadline: 120)
            #expect(!run.timedOut)
            #expect(run.status == 0, "\(run.errors)")
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(files.count == 32)
            let wrote = run.output.split(separator: "\n").filter { $0.hasPrefix("wrote ") }
            #expect(wrote.count == 32)
            #expect(Set(wrote).count == 32, "a thumbnail written twice")
            #expect(
                run.errors
                    == "termengine sessions: wrote thumbnails for the first 32 sessions only (the limit of a run): "
                    + "68 sessions without one\n")
            HostileTests.expectResources(run, "sessions --thumbnails with 4,096 entries")
        }

        @Test("sessions --thumbnails --timeout 3 against previews of 1 s each ends by its deadline with one line")
        func overallDeadline() async throws {
            let peer = try TestPeer.hostile(
                "many-ids", ["--ids", "10", "--ids-distinct", "10", "--preview-delay", "1"])
            defer { peer.stop() }
            let directory = temporaryPath("thumbs")
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try await MeasuredRun.termengine(
                ["sessions", peer.baseURL, "--thumbnails", directory.path, "--timeout", "3"], deadline: 60)
            #expect(!run.timedOut)
            #expect(run.status == 2, "\(run.errors)")
            let lines = run.errors.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[1].isEmpty, "one line: \(run.errors)")
            #expect(run.errors.hasPrefix("termengine sessions: timed out after 3 s ("), "\(run.errors)")
            #expect(run.errors.hasSuffix(" of 10 thumbnails written)\n"), "\(run.errors)")
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(files.count < 10)
            // 3 s and a margin for the last render and a loaded machine.
            HostileTests.expectResources(run, seconds: 3 + 2, "sessions --thumbnails --timeout 3")
        }
    }
}
