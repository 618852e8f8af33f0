// swift-tools-version:6.0
import PackageDescription

// The module graph (docs/ARCHITECTURE.md, "Modules"): dependencies point one
// way, each module has one job and imports only what is listed here.
//
//   VTParser <- TermCore <-+- TermReplay <- TermRender <-+- TermEngineCLI <-+- termengine
//                          |                             |                  +- termengine-net
//                          |                             +- TermAttach <------ termengine-net
//                          +- TermPTY <------------------------------------- termengine
//   TermReplay <- termengine (compact)
//   CommandLineOptions <- TermEngineCLI, termengine, termengine-net, termbench
//
//   VTParser      bytes -> actions; the standard library only.
//   TermCore      Terminal, Snapshot, the one SGR writer; VTParser and the C
//                 library (no Foundation).
//   TermReplay    the whole state as the stream that rebuilds it (compaction,
//                 comparison); TermCore only.
//   TermRender    renderers of Snapshots (text, ANSI through TermReplay's
//                 encoder, HTML, PNG); TermCore, TermReplay, CZlib.
//   TermAttach    the web-terminal client, the only module on the network;
//                 TermCore, TermRender (thumbnails), CTLSShim on Linux.
//   TermPTY       programs on a pseudo-terminal; TermCore, CPTYShim on Linux.
//   CommandLineOptions  the CLI's and termbench's argument reader (no product).
//   TermEngineCLI what the CLI's two executables share: dump, thumbnail, the
//                 screen painter, files and standard streams through the C
//                 library (no Foundation; not a product); CThreadShim on
//                 Linux.
//   termengine    the CLI; neither TermAttach nor Foundation, so that it
//                 starts in 1.6 ms as a static executable (docs/PERFORMANCE.md,
//                 "Start-up and footprint").
//   termengine-net  the CLI's network commands (attach, sessions, thumbnail
//                 --preview), which termengine runs from its own directory.
//
// VTParser and TermCore depend on nothing but the Swift standard library and
// the C library. TermCore's Unicode data (widths, grapheme breaks) is
// generated from utf8proc into committed Swift tables (Corpus/tools/
// generate_width_table.py, generate_grapheme_table.py). On Linux the system
// utf8proc (Debian: libutf8proc-dev) stays the reference the tests compare
// those tables with; nothing else links it.
//
// TERMENGINE_PURE_SWIFT=1 builds the package as a platform without utf8proc
// sees it (Apple platforms): VTParser, TermCore and their test targets
// alone, with no CUTF8Proc, so the comparisons with utf8proc report as
// skipped (scripts/test.sh runs it with its own --scratch-path).
let pureSwift = Context.environment["TERMENGINE_PURE_SWIFT"] == "1"
// utf8proc, as the reference the Unicode tests compare with.
let utf8procReference: [Target.Dependency] =
    pureSwift ? [] : [.target(name: "CUTF8Proc", condition: .when(platforms: [.linux]))]

