// swift-tools-version:6.0
import PackageDescription

// The libFuzzer targets (Tests/Fuzz/README.md). A package of its own, so that
// the root package's `swift build` never sees them: every fuzzer is an
// executable whose `main` comes from libFuzzer, which links only when the
// whole build uses `--sanitize=fuzzer` (scripts/fuzz.sh does that).
//
// The root package is a local path dependency (no download). SwiftPM names a
// path dependency after its directory, which differs between checkouts
// (`main`, `wt-fuzz`, a CI clone), so the identity is read from the path.
let rootIdentity = Context.packageDirectory.split(separator: "/").dropLast(2).last.map { $0.lowercased() } ?? ""

func core(_ name: String) -> Target.Dependency { .product(name: name, package: rootIdentity) }

// One entry per fuzz target: the name scripts/fuzz.sh takes (the product is
// fuzz-<name>), its module under Sources/, and the modules it drives.
let fuzzers: [(name: String, module: String, dependencies: [Target.Dependency])] = [
    ("terminal", "FuzzTerminal", [core("TermCore"), core("TermReplay"), core("TermRender")]),
    ("compaction", "FuzzCompaction", [core("TermCore"), core("TermReplay")]),
    ("wire", "FuzzWire", [core("TermAttach")]),
    ("websocket", "FuzzWebSocket", [core("TermAttach")]),
    ("preview", "FuzzPreview", [core("TermCore"), core("TermAttach"), core("TermRender")]),
    ("title", "FuzzTitle", [core("TermCore")]),
]

let package = Package(
    name: "TermEngineFuzz",
    products: fuzzers.map { .executable(name: "fuzz-\($0.name)", targets: [$0.module]) },
    dependencies: [.package(path: "../..")],
    targets: [.target(name: "FuzzSupport", dependencies: [core("TermCore")])]
        + fuzzers.map {
            .executableTarget(name: $0.module, dependencies: ["FuzzSupport"] + $0.dependencies)
        },
    swiftLanguageModes: [.v6]
)
