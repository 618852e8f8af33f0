// Printing: where characters land, wide characters, combining marks, wrap.

/// Whole lines of plain text, handed out one at a time after a CR LF, for
/// ``TerminalState/printPlainLines(_:)``: what the screen needs of the
/// parser's `PlainTextLines`, which Dispatch/ conforms (this folder names no
/// parser type). A line is printable ASCII followed by CR LF; each `next`
/// takes one whole line, or nothing.
protocol PlainLineSource {
    /// The next line's text (without the CR LF) when it is at most
    /// `maxLength` long, the line then taken; nil, taking nothing, otherwise.
    mutating func next(maxLength: Int) -> UnsafeBufferPointer<UInt8>?

    /// `next(maxLength:)`, handing the line's bytes to `eight` eight at a time
    /// (little-endian, `offset` 0, 8, 16 …) as its end is sought, bytes past
    /// the text included; returns the text and how many of its first bytes
    /// went to `eight`.
    mutating func next(
        maxLength: Int, handingOutEights eight: (_ offset: Int, _ bytes: UInt64) -> Void
    ) -> (text: UnsafeBufferPointer<UInt8>, handedOut: Int)?
}

extension TerminalState {
    /// Prints a run of printable ASCII. The common case (no charset, no insert
    /// mode) stores the run a row at a time.
    mutating func printASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard charsets.isPlainASCII && !modes.insert && !protectedPen else {
            for byte in bytes { printCharacter(charsets.map(byte), width: 1) }
            return
        }
        guard let base = bytes.baseAddress else { return }
        if bytes.count == 1 && printSingleASCII(base[0]) { return }
        var index = 0
        let count = bytes.count
        while index < count {
            // The pen's cell word is read after the wrap, per row: a wrap can
            // scroll into another page, or intern the erase style and so
            // compact a page's table and renumber the pen.
            if cursor.pendingWrap { wrapToNextLine() }
            let (row, flags, page) = active.rowAndFlags(ScreenRow(cursor.row))
            bindPen(toPage: page)
            let edge = rightEdge(rowFlags: flags)
            // A cursor restored onto a row made double width since can lie
            // past the row's last usable column.
            if cursor.col > edge { cursor.col = edge }
            // Columns and counts are far from Int's limits: wrapping
            // operators spare the overflow checks on every run.
            let start = cursor.col
            let run = min(count &- index, edge &+ 1 &- start)
            clearWideOverlap(row, from: start, count: run)
            Self.storeASCII(base + index, count: run, into: row + start, cellBits: penCellBits)
            index &+= run
            advanceCursor(from: start, by: run, edge: edge)
        }
        lastGraphic = (UInt32(base[count &- 1]), 1)
    }

    /// Plain lines after a CR LF (the parser's `VTHandler.printLines(_:)`,
    /// passed on by Dispatch/), each printed as `printASCII` prints it and
    /// followed by CR LF, in one loop: the steady state of scrolling output,
    /// where a line is one row's cells stored and the screen or a region
    /// scrolled. Takes lines only in that state: the cursor at the start of
    /// the bottom row of the scroll region, no left and right margins, no
    /// double-size rows, ASCII in GL with no single shift pending, neither
    /// insert mode nor a protected pen; and a region that is either the
    /// whole primary screen (its lines go to the scrollback:
    /// `Grid.writeLinesAtBottom`) or one whose scrolls keep no line, of the
    /// alternate screen or starting below the top row
    /// (`Grid.writeLinesAtRegionBottom`: full-screen TUIs that scroll a part
    /// of the screen, `less`, `vim`, a status line kept below the region).
    /// A primary-screen region from the top row to above the bottom one
    /// feeds the scrollback and then moves the rows below it back (xterm),
    /// and takes the usual calls. Only lines that fit the row are taken (a
    /// longer one wraps, which the parser's usual calls do). CR LF there
    /// returns the cursor to the same place, so every line starts in the same
    /// state; LNM adds a CR that changes nothing. The erase cell's style is
    /// interned for a page only once a recycled row there needs it, as a
    /// scroll would.
    ///
    /// Generic so that this folder names no parser type, and inlined into
    /// its one caller, Dispatch/'s `printLines(_:)`, where the lines are the
    /// parser's `PlainTextLines`: there the line closure below is inlined
    /// into the grid's loop as before (the same machine code but for one
    /// flag test). Specialised on its own instead, it kept the closure as a
    /// call per line (callgrind, 2 MiB of scrolling at 80×24: 11% more
    /// instructions in the engine).
    @inline(__always)
    mutating func printPlainLines<Lines: PlainLineSource>(_ lines: inout Lines) {
        // The same conditions as `lineFeed`'s scrolls, and `printASCII`'s
        // for storing a run: the CR LF before has already cancelled any
        // pending wrap and REP's character.
        guard
            cursor.row == scrollBottom && cursor.col == 0 && !modes.leftRightMargins && charsets.isPlainASCII
                && !modes.insert && !protectedPen && !active.mayHoldDoubleSizeRows
        else { return }
        if scrollTop == 0 && scrollBottom == rows &- 1 && !isAlternateScreen {
            printPlainLines(&lines, wholeScreen: true)
        } else if (scrollTop > 0 || isAlternateScreen) && scrollBottom > scrollTop {
            printPlainLinesInRegion(&lines)
        }
    }

    /// `printPlainLines` in a region that keeps no line, out of line: inlined
    /// beside the whole-screen loop, it made the compiler keep that loop's
    /// values in other registers and spill more (callgrind, 2 MiB of plain
    /// scrolling at 80×24: 7 more instructions a line).
    @inline(never)
    mutating func printPlainLinesInRegion<Lines: PlainLineSource>(_ lines: inout Lines) {
        printPlainLines(&lines, wholeScreen: false)
    }

    /// The loop of `printPlainLines`, once its conditions hold: the grid's
    /// loop for the whole screen or for a region. `wholeScreen` is a
    /// constant at each call, so that each copy holds one loop.
    @inline(__always)
    mutating func printPlainLines<Lines: PlainLineSource>(_ lines: inout Lines, wholeScreen: Bool) {
        let columns = self.columns
        // A local copy for the loop, written back after it (8 fewer
        // instructions a line than taking from the `inout` directly).
        var taken = lines
        // The first line is taken before anything is set up: `ls --color`
        // and the like end most lines in a coloured name, so most offers
        // after a CR LF find no plain line, and the set-up below was nearly
        // all of such a call (callgrind, 2 MiB of ls_lR at 80×24: 13.57M ->
        // 12.12M instructions in `printLines`, 0.62M more in the scan it
        // calls; 34.21M -> 33.38M in all). It goes to the cursor's row,
        // the first the grid asks for, and the only one not recycled.
        guard let firstLine = taken.next(maxLength: columns) else { return }
        // The rows it writes lie in any page: the pen (and, once a recycled
        // row needs it, the erase blank) is bound to the bottom row's page
        // here, and again whenever the grid stops at a row of another page.
        let sharedFill = eraseFill.sharedCell
        var fill = sharedFill
        var bottomIsRecycled = false
        while true {
            let tables = active.page(ofScreenRow: ScreenRow(cursor.row))
            bindPen(toPage: tables)
            let cellBits = penCellBits
            let stop: BottomLinesStop
            if wholeScreen {
                stop = active.writeLinesAtBottom(
                    tables: tables, cellBits: cellBits, fill: fill, bottomIsRecycled: bottomIsRecycled
                ) { row, isRecycled in
                    Self.writePlainLine(
                        into: row, isRecycled: isRecycled, firstLine: firstLine, from: &taken, columns: columns,
                        cellBits: cellBits)
                }
            } else {
                stop = active.writeLinesAtRegionBottom(
                    top: scrollTop, bottom: scrollBottom, tables: tables, fill: fill,
                    bottomIsRecycled: bottomIsRecycled
                ) { row, isRecycled in
                    Self.writePlainLine(
                        into: row, isRecycled: isRecycled, firstLine: firstLine, from: &taken, columns: columns,
                        cellBits: cellBits)
                }
            }
            switch stop {
            case .noLine:
                lines = taken
                return
            case .otherTables:
                // A fill made for the page left behind names its ids.
                fill = sharedFill
            case .needsFill:
                fill = bindPenAndEraseFill(toTables: tables)
            }
            bottomIsRecycled = true
        }
    }

    /// One line of `printPlainLines` stored in the bottom row `row`, for the
    /// grid's loops: the number of cells written from the row's start, or
    /// nil when no line comes. The cursor's row, asked for once and first
    /// (`isRecycled` false), takes `firstLine`, already taken, which may cut
    /// a wide character in two. A recycled row takes the next line of
    /// `lines`, and may be left holding anything past it (the grid fills or
    /// marks those cells).
    @inline(__always)
    static func writePlainLine<Lines: PlainLineSource>(
        into row: UnsafeMutablePointer<Cell>, isRecycled: Bool, firstLine: UnsafeBufferPointer<UInt8>,
        from lines: inout Lines, columns: Int, cellBits: UInt64
    ) -> Int? {
        guard isRecycled else {
            let count = firstLine.count
            if count > 0 {
                let start = firstLine.baseAddress.unsafelyUnwrapped
                clearWideOverlap(row, from: 0, count: count, columns: columns)
                storeASCII(start, count: count, into: row, cellBits: cellBits)
            }
            return count
        }
        // Each eight bytes the scan loads are stored as cells at once, those
        // past the line's end with the rest. One pass over the line instead
        // of two (callgrind, plain scrolling at 80×24: 22 fewer instructions
        // a line; +8% MiB/s). The eight bytes, loaded little-endian, are the
        // lanes of a `SIMD8<UInt8>` in order.
        let cells = UnsafeMutableRawPointer(row)
        let cellWords = SIMD8<UInt64>(repeating: cellBits)
        guard
            let (text, handedOut) = lines.next(
                maxLength: columns,
                handingOutEights: { offset, bytes in
                    storeEightCells(
                        unsafeBitCast(bytes, to: SIMD8<UInt8>.self), into: cells, at: offset, cellWords: cellWords)
                })
        else { return nil }
        let count = text.count
        if count > 0 {
            let start = text.baseAddress.unsafelyUnwrapped
            if handedOut < count {
                storeASCII(start + handedOut, count: count &- handedOut, into: row + handedOut, cellBits: cellBits)
            }
        }
        return count
    }

    /// The erase blank as tables `tables` name it, with the pen bound there
    /// too: again when interning one compacted the page and renumbered the
    /// other's ids.
    @inline(never)
    mutating func bindPenAndEraseFill(toTables tables: Int) -> Cell {
        while true {
            let compactions = active.compactionCount
            let fill = active.blank(eraseFill, page: tables)
            bindPen(toPage: tables)
            if active.compactionCount == compactions { return fill }
        }
    }

    /// One character where nothing special applies: no wrap pending, a
    /// narrow cell at the cursor, within the edge. Output that positions or
    /// colours every character (a CUP or an SGR before each) prints this way,
    /// without the run loop's set-up. Returns false, having stored nothing,
    /// when anything else applies.
    @inline(__always)
    mutating func printSingleASCII(_ byte: UInt8) -> Bool {
        guard !cursor.pendingWrap else { return false }
        let (row, flags, page) = active.rowAndFlags(ScreenRow(cursor.row))
        bindPen(toPage: page)
        let edge = rightEdge(rowFlags: flags)
        let col = cursor.col
        guard col <= edge && row[col].width == .narrow else { return false }
        UnsafeMutableRawPointer(row + col).storeBytes(of: UInt64(byte) | penCellBits, as: UInt64.self)
        advanceCursor(from: col, by: 1, edge: edge)
        lastGraphic = (UInt32(byte), 1)
        return true
    }

    /// One character that is not ASCII where nothing special applies, as
    /// `printSingleASCII` for ASCII: no wrap pending, a character of one or
    /// two columns that fits before the edge over narrow cells. A character
    /// alone between escape sequences (a colour for each, as colour-dense
    /// output sends) prints this way, without the run loop's set-up.
    /// Returns false, having stored nothing, when anything else applies.
    /// - Precondition: no grapheme clustering, insert mode or protected pen
    ///   (the caller has tested them).
    @inline(__always)
    mutating func printSingleScalar(_ scalar: UInt32) -> Bool {
        guard !cursor.pendingWrap else { return false }
        let width = widths.width(of: scalar)
        guard width > 0 else { return false }
        let (row, flags, page) = active.rowAndFlags(ScreenRow(cursor.row))
        let edge = rightEdge(rowFlags: flags)
        let col = cursor.col
        let end = col &+ width &- 1
        guard end <= edge && (row[col].content | row[end].content) & Cell.widthMask == 0 else { return false }
        bindPen(toPage: page)
        let cellBits = penCellBits
        let widthBits = UInt64(width &- 1) << UInt64(Cell.widthShift)
        UnsafeMutableRawPointer(row + col).storeBytes(of: cellBits | UInt64(scalar) | widthBits, as: UInt64.self)
        if width == 2 {
            let tailBits = UInt64(Cell.Width.wideTail.rawValue) << UInt64(Cell.widthShift)
            UnsafeMutableRawPointer(row + end).storeBytes(of: cellBits | tailBits, as: UInt64.self)
        }
        advanceCursor(from: col, by: width, edge: edge)
        lastGraphic = (scalar, width)
        return true
    }

    /// Stores `count` ASCII bytes as narrow cells: each byte widened to a
    /// 64-bit cell word (`SIMD8` lowers to byte-to-quadword moves) and ORed
    /// with `cellBits` (the pen's style and link, `penCellBits`), eight at a
    /// time. A run of eight or more whose length is not a multiple of eight
    /// ends with its last eight, overlapping cells already stored with the
    /// same values, instead of a loop of up to seven single stores whose exit
    /// the CPU mispredicts. The last eight are the loop's own last step (its
    /// offset capped), so that the widening appears once: with a second copy
    /// for the tail, the compiler called it out of line in `printLines`.
    @inline(__always)
    static func storeASCII(
        _ source: UnsafePointer<UInt8>, count: Int, into cells: UnsafeMutablePointer<Cell>, cellBits: UInt64
    ) {
        let destination = UnsafeMutableRawPointer(cells)
        let raw = UnsafeRawPointer(source)
        let fill = SIMD8<UInt64>(repeating: cellBits)
        @inline(__always) func storeEight(at offset: Int) {
            storeEightCells(
                raw.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self), into: destination, at: offset,
                cellWords: fill)
        }
        guard count >= 8 else {
            for offset in 0..<count {
                let word = UInt64(source[offset]) | cellBits
                destination.storeBytes(of: word, toByteOffset: offset &* 8, as: UInt64.self)
            }
            return
        }
        let lastEight = count &- 8
        var offset = 0
        repeat {
            storeEight(at: min(offset, lastEight))
            offset &+= 8
        } while offset < count
    }

    /// Eight ASCII bytes as the narrow cells from `offset` on: each widened
    /// to a 64-bit cell word and ORed with `cellWords` (the pen's cell bits
    /// in every lane).
    @inline(__always)
    static func storeEightCells(
        _ bytes: SIMD8<UInt8>, into cells: UnsafeMutableRawPointer, at offset: Int, cellWords: SIMD8<UInt64>
    ) {
        let words = SIMD8<UInt64>(truncatingIfNeeded: bytes) | cellWords
        cells.storeBytes(of: words, toByteOffset: offset &* 8, as: SIMD8<UInt64>.self)
    }

    /// Prints one scalar that is not ASCII: width from Unicode data; a
    /// zero-width scalar joins the previous cell.
    mutating func printScalar(_ scalar: UInt32) {
        // Mode 2027: a scalar that does not start a new cluster (UAX #29)
        // joins the previous character, whose width may change.
        if modes.graphemeClustering && continuesPreviousCluster(scalar) {
            extendPreviousCluster(scalar)
            return
        }
        let width = widths.width(of: scalar)
        if width == 0 {
            attachToPreviousCell(scalar)
        } else {
            printCharacter(scalar, width: width)
        }
    }

    /// Prints a run of scalars that are not ASCII, as `printScalar` would one
    /// by one, with the cursor's row and right edge looked up once per row
    /// rather than once per character: CJK text, box drawing and emoji come
    /// in runs, and the per-character lookups were most of their cost. A
    /// scalar the quick path does not cover (no room before the edge, a
    /// pending wrap, a zero-width scalar with no character before it in the
    /// run) and every mode it leaves alone (clusters, insert, protection) go
    /// through `printScalar`.
    mutating func printRunOfScalars(_ scalars: UnsafeBufferPointer<UInt32>) {
        guard !modes.graphemeClustering && !modes.insert && !protectedPen, let base = scalars.baseAddress else {
            for scalar in scalars { printScalar(scalar) }
            return
        }
        _ = printRows(of: ScalarRun(base: base, count: scalars.count), from: 0)
    }

    /// The text ahead in the parser's buffer (its `printText(ahead:)`),
    /// decoded where it is placed: printed from `start` as
    /// `printRunOfScalars` prints a run, from the bytes, so that a line of
    /// Latin, Greek or Cyrillic words goes out in one pass with no buffer of
    /// scalars between the parser and the cells. Returns where the text
    /// ends, or `start` having printed none where ASCII in GL is not itself
    /// (another charset, a single shift) or in the modes the quick path
    /// leaves alone.
    mutating func printTextAhead<Text: PrintableCharacters>(_ text: Text, from start: Int) -> Int {
        guard charsets.isPlainASCII && !modes.graphemeClustering && !modes.insert && !protectedPen else {
            return start
        }
        var index = start
        if let (base, end) = text.utf8, start < end {
            let lead = base[start]
            if lead &- 0xC2 < 0x1E {
                index = printNarrowText(base, from: start, to: end)
            } else if lead &- 0xE0 < 0x10 {
                index = printWideText(base, from: start, to: end)
            }
            // Where those loops placed the text up to a control (the line's
            // end, most often), `printRow` would set up the row for nothing.
            if index != start && text.character(at: index) == nil { return index }
        }
        return printRows(of: text, from: index)
    }

    /// Where the text ahead starts with a character of three bytes: its wide
    /// characters of three bytes (CJK ideographs, kana, Hangul, fullwidth
    /// forms), placed on the cursor's row by `placeWideText` while both
    /// halves fit before the right edge's column; returns where they end,
    /// which `printRows` takes on from. Called once an offer, as
    /// `printNarrowText` is, so that `printRow`'s loop stays as it was.
    @inline(never)
    mutating func printWideText(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard !cursor.pendingWrap else { return start }
        let (row, flags, page) = active.rowAndFlags(ScreenRow(cursor.row))
        bindPen(toPage: page)
        let placed = Self.placeWideText(
            base, from: start, to: end, in: row, col: cursor.col, before: rightEdge(rowFlags: flags),
            cellBits: penCellBits, widths: widths)
        // The REP state: the last character placed (its left half).
        if placed.index != start {
            cursor.col = placed.col
            lastGraphic = Self.graphic(row[placed.col &- 2])
        }
        return placed.index
    }

    /// Where the text ahead starts with a character of two bytes (Latin,
    /// Greek, Cyrillic, Armenian, Hebrew, Arabic…): its narrow characters of
    /// one or two bytes, placed on the cursor's row by `placeNarrowText` up
    /// to the column before the right edge; returns where they end, which
    /// `printRows` takes on from. A loop of its own rather than a path of
    /// `printRow`'s: a call inside that loop changed how it kept its values
    /// in registers, and CJK, emoji and flags ran 3–9% slower.
    @inline(never)
    mutating func printNarrowText(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard !cursor.pendingWrap else { return start }
        let (row, flags, page) = active.rowAndFlags(ScreenRow(cursor.row))
        bindPen(toPage: page)
        let placed = Self.placeNarrowText(
            base, from: start, to: end, in: row, col: cursor.col, before: rightEdge(rowFlags: flags),
            cellBits: penCellBits, widths: widths)
        // The REP state: the character placed or joined last.
        if placed.index != start {
            cursor.col = placed.col
            lastGraphic = Self.graphic(row[placed.col &- 1])
        }
        return placed.index
    }

    /// Prints `characters` from `start` to their end, a row at a time
    /// (`printRow`), and each character the row's quick path leaves to
    /// `printScalar`: returns where they end.
    ///
    /// - Precondition: no grapheme clustering, insert mode or protected pen.
    @inline(__always)
    mutating func printRows<Characters: PrintableCharacters>(of characters: Characters, from start: Int) -> Int {
        var index = start
        while true {
            if !cursor.pendingWrap { index = printRow(of: characters, from: index) }
            // A pending wrap, no room for the next character, or a
            // zero-width scalar with nothing before it on this row: the
            // general path decides (wraps, leaves a spacer, joins the
            // previous row's last character, drops the mark).
            guard let (scalar, next) = characters.character(at: index) else { return index }
            printScalar(scalar)
            index = next
            // None left: no other row is touched (a wide character dropped
            // after a wrap leaves the cursor on a row it did not write,
            // which the quick path would mark changed).
            if characters.character(at: index) == nil { return index }
        }
    }

    /// A run of non-ASCII scalars with short stretches of printable ASCII
    /// between them (the parser's `printText(_:)`). Where ASCII in GL is
    /// itself (no other charset, no single shift) and `printRunOfScalars`
    /// takes the quick path, an ASCII scalar is a narrow character like any
    /// other there, stored as `printASCII` stores it (the pen's cell with
    /// the byte), so the run goes through in one call; otherwise each
    /// stretch goes where it would on its own.
    mutating func printMixedRun(_ scalars: UnsafeBufferPointer<UInt32>) {
        guard charsets.isPlainASCII && !modes.graphemeClustering && !modes.insert && !protectedPen else {
            printTextInStretches(scalars)
            return
        }
        printRunOfScalars(scalars)
    }

    /// The quick path of `printRows`: places the characters from `start` on
    /// the cursor's row while each fits before the right edge, and returns
    /// the index of the first it left (their end when none).
    ///
    /// The cursor column and the last character live in locals and are
    /// written back once, on the way out: stored per character, they were
    /// stores to `self` the compiler could not keep in registers across the
    /// cell stores (`row` might alias `self` as far as it knows). Zero-width
    /// scalars join the character before them here, in this row, whether
    /// this run placed it or not (a combining mark after ASCII starts a run:
    /// 36K of the 60K runs in 2 MiB of the unicode corpus).
    ///
    /// - Precondition: no pending wrap; no grapheme clustering, insert mode
    ///   or protected pen.
    @inline(__always)
    mutating func printRow<Characters: PrintableCharacters>(of characters: Characters, from start: Int) -> Int {
        let (row, flags, page) = active.rowAndFlags(ScreenRow(cursor.row))
        bindPen(toPage: page)
        let edge = rightEdge(rowFlags: flags)
        let widths = widths
        let cellBits = penCellBits
        let autowrap = modes.autowrap
        // Column of the last character placed or joined in this call (its
        // left half when wide), -1 before the first: the REP state is read
        // back from that cell, so the loop carries one value for it, not a
        // content word and a width (measured: their moves and spills cost
        // more per character than the read-back per run).
        var lastColumn = -1
        // The cluster cache's page key, -1 until the first mark of the call.
        var cachePage = -1
        var col = cursor.col
        var pendingWrap = false
        var index = start
        // Columns stay within the row (`edge` < `columns`): wrapping
        // operators spare the overflow checks.
        while let (scalar, next) = characters.character(at: index) {
            let width = widths.width(of: scalar)
            if width == 0 {
                // A combining mark or other zero-width scalar joins the
                // character before it, found as `previousCharacterCell` finds
                // it with no wrap pending (none is, in this loop): the cell
                // left of the cursor, or the left half of a wide character
                // there. After a character of this run that is the character
                // (or, autowrap off, with a narrow one in the last column,
                // the cell left of it, as in xterm); at the start of the run,
                // whatever is there.
                // With autowrap on, a character of this run is at
                // `lastColumn` (placing one in the last column ends the loop
                // with a wrap pending), with no cell to inspect: decomposed
                // text puts a mark after nearly every letter. Otherwise none
                // (start of the row) or a blank: the general path drops the
                // mark and counts it.
                let target: Int
                if lastColumn >= 0 && autowrap {
                    target = lastColumn
                } else {
                    guard let column = Self.characterColumn(at: col &- 1, in: row) else { break }
                    target = column
                }
                // A pair the id holds (a letter and a diacritic, or a
                // character and VS16, VS15 or ZWJ): no lookup.
                if let pair = Self.pairID(extending: row[target], with: scalar) {
                    row[target].setCluster(pair)
                    lastColumn = target
                    index = next
                    continue
                }
                // The cache is checked against the grid's tables once a
                // call: only a miss here changes them, and it keeps the
                // cache in step itself.
                if cachePage < 0 { cachePage = validClusterCachePage(page) }
                let cacheKey = Self.clusterCacheKey(extending: row[target], with: scalar)
                // A miss interns the cluster, which may compact the page's
                // table and renumber its cells' ids: the REP state is read
                // back from the cell at `lastColumn` on the way out.
                var found = clusterExtensions.id(for: cacheKey, page: cachePage)
                if found == nil {
                    found = newClusterID(
                        extending: row[target], with: scalar, page: page, cacheKey: cacheKey, cachePage: cachePage)
                }
                if let id = found {
                    row[target].setCluster(id)
                    lastColumn = target
                }
                // Past the cluster limit (counted) the REP state stays as it
                // was, as in `attachToPreviousCell`.
                index = next
                continue
            }
            if width == 1 {
                // Narrow, the commonest (letters, box drawing): one cell to
                // inspect and store, no right half.
                guard col <= edge else { break }
                if row[col].content & Cell.widthMask != 0 { clearWideOverlap(row, from: col, count: 1) }
                UnsafeMutableRawPointer(row + col).storeBytes(of: cellBits | UInt64(scalar), as: UInt64.self)
                index = next
                lastColumn = col
                if col == edge {
                    if autowrap {
                        pendingWrap = true
                        break
                    }
                } else {
                    col &+= 1
                }
                continue
            }
            // Wide (the table's widths are 0, 1 and 2): both cells must fit
            // before the edge.
            let end = col &+ 1
            guard end <= edge else { break }
            // Both cells `clearWideOverlap` inspects narrow (almost always):
            // one test of their width bits ORed, not its two checks.
            if (row[col].content | row[end].content) & Cell.widthMask != 0 {
                clearWideOverlap(row, from: col, count: 2)
            }
            // The pen's cell with the scalar and the left-half role, then the
            // pen's cell with the right-half role (as `placeCharacter` builds
            // them).
            let wideBits = UInt64(Cell.Width.wide.rawValue) << UInt64(Cell.widthShift)
            let tailBits = UInt64(Cell.Width.wideTail.rawValue) << UInt64(Cell.widthShift)
            UnsafeMutableRawPointer(row + col).storeBytes(of: cellBits | UInt64(scalar) | wideBits, as: UInt64.self)
            UnsafeMutableRawPointer(row + end).storeBytes(of: cellBits | tailBits, as: UInt64.self)
            lastColumn = col
            index = next
            // As `advanceCursor`: past the edge the cursor stays in the last
            // column, with a pending wrap when autowrap is on (the next
            // character then goes through the general path).
            col = end &+ 1
            if col > edge {
                col = edge
                if autowrap {
                    pendingWrap = true
                    break
                }
            }
        }
        // A zero-width scalar leaves the cursor as it was; one dropped at the
        // cluster limit leaves the REP state as it was too.
        if index != start {
            cursor.col = col
            cursor.pendingWrap = pendingWrap
            if lastColumn >= 0 { lastGraphic = Self.graphic(row[lastColumn]) }
        }
        return index
    }

    /// Places the narrow characters of one or two bytes of UTF-8 (printable
    /// ASCII, and below U+0800: Latin, Greek, Cyrillic, Armenian, Hebrew,
    /// Arabic…) from `base[start]` on, at `col` on, while `col` is before
    /// `edge`, each the pen's cell with its scalar as `printRow`'s narrow
    /// path stores it; a diacritic after a narrow character joins it into a
    /// pair its id holds (``ClusterTable/pairID(base:mark:)``). Returns the
    /// index of the first byte left and the column after the last character
    /// placed. It stops at anything else, which `printRow` takes: a
    /// character of three or four bytes, another zero-width one, a control
    /// or invalid UTF-8, a cell that is half of a wide character, the end.
    /// It reads on past eight printable ASCII bytes in a row, where
    /// `PrintableText` ends the text, so a run of words is placed in one
    /// pass (mostly ASCII text with an accented word now and then was faster
    /// so than handed back to the parser's eight-byte path: PERFORMANCE.md).
    @inline(__always)
    static func placeNarrowText(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, in row: UnsafeMutablePointer<Cell>, col: Int,
        before edge: Int, cellBits: UInt64, widths: UnicodeWidth
    ) -> (index: Int, col: Int) {
        var index = start
        var column = col
        // Offsets stay within the buffer and columns within the row:
        // wrapping operators spare the overflow checks.
        while column < edge && index < end {
            let byte = base[index]
            let scalar: UInt32
            if byte &- 0x20 < 0x5F {
                scalar = UInt32(byte)
                index &+= 1
            } else {
                // A lead byte C2–DF and a continuation byte: U+0080–U+07FF.
                guard byte &- 0xC2 < 0x1E && index &+ 1 < end else { break }
                let continuation = base[index &+ 1] ^ 0x80
                guard continuation < 0x40 else { break }
                let value = UInt32(byte & 0x1F) &<< 6 | UInt32(continuation)
                if !widths.isNarrow(below0800: value) {
                    // A diacritic joins the narrow character left of the
                    // cursor (the one placed just before, or at the start
                    // one already there), as `printRow` joins it; C1
                    // controls, other marks, a mark with no narrow
                    // character before it and wide characters are
                    // `printRow`'s.
                    guard column > 0 && !row[column &- 1].isBlank,
                        let pair = Self.pairID(extending: row[column &- 1], with: value)
                    else { break }
                    row[column &- 1].setCluster(pair)
                    index &+= 2
                    continue
                }
                scalar = value
                index &+= 2
            }
            if row[column].content & Cell.widthMask != 0 {
                // Half of a wide character: `printRow` clears it.
                index &-= scalar < 0x80 ? 1 : 2
                break
            }
            UnsafeMutableRawPointer(row + column).storeBytes(of: cellBits | UInt64(scalar), as: UInt64.self)
            column &+= 1
        }
        return (index, column)
    }

    /// Places the wide characters of three bytes of UTF-8 from `base[start]`
    /// on, at `col` on, while both halves fit before `edge` (the edge's column
    /// itself is `printRow`'s, which sets the pending wrap), each as
    /// `printRow`'s wide path stores it: the pen's cell with the scalar and
    /// the left-half role, then the pen's cell with the right-half role.
    /// Returns the index of the first byte left and the column after the
    /// last character placed. It stops at anything else: another length or
    /// width, invalid UTF-8 (an overlong form or a surrogate), a cell that is
    /// half of a wide character already, the end. Per character: the lead
    /// byte's class, two continuation bytes, the width table and two stores
    /// (through `printRow`, about 70 instructions a character of
    /// unicode_cjk, 2 MiB at 80×24).
    @inline(__always)
    static func placeWideText(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, in row: UnsafeMutablePointer<Cell>, col: Int,
        before edge: Int, cellBits: UInt64, widths: UnicodeWidth
    ) -> (index: Int, col: Int) {
        var index = start
        var column = col
        let wideBits = cellBits | UInt64(Cell.Width.wide.rawValue) << UInt64(Cell.widthShift)
        let tailBits = cellBits | UInt64(Cell.Width.wideTail.rawValue) << UInt64(Cell.widthShift)
        // Offsets stay within the buffer and columns within the row:
        // wrapping operators spare the overflow checks.
        while column &+ 1 < edge && index &+ 2 < end {
            let lead = base[index]
            guard lead &- 0xE0 < 0x10 else { break }
            let second = UInt32(base[index &+ 1] ^ 0x80)
            let third = UInt32(base[index &+ 2] ^ 0x80)
            guard second | third < 0x40 else { break }
            let scalar = UInt32(lead & 0x0F) &<< 12 | second &<< 6 | third
            // U+0800 and above (no overlong form), and no surrogate (Unicode
            // §3.9, Table 3-7); below U+10000, so the width table's index is
            // in range.
            guard scalar >= 0x800 && scalar & 0xF800 != 0xD800 && widths.width(of: scalar) == 2 else { break }
            // Either cell half of a wide character: `printRow` clears it.
            guard (row[column].content | row[column &+ 1].content) & Cell.widthMask == 0 else { break }
            UnsafeMutableRawPointer(row + column).storeBytes(of: wideBits | UInt64(scalar), as: UInt64.self)
            UnsafeMutableRawPointer(row + (column &+ 1)).storeBytes(of: tailBits, as: UInt64.self)
            index &+= 3
            column &+= 2
        }
        return (index, column)
    }

    /// The REP state for the character in `cell` (not a right half): its
    /// scalar or cluster id, and its width.
    @inline(__always)
    static func graphic(_ cell: Cell) -> (content: UInt32, width: Int) {
        (cell.content & (Cell.valueMask | Cell.clusterFlag), cell.width == .wide ? 2 : 1)
    }

    /// Places one character (a scalar or a cluster content word) at the
    /// cursor. A cluster's id is one of page `clusterPage` (by default the
    /// page of the cursor's row as the call starts), interned again in the
    /// page of the row it lands on when that is another.
    mutating func printCharacter(_ content: UInt32, width: Int, clusterPage: Int? = nil) {
        let sourcePage =
            content & Cell.clusterFlag != 0 ? clusterPage ?? active.page(ofScreenRow: ScreenRow(cursor.row)) : -1
        if cursor.pendingWrap { wrapToNextLine() }
        var edge = rightEdge
        if cursor.col > edge { cursor.col = edge }
        if width == 2 {
            if cursor.col >= edge {
                if modes.autowrap && edge > leftMargin {
                    // It does not fit: leave a spacer and wrap (xterm, Ghostty).
                    let spacer = Cell(
                        scalar: 0, width: .wrapSpacer,
                        style: eraseKey(page: active.page(ofScreenRow: ScreenRow(cursor.row))))
                    let row = active.row(ScreenRow(cursor.row))
                    clearWideOverlap(row, from: cursor.col, count: 1)
                    row[cursor.col] = spacer
                    wrapToNextLine()
                    edge = rightEdge
                } else {
                    cursor.col = max(0, edge - 1)
                }
            }
            // Still no room for two cells (one usable column: a 1-column
            // screen, a double-width row of a 2-column screen): the
            // character cannot be shown.
            guard cursor.col + 1 <= edge else {
                counters.droppedWideCharacters += 1
                return
            }
        }
        if modes.insert { insertBlankCells(width) }
        var content = content
        let page = active.page(ofScreenRow: ScreenRow(cursor.row))
        if sourcePage >= 0 && sourcePage != page {
            let scalars = active.pages[sourcePage].clusters[content & Cell.valueMask]
            content = active.clusterID(for: scalars, page: page).map { Cell.clusterFlag | $0 } ?? (scalars.first ?? 0)
        }
        bindPen(toPage: page)
        placeCharacter(
            content, width: width, in: active.row(ScreenRow(cursor.row)), at: cursor.col, edge: edge,
            protected: protectedPen)
    }

    /// Stores a character that fits at `col` of `row` (one cell, or two for a
    /// wide one) with the pen, and moves the cursor past it. The pen is bound
    /// to the row's page (`bindPen(toRow:)`). `protected` is
    /// the pen's DECSCA state, passed in so that a caller that knows it is
    /// off does not test it per character.
    @inline(__always)
    mutating func placeCharacter(
        _ content: UInt32, width: Int, in row: UnsafeMutablePointer<Cell>, at col: Int, edge: Int, protected: Bool
    ) {
        clearWideOverlap(row, from: col, count: width)
        var cell = Cell(content: content, style: penKey, linkID: penLink)
        if width == 2 { cell.content |= UInt32(Cell.Width.wide.rawValue) << Cell.widthShift }
        if protected { cell.content |= Cell.protectedFlag }
        row[col] = cell
        if width == 2 {
            var tail = Cell(scalar: 0, width: .wideTail, style: penKey)
            tail.linkID = penLink
            if protected { tail.content |= Cell.protectedFlag }
            row[col + 1] = tail
        }
        lastGraphic = (content, width)
        advanceCursor(from: col, by: width, edge: edge)
    }

    /// Moves the cursor right after printing; at the right edge it stays in
    /// the last column with a pending wrap (autowrap on) or without (off).
    @inline(__always)
    mutating func advanceCursor(by count: Int) {
        advanceCursor(from: cursor.col, by: count, edge: rightEdge)
    }

    /// `advanceCursor(by:)` from column `col` when the right edge is at hand.
    @inline(__always)
    mutating func advanceCursor(from col: Int, by count: Int, edge: Int) {
        if col &+ count > edge {
            cursor.col = edge
            cursor.pendingWrap = modes.autowrap
        } else {
            cursor.col = col &+ count
        }
    }

    /// Where printing wraps: the right margin when the cursor is inside the
    /// margins, else the last column.
    @inline(__always)
    var rightEdge: Int {
        let last = lastColumn(row: cursor.row)
        return modes.leftRightMargins && cursor.col <= marginRight ? min(marginRight, last) : last
    }

    /// `rightEdge` for the cursor's row when its flags are already at hand.
    @inline(__always)
    func rightEdge(rowFlags: RowFlags) -> Int {
        let last = lastColumn(rowFlags: rowFlags)
        return modes.leftRightMargins && cursor.col <= marginRight ? min(marginRight, last) : last
    }

    /// The last column that can hold a character on a row: half the width on
    /// double-width and double-height rows (DEC STD 070, DECDWL).
    @inline(__always)
    func lastColumn(row: Int) -> Int {
        active.mayHoldDoubleSizeRows ? lastColumn(rowFlags: active.flags(ScreenRow(row))) : columns - 1
    }

    @inline(__always)
    func lastColumn(rowFlags: RowFlags) -> Int {
        rowFlags.isDisjoint(with: .doubleSize) ? columns - 1 : max(0, columns / 2 - 1)
    }

    /// Autowrap: mark the row as continued, then to the left margin of the
    /// next row, scrolling at the bottom margin.
    mutating func wrapToNextLine() {
        active.insertFlags(.wrapped, into: ScreenRow(cursor.row))
        cursor.col = leftMargin
        cursor.pendingWrap = false
        lineFeed()
    }

    /// Before cells `start..<start+count` are overwritten, blanks the other
    /// half of any wide character they would cut in two.
    @inline(__always)
    func clearWideOverlap(_ row: UnsafeMutablePointer<Cell>, from start: Int, count: Int) {
        Self.clearWideOverlap(row, from: start, count: count, columns: columns)
    }

    /// `clearWideOverlap` for a row of `columns` cells, touching nothing else.
    @inline(__always)
    static func clearWideOverlap(_ row: UnsafeMutablePointer<Cell>, from start: Int, count: Int, columns: Int) {
        if row[start].width == .wideTail && start > 0 {
            row[start &- 1] = Cell.blank(style: row[start &- 1].styleKey)
        }
        let last = start &+ count &- 1
        if row[last].width == .wide && last &+ 1 < columns {
            row[last &+ 1] = Cell.blank(style: row[last &+ 1].styleKey)
        }
    }

    /// Adds a zero-width scalar (combining mark, ZWJ, variation selector) to
    /// the character before the cursor, as xterm does.
    mutating func attachToPreviousCell(_ scalar: UInt32) {
        guard let (row, col) = previousCharacterCell(),
            let id = clusterID(extending: row[col], with: scalar, page: active.page(ofScreenRow: ScreenRow(cursor.row)))
        else { return }
        row[col].setCluster(id)
        lastGraphic = Self.graphic(row[col])
    }

    /// The cell of the character just before the cursor (the cursor's own
    /// cell while a wrap is pending; the left half of a wide character), or
    /// nil, counted as a dropped mark, when there is none.
    mutating func previousCharacterCell() -> (row: UnsafeMutablePointer<Cell>, column: Int)? {
        let row = active.row(ScreenRow(cursor.row))
        guard let col = Self.characterColumn(at: cursor.pendingWrap ? cursor.col : cursor.col - 1, in: row) else {
            counters.droppedCombiningMarks += 1  // nothing to combine with
            return nil
        }
        return (row, col)
    }

    /// The column of the character whose cell is `col` of `row` (its left
    /// half when `col` is a right half), or nil when there is none: left of
    /// the row, or a blank.
    @inline(__always)
    static func characterColumn(at col: Int, in row: UnsafeMutablePointer<Cell>) -> Int? {
        var col = col
        if col >= 0 && row[col].width == .wideTail { col &-= 1 }
        return col >= 0 && !row[col].isBlank ? col : nil
    }

    /// The id of the cluster `cell`'s character plus `scalar`, through the
    /// cache of extensions seen before; nil (counted) past the length limit.
    /// The cache probe is inlined (a hit is most marks; measured on the
    /// unicode corpus: called, about 51 instructions a mark, inlined about
    /// 22).
    /// `page` is the page of the row that holds `cell`, whose ids are the
    /// cell's and the cluster's.
    @inline(__always)
    mutating func clusterID(extending cell: Cell, with scalar: UInt32, page: Int) -> UInt32? {
        if let pair = Self.pairID(extending: cell, with: scalar) { return pair }
        let cachePage = validClusterCachePage(page)
        let cacheKey = Self.clusterCacheKey(extending: cell, with: scalar)
        if let id = clusterExtensions.id(for: cacheKey, page: cachePage) { return id }
        return newClusterID(extending: cell, with: scalar, page: page, cacheKey: cacheKey, cachePage: cachePage)
    }

    /// The id of `cell`'s scalar plus `scalar` when the id holds the pair
    /// itself (``ClusterTable/pairID(base:mark:)``): the id interning them
    /// gives, with no table or cache to look in.
    @inline(__always)
    static func pairID(extending cell: Cell, with scalar: UInt32) -> UInt32? {
        cell.isCluster ? nil : ClusterTable.pairID(base: cell.value, mark: scalar)
    }

    /// The cluster cache's key for `page` of the shown grid (the page and
    /// the screen), after emptying the cache when that grid's ids were
    /// renumbered or reset since it was filled (rare).
    @inline(__always)
    mutating func validClusterCachePage(_ page: Int) -> Int {
        let screen = isAlternateScreen ? 1 : 0
        if active.tablesGeneration != clusterCacheCompactions[screen] {
            clusterExtensions.removeAll()
            clusterCacheCompactions[screen] = active.tablesGeneration
        }
        return page | screen << 30
    }

    /// The cluster cache's key for `cell`'s character extended by `scalar`:
    /// the character's scalar or cluster id, and the scalar.
    @inline(__always)
    static func clusterCacheKey(extending cell: Cell, with scalar: UInt32) -> UInt64 {
        UInt64(cell.content & (Cell.valueMask | Cell.clusterFlag)) << 32 | UInt64(scalar)
    }

    /// `clusterID(extending:with:)` on a cache miss: interns the cluster and
    /// caches it under `cacheKey`.
    @inline(never)
    mutating func newClusterID(
        extending cell: Cell, with scalar: UInt32, page: Int, cacheKey: UInt64, cachePage: Int
    ) -> UInt32? {
        // The cluster's scalars with the new one, on the stack: a cluster
        // the page has already is then found without allocating. They are
        // copied out of the table rather than held as a slice of it, which
        // would share the table's array while a new cluster is appended to
        // it, and the append would copy all of it.
        let count = cell.isCluster ? active.pages[page].clusters.count(of: cell.value) : 1
        guard count < Limits.clusterScalars else {
            counters.droppedCombiningMarks += 1
            return nil
        }
        let compactions = active.compactionCount
        let found = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: count + 1) { buffer in
            if cell.isCluster {
                active.pages[page].clusters.copy(cell.value, into: buffer)
            } else {
                buffer[0] = cell.value
            }
            buffer[count] = scalar
            return active.clusterID(for: UnsafeBufferPointer(buffer), page: page)
        }
        guard let id = found else {
            counters.droppedCombiningMarks += 1
            return nil
        }
        // A compaction renumbered the clusters the cache names (and the
        // cell's own id, which `cacheKey` holds): it starts afresh.
        if active.compactionCount != compactions {
            clusterExtensions.removeAll()
            clusterCacheCompactions[isAlternateScreen ? 1 : 0] = active.tablesGeneration
        } else {
            clusterExtensions.insert(id, for: cacheKey, page: cachePage)
        }
        return id
    }

    /// REP (CSI Ps b): the last graphic character again, `count` times.
    /// Parameters saturate at 65,535, which bounds the work.
    ///
    /// A cluster's id is one of the page of the cursor's row, where it was
    /// printed just before (any other action ends REP's state); it is held
    /// by its scalars and interned again in each row's page.
    mutating func repeatLastCharacter(_ count: Int) {
        guard let (content, width) = lastGraphic else { return }
        guard content & Cell.clusterFlag != 0 else {
            for _ in 0..<count { printCharacter(content, width: width) }
            return
        }
        guard let scalars = active.tables(ofScreenRow: ScreenRow(cursor.row)).clusters.scalars(content & Cell.valueMask)
        else {
            return
        }
        for _ in 0..<count {
            if cursor.pendingWrap { wrapToNextLine() }
            guard let id = clusterID(for: scalars, row: cursor.row) else { return }
            printCharacter(Cell.clusterFlag | id, width: width)
        }
    }
}
