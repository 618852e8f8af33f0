import TermCore

/// Everything an escape stream has to rebuild, captured from TermCore: what
/// TermRender's ANSI renderer reads from a `Snapshot`, and what the replay
/// compactor reads from a whole `Terminal` (which adds the state a front end
/// does not draw: the pen, tab stops, saved cursors, kitty keyboard stacks,
/// the title stack). A capture, not a picture: ``StateEncoder`` turns it
/// into the bytes that rebuild it.
///
/// `package`, not public: the one way in from outside the package is
/// ``ReplayCompactor`` (or TermRender's `ANSIRenderer` for a snapshot).
package struct StateCapture {
    var columns: Int
    var rows: Int
    /// The primary screen's scrollback lines (oldest first), then its rows.
    var primary: [SnapshotLine]
    /// How many of `primary` are scrollback lines.
    var historyCount: Int
    /// The alternate screen's rows, or nil when there is nothing to draw there.
    var alternate: [SnapshotLine]?
    var isAlternateScreen: Bool
    var cursor: CursorState
    var modes: TerminalModes
    var title: String?
    var iconName: String?
    var workingDirectory: String?
    var palette: Palette
    var pen = Style()
    var penLink: Hyperlink?
    var penProtected = false
    var protectionMode = ProtectionMode.off
    var characterSets = CharacterSets()
    var savedPrimary: SavedCursorState?
    var savedAlternate: SavedCursorState?
    /// Tab stop columns, or nil for the power-on stops.
    var tabStops: [Int]?
    var scrollRegion: ClosedRange<Int>
    var horizontalMargins: ClosedRange<Int>
    var kittyPrimary: [UInt8] = []
    var kittyAlternate: [UInt8] = []
    var titleStack: [TitleStackEntry] = []

    /// The visible state of a snapshot, with the scrollback lines it holds.
    package init(snapshot: Snapshot) {
        columns = snapshot.columns
        rows = snapshot.rows
        let history = snapshot.scrollbackRange.map { snapshot.scrollbackLine($0) }
        let screen = (0..<snapshot.rows).map { snapshot.line($0) }
        if snapshot.isAlternateScreen {
            // A snapshot of the alternate screen holds no primary rows: the
            // history stays above a blank primary screen.
            primary = history
            historyCount = history.count
            alternate = screen
        } else {
            primary = history + screen
            historyCount = history.count
            alternate = nil
        }
        isAlternateScreen = snapshot.isAlternateScreen
        cursor = snapshot.cursor
        modes = snapshot.modes
        title = snapshot.title
        iconName = snapshot.iconName
        workingDirectory = snapshot.workingDirectory
        palette = snapshot.palette
        scrollRegion = 0...(snapshot.rows - 1)
        horizontalMargins = 0...(snapshot.columns - 1)
    }

    /// Everything a later byte could observe in `terminal`.
    init(terminal: Terminal) {
        let snapshot = terminal.snapshot(scrollback: 0..<terminal.scrollbackCount)
        columns = terminal.columns
        rows = terminal.rows
        historyCount = snapshot.scrollbackRange.count
        primary =
            snapshot.scrollbackRange.map { snapshot.scrollbackLine($0) } + terminal.screenLines(alternateScreen: false)
        let alternateLines = terminal.screenLines(alternateScreen: true)
        alternate = alternateLines.allSatisfy(\.isEmpty) ? nil : alternateLines
        isAlternateScreen = terminal.isAlternateScreen
        cursor = terminal.cursor
        modes = terminal.modes
        title = terminal.title
        iconName = terminal.iconName
        workingDirectory = terminal.workingDirectory
        palette = terminal.palette
        pen = terminal.pen
        penLink = terminal.penHyperlink
        penProtected = terminal.isPenProtected
        protectionMode = terminal.protectionMode
        characterSets = terminal.characterSets
        savedPrimary = terminal.savedCursor(alternateScreen: false)
        savedAlternate = terminal.savedCursor(alternateScreen: true)
        let stops = terminal.tabStops
        let defaultStops = Array(stride(from: 8, to: terminal.columns, by: 8))
        tabStops = stops == defaultStops ? nil : stops
        scrollRegion = terminal.scrollRegion
        horizontalMargins = terminal.horizontalMargins
        kittyPrimary = terminal.kittyKeyboardStack(alternateScreen: false)
        kittyAlternate = terminal.kittyKeyboardStack(alternateScreen: true)
        titleStack = terminal.titleStack
    }
}
