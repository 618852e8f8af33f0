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
    /// The valid session id hostile.py uses.
    static let validID = "9e331828-e58c-4113-b88d-a5a945c27493"

    /// True when `text` has no C0 control but the final newline, no DEL, no
    /// C1 control and no bidi control.
    static func isClean(_ text: String) -> Bool {
        !text.dropLast().unicodeScalars.contains { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || [0x200E, 0x200F, 0x061C].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value)
        }
    }
}
