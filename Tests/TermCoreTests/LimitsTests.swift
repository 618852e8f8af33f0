import Testing

@testable import TermCore

/// Bounds of `Limits.swift` that were literals before it (issue #17), each
/// hit, and the public limits defined from it.
@Suite("Limits")
struct LimitsTests {
    func events(_ input: String) -> [TerminalEvent] {
        let t = Terminal(columns: 20, rows: 3)
        var seen: [TerminalEvent] = []
        t.onEvent = { seen.append($0) }
        t.feed(input)
        return seen
    }

    @Test("a notification's body is cut at Limits.notificationBodyScalars, its title at the title cap")
    func notificationBodiesAreCut() {
        let long = String(repeating: "a", count: Limits.notificationBodyScalars + 100)
        let cut = String(repeating: "a", count: Limits.notificationBodyScalars)
        #expect(events("\(ESC)]9;\(long)\u{07}") == [.notification(title: "", body: cut)])
        let title = String(repeating: "t", count: Limits.titleScalars + 1)
        #expect(
            events("\(ESC)]777;notify;\(title);\(long)\u{07}")
                == [.notification(title: String(title.dropLast()), body: cut)])
    }

    @Test("an OSC command number is read up to Limits.oscCommandNumber; a longer one is unknown, never an overflow")
    func oscCommandNumbers() {
        // Leading zeros add nothing: any number of them still names OSC 2.
        let t = terminal(10, 2, "\(ESC)]\(String(repeating: "0", count: 30))2;zeros\u{07}")
        #expect(t.title == "zeros")
        let unknown = t.counters.unknownSequences
        t.feed("\(ESC)]\(Limits.oscCommandNumber);x\u{07}")  // read, and no such command
        #expect(t.counters.unknownSequences == unknown + 1)
        t.feed("\(ESC)]\(Limits.oscCommandNumber + 1);x\u{07}")  // not read past six digits
        t.feed("\(ESC)]\(String(repeating: "9", count: 40));x\u{07}")  // would overflow an Int
        #expect(t.counters.unknownSequences == unknown + 3)
        #expect(t.title == "zeros")
    }

    @Test("the public limits are the engine's")
    func publicLimitsAreTheEngines() {
        #expect(Terminal.Limits.dimensions == Limits.dimensions)
        #expect(Terminal.Limits.defaultScrollback == Limits.defaultScrollback)
        #expect(Terminal.Limits.maxScrollback == Limits.maxScrollback)
        #expect(Terminal.Limits.workingDirectory == Limits.workingDirectoryScalars)
        #expect(TitleSanitizer.defaultLimit == Limits.titleScalars)
    }
}
