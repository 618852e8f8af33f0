import FuzzSupport
import TermCore
import TermRender
import TermReplay

// The terminal fed arbitrary bytes.
//
// Input layout (Tests/Fuzz/README.md): byte 0 columns (1…200), byte 1 rows
// (1…60), byte 2 scrollback lines (0…99), byte 3 the number of actions
// (0…8), then 5 bytes per action (a 16-bit offset into the stream, a kind and
// two parameters), then the stream. The seeds in corpus/terminal carry that
// header in front of real recordings.
//
// Two checks:
// 1. The oracle: the stream fed whole and fed one byte at a time give the
//    same terminal (TerminalComparison: cells, scrollback, cursor, modes,
//    saved cursors, title…). The parser keeps its state across calls, so any
//    split must give the same screen (ARCHITECTURE.md, rule 2 of STYLE.md).
//    No resize here: a resize between bytes is a different input.
// 2. The same stream fed in pieces with the actions in between: resizes,
//    resets, snapshots with every accessor read and cross-checked against
//    the terminal's own accessors, and every renderer.

/// Widths and heights the header can ask for: the brief's 1…~200 × 1…~60
/// keeps a grid small enough for thousands of runs a second.
let columnRange = 1...200
let rowRange = 1...60

struct Action {
    var offset: Int
    var kind: UInt8
    var first: UInt8
    var second: UInt8
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTerminal(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let columns = input.int(in: columnRange)
    let rows = input.int(in: rowRange)
    let scrollback = Int(input.byte() % 100)
    let actionCount = Int(input.byte() % 9)
    var actions: [Action] = []
    for _ in 0..<actionCount {
        let offset = input.uint16()
        actions.append(Action(offset: offset, kind: input.byte(), first: input.byte(), second: input.byte()))
    }
    let stream = input.rest()

    checkChunking(stream, columns: columns, rows: rows, scrollback: scrollback)

    // Offsets are taken modulo the stream length + 1, so every action lands
    // somewhere whatever the mutator did to the length.
    for index in actions.indices { actions[index].offset %= stream.count + 1 }
    actions.sort { $0.offset < $1.offset }
    let terminal = Terminal(columns: columns, rows: rows, scrollback: scrollback)
    // Replies and events are collected and delivered after each feed: read
    // them so that their paths run too.
    var replyBytes = 0
    terminal.writeBack = { replyBytes += $0.count }
    terminal.onEvent = { _ in }
    var position = 0
    var previous: Snapshot?
    for action in actions {
        terminal.fuzzFeed(UnsafeBufferPointer(rebasing: stream[position..<action.offset]))
        position = action.offset
        perform(action, on: terminal, previous: &previous)
    }
    terminal.fuzzFeed(UnsafeBufferPointer(rebasing: stream[position...]))
    let final = terminal.snapshot(scrollback: 0..<terminal.scrollbackCount)
    checkSnapshot(final, of: terminal, previous: previous)
    render(final, variant: 0)
    return 0
}

/// Whole vs byte by byte.
func checkChunking(_ stream: UnsafeBufferPointer<UInt8>, columns: Int, rows: Int, scrollback: Int) {
    let whole = Terminal(columns: columns, rows: rows, scrollback: scrollback)
    whole.feed(stream)
    let single = Terminal(columns: columns, rows: rows, scrollback: scrollback)
    for index in stream.indices { single.feed(UnsafeBufferPointer(rebasing: stream[index..<(index + 1)])) }
    let differences = TerminalComparison.differences(whole, single, limit: 5)
    fuzzCheck(
        differences.isEmpty,
        "fed whole vs byte by byte at \(columns)x\(rows) scrollback \(scrollback): "
            + differences.joined(separator: "; "))
}

func perform(_ action: Action, on terminal: Terminal, previous: inout Snapshot?) {
    let first = Int(action.first)
    let second = Int(action.second)
    switch action.kind % 8 {
    case 0:
        terminal.fuzzResize(
            columns: columnRange.lowerBound + first % columnRange.count,
            rows: rowRange.lowerBound + second % rowRange.count)
    case 1:
        // A scrollback range that may reach past what exists (the snapshot
        // clamps it) and may be empty.
        let lower = first % (terminal.scrollbackCount + 2)
        let snapshot = terminal.snapshot(scrollback: lower..<(lower + second % 8))
        checkSnapshot(snapshot, of: terminal, previous: previous)
        previous = snapshot
    case 2, 3, 4:
        let snapshot = terminal.snapshot(scrollback: 0..<(first % 4))
        render(snapshot, variant: Int(action.kind % 8) - 2 + 3 * (second % 4))
        previous = snapshot
    case 5:
        terminal.reset()
    case 6:
        readTerminal(terminal)
    default:
        // Two snapshots in a row with nothing fed between: the second must
        // be the same picture (it is the cached one).
        let one = terminal.snapshot()
        let two = terminal.snapshot()
        fuzzCheck(two.changedRows(since: one).isEmpty, "a second snapshot with nothing fed between changed rows")
        checkSnapshot(two, of: terminal, previous: previous)
        previous = two
    }
}

/// Every accessor of a snapshot just taken, each compared with what the
/// terminal itself says: a snapshot row served from a stale cache shows up
/// here as a difference.
func checkSnapshot(_ snapshot: Snapshot, of terminal: Terminal, previous: Snapshot?) {
    fuzzCheck(
        snapshot.columns == terminal.columns && snapshot.rows == terminal.rows,
        "snapshot size \(snapshot.columns)x\(snapshot.rows), terminal \(terminal.columns)x\(terminal.rows)")
    fuzzCheck(snapshot.cursor == terminal.cursor, "snapshot cursor \(snapshot.cursor), terminal \(terminal.cursor)")
    let cursor = snapshot.cursor.position
    fuzzCheck(
        cursor.row >= 0 && cursor.row < snapshot.rows && cursor.column >= 0 && cursor.column < snapshot.columns,
        "cursor \(cursor) outside \(snapshot.columns)x\(snapshot.rows)")
    for row in 0..<snapshot.rows {
        let line = snapshot.line(row)
        checkLine(line, columns: snapshot.columns, what: "screen row \(row)")
        fuzzCheck(
            line.text == terminal.screenLine(row),
            "screen row \(row): snapshot text '\(line.text)', terminal '\(terminal.screenLine(row))'")
        fuzzCheck(line.isWrapped == terminal.isWrapped(row: row), "screen row \(row): wrap flag differs")
        fuzzCheck(line.size == terminal.lineSize(row: row), "screen row \(row): line size differs")
        fuzzCheck(line.semanticMark == terminal.semanticMark(row: row), "screen row \(row): mark differs")
        for column in 0..<snapshot.columns {
            let cell = line.cell(column)
            let direct = terminal.cell(at: ScreenPosition(row: row, column: column))
            fuzzCheck(
                cell == direct,
                "screen row \(row) column \(column): snapshot \(TerminalComparison.describe(cell)), "
                    + "terminal \(TerminalComparison.describe(direct))")
            _ = cell.text
        }
    }
    for index in snapshot.scrollbackRange {
        let line = snapshot.scrollbackLine(index)
        checkLine(line, columns: snapshot.columns, what: "scrollback line \(index)")
        let direct = terminal.scrollbackLine(ScrollbackLine(index))
        fuzzCheck(line.text == direct, "scrollback line \(index): snapshot '\(line.text)', terminal '\(direct)'")
        for column in 0..<snapshot.columns {
            fuzzCheck(
                line.cell(column) == terminal.scrollbackCell(line: ScrollbackLine(index), column: column),
                "scrollback line \(index) column \(column) differs between snapshot and terminal")
        }
    }
    if let previous {
        // A row left out of changedRows must be the very same row.
        let changed = Set(snapshot.changedRows(since: previous))
        if previous.columns == snapshot.columns && previous.rows == snapshot.rows
            && previous.isAlternateScreen == snapshot.isAlternateScreen
        {
            for row in 0..<snapshot.rows where !changed.contains(row) {
                let old = previous.line(row)
                let new = snapshot.line(row)
                fuzzCheck(
                    (0..<snapshot.columns).allSatisfy { old.cell($0) == new.cell($0) },
                    "row \(row) changed but changedRows(since:) left it out")
            }
        }
    }
}

/// The runs of a line cover its columns left to right without gaps, and
/// agree with the cells.
func checkLine(_ line: SnapshotLine, columns: Int, what: String) {
    _ = line.text
    var next = 0
    for run in line.runs {
        fuzzCheck(
            run.column == next && run.width > 0, "\(what): run at \(run.column) width \(run.width), expected \(next)")
        let cell = line.cell(run.column)
        fuzzCheck(
            run.style == cell.style && run.hyperlink == cell.hyperlink,
            "\(what): run at \(run.column) has another style or link than its first cell")
        next += run.width
    }
    fuzzCheck(next == columns, "\(what): runs cover \(next) of \(columns) columns")
}

/// The renderers; `variant` picks options, so that each option runs.
func render(_ snapshot: Snapshot, variant: Int) {
    switch variant % 3 {
    case 0:
        _ = TextRenderer.render(snapshot, joinWrapped: variant & 4 != 0, includeScrollback: variant & 8 == 0)
        let ansi = ANSIRenderer.render(snapshot, scrollback: variant)
        // Its output is terminal input: it must feed without trouble.
        Terminal(columns: snapshot.columns, rows: snapshot.rows, scrollback: 0).feed(ansi)
        if variant == 0 {
            _ = HTMLRenderer.render(snapshot)
            _ = ThumbnailRenderer.raster(snapshot, size: .minimap)
        }
    case 1:
        _ = HTMLRenderer.render(snapshot, includeScrollback: variant & 4 != 0)
        _ = ANSIRenderer.renderString(snapshot)
    default:
        // Thumbnails at small sizes: a full-size raster of 200x60 cells is
        // 1600x780 pixels, too slow for every run.
        if snapshot.columns * snapshot.rows <= 40 * 12 && variant & 4 != 0 {
            _ = ThumbnailRenderer.raster(snapshot, size: .full)
        } else {
            _ = ThumbnailRenderer.raster(
                snapshot, size: .minimap(cellWidth: 1 + variant % 3, cellHeight: 1 + variant % 4))
        }
        if variant & 8 != 0 {
            _ = ThumbnailRenderer.png(snapshot, size: .minimap(cellWidth: 1, cellHeight: 1), compressionLevel: 1)
        }
    }
}

/// The terminal's own accessors, outside any snapshot.
func readTerminal(_ terminal: Terminal) {
    for row in 0..<terminal.rows {
        _ = terminal.screenLine(row)
        _ = terminal.isWrapped(row: row)
        _ = terminal.lineSize(row: row)
        _ = terminal.semanticMark(row: row)
    }
    for index in 0..<terminal.scrollbackCount {
        _ = terminal.scrollbackLine(ScrollbackLine(index))
        _ = terminal.isWrapped(line: ScrollbackLine(index))
        _ = terminal.semanticMark(line: ScrollbackLine(index))
    }
    _ = terminal.title
    _ = terminal.iconName
    _ = terminal.titleStack
    _ = terminal.tabStops
    _ = terminal.scrollRegion
    _ = terminal.horizontalMargins
    _ = terminal.savedCursor(alternateScreen: false)
    _ = terminal.savedCursor(alternateScreen: true)
    _ = terminal.screenLines(alternateScreen: !terminal.isAlternateScreen).map(\.text)
}
