import Testing

@testable import TermCore

/// A page's tables are emptied at the end of each era and filled again by
/// the next (`Grid.renewEra`): what they hold must come back without
/// allocating, so that printing in a steady state allocates nothing once
/// the page has been through an era (the benchmark's steady-state count).
@Suite("Page tables reuse their storage from era to era")
struct TableReuseTests {
    /// The address of each cluster's scalars.
    static func storage(_ table: ClusterTable) -> Set<UnsafeRawPointer> {
        Set(
            (0..<table.count).map { id in
                table[UInt32(id)].withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress!) }
            })
    }

    @Test("The next era's clusters take the arrays of the clusters the reset removed")
    func theNextErasClustersTakeTheArraysOfTheRemovedClusters() {
        var table = ClusterTable()
        for index in 0..<20 { _ = table.id(for: [0x61 + UInt32(index), 0x301]) }
        let before = Self.storage(table)
        let bytes = table.heapBytes
        table.removeAll()
        #expect(table.count == 0)
        // The arrays are kept (with the list that holds them), not freed:
        // a freed block may come back from the allocator at the same
        // address, so the addresses alone would not tell.
        #expect(table.heapBytes >= bytes)
        // Other clusters of the same lengths: every one is found again by
        // its scalars, and lives in an array of the era before.
        var ids: [UInt32] = []
        for index in 0..<20 { ids.append(table.id(for: [0x430 + UInt32(index), 0x308])!) }
        for (index, id) in ids.enumerated() { #expect(table[id] == [0x430 + UInt32(index), 0x308]) }
        for (index, id) in ids.enumerated() { #expect(table.id(for: [0x430 + UInt32(index), 0x308]) == id) }
        #expect(Self.storage(table) == before)
        // Past the arrays kept, new ones as before.
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
