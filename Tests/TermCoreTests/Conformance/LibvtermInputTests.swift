import Foundation
import Testing

@testable import TermCore

/// Replays libvterm's input-encoding scripts (17state_mouse, 25state_input):
/// modes are set by feeding the scripts' PUSH bytes into a real `Terminal`,
/// the input steps (INCHAR, INKEY, PASTE, FOCUS, MOUSEMOVE, MOUSEBTN) go
/// through an `InputEncoder` built from its modes, and the bytes are compared
/// with the scripts' `output` expectations (PUSH expectations are the
/// terminal's replies, collected from `writeBack`). An input step with no
/// expectation must send nothing, as in libvterm's own harness.
///
/// Where libvterm is not xterm, xterm wins; each such expectation is listed
/// with the difference in `libvterm-input-deviations.tsv`. Every other
/// mismatch fails, and so does a listed deviation that now matches.
@Suite("Conformance: libvterm input scripts")
struct LibvtermInputTests {
    static let files = ["17state_mouse", "25state_input"]

    struct Outcome {
        var matched = 0
        var total = 0
        var silentHeld = 0
        var silentTotal = 0
        var failures: [String] = []
        var deviationsHit: [String] = []
    }

    @Test("Outputs match", SharedConformance.available("libvterm/json"))
    func outputsMatch() throws {
        let outcome = try replay()
        let rate = Double(outcome.matched) / Double(max(outcome.total, 1)) * 100
        print(
            "libvterm input harness: \(outcome.matched) of \(outcome.total) outputs matched "
                + "(\(String(format: "%.1f", rate))%), \(outcome.silentHeld) of \(outcome.silentTotal) silent steps "
                + "sent nothing, \(outcome.deviationsHit.count) listed deviations, "
                + "\(outcome.failures.count) unexplained mismatches")
        for line in outcome.deviationsHit { print("  deviation: \(line)") }
        for line in outcome.failures { print("  FAIL: \(line)") }
        #expect(outcome.failures.isEmpty, "unlisted mismatches:\n\(outcome.failures.joined(separator: "\n"))")
    }

    /// Replays both files (also used for the issue #3 bar in
    /// ``LibvtermConformanceTests``); throws when the material is absent.
    func replay() throws -> Outcome {
        let folder = try SharedConformance.folder("libvterm/json")
        let deviations = SharedConformance.deviations("libvterm-input-deviations.tsv")
        var outcome = Outcome()
        for name in Self.files {
            let data = try Data(contentsOf: folder.appendingPathComponent(name + ".json"))
            let script = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let cases = try #require(script["cases"] as? [[String: Any]])
            try run(name: name, cases: cases, deviations: deviations, outcome: &outcome)
        }
        return outcome
    }

    /// libvterm's test driver: one terminal, the mouse state its
    /// `vterm_mouse_move`/`vterm_mouse_button` keep, and the replies.
    final class Driver {
        var terminal = Terminal(columns: 80, rows: 25)
        var tracker = MouseTracker()
        var pointer = ScreenPosition(row: 0, column: 0)
        var replies: [UInt8] = []

        init(columns: Int, rows: Int) { start(columns: columns, rows: rows) }

        func start(columns: Int, rows: Int) {
            terminal = Terminal(columns: columns, rows: rows)
            terminal.writeBack = { [unowned self] in self.replies += $0 }
            tracker = MouseTracker()
            pointer = ScreenPosition(row: 0, column: 0)
        }
    }