let package = Package(
    name: "TermEngine",
    // The floor is what Duration, the Clock protocol, Regex and constrained
    // existentials (`any Clock<Duration>`) need: Swift 5.7's runtime, in
    // macOS 13, iOS 16, tvOS 16 and watchOS 9 (visionOS has it from 1.0).
    // Nothing above it is used without an `@available` of its own (CHANGELOG.md).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    // What packages that depend on this one can use. The benchmark
    // executables (render-bench, resize-bench, attach-bench, termbench) are
    // not products: SwiftPM gives the executable targets of the package being
    // built products of their own, named as the targets are, so
    // `swift build --product termbench` and `swift run render-bench` still
    // work here, and nowhere else.
    products: [
        .library(name: "VTParser", targets: ["VTParser"]),
        .library(name: "TermCore", targets: ["TermCore"]),
        .executable(name: "termengine", targets: ["termengine"]),
        .executable(name: "termengine-net", targets: ["termengine-net"]),
        .library(name: "TermReplay", targets: ["TermReplay"]),
        .library(name: "TermRender", targets: ["TermRender"]),
        .library(name: "TermAttach", targets: ["TermAttach"]),
        .library(name: "TermPTY", targets: ["TermPTY"]),
    ],
    targets: [
        .target(name: "VTParser"),
        .systemLibrary(
            name: "CUTF8Proc",
            providers: [.apt(["libutf8proc-dev"]), .brew(["utf8proc"])]
        ),
        .target(name: "TermCore", dependencies: ["VTParser"]),
        // The command-line reader the CLI and termbench share (not a product).
        .target(name: "CommandLineOptions"),
        // The CLI is two executables (issue #21): `termengine`, which links
        // neither TermAttach nor Foundation and so starts in a few
        // milliseconds, and `termengine-net`, the subcommands that need the
        // network (attach, sessions, thumbnail --preview), which termengine
        // runs in its place from its own directory. What both use is
        // TermEngineCLI (not a product).
        .target(
            name: "TermEngineCLI",
            dependencies: [
                "CommandLineOptions", "TermCore", "TermRender",
                .target(name: "CThreadShim", condition: .when(platforms: [.linux])),
            ]),
        // glibc's thread placement calls (Linux only), for `replay`'s reader
        // thread: a C shim compiled with _GNU_SOURCE, as CPTYShim is.
        .target(name: "CThreadShim"),
        .executableTarget(
            name: "termengine",
            dependencies: ["CommandLineOptions", "TermEngineCLI", "TermCore", "TermReplay", "TermPTY"]),
        .executableTarget(
            name: "termengine-net",
            dependencies: ["CommandLineOptions", "TermEngineCLI", "TermCore", "TermAttach"]),
        // Programs on a pseudo-terminal feeding a Terminal (Linux and macOS;
        // the module is empty elsewhere): `termengine run`, local front ends.
        // glibc's PTY calls, which Swift's Glibc module does not declare,
        // through a small C shim compiled with _GNU_SOURCE (Linux only).
        .target(name: "CPTYShim"),
        .target(
            name: "TermPTY",
            dependencies: ["TermCore", .target(name: "CPTYShim", condition: .when(platforms: [.linux]))]),
        .testTarget(name: "TermPTYTests", dependencies: ["TermPTY", "TermCore", "TestSupport"]),
        // PNG thumbnails deflate through the system zlib (Debian: zlib1g-dev).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "TermReplay", dependencies: ["TermCore"]),
        .target(name: "TermRender", dependencies: ["TermCore", "TermReplay", "CZlib"]),
        .executableTarget(
            name: "render-bench", dependencies: ["TermCore", "TermReplay", "TermRender"], path: "Benchmarks/RenderBench"
        ),
        .executableTarget(name: "resize-bench", dependencies: ["TermCore"], path: "Benchmarks/ResizeBench"),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "TermReplayTests", dependencies: ["TermReplay", "TermRender", "TermCore", "TestSupport"]),
        .testTarget(name: "TermRenderTests", dependencies: ["TermRender", "TermCore", "TestSupport"]),
        // TermAttach is the only module that touches the network. On Linux its
        // TLS goes through the system OpenSSL (Debian: libssl-dev) behind a
        // small C shim; Apple platforms use the system's own stack instead.
        .target(
            name: "CTLSShim",
            linkerSettings: [
                .linkedLibrary("ssl", .when(platforms: [.linux])), .linkedLibrary("crypto", .when(platforms: [.linux])),
            ]
        ),
        .target(
            name: "TermAttach",
            dependencies: ["TermCore", "TermRender", .target(name: "CTLSShim", condition: .when(platforms: [.linux]))]
        ),
        // TermAttachTests also holds the CLI's tests (replay, its input read
        // ahead on a thread), which scripts/test.sh's ThreadSanitizer step runs.
        .testTarget(
            name: "TermAttachTests",
            dependencies: [
                "TermAttach", "TermCore", "TermRender", "TermEngineCLI", "TestSupport",
                .target(name: "CThreadShim", condition: .when(platforms: [.linux])),
            ]),
        .executableTarget(
            name: "attach-bench", dependencies: ["TermAttach", "TermCore"], path: "Benchmarks/AttachBench"),
        // Benchmarks (docs/PERFORMANCE.md): the termbench runner, and the malloc
        // counter it links so that allocations during a feed can be counted.
        .target(name: "CAllocCounter", path: "Benchmarks/CAllocCounter"),
        .executableTarget(
            name: "termbench", dependencies: ["CommandLineOptions", "TermCore", "CAllocCounter"],
            path: "Benchmarks/TermBench"),
        .testTarget(name: "VTParserTests", dependencies: ["VTParser", "TestSupport"]),
        .testTarget(name: "TermCoreTests", dependencies: ["TermCore", "VTParser", "TestSupport"] + utf8procReference),
    ],
    swiftLanguageModes: [.v6]
)

if pureSwift {
    let engine: Set = ["VTParser", "TermCore", "TestSupport", "VTParserTests", "TermCoreTests"]
    package.targets.removeAll { !engine.contains($0.name) }
    package.products.removeAll { !engine.contains($0.name) }
}
