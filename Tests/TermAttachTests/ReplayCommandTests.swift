import Foundation
import TermCore
import TestSupport
import Testing

/// `termengine replay` feeds its file as it reads it, a chunk of
/// `ChunkedInput.chunkSize` (1 MiB) at a time (issue #21: reading 64 MiB whole
/// cost as much as feeding it). A sequence cut by a chunk's end must come
/// out as the same sequence whole.
@Suite("termengine replay")
struct ReplayCommandTests {
    static let chunk = 1 << 20

    /// A file of a little over 2 MiB whose first chunk ends inside a CUP
    /// (`ESC [ 3 ; 5 H`, after `ESC [ 3`) and whose second ends inside the
    /// three bytes of U+4E2D, the filler between them rewriting row 1 in
    /// place so that nothing scrolls.
    static func input() -> [UInt8] {
        var bytes: [UInt8] = []
        let filler = Array("\u{1B}[1;1Hfiller row, written over and over in place".utf8)
        func fill(to end: Int) {
            while bytes.count + filler.count <= end { bytes += filler }
            while bytes.count < end { bytes.append(UInt8(ascii: ".")) }
        }
        fill(to: chunk - 3)
        bytes += Array("\u{1B}[3;5HX".utf8)
        #expect(Array(bytes[(chunk - 3)..<chunk]) == [0x1B, UInt8(ascii: "["), UInt8(ascii: "3")])
        let cup = Array("\u{1B}[5;1H".utf8)
        fill(to: 2 * chunk - 1 - cup.count)
        bytes += cup
        bytes += Array("\u{4E2D}\u{1B}[6;1Hend".utf8)
        #expect(bytes[2 * chunk - 1] == 0xE4)  // U+4E2D is E4 B8 AD
        return bytes
    }

    @Test("a file longer than the read chunk, with a CSI and a UTF-8 sequence cut at chunk ends, replays as fed whole")
    func sequencesCutAtChunkEndsReplayAsFedWhole() throws {
        let bytes = Self.input()
        let file = try temporaryFile("replay", suffix: ".bin", holding: bytes)
        defer { try? FileManager.default.removeItem(at: file) }

        let run = try PackageExecutable("termengine").run(["replay", file.path, "--cols", "60", "--rows", "6"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 8, "\(lines)")  // six rows, the bytes= line, the final newline
        guard lines.count == 8 else { return }

        // ctlseqs CUP: row 3, column 5; U+4E2D at row 5, column 1.
        #expect(lines[2].hasPrefix("    X"))
        #expect(lines[4].hasPrefix("\u{4E2D}"))
        #expect(lines[5].hasPrefix("end"))
        // The library fed the bytes in one call prints the same rows.
        let whole = Terminal(columns: 60, rows: 6, scrollback: 0)
        whole.feed(bytes)
        #expect(Array(lines[0..<6]) == (0..<6).map { whole.screenLine($0) })
        #expect(lines[6].hasPrefix("bytes=\(bytes.count) seconds="))
    }

    /// `--chunk BYTES` feeds in calls of at most BYTES, as a PTY's reads
    /// deliver output: every sequence and character cut somewhere, the rows
    /// are those of the bytes fed in one call.
    @Test("replay --chunk feeds in small calls and prints the rows of one call", arguments: [1, 7, 4096])
    func chunkedReplayPrintsTheRowsOfOneCall(chunk: Int) throws {
        var bytes: [UInt8] = []
        for index in 0..<400 {
            let move = "\u{1B}[\(index % 6 + 1);\(index % 50 + 1)H\u{1B}[3\(index % 8)m"
            bytes += Array((move + "漢字 é\u{301} \(index)\r\n").utf8)
        }
        let file = try temporaryFile("chunks", suffix: ".bin", holding: bytes)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try PackageExecutable("termengine").run([
            "replay", file.path, "--cols", "60", "--rows", "6", "--chunk", String(chunk),
        ])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let whole = Terminal(columns: 60, rows: 6, scrollback: 0)
        whole.feed(bytes)
        #expect(lines.count == 8 && Array(lines[0..<6]) == (0..<6).map { whole.screenLine($0) }, "\(lines)")
        #expect(lines.count == 8 && lines[6].hasPrefix("bytes=\(bytes.count) seconds="))
    }

    @Test("replay --chunk 0 is refused with the range") func chunkOfZeroIsRefused() throws {
        let run = try PackageExecutable("termengine").run(["replay", "-", "--chunk", "0"])
        #expect(run.status != 0)
        #expect(run.errors.contains("--chunk must be a whole number in 1…1073741824, got '0'"), "\(run.errors)")
    }

    @Test("replay of standard input and of a missing file: the bytes read, or one line naming the file")
    func standardInputAndMissingFile() throws {
        // Standard input is /dev/null here: nothing to feed.
        let empty = try PackageExecutable("termengine").run(["replay", "-", "--quiet"])
        #expect(empty.status == 0 && empty.output.hasPrefix("bytes=0 seconds="), "\(empty.errors)")
        let missing = try PackageExecutable("termengine").run(["replay", "/nonexistent/replay.bin"])
        #expect(missing.status != 0)
        #expect(missing.errors.contains("cannot read /nonexistent/replay.bin: No such file or directory"))
    }
}
