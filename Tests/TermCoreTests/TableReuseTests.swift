import Testing

@testable import TermCore

/// A page's tables are emptied at the end of each era and filled again by
/// the next (`Grid.renewEra`): what they hold must come back without
/// allocating, so that printing in a steady state allocates nothing once
/// the page has been through an era (the benchmark's steady-state count).
@Suite("Page tables reuse their storage from era to era")
struct TableReuseTests {
    /// The address of the storage of the table's scalars.
    static func storage(_ table: ClusterTable) -> UnsafeRawPointer? {
        table.scalars.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }

    @Test("An era's reset keeps the cluster table's storage, and the next era's clusters fill it again")
    func theNextErasClustersFillTheStorageTheResetKept() {
        var table = ClusterTable()
        for index in 0..<20 { _ = table.id(for: [0x61 + UInt32(index), 0x301]) }
        let before = Self.storage(table)
        let bytes = table.heapBytes
        table.removeAll()
        #expect(table.count == 0)
        // The storage is kept, not freed: a freed block may come back from
        // the allocator at the same address, so the address alone would
        // not tell.
        #expect(table.heapBytes == bytes)
        // Other clusters of the same lengths: every one is found again by
        // its scalars, in the same storage, which did not grow.
        var ids: [UInt32] = []
        for index in 0..<20 { ids.append(table.id(for: [0x430 + UInt32(index), 0x308])!) }
        for (index, id) in ids.enumerated() { #expect(table[id] == [0x430 + UInt32(index), 0x308]) }
        for (index, id) in ids.enumerated() { #expect(table.id(for: [0x430 + UInt32(index), 0x308]) == id) }
        #expect(Self.storage(table) == before)
        #expect(table.heapBytes == bytes)
        // Past it, the table grows as before.
        let extra = table.id(for: [0x41, 0x300, 0x301])!
        #expect(table[extra] == [0x41, 0x300, 0x301])
        #expect(table.count == 21)
    }

    @Test("A table takes room for 64 styles with its first, and keeps it through a reset")
    func aTableTakesRoomForItsFirstStylesAndKeepsIt() {
        var table = StyleTable()
        var keys: [StyleKey] = []
        // Direct colours with an attribute are not inline: each is an entry.
        for index in 0..<StyleTable.firstCapacity - 1 {
            let style = Style(foreground: .rgb(UInt8(index), 1, 2), flags: .italic)
            keys.append(table.key(for: style)!)
            if index == 0 { #expect(table.styles.capacity >= StyleTable.firstCapacity) }
        }
        let capacity = table.styles.capacity
        for (index, key) in keys.enumerated() {
            #expect(table[key] == Style(foreground: .rgb(UInt8(index), 1, 2), flags: .italic))
        }
        table.removeAll()
        #expect(table.count == 1)
        #expect(table.styles.capacity == capacity)
        let key = table.key(for: Style(foreground: .rgb(9, 9, 9), flags: .bold))!
        #expect(table[key] == Style(foreground: .rgb(9, 9, 9), flags: .bold))
        #expect(table.styles.capacity == capacity)
    }
}
