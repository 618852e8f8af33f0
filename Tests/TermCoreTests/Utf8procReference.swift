import Testing

#if canImport(CUTF8Proc)
    import CUTF8Proc
#endif

/// utf8proc, the reference TermCore's generated Unicode tables and its
/// grapheme break are compared with (linked on Linux). Without it (the
/// pure-Swift configuration, `TERMENGINE_PURE_SWIFT=1`, as on Apple
/// platforms) `isLinked` is false and the comparisons are skipped, never
/// passed (the `.utf8procLinked` trait).
enum Utf8procReference {
    #if canImport(CUTF8Proc)
        static let isLinked = true

        static var version: String { String(cString: utf8proc_version()) }

        /// `utf8proc_charwidth`, clamped to the engine's 0...2.
        static func width(of scalar: UInt32) -> Int {
            max(0, min(2, Int(utf8proc_charwidth(Int32(bitPattern: scalar)))))
        }

        /// The `boundclass` field of `utf8proc_get_property`.
        static func breakClass(of scalar: UInt32) -> Int32 {
            Int32(utf8proc_get_property(Int32(bitPattern: scalar)).pointee.boundclass)
        }

        static func isBoundary(between previous: UInt32, and next: UInt32, state: inout Int32) -> Bool {
            utf8proc_grapheme_break_stateful(Int32(bitPattern: previous), Int32(bitPattern: next), &state)
        }
    #else
        static let isLinked = false

        static var version: String { unavailable() }
        static func width(of scalar: UInt32) -> Int { unavailable() }
        static func breakClass(of scalar: UInt32) -> Int32 { unavailable() }
        static func isBoundary(between previous: UInt32, and next: UInt32, state: inout Int32) -> Bool {
            unavailable()
        }

        private static func unavailable() -> Never {
            preconditionFailure("utf8proc is not linked: the test should have been skipped")
        }
    #endif
}

extension Trait where Self == ConditionTrait {
    /// Skips a test that compares with utf8proc where utf8proc is not linked.
    static var utf8procLinked: Self {
        .enabled(if: Utf8procReference.isLinked, "utf8proc is not linked (pure-Swift configuration)")
    }
}
