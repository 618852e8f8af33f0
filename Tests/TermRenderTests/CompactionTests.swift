import Foundation
import TermCore
import TermRender
import Testing

@Suite("Replay compaction")
struct CompactionTests {
    static let recordings: [String] = {
        let directory = packageRoot.appendingPathComponent("Corpus/recordings")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".bin") }.sorted()
    }()

    @Test(arguments: recordings)
    func recordingCompactsToTheSameState(name: String) throws {
        let path = packageRoot.appendingPathComponent("Corpus/recordings/\(name)").path
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let original = Terminal(columns: 80, rows: 24, scrollback: 10_000)
        original.feed([UInt8](bytes))
        let (differences, compact) = compactionDifferences(original)
        #expect(differences.isEmpty, "\(name): \(differences.joined(separator: "\n"))")
        #expect(compact.count <= bytes.count + 4096)
    }

    @Test(arguments: [
        "scrolling", "dense_cells", "cursor_motion", "unicode", "mixed", "scrolling_fullscreen", "light_cells",
        "scrolling_top_region", "scrolling_bottom_region", "scrolling_top_small_region",
        "scrolling_bottom_small_region", "medium_cells", "sync_medium_cells",
    ])
    func generatedCorpusCompactsToTheSameState(kind: String) throws {
        let bytes = try #require(generatedCorpus(kind: kind, size: 300_000))
        let original = Terminal(columns: 80, rows: 24, scrollback: 2_000)
        original.feed(bytes)
        let (differences, compact) = compactionDifferences(original)
        #expect(differences.isEmpty, "\(kind): \(differences.joined(separator: "\n"))")
        #expect(compact.count < bytes.count)
    }
}
