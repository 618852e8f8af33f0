// What a front end must redraw between two frames (issue #19): rows alone
// miss a cursor that moved, a cursor hidden (DECTCEM), reverse video
// (DECSCNM), the default colours (OSC 10/11) and the palette (OSC 4), which
// change no cell. And a synchronized update (mode 2026) that a program never
// ends must not freeze the view: the hold is bounded by a timeout.

/// What differs between two snapshots: everything a front end draws from
/// them, sorted by what it must redraw.
public struct SnapshotChanges: Equatable, Sendable {
    /// Screen rows whose cells differ (every row when the size or the
    /// screen changed).
    public var rows: [Int] = []
    /// The cursor moved, was shown or hidden, or changed shape or blinking
    /// (DECSCUSR).
    public var cursor = false
    /// A mode that changes how the whole screen is drawn: reverse video
    /// (DECSCNM), the alternate screen.
    public var screenModes = false
    /// A synchronized update (mode 2026) began or ended, or its hold timed
    /// out (``Snapshot/isHoldingFrame``): nothing to draw of itself.
    public var frameHold = false
    /// The palette or the default foreground, background or cursor colour
    /// (OSC 4, 10–12, 104–112, or the embedder's ``Terminal/palette``): every
    /// cell's colours may differ.
    public var colors = false
    /// The size (every row differs as well).
    public var size = false
    /// The window title or the icon name (OSC 0, 1, 2).
    public var title = false
    /// The working directory (OSC 7).
    public var workingDirectory = false
    /// The scrollback: lines were added or dropped (a full scrollback's
    /// count stays the same, its ``Snapshot/evictedLineCount`` does not), or
    /// the snapshot holds other scrollback lines (a viewport shows them).
    public var scrollback = false
    /// Any of the other modes (mouse reporting, bracketed paste, keys…):
    /// nothing to draw, but input is encoded differently.
    public var inputModes = false

    /// No change at all.
    public init() {}

    /// True when nothing a front end draws from differs.
    public var isEmpty: Bool { self == SnapshotChanges() }

    /// True when the whole screen must be drawn again (its size, its colours
    /// or a screen mode changed).
    public var needsFullRedraw: Bool { size || colors || screenModes }
}

extension Snapshot {
    /// What differs from `older`, an earlier snapshot of the same terminal.
    ///
    /// Two snapshots of the same ``generation`` differ in nothing (their
    /// scrollback lines aside, when they were taken with other ranges).
    /// - Complexity: O(rows): rows are compared by identity.
    public func changes(since older: Snapshot) -> SnapshotChanges {
        var changes = SnapshotChanges()
        changes.size = older.columns != columns || older.rows != rows
        changes.rows = changedRows(since: older)
        changes.cursor =
            older.cursor != cursor || older.modes.cursorShape != modes.cursorShape
            || older.modes.cursorBlink != modes.cursorBlink
        changes.screenModes =
            older.modes.reverseVideo != modes.reverseVideo || older.isAlternateScreen != isAlternateScreen
        changes.frameHold =
            older.modes.synchronizedOutput != modes.synchronizedOutput || older.isHoldingFrame != isHoldingFrame
        changes.colors = older.palette != palette
        changes.title = older.title != title || older.iconName != iconName
        changes.workingDirectory = older.workingDirectory != workingDirectory
        // A full scrollback keeps its count while lines arrive: the lines
        // evicted tell those changes apart.
        changes.scrollback =
            older.scrollbackCount != scrollbackCount || older.scrollbackRange != scrollbackRange
            || older.evictedLineCount != evictedLineCount
        changes.inputModes = !changes.cursor && !changes.screenModes && !changes.frameHold && older.modes != modes
        return changes
    }
}

extension Terminal {
    /// True while a synchronized update (mode 2026) is in progress and
    /// began less than ``synchronizedOutputTimeout`` ago: the program is
    /// mid-frame, and a front end keeps showing what it drew before. Once the
    /// update ends, or times out, it is false and the screen is drawn as it
    /// is.
    public var isHoldingFrame: Bool { frameHoldRemaining != nil }

    /// Seconds until the synchronized update in progress times out, or nil
    /// when none holds the frame: a front end that gets no more output
    /// draws again after this long.
    public var frameHoldRemaining: Double? {
        guard state.modes.synchronizedOutput, let start = synchronizedOutputStart else { return nil }
        let elapsed = Double(clock() &- start) / 1e9
        return elapsed < synchronizedOutputTimeout ? synchronizedOutputTimeout - elapsed : nil
    }

    /// Marks what a snapshot shows as changed.
    func noteChange() {
        changedSinceSnapshot = true
        generation &+= 1
    }

    /// Starts the timeout of a synchronized update the feed began, or ends
    /// it with the update.
    func noteSynchronizedOutput(blocksBefore: Int) {
        if !state.modes.synchronizedOutput {
            synchronizedOutputStart = nil
        } else if state.synchronizedOutputBlocks != blocksBefore || synchronizedOutputStart == nil {
            synchronizedOutputStart = clock()
        }
    }
}
