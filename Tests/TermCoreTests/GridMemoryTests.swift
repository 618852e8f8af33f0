import Foundation
import Testing

@testable import TermCore

@Suite("Grid memory")
struct GridMemoryTests {
    private static let huge: UInt = 2 << 20

    @Test func hugePageRangeIsTheWholeHugePagesInsideTheAllocation() {
        // 80 columns × 10,024 slots × 8 bytes from an address 16 bytes past a
        // 2 MiB boundary: the first whole huge page starts at the next
        // boundary, the last ends at the boundary below the allocation's end.
        let start: UInt = 0x1000_0010
        let byteCount = 80 * 10_024 * 8
        let range = GridStorage.hugePageRange(start: start, byteCount: byteCount)
        #expect(range == 0x1020_0000..<0x1060_0000)
        if let range {
            #expect(range.lowerBound % Self.huge == 0 && range.upperBound % Self.huge == 0)
            #expect(range.lowerBound >= start && range.upperBound <= start + UInt(byteCount))
        }
    }

    @Test func hugePageRangeAtTheEdges() {
        // Exactly one aligned huge page; one byte short of it; 2 MiB that
        // straddle a boundary (no whole page inside).
        #expect(GridStorage.hugePageRange(start: 0x4000_0000, byteCount: 2 << 20) == 0x4000_0000..<0x4020_0000)
        #expect(GridStorage.hugePageRange(start: 0x4000_0000, byteCount: (2 << 20) - 1) == nil)
        #expect(GridStorage.hugePageRange(start: 0x4000_0010, byteCount: 2 << 20) == nil)
    }

    #if os(Linux)
        /// Huge page advice exists where the kernel has transparent huge pages
        /// (elsewhere the test is reported as skipped, not passed).
        static let kernelHasTransparentHugePages = FileManager.default.fileExists(
            atPath: "/sys/kernel/mm/transparent_hugepage/enabled")

        @Test(.enabled(if: kernelHasTransparentHugePages, "this kernel has no transparent huge pages"))
        func largeGridsAreAdvisedHugePages() throws {
            let storage = GridStorage(columns: 80, slotCount: 10_024)
            let range = try #require(
                GridStorage.hugePageRange(start: UInt(bitPattern: storage.cells), byteCount: 80 * 10_024 * 8))
            // The kernel's record of the mapping that holds the range: madvise
            // splits it off with the `hg` (VM_HUGEPAGE) flag.
            let flags = try #require(Self.vmFlags(containing: range.lowerBound))
            #expect(flags.contains("hg"))
            // (That a small grid gets no advice is `hugePageRange` returning
            // nil, tested above: its memory may lie where a freed large grid
            // was advised, since glibc can serve both from the same heap.)
        }
    #endif

    /// The VmFlags of the mapping in /proc/self/smaps that contains `address`.
    private static func vmFlags(containing address: UInt) -> [Substring]? {
        // Read to the end: /proc files report a size of 0.
        guard let file = FileHandle(forReadingAtPath: "/proc/self/smaps"),
            let smaps = String(data: file.readDataToEndOfFile(), encoding: .utf8)
        else { return nil }
        var inside = false
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
                let low = UInt(line[..<dash], radix: 16),
                let high = UInt(line[line.index(after: dash)..<space], radix: 16)
            {
                inside = (low..<high).contains(address)
            } else if inside && line.hasPrefix("VmFlags:") {
                return line.dropFirst("VmFlags:".count).split(separator: " ")
            }
        }
        return nil
    }
}
