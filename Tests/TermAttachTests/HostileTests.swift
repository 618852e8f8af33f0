import Foundation
import TermCore
import TermRender
import Testing

@testable import TermAttach

/// Issue #16, "Bounded client" and "Trusting server data": each test is a
/// finding's reproducer against TestPeer/hostile.py (or the parser alone),
/// and counts bytes kept, bytes copied or pongs queued rather than seconds,
/// except where the finding is about time (`--timeout`, the 15 MiB replay).
/// The findings' suites are nested here, so they run one at a time: floods
/// and 15 MiB replays would disturb each other's clocks on two cores.
@Suite("Against a hostile server", .serialized, .timeLimit(.minutes(3)))
struct HostileTests {
    /// Every run of the CLI must stay under this resident size.
    static let residentLimit = 100 * 1024 * 1024
    /// The sanitizer this test run was built with, or nil: the environment
    /// variable `TERMENGINE_SANITIZER` (scripts/test.sh sets it to `thread`
    /// for `swift test --sanitize=thread`), or else the ThreadSanitizer
    /// runtime found in this process (Swift has no `#if sanitize`). The CLI
    /// children are then sanitizer builds too: several times the resident
    /// size and slower, so their resource figures say nothing about the
    /// client's bounds.
    static let sanitizer: String? = {
        if let name = ProcessInfo.processInfo.environment["TERMENGINE_SANITIZER"], !name.isEmpty { return name }
        #if canImport(Darwin)
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
            let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        return dlsym(everywhere, "__tsan_init") != nil ? "thread" : nil
    }()

    /// Checks a CLI run's resources: resident size under ``residentLimit``
    /// and, when given, wall time under `seconds`. In a sanitizer build they
    /// are not measured: the test then checks behaviour only and says so,
    /// never counting the figures as passed.
    static func expectResources(
        _ run: MeasuredRun, seconds: Double? = nil, _ what: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if let sanitizer {
            print(
                "NOT MEASURED (\(sanitizer) sanitizer build): resident size\(seconds == nil ? "" : " and time")"
                    + " of \(what.isEmpty ? "the run" : what): \(run.peakResidentBytes) bytes, \(run.seconds) s")
            return
        }
        #expect(
            run.peakResidentBytes < residentLimit, "peak \(run.peakResidentBytes) bytes", sourceLocation: sourceLocation
        )
        #expect(run.peakResidentBytes > 0, "the child's VmHWM was never read", sourceLocation: sourceLocation)
        if let seconds { #expect(run.seconds < seconds, "took \(run.seconds) s", sourceLocation: sourceLocation) }
    }

    /// The valid session id hostile.py uses.
    static let validID = "9e331828-e58c-4113-b88d-a5a945c27493"

    /// True when `text` has no C0 control but the final newline, no DEL, no
    /// C1 control, no bidi control, no line or paragraph separator and no
    /// default-ignorable code point but the joiners and variation selectors.
    static func isClean(_ text: String) -> Bool {
        !text.dropLast().unicodeScalars.contains { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || [0x200E, 0x200F, 0x061C, 0x2028, 0x2029].contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
                || scalar.properties.isBidiControl
                || (scalar.properties.isDefaultIgnorableCodePoint && !TitleSanitizer.isJoiner(scalar)
                    && !ServerText.isVariationSelector(scalar))
        }
    }
}