    func run(name: String, cases: [[String: Any]], deviations: [String: String], outcome: inout Outcome) throws {
        let driver = Driver(columns: 80, rows: 25)
        for testCase in cases {
            let caseName = testCase["name"] as? String ?? "?"
            for step in testCase["steps"] as? [[String: Any]] ?? [] {
                let op = step["op"] as? String ?? ""
                let key = "\(name):\(step["line"] as? Int ?? 0)"
                let expectations = (step["expect"] as? [[String: Any]] ?? []).filter {
                    $0["kind"] as? String == "output"
                }
                let expected = try expectations.reduce(into: [UInt8]()) { bytes, entry in
                    bytes += try #require(Data(hex: entry["hex"] as? String ?? ""))
                }
                var sent: [UInt8]
                switch op {
                case "init":
                    driver.start(columns: step["cols"] as? Int ?? 80, rows: step["rows"] as? Int ?? 25)
                    continue
                case "reset":
                    // libvterm's hard reset through its API: a power-on terminal.
                    driver.start(columns: driver.terminal.columns, rows: driver.terminal.rows)
                    continue
                case "push":
                    driver.replies = []
                    driver.terminal.feed(try #require(Data(hex: step["hex"] as? String ?? "")))
                    sent = driver.replies
                    if expectations.isEmpty { continue }  // only replies are this harness's business
                case "input":
                    sent = try input(step["kind"] as? String ?? "", step["args"] as? String ?? "", driver)
                default:
                    continue
                }
                let silent = expectations.isEmpty
                if silent { outcome.silentTotal += 1 } else { outcome.total += 1 }
                if sent == expected {
                    if silent { outcome.silentHeld += 1 } else { outcome.matched += 1 }
                    if deviations[key] != nil {
                        outcome.failures.append(
                            "\(key): listed as a deviation but now matches; remove it from the list")
                    }
                } else if let reason = deviations[key] {
                    outcome.deviationsHit.append("\(key) \(caseName): \(reason)")
                } else {
                    let detail =
                        "\(step["kind"] as? String ?? op) \(step["args"] as? String ?? step["hex"] as? String ?? "")"
                    outcome.failures.append(
                        "\(key) \(caseName): \(detail) expected \(hex(expected)) sent \(hex(sent))")
                }
            }
        }
    }

    /// One input step through the encoder built from the terminal's modes.
    func input(_ kind: String, _ args: String, _ driver: Driver) throws -> [UInt8] {
        let encoder = driver.terminal.inputEncoder
        let words = args.split(separator: " ").map(String.init)
        switch kind {
        case "INCHAR":
            // `INCHAR mods hex`: vterm_keyboard_unichar, the character as typed.
            let value = try #require(UInt32(words[1], radix: 16))
            let scalar = try #require(Unicode.Scalar(value))
            return encoder.encode(KeyEvent(.character(scalar), modifiers: modifiers(words[0])))
        case "INKEY":
            let key = try #require(Self.keys[words[1]], "unknown key \(words[1])")
            return encoder.encode(KeyEvent(key, modifiers: modifiers(words[0])))
        case "PASTE":
            return words[0] == "START" ? encoder.pasteStart : encoder.pasteEnd
        case "FOCUS":
            return encoder.focus(words[0] == "IN")
        case "MOUSEMOVE":
            // `MOUSEMOVE row,col [mods]`.
            let numbers = words[0].split(separator: ",").compactMap { Int($0) }
            driver.pointer = ScreenPosition(row: numbers[0], column: numbers[1])
            let mods = modifiers(words.count > 1 ? words[1] : "0")
            return driver.tracker.move(to: driver.pointer, modifiers: mods, encoder: encoder)
        case "MOUSEBTN":
            // `MOUSEBTN d|u button [mods]`, at the last MOUSEMOVE position.
            let number = try #require(Int(words[1]))
            let button = try #require(Self.buttons[number], "unknown button \(number)")
            let mods = modifiers(words.count > 2 ? words[2] : "0")
            if words[0] == "d" {
                return driver.tracker.press(button, at: driver.pointer, modifiers: mods, encoder: encoder)
            }
            return driver.tracker.release(button, at: driver.pointer, modifiers: mods, encoder: encoder)
        default:
            Issue.record("unknown input kind \(kind)")
            return []
        }
    }

    /// libvterm's modifier letters: S shift, C control, A alt; "0" for none.
    func modifiers(_ text: String) -> KeyModifiers {
        var result: KeyModifiers = []
        if text.contains("S") { result.insert(.shift) }
        if text.contains("C") { result.insert(.control) }
        if text.contains("A") { result.insert(.alt) }
        return result
    }

    /// libvterm's key names (VTermKey) used by the scripts, and a few more.
    static let keys: [String: Key] = [
        "Up": .up, "Down": .down, "Left": .left, "Right": .right, "Tab": .tab, "Enter": .enter,
        "Backspace": .backspace, "Escape": .escape, "Home": .home, "End": .end, "Ins": .insert, "Del": .delete,
        "PageUp": .pageUp, "PageDown": .pageDown, "F1": .function(1), "F2": .function(2), "F3": .function(3),
        "F4": .function(4), "F5": .function(5), "KP0": .keypad(.zero), "KP1": .keypad(.one),
        "KPEnter": .keypad(.enter),
    ]

    /// X11 button numbers, as libvterm takes them.
    static let buttons: [Int: MouseEvent.Button] = [
        1: .left, 2: .middle, 3: .right, 4: .wheelUp, 5: .wheelDown, 6: .wheelLeft, 7: .wheelRight, 8: .button8,
        9: .button9, 10: .button10, 11: .button11,
    ]

    func hex(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "(nothing)" : bytes.map { String(format: "%02x", $0) }.joined()
    }
}
