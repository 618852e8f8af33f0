import Foundation
import Testing

@testable import TermCore

@Suite("Grid memory")
struct GridMemoryTests {
    private static let huge: UInt = 2 << 20

    @Test("Huge page range is the whole huge pages inside the allocation")
    func hugePageRangeIsTheWholeHugePagesInsideTheAllocation() {
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

    @Test("Huge page range at the edges") func hugePageRangeAtTheEdges() {
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

        @Test(
            "Large grids are advised huge pages past the first",
            .enabled(if: kernelHasTransparentHugePages, "this kernel has no transparent huge pages"))
        func largeGridsAreAdvisedHugePagesPastTheFirst() throws {
            // 80 × 10,024 slots: 6.4 MB of cells, mapped from a huge-page
            // boundary; the kernel's record of each part (madvise splits the
            // mapping, the advised part carrying the `hg` flag, VM_HUGEPAGE).
            let storage = GridStorage(columns: 80, slotCount: 10_024, pageShift: 9)
            let start = UInt(bitPattern: storage.cells)
            #expect(storage.mappedLength == 6_418_432)  // 80 × 10,024 × 8 rounded up to 4 KiB pages
            #expect(start % Self.huge == 0)
            let first = try #require(Self.vmFlags(containing: start))
            #expect(!first.contains("hg"))
            for page in [start + Self.huge, start + 2 * Self.huge, start + 2 * Self.huge + (Self.huge - 1)] {
                let flags = try #require(Self.vmFlags(containing: page))
                #expect(flags.contains("hg"))
            }
            // The tail past the last whole huge page is not advised.
            let tail = try #require(Self.vmFlags(containing: start + 3 * Self.huge))
            #expect(!tail.contains("hg"))
        }
    #endif

    @Test("Small grids come from the heap") func smallGridsComeFromTheHeap() {
        // Under two huge pages of cells: no mapping of their own.
        let storage = GridStorage(columns: 80, slotCount: 1_000, pageShift: 9)
        #expect(storage.mappedLength == 0)
    }

    #if os(Linux)
        @Test("A new large grid holds no memory until written even after another was freed")
        func aNewLargeGridHoldsNoMemoryUntilWrittenEvenAfterAnotherWasFreed() throws {
            // glibc serves a large block from its heap, cleared and so
            // resident, once freeing one has raised its mmap threshold; a
            // grid's own mapping is backed only where it is written.
            do {
                let old = GridStorage(columns: 80, slotCount: 10_024, pageShift: 9)
                memset(old.cells, 0x41, 80 * 10_024 * 8)
            }
            let storage = GridStorage(columns: 80, slotCount: 10_024, pageShift: 9)
            #expect(try Self.residentPages(storage) == 0)
            storage.cells[0] = Cell(content: 0x41, style: .default, linkID: 0)
            storage.cells[80 * 5_000] = Cell(content: 0x42, style: .default, linkID: 0)
            let written = try Self.residentPages(storage)
            #expect(written >= 2 && written <= 2 + 512)  // two 4 KiB pages, or one of them in a huge page
        }

        /// How many of the pages that hold a grid's cells are resident
        /// (mincore), however the cells were allocated.
        private static func residentPages(_ storage: GridStorage) throws -> Int {
            let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
            let start = UInt(bitPattern: storage.cells) & ~(page - 1)
            let end = UInt(bitPattern: storage.cells) + UInt(storage.columns * storage.slotCount * 8)
            let length = Int(end - start)
            var vector = [UInt8](repeating: 0, count: (length + Int(page) - 1) / Int(page))
            let status = vector.withUnsafeMutableBufferPointer {
                mincore(UnsafeMutableRawPointer(bitPattern: start), length, $0.baseAddress)
            }
            try #require(status == 0)
            return vector.reduce(0) { $0 + Int($1 & 1) }
        }
    #endif

    #if os(Linux)
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
    #endif
}
