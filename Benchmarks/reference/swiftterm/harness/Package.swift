// swift-tools-version:6.0
// SwiftTerm as a reference engine for termbench (docs/PERFORMANCE.md, "The reference engines"):
// a package of its own so that the root Package.swift never depends on SwiftTerm. It builds the
// read-only copy in ../shared/anchors/SwiftTerm (beside this repository's checkout) offline, in
// release mode, and links the same malloc counter as termbench and the libvterm harness
// (Sources/CAllocCounter is a symbolic link to Benchmarks/CAllocCounter).
import PackageDescription

let package = Package(
    name: "swiftterm-harness",
    dependencies: [.package(path: "../../../../../shared/anchors/SwiftTerm")],
    targets: [
        .target(name: "CAllocCounter", path: "Sources/CAllocCounter"),
        .executableTarget(
            name: "swiftterm-harness",
            dependencies: [.product(name: "SwiftTerm", package: "SwiftTerm"), "CAllocCounter"],
            path: "Sources/swiftterm-harness"),
    ],
    swiftLanguageModes: [.v6]
)
