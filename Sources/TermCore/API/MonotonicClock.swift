// A monotonic clock for the synchronized-output timeout, from the C library
// (no Foundation in TermCore; `ContinuousClock` would need macOS 13 / iOS 16
// in the public API).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Android)
    import Android
#endif

enum MonotonicClock {
    /// Nanoseconds since an arbitrary start, never going back.
    static func nanoseconds() -> UInt64 {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(Android)
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        #else
            // Elsewhere (WASI…), the standard library's clock from a fixed
            // start.
            let elapsed = start.duration(to: .now).components
            return UInt64(elapsed.seconds) &* 1_000_000_000 &+ UInt64(elapsed.attoseconds / 1_000_000_000)
        #endif
    }

    #if !(canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(Android))
        private static let start = ContinuousClock.now
    #endif
}
