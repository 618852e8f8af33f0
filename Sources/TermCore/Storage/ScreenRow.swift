/// A row of the active screen, counted from the top (0): what the grid's
/// functions on screen rows take. Scrollback lines are ``ScrollbackLine``s,
/// counted from the oldest; a line of the whole buffer (both, in order) goes
/// through `Grid.bufferLine(_:)`. None can be passed for another.
///
/// The terminal's own coordinates (the cursor's row, margins, regions) are
/// all screen rows and stay `Int`s for arithmetic; they become a `ScreenRow`
/// where they reach the storage.
struct ScreenRow: Hashable, Comparable, ExpressibleByIntegerLiteral {
    var index: Int

    @inline(__always)
    init(_ index: Int) { self.index = index }

    init(integerLiteral index: Int) { self.index = index }

    static func < (lhs: ScreenRow, rhs: ScreenRow) -> Bool { lhs.index < rhs.index }
}
