import Testing

@testable import TermCore

/// `TerminalState.storeASCII` stores a run of ASCII as the pen's narrow
/// cells eight at a time, a run of eight or more ending with its last eight
/// (overlapping cells already stored), and a shorter run a cell at a time:
/// every cell of the run must hold its own byte, and no cell outside the run
/// may change.
@Suite("Storing runs of ASCII")
struct StoreASCIITests {
    @Test("Every length up to 40 stores its cells and only them", arguments: 0...40)
    func everyLengthStoresItsCellsAndOnlyThem(_ count: Int) {
        let bytes = (0..<count).map { UInt8(0x21 + $0 % 90) }
        let cellBits: UInt64 = 0x0123_4500_0000_0000
        let sentinel = Cell(scalar: 0x2603, width: .narrow, style: .default)
        // Three cells of margin before the run and eight after it (more
        // than a group of eight could overshoot by).
        var cells = [Cell](repeating: sentinel, count: count + 11)
        bytes.withUnsafeBufferPointer { source in
            cells.withUnsafeMutableBufferPointer { row in
                // A run of none has no base address to store from.
                guard let start = source.baseAddress else { return }
                TerminalState.storeASCII(start, count: count, into: row.baseAddress! + 3, cellBits: cellBits)
            }
        }
        let words = cells.map { unsafeBitCast($0, to: UInt64.self) }
        let sentinelWord = unsafeBitCast(sentinel, to: UInt64.self)
        #expect(words.prefix(3).allSatisfy { $0 == sentinelWord })
        #expect(words.suffix(8).allSatisfy { $0 == sentinelWord })
        #expect(Array(words[3..<(3 + count)]) == bytes.map { UInt64($0) | cellBits })
    }
}
