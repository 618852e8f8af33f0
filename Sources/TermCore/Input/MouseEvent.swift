/// A position in pixels from the top-left corner of the terminal's text
/// area (not the window), for SGR-pixel mouse reports (?1016).
public struct PixelPosition: Hashable, Sendable {
    /// Pixels from the left edge of the text area.
    public var x: Int
    /// Pixels from the top edge of the text area.
    public var y: Int
    /// The pixel `x` across and `y` down from the text area's top-left corner.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A mouse event as a front end reports it to ``InputEncoder``.
public struct MouseEvent: Hashable, Sendable {
    /// The button, in X11's numbering: left 1, middle 2, right 3, the wheel
    /// 4–7, then 8–11.
    public enum Button: Hashable, Sendable, CaseIterable {
        /// The three main buttons, X11's 1, 2 and 3.
        case left, middle, right
        /// No button: motion with nothing held.
        case none
        /// The wheel, X11's 4–7: each step is a press of its own, never held or
        /// released.
        case wheelUp, wheelDown, wheelLeft, wheelRight
        /// The extra buttons, X11's 8–11 (back and forward are usually 8 and 9).
        case button8, button9, button10, button11

        /// The low bits of xterm's button code (button.c BtnCode: 0–2, 3 for
        /// none, +64 for the wheel, +128 for buttons 8–11).
        var code: Int {
            switch self {
            case .left: 0
            case .middle: 1
            case .right: 2
            case .none: 3
            case .wheelUp: 64
            case .wheelDown: 65
            case .wheelLeft: 66
            case .wheelRight: 67
            case .button8: 128
            case .button9: 129
            case .button10: 130
            case .button11: 131
            }
        }

        /// Wheel "buttons" click: they are pressed, never held or released.
        var isWheel: Bool { (64...67).contains(code) }
    }

    /// What happened.
    public enum Action: Hashable, Sendable {
        /// A button went down, or up.
        case press, release
        /// The pointer moved; ``MouseEvent/button`` is the button held (the
        /// lowest-numbered one when several are), or `.none`.
        case motion
    }

    /// The button pressed, released or held.
    public var button: Button
    /// Press, release or motion.
    public var action: Action
    /// The cell under the pointer, 0-based. A front end clamps it to the
    /// screen, as xterm does for a pointer dragged outside the window.
    public var position: ScreenPosition
    /// The pointer in pixels, needed only for SGR-pixel reports (?1016).
    public var pixel: PixelPosition?
    /// Shift, Alt (or Meta) and Control are reported; others are not.
    public var modifiers: KeyModifiers

    /// An event: `action` of `button` with the pointer on the cell `position`
    /// (and, for ?1016, at `pixel`), with `modifiers` held.
    public init(
        _ action: Action, _ button: Button, at position: ScreenPosition, pixel: PixelPosition? = nil,
        modifiers: KeyModifiers = []
    ) {
        self.action = action
        self.button = button
        self.position = position
        self.pixel = pixel
        self.modifiers = modifiers
    }
}

/// What a front end keeps between pointer events so that its reports match
/// xterm's: which buttons are held (motion reports carry the lowest held
/// one) and where the last report was (motion reports are sent only when
/// the pointer reaches another cell — another pixel under ?1016 — as
/// xterm's EditorButton does).
///
/// Each call returns the report to send, empty when there is none (the
/// tracking mode does not report the event, or the pointer stayed in its
/// cell); an empty report leaves the last reported position as it was.
///
/// ```swift
/// var pointer = MouseTracker()
/// write(pointer.press(.left, at: cell, encoder: terminal.inputEncoder))
/// ```
public struct MouseTracker: Hashable, Sendable {
    /// Buttons held now, in press order.
    public private(set) var heldButtons: [MouseEvent.Button] = []
    /// The cell (and pixel) of the last event that was reported.
    public private(set) var lastReported: ScreenPosition?
    private var lastReportedPixel: PixelPosition?

    /// A tracker with no button held and nothing reported yet.
    public init() {}

    /// A button went down at `position`. Wheel clicks go through here too.
    public mutating func press(
        _ button: MouseEvent.Button, at position: ScreenPosition, pixel: PixelPosition? = nil,
        modifiers: KeyModifiers = [], encoder: InputEncoder
    ) -> [UInt8] {
        if !button.isWheel && button != .none && !heldButtons.contains(button) { heldButtons.append(button) }
        return report(MouseEvent(.press, button, at: position, pixel: pixel, modifiers: modifiers), encoder)
    }

    /// A button went up at `position`.
    public mutating func release(
        _ button: MouseEvent.Button, at position: ScreenPosition, pixel: PixelPosition? = nil,
        modifiers: KeyModifiers = [], encoder: InputEncoder
    ) -> [UInt8] {
        heldButtons.removeAll { $0 == button }
        return report(MouseEvent(.release, button, at: position, pixel: pixel, modifiers: modifiers), encoder)
    }

    /// The pointer moved to `position`: reported (by tracking modes 1002
    /// and 1003) only when it is in another cell than the last report.
    public mutating func move(
        to position: ScreenPosition, pixel: PixelPosition? = nil, modifiers: KeyModifiers = [],
        encoder: InputEncoder
    ) -> [UInt8] {
        let samePlace =
            encoder.modes.mouseEncoding == .sgrPixels
            ? pixel != nil && pixel == lastReportedPixel : position == lastReported
        if samePlace { return [] }
        let held = MouseEvent.Button.allCases.first { heldButtons.contains($0) } ?? .none
        return report(MouseEvent(.motion, held, at: position, pixel: pixel, modifiers: modifiers), encoder)
    }

    /// Forgets held buttons and the last position (after a reset, or when
    /// the pointer leaves the window).
    public mutating func reset() { self = MouseTracker() }

    private mutating func report(_ event: MouseEvent, _ encoder: InputEncoder) -> [UInt8] {
        let bytes = encoder.encode(event)
        guard !bytes.isEmpty else { return [] }
        lastReported = event.position
        lastReportedPixel = event.pixel
        return bytes
    }
}
