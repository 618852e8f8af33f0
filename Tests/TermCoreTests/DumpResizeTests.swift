import Foundation
import TestSupport
import Testing

/// `termengine dump --resize`, run as a user runs it, on input that once
/// crashed it and on random resize sequences.
@Suite("termengine dump with resizes")
struct DumpResizeTests {
    static func write(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("resize-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        return url
    }

    @Test("the 16 bytes that crashed dump with two resizes give a dump")
    func savedCursorAndAlternateScreenAcrossResizes() throws {
        let file = try Self.write(Array("\u{1B}[50;1H\u{1B}[s\u{1B}[?47h".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try PackageExecutable("termengine").run([
            "dump", "--scrollback", "0", "--cols", "80", "--rows", "50", "--resize", "80x20@10", "--resize",
            "80x30@16", file.path,
        ])
        #expect(!run.crashed && run.status == 0, "\(run.errors)")
        #expect(run.output.contains("\"columns\": 80, \"lines\": 30"))
        #expect(run.output.contains("\"alt_screen\": true"))
    }

    @Test("random resize sequences over saved cursors and both screens never crash dump")
    func randomResizeSequences() throws {
        var random = SplitMix64(seed: 0x16)
        let pieces = [
            "\u{1B}7", "\u{1B}8", "\u{1B}[s", "\u{1B}[u", "\u{1B}[?47h", "\u{1B}[?47l", "\u{1B}[?1049h",
            "\u{1B}[?1049l", "\u{1B}[?1048h", "\u{1B}[?1048l", "\u{1B}[?6h", "\u{1B}[?6l", "\u{1B}[3;7r",
            "\u{1B}[?69h\u{1B}[2;9s", "\u{1B}[?40h\u{1B}[?3h", "\u{1B}[?3l", "\u{1B}[60;200H", "wrapping text ",
            "\r\n", "\u{1B}c",
        ]
        let executable = try PackageExecutable("termengine")
        for round in 0..<12 {
            var bytes: [UInt8] = []
            for _ in 0..<60 { bytes += Array(pieces[Int(random.next() % UInt64(pieces.count))].utf8) }
            let file = try Self.write(bytes)
            defer { try? FileManager.default.removeItem(at: file) }
            var arguments = ["dump", "--scrollback", String(random.next() % 30), "--attrs"]
            for _ in 0..<6 {
                let size = "\(1 + random.next() % 140)x\(1 + random.next() % 60)"
                arguments += ["--resize", "\(size)@\(random.next() % UInt64(bytes.count + 1))"]
            }
            arguments.append(file.path)
            let run = try executable.run(arguments)
            #expect(!run.crashed && run.status == 0, "round \(round): \(arguments) \(run.errors.prefix(400))")
            #expect(run.output.contains("\"schema\": \"vtdump/1\""), "round \(round)")
        }
    }
}
