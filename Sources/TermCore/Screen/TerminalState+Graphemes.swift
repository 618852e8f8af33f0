// Grapheme clusters with mode 2027: the cluster, not each code point,
// decides the cells a character takes (the convention of Ghostty, WezTerm,
// kitty and others for "DECSET 2027").

extension TerminalState {
    /// Whether `scalar` continues the cluster of the character before the
    /// cursor (the cell `previousCharacterCell` finds), judged from that
    /// cell's own scalars with UAX #29's rules, as Ghostty does. The screen
    /// alone decides, not what was printed last: a scalar printed after a
    /// cursor move joins the character it lands after, and one printed
    /// beside an earlier cluster never joins it by way of the last scalar
    /// printed elsewhere (with autowrap off, a second regional indicator
    /// in the last column used to join the cell left of it). ASCII never
    /// joins (the print paths store it directly).
    func continuesPreviousCluster(_ scalar: UInt32) -> Bool {
        let row = active.row(ScreenRow(cursor.row))
        guard let col = Self.characterColumn(at: cursor.pendingWrap ? cursor.col : cursor.col - 1, in: row) else {
            return false
        }
        let cell = row[col]
        return cell.isCluster
            ? GraphemeBreak.continues(clusterScalars(cell.value, row: cursor.row), with: scalar)
            : GraphemeBreak.continues(CollectionOfOne(cell.value), with: scalar)
    }

    /// Adds `scalar` to the cluster before the cursor, widening it to two
    /// cells (wrapping it whole when it no longer fits) or narrowing it to one.
    mutating func extendPreviousCluster(_ scalar: UInt32) {
        let page = active.page(ofScreenRow: ScreenRow(cursor.row))
        guard let (row, col) = previousCharacterCell(),
            let id = clusterID(extending: row[col], with: scalar, page: page)
        else { return }
        let content = Cell.clusterFlag | id
        let oldWidth = row[col].width == .wide ? 2 : 1
        let newWidth = GraphemeBreak.width(of: active.pages[page].clusters[id])
        row[col].setCluster(id)
        lastGraphic = (content, newWidth)
        if newWidth == oldWidth { return }

        let edge = modes.leftRightMargins && col <= marginRight ? marginRight : lastColumn(row: cursor.row)
        if newWidth == 2 {
            if col < edge {
                // Room for the right half: the cluster grows in place.
                clearWideOverlap(row, from: col + 1, count: 1)
                row[col].content =
                    (row[col].content & ~Cell.widthMask) | UInt32(Cell.Width.wide.rawValue) << Cell.widthShift
                var tail = Cell(scalar: 0, width: .wideTail, style: row[col].styleKey)
                tail.linkID = row[col].linkID
                if row[col].isProtected { tail.content |= Cell.protectedFlag }
                row[col + 1] = tail
                cursor.pendingWrap = false
                cursor.col = col + 1
                advanceCursor(by: 1)
            } else {
                // It no longer fits in the last column: it moves to the next
                // row whole, as a wide character printed there would, with
                // its own style and link. Both are held as values and made
                // the pen for the move: the next row can lie in another page,
                // and the wrap can compact a page's tables.
                let tables = active.pages[page]
                let style = tables.style(of: row[col])
                let link = row[col].linkID == 0 ? nil : tables.links.storedKey(row[col].linkID)
                let spacer = Cell(scalar: 0, width: .wrapSpacer, style: eraseKey(page: page))
                row[col] = spacer
                cursor.col = col
                cursor.pendingWrap = false
                if modes.autowrap {
                    wrapToNextLine()
                } else {
                    cursor.col = max(0, edge - 1)
                }
                let (savedPen, savedTarget) = (pen, penTarget)
                setPen(style)
                setPenTarget(link)
                printCharacter(content, width: 2, clusterPage: page)
                setPen(savedPen)
                setPenTarget(savedTarget)
            }
        } else {
            // Narrowed (VS15): the right half becomes a blank and the cursor
            // steps back onto it.
            row[col].content = row[col].content & ~Cell.widthMask
            row[col + 1] = Cell.blank(style: row[col + 1].styleKey)
            cursor.col = col + 1
            cursor.pendingWrap = false
        }
    }
}
