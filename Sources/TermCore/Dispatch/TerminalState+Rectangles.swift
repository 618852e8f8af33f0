import VTParser

// The VT420 rectangle operations' parameters (VT510 manual, DEC STD 070:
// DECFRA, DECERA, DECSERA, DECCRA; DECRQCRA in TerminalState+Reports.swift)
// decoded into screen areas; TerminalState+Edit.swift does the operations.

extension TerminalState {
    /// `CSI … $ x|z|{|v`: DECFRA, DECERA, DECSERA, DECCRA.
    mutating func rectangleOperation(_ sequence: ControlSequenceView) {
        switch sequence.final {
        case UInt8(ascii: "x"):  // DECFRA: Pch ; Pt ; Pl ; Pb ; Pr
            guard let area = rectangle(sequence, from: 1) else { return }
            fillRectangle(area, with: sequence[0])
        case UInt8(ascii: "z"), UInt8(ascii: "{"):  // DECERA, DECSERA: Pt ; Pl ; Pb ; Pr
            guard let area = rectangle(sequence, from: 0) else { return }
            eraseRectangle(area, selective: sequence.final == UInt8(ascii: "{"))
        case UInt8(ascii: "v"):  // DECCRA: Pts ; Pls ; Pbs ; Prs ; Pps ; Ptd ; Pld ; Ppd
            // The pages (Pps, Ppd) are ignored: the terminal has one.
            guard let source = rectangle(sequence, from: 0) else { return }
            let (rowOffset, colOffset) = rectangleOrigin
            copyRectangle(
                source, toRow: sequence.count(at: 5) - 1 + rowOffset, column: sequence.count(at: 6) - 1 + colOffset)
        default:
            counters.unknownSequences += 1
        }
    }

    /// A rectangle from parameters `Pt;Pl;Pb;Pr` starting at `index`
    /// (1-based, origin-relative under DECOM, defaults the whole page),
    /// clamped to the screen; nil when empty.
    func rectangle(_ sequence: ControlSequenceView, from index: Int) -> ScreenRectangle? {
        let (rowOffset, colOffset) = rectangleOrigin
        let top = sequence.count(at: index) - 1 + rowOffset
        let left = sequence.count(at: index + 1) - 1 + colOffset
        let bottom = (sequence[index + 2] == 0 ? rows : sequence[index + 2] + rowOffset) - 1
        let right = (sequence[index + 3] == 0 ? columns : sequence[index + 3] + colOffset) - 1
        let area = ScreenRectangle(top: top, left: left, bottom: min(bottom, rows - 1), right: min(right, columns - 1))
        guard area.top <= area.bottom && area.left <= area.right && area.top < rows && area.left < columns else {
            return nil
        }
        return area
    }

    /// Where a rectangle's parameters count from: the top margin under
    /// DECOM, and the left margin under DECOM with DECLRMM.
    var rectangleOrigin: (row: Int, column: Int) {
        (modes.origin ? scrollTop : 0, modes.origin && modes.leftRightMargins ? marginLeft : 0)
    }
}
