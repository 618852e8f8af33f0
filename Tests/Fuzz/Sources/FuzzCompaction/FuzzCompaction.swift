import FuzzSupport
import TermCore
import TermRender

// ReplayCompactor: a round trip and idempotence.
//
// Input layout: byte 0 columns (1…80), byte 1 rows (1…30), byte 2
// scrollback lines (0…49), byte 3 a resize (bit 7 set: resize to byte 4's
// columns and byte 5's rows after the offset in bytes 6–7), then the stream.
//
// 1. Round trip: the compacted stream fed into a fresh terminal of the same
//    size and scrollback limit gives a terminal that TerminalComparison finds
//    no difference with.
// 2. Idempotence: compacting that copy gives the same bytes again (a
//    compacted stream is already the shortest form the encoder knows).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompaction(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let columns = input.int(in: 1...80)
    let rows = input.int(in: 1...30)
    let scrollback = Int(input.byte() % 50)
    let resize = input.byte() & 0x80 != 0
    let newColumns = input.int(in: 1...80)
    let newRows = input.int(in: 1...30)
    let resizeOffset = input.uint16()
    let stream = input.rest()

    let original = Terminal(columns: columns, rows: rows, scrollback: scrollback)
    // The width a replay starts from: DECCOLM in the stream switches it
    // (80/132), and the compactor emits the same switch when told the start.
    var startColumns = columns
    if resize {
        let cut = resizeOffset % (stream.count + 1)
        original.feed(UnsafeBufferPointer(rebasing: stream[..<cut]))
        original.fuzzResize(columns: newColumns, rows: newRows)
        startColumns = original.columns
        original.feed(UnsafeBufferPointer(rebasing: stream[cut...]))
    } else {
        original.feed(stream)
    }

    let compact = ReplayCompactor.compact(original, startColumns: startColumns)
    // The compaction itself ran (it must never trap); the round trip is
    // only checked for states the encoder is known to rebuild.
    if KnownBugs.workAround && knownGap(original) != nil { return 0 }
    let copy = Terminal(columns: startColumns, rows: original.rows, scrollback: original.scrollbackLimit)
    copy.feed(compact)
    let differences = TerminalComparison.differences(original, copy, limit: 5)
    fuzzCheck(
        differences.isEmpty,
        "compacted replay differs (\(columns)x\(rows) scrollback \(scrollback)"
            + (resize ? ", resized to \(newColumns)x\(newRows) after \(resizeOffset % (stream.count + 1)) bytes" : "")
            + ", now \(original.columns)x\(original.rows)): "
            + differences.joined(separator: "; ") + "\ncompacted: \"\(escaped(compact))\"")

    let again = ReplayCompactor.compact(copy, startColumns: startColumns)
    fuzzCheck(
        again == compact,
        "compaction is not idempotent: \(compact.count) bytes, then \(again.count)\nfirst:  \"\(escaped(compact))\"\n"
            + "second: \"\(escaped(again))\"")
    return 0
}

/// The name of a state the compactor is known not to rebuild yet, if
/// `terminal` is in one (KnownBugs.swift lists them, with reproducers).
func knownGap(_ terminal: Terminal) -> String? {
    // Listed by ReplayCompactor's own property test (CompactionPropertyTests).
    if terminal.characterSets.singleShift != nil { return "pending single shift" }
    for alternate in [false, true] {
        guard let saved = terminal.savedCursor(alternateScreen: alternate) else { continue }
        if saved.characterSets.singleShift != nil { return "pending single shift in a saved cursor" }
        if saved.pendingWrap { return "pending wrap in a saved cursor" }
        // Found here (crashes/compaction/saved-cursor-double-width-row).
        let lines = terminal.screenLines(alternateScreen: alternate)
        if saved.position.row < lines.count && lines[saved.position.row].size != .single {
            return "saved cursor on a double-width row"
        }
    }
    // Found by the 20-minute run (crashes/compaction/README rows).
    let cursor = terminal.cursor
    if terminal.lineSize(row: cursor.position.row) != .single && cursor.position.column >= terminal.columns / 2 {
        return "cursor past the middle of a double-width row"
    }
    if [terminal.title, terminal.iconName].contains(where: { $0?.last?.isWhitespace == true }) {
        return "a title ending in white space (the title sanitizer's cut)"
    }
    if !terminal.modes.leftRightMargins && terminal.horizontalMargins != 0...(terminal.columns - 1) {
        return "left/right margins kept with DECLRMM off (after RIS)"
    }
    if terminal.columns == 1 { return "1 column wide" }
    // crashes/compaction/blank-wrapped-line-2-columns, .../double-width-line-1-row
    if terminal.rows == 1
        && (0..<terminal.scrollbackCount).contains(where: { terminal.isWrapped(line: ScrollbackLine($0)) })
    {
        return "a soft-wrapped scrollback line in a 1-row terminal"
    }
    for alternate in [false, true] where terminal.screenLines(alternateScreen: alternate).last?.isWrapped == true {
        return "a soft-wrapped bottom row"
    }
    let snapshot = terminal.snapshot(scrollback: 0..<terminal.scrollbackCount)
    let lines =
        terminal.screenLines(alternateScreen: false) + terminal.screenLines(alternateScreen: true)
        + snapshot.scrollbackRange.map(snapshot.scrollbackLine)
    for line in lines {
        if terminal.modes.graphemeClustering
            && (0..<line.columnCount).contains(where: { line.cell($0).scalars.count > 1 })
        {
            return "a grapheme cluster with mode 2027 on"
        }
        if !line.isWrapped && (0..<line.columnCount).contains(where: { line.cell($0).width == .wrapSpacer }) {
            return "wrap spacer in a row that does not wrap"
        }
        if (0..<(line.columnCount - 1)).contains(where: { line.cell($0).width == .wrapSpacer }) {
            return "a wrap spacer before the last column (at a right margin)"
        }
    }
    // Found here (crashes/compaction/pending-wrap-on-blank-*).
    if cursor.pendingWrap && terminal.cell(at: cursor.position) == .empty {
        return "pending wrap on a blank cell"
    }
    return nil
}
