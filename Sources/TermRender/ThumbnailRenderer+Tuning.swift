import CZlib
import TermCore

// What `render-bench png-tune` measures the PNG choices with: the picture
// `png` would encode, and every filter, level and strategy on it. SPI, so
// that the benchmark reaches it and embedders do not see it.
extension ThumbnailRenderer {
    /// A full-size picture as palette indices and its palette.
    @_spi(Benchmarks)
    public struct IndexedPicture: Sendable {
        let width: Int
        let height: Int
        let indices: [UInt8]
        let palette: [RGB]
    }

    /// The picture of `snapshot` as `png` draws it when it has at most 256
    /// colours (the black-and-white 1×1 picture when it has more).
    @_spi(Benchmarks)
    public static func indexedPicture(_ snapshot: Snapshot) -> IndexedPicture {
        var map = PaletteMap()
        guard let grid = draw(snapshot, size: .full, map: &map) else {
            return IndexedPicture(width: 1, height: 1, indices: [0], palette: [RGB(0, 0, 0)])
        }
        return IndexedPicture(width: grid.width, height: grid.height, indices: grid.pixels, palette: map.colors)
    }

    /// The PNG of `picture` with row filter `filter` ("none", "sub" or
    /// "up"), zlib level `level`, and zlib's run-length strategy
    /// (`Z_RLE`: matches only at distance 1) or its default one.
    @_spi(Benchmarks)
    public static func encodeForTuning(
        _ picture: IndexedPicture, filter: String, level: Int32, runLengthOnly: Bool
    ) -> [UInt8] {
        let rowFilter: PNGWriter.Filter = filter == "up" ? .up : filter == "sub" ? .sub : .none
        return PNGWriter.encodeIndexed(
            width: picture.width, height: picture.height, indices: picture.indices, palette: picture.palette,
            level: level, filter: rowFilter, strategy: runLengthOnly ? Z_RLE : Z_DEFAULT_STRATEGY)
    }
}
