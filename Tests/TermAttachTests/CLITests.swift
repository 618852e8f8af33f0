import Foundation
import TestSupport
import Testing

/// The `termengine sessions` and `termengine attach` commands, run as a
/// user runs them, against the test peer.
@Suite("termengine sessions and attach", .serialized, .timeLimit(.minutes(1)))
struct CLITests {
    /// Runs the termengine binary built next to the test bundle.
    static func run(_ arguments: [String]) throws -> PackageExecutable.Run {
        try PackageExecutable("termengine").run(arguments)
    }

    @Test("attach --send --until --dump prints the vtdump of the final screen")
    func attachSendUntilDumpPrintsTheVtdumpOfTheFinalScreen() throws {
        let peer = try TestPeer()
        defer { peer.stop() }
        let run = try Self.run([
            "attach", peer.baseURL, "--new", "--size", "50x6", "--send", #"echo h""i\r"#, "--until", #"^(\$ )?hi$"#,
            "--timeout", "10", "--dump",
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains(#""schema": "vtdump/1""#))
        #expect(run.output.contains(#""columns": 50, "lines": 6"#))
        #expect(run.output.contains("hi\""))

        let table = try Self.run(["sessions", peer.baseURL])
        #expect(table.status == 0)
        let lines = table.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("ID") == true)
        #expect(lines.count == 2)
        #expect(lines.last?.contains("50×6") == true)
    }

    @Test("failures exit non-zero with one line naming the problem")
    func failuresExitNonZeroWithOneLineNamingTheProblem() throws {
        let peer = try TestPeer()
        defer { peer.stop() }
        let origin = try Self.run(["attach", peer.baseURL, "--new", "--origin", "http://evil.example", "--dump"])
        #expect(origin.status != 0)
        #expect(
            origin.errors
                == "termengine attach: the server refused the WebSocket upgrade (401): the server's ALLOWED_ORIGINS must contain http://evil.example\n"
        )
        let timeout = try Self.run(["attach", peer.baseURL, "--new", "--until", "NEVER-SEEN", "--timeout", "1"])
        #expect(timeout.status != 0)
        #expect(timeout.errors.contains("timed out after 1 s waiting for a screen line matching /NEVER-SEEN/"))
        let badSize = try Self.run(["attach", peer.baseURL, "--size", "0x5", "--dump"])
        #expect(badSize.status == 2)
        #expect(badSize.errors.contains("--size must be COLSxROWS"))
        let refused = try Self.run(["sessions", "http://127.0.0.1:1"])
        #expect(refused.status != 0)
        #expect(refused.errors.split(separator: "\n").count == 1)
    }

    @Test("sessions --thumbnails writes a valid PNG per session") func sessionsThumbnailsWritesAValidPNGPerSession()
        throws
    {
        let peer = try TestPeer()
        defer { peer.stop() }
        for text in [#"echo one\r"#, #"printf '\\033[31mred\\033[0m\\n'\r"#] {
            let run = try Self.run([
                "attach", peer.baseURL, "--new", "--size", "40x10", "--send", text, "--timeout", "5",
            ])
            #expect(run.status == 0, "\(run.errors)")
        }
        let directory = temporaryPath("thumbs")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.run(["sessions", peer.baseURL, "--thumbnails", directory.path])
        #expect(run.status == 0, "\(run.errors)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".png") }
        #expect(files.count == 2)
        for file in files {
            let path = directory.appendingPathComponent(file).path
            #expect(try Self.checkPNG(path) == "ok 320x160", "\(file)")  // 40×10 cells of 8×16 pixels
        }
    }

    /// Checks a PNG with Python's zlib: signature, every chunk's CRC, IHDR,
    /// and that the IDAT stream inflates to exactly the rows IHDR announces.
    static func checkPNG(_ path: String) throws -> String {
        let script = """
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'signature'
            pos, idat, header = 8, b'', None
            while pos < len(data):
                length, kind = struct.unpack('>I4s', data[pos:pos + 8])
                body = data[pos + 8:pos + 8 + length]
                crc, = struct.unpack('>I', data[pos + 8 + length:pos + 12 + length])
                assert zlib.crc32(kind + body) == crc, 'crc of %s' % kind
                if kind == b'IHDR': header = struct.unpack('>IIBBBBB', body)
                if kind == b'IDAT': idat += body
                pos += 12 + length
                if kind == b'IEND': break
            width, height, depth, colour = header[:4]
            channels = {2: 3, 3: 1, 6: 4}[colour]
            assert len(zlib.decompress(idat)) == height * (1 + (width * channels * depth + 7) // 8), 'IDAT size'
            print('ok %dx%d' % (width, height))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
