// What the storage of a terminal costs, by kind (issue #17 asks cell, row and
// table bytes separately): the figures a benchmark reports per cell and per
// live style, and what an embedder can watch.

extension Terminal {
    /// The bytes a terminal's storage holds, by kind, for both screens.
    ///
    /// Cells and row metadata are allocated once, for every row slot (screen
    /// rows and the whole scrollback); the page tables grow with the
    /// distinct styles, links and clusters the cells name. Figures count
    /// capacity, not use: on Linux the cells of a large scrollback are a
    /// mapping that the kernel backs only where rows were written, so the
    /// resident size can be smaller than ``cellBytes``.
    public struct StorageUsage: Equatable, Sendable {
        /// The cells of every row slot: 8 bytes each.
        public var cellBytes: Int
        /// Per row slot: flags, ring entry, change stamp, shell-integration
        /// mark, stale-cell mark and tables (page and era); per page, its current era, its
        /// slots and those still in the old era.
        public var rowBytes: Int
        /// The pages' tables of styles, hyperlinks and grapheme clusters
        /// with their indexes, and the array of pages.
        public var tableBytes: Int
        /// Cells the storage holds (row slots × columns), to divide by.
        public var cells: Int

        /// All bytes per cell.
        public var bytesPerCell: Double {
            cells == 0 ? 0 : Double(cellBytes + rowBytes + tableBytes) / Double(cells)
        }
    }

    /// The bytes the terminal's storage holds now, by kind.
    /// - Complexity: O(pages + table entries).
    public var storageUsage: StorageUsage {
        var usage = StorageUsage(cellBytes: 0, rowBytes: 0, tableBytes: 0, cells: 0)
        for grid in [state.active, state.inactive] { grid.addStorageUsage(to: &usage) }
        return usage
    }
}

extension Grid {
    /// Adds this grid's storage to `usage`. Table storage that pages share
    /// (the tables every page starts with, until a page writes to them)
    /// counts once.
    func addStorageUsage(to usage: inout Terminal.StorageUsage) {
        let slots = storage.slotCount
        usage.cells += slots * columns
        usage.cellBytes += slots * columns * MemoryLayout<Cell>.stride
        let perRow =
            MemoryLayout<RowFlags>.stride + MemoryLayout<Int32>.stride + MemoryLayout<UInt32>.stride
            + MemoryLayout<UInt64>.stride + 2 * MemoryLayout<UInt16>.stride
        let physicalPages = pages.count / 2
        usage.rowBytes += slots * perRow + physicalPages * (MemoryLayout<UInt8>.stride + 2 * MemoryLayout<Int32>.stride)
        usage.tableBytes +=
            HeapEstimate.array(pages, of: PageTables.self) + linkTranslation.heapBytes
        var counted = Set<UnsafeRawPointer>()
        for page in pages {
            usage.tableBytes +=
                page.styles.heapBytes(counted: &counted) + page.links.heapBytes(counted: &counted)
                + page.clusters.heapBytes(counted: &counted)
        }
    }
}

/// A value whose heap buffers can be counted once across copies that share
/// them (the page tables).
protocol HeapCounted {
    /// The bytes of its heap buffers not in `counted`, which it adds there.
    func heapBytes(counted: inout Set<UnsafeRawPointer>) -> Int
}

extension HeapCounted {
    /// The bytes of its heap buffers.
    var heapBytes: Int {
        var counted = Set<UnsafeRawPointer>()
        return heapBytes(counted: &counted)
    }
}

/// Heap sizes of the standard library's containers, as their layout makes
/// them on 64-bit platforms: a header of two words plus the elements'
/// capacity (arrays), or the UTF-8 bytes of a string too long to be inline.
enum HeapEstimate {
    /// The header of an array's or a dictionary's heap buffer.
    static let header = 32

    static func array<Element>(_ array: [Element], of _: Element.Type) -> Int {
        array.capacity == 0 ? 0 : header + array.capacity * MemoryLayout<Element>.stride
    }

    /// `array(_:of:)`, or 0 when the buffer is in `counted` already: copies
    /// of an array share its buffer until one is written (the tables every
    /// page starts with are copies of one, and an empty one stays shared
    /// through its page's resets). Adds the buffer to `counted`.
    static func array<Element>(_ array: [Element], of type: Element.Type, counted: inout Set<UnsafeRawPointer>)
        -> Int
    {
        guard array.capacity > 0 else { return 0 }
        if let address = array.withUnsafeBufferPointer({ $0.baseAddress }) {
            guard counted.insert(UnsafeRawPointer(address)).inserted else { return 0 }
        }
        return Self.array(array, of: type)
    }

    /// A string's heap buffer: none up to 15 UTF-8 bytes (stored inline).
    static func string(_ string: String) -> Int {
        let count = string.utf8.count
        return count <= 15 ? 0 : header + count + 1
    }
}
