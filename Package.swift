// swift-tools-version:6.0
import PackageDescription

// Dependencies point one way: VTParser <- TermCore <- termengine.
// VTParser has no dependencies at all; TermCore reaches Unicode data through
// the system library utf8proc (Debian: libutf8proc-dev).
let package = Package(
    name: "TermEngine",
    products: [
        .library(name: "VTParser", targets: ["VTParser"]),
        .library(name: "TermCore", targets: ["TermCore"]),
        .executable(name: "termengine", targets: ["termengine"]),
    ],
    targets: [
        .target(name: "VTParser"),
        .systemLibrary(
            name: "CUTF8Proc",
            providers: [.apt(["libutf8proc-dev"]), .brew(["utf8proc"])]
        ),
        .target(name: "TermCore", dependencies: ["VTParser", "CUTF8Proc"]),
        .executableTarget(name: "termengine", dependencies: ["TermCore"]),
        // Benchmarks (docs/PERFORMANCE.md): the termbench runner, and the malloc
        // counter it links so that allocations during a feed can be counted.
        .target(name: "CAllocCounter", path: "Benchmarks/CAllocCounter"),
        .executableTarget(
            name: "termbench", dependencies: ["TermCore", "CAllocCounter"], path: "Benchmarks/TermBench"),
        .testTarget(name: "VTParserTests", dependencies: ["VTParser"]),
        .testTarget(name: "TermCoreTests", dependencies: ["TermCore", "VTParser"]),
    ],
    swiftLanguageModes: [.v6]
)
