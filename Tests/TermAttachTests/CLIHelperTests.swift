import Foundation
import TestSupport
import Testing

/// `termengine` and `termengine-net`: the subcommands that need the network
/// (`attach`, `sessions`, `thumbnail --preview`) run in the helper, which
/// `termengine` finds beside its own file and runs in its place (issue #21:
/// `termengine` itself loads neither Foundation nor the network's libraries).
@Suite("termengine and its network helper")
struct CLIHelperTests {
    static func termengine(_ arguments: [String]) throws -> PackageExecutable.Run {
        try PackageExecutable("termengine").run(arguments)
    }

    /// A fresh directory, removed after `body`.
    static func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = temporaryPath("cli-helper")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    /// `termengine` alone in a fresh directory beside the built one (a hard
    /// link: a copy, written while another test spawns a process, can be
    /// held open for writing by that child and fail to run with ETXTBSY).
    static func withLoneTermengine<T>(_ body: (_ termengine: URL, _ directory: URL) throws -> T) throws -> T {
        let original = try PackageExecutable("termengine").url
        let directory = original.deletingLastPathComponent().appendingPathComponent("cli-helper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let alone = directory.appendingPathComponent("termengine")
        try FileManager.default.linkItem(at: original, to: alone)
        return try body(alone, directory)
    }

    @Test(
        "attach --help and sessions --help through termengine print the helper's usage",
        arguments: ["attach", "sessions"])
    func networkHelpComesFromTheHelper(_ command: String) throws {
        let helper = try PackageExecutable("termengine-net")
        for arguments in [[command, "--help"], ["help", command]] {
            let through = try Self.termengine(arguments)
            let direct = try helper.run(arguments)
            #expect(through.status == 0 && through.errors.isEmpty, "\(arguments): \(through.status) \(through.errors)")
            #expect(through.output.hasPrefix("usage: termengine \(command) "))
            #expect(through.output == direct.output, "\(arguments)")
        }
    }

    @Test("thumbnail --preview draws the preview's screen, as thumbnail draws the same bytes at the preview's size")
    func thumbnailPreviewRunsInTheHelper() throws {
        try Self.withDirectory { directory in
            let data = "\u{1B}[1mbold\r\nplain \u{1B}[31mred"
            let preview = directory.appendingPathComponent("preview.json")
            let escaped = data.replacingOccurrences(of: "\u{1B}", with: "\\u001b")
                .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
            try Data(#"{"id": "x", "cols": 20, "rows": 3, "data": "\#(escaped)"}"#.utf8).write(to: preview)
            let raw = directory.appendingPathComponent("raw.bin")
            try Data(data.utf8).write(to: raw)
            let fromPreview = directory.appendingPathComponent("preview.png")
            let fromBytes = directory.appendingPathComponent("bytes.png")

            let previewRun = try Self.termengine(["thumbnail", preview.path, "--preview", "-o", fromPreview.path])
            #expect(previewRun.status == 0 && previewRun.errors.isEmpty, "\(previewRun.errors)")
            let bytesRun = try Self.termengine([
                "thumbnail", raw.path, "--cols", "20", "--rows", "3", "-o", fromBytes.path,
            ])
            #expect(bytesRun.status == 0, "\(bytesRun.errors)")
            let png = try Data(contentsOf: fromPreview)
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(png == (try Data(contentsOf: fromBytes)))
        }
    }

    @Test("without termengine-net beside it, termengine names the missing file and how to build it, and exits 127")
    func missingHelperIsOneActionableLine() throws {
        try Self.withLoneTermengine { termengine, directory in
            let alone = PackageExecutable(at: termengine)
            let missing = directory.appendingPathComponent("termengine-net").path
            let cases: [([String], String)] = [
                (["attach", "http://127.0.0.1:1", "--dump"], "termengine attach: attach"),
                (["sessions", "http://127.0.0.1:1"], "termengine sessions: sessions"),
                (["help", "attach"], "termengine help: help attach"),
                (["thumbnail", "-", "--preview", "-o", "-"], "termengine thumbnail: thumbnail --preview"),
            ]
            for (arguments, start) in cases {
                let run = try alone.run(arguments)
                #expect(run.status == 127, "\(arguments): \(run.status)")
                #expect(run.output.isEmpty)
                #expect(
                    run.errors
                        == "\(start) runs in termengine-net, which is missing (no \(missing)): build it with "
                        + "`swift build --product termengine-net` (`swift build` alone builds both) and keep it in "
                        + "the same directory as termengine\n")
            }
            // What needs no network still works alone.
            let replay = try alone.run(["replay", "-", "--quiet"])
            #expect(replay.status == 0 && replay.output.hasPrefix("bytes=0 "), "\(replay.errors)")
            let overview = try alone.run(["help"])
            #expect(overview.status == 0 && overview.output.contains("termengine attach URL"))
        }
    }

    @Test("termengine-net that cannot be run is named with the reason, exit 126")
    func helperThatCannotRun() throws {
        try Self.withLoneTermengine { termengine, directory in
            let helper = directory.appendingPathComponent("termengine-net")
            try Data("not a program".utf8).write(to: helper)  // not executable
            let run = try PackageExecutable(at: termengine).run(["sessions", "http://127.0.0.1:1"])
            #expect(run.status == 126)
            #expect(run.errors.hasPrefix("termengine sessions: sessions runs in termengine-net, which cannot be run: "))
            #expect(run.errors.contains(helper.path))
        }
    }

    @Test("a termengine reached through a symbolic link runs the termengine-net beside the real file")
    func symbolicLinkFindsTheHelper() throws {
        let original = try PackageExecutable("termengine").url
        try Self.withDirectory { directory in
            let link = directory.appendingPathComponent("termengine")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: original)
            let run = try PackageExecutable(at: link).run(["sessions", "--help"])
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.hasPrefix("usage: termengine sessions URL"))
        }
    }

    #if os(Linux)
        static let isLinux = true
    #else
        static let isLinux = false
    #endif

    /// The files `ldd` says `binary` loads.
    static func sharedLibraries(_ binary: URL) throws -> [String] {
        let run = try ChildProcess.run("/usr/bin/ldd", [binary.path])
        #expect(run.status == 0)
        return String(decoding: run.output, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.split(whereSeparator: \.isWhitespace).first { $0.contains(".so") }.map(String.init)
        }
    }

    @Test(
        "termengine loads neither Foundation nor the network's libraries; termengine-net does",
        .enabled(if: isLinux, "ldd and ELF shared libraries are Linux's"))
    func termengineLoadsNoFoundation() throws {
        let network = ["libFoundation", "libcurl", "libssl", "libcrypto"]
        let engine = try Self.sharedLibraries(try PackageExecutable("termengine").url)
        for library in engine {
            #expect(!network.contains { library.hasPrefix($0) }, "termengine loads \(library): \(engine)")
        }
        // The check can see them: the helper loads Foundation.
        let helper = try Self.sharedLibraries(try PackageExecutable("termengine-net").url)
        #expect(helper.contains { $0.hasPrefix("libFoundation") }, "\(helper)")
    }
}
