// Array's withUnsafe… methods rethrow untyped errors; these keep typed throws.

extension Array where Element == UInt8 {
    func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = withUnsafeBytes { bytes in
            do throws(E) {
                return .success(try body(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    mutating func withMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = withUnsafeMutableBytes { bytes in
            do throws(E) {
                return .success(try body(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension ByteStream {
    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(AttachError) {
        try bytes.withBytes { buffer throws(AttachError) in try write(buffer, deadline: deadline) }
    }

    /// Reads what is available into `chunk` and returns it as an array.
    func readChunk(_ chunk: inout [UInt8], deadline: ContinuousClock.Instant?) throws(AttachError) -> Int {
        try chunk.withMutableBytes { buffer throws(AttachError) in try read(into: buffer, deadline: deadline) }
    }
}
