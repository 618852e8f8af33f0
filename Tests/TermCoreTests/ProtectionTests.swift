import TermCore
import Testing

/// ISO protection (SPA `ESC V` / EPA `ESC W`, ECMA-48 §8.3.142 and §8.3.46)
/// beside DEC protection (DECSCA), as xterm keeps them: one protected
/// attribute per cell and one mode for the terminal, set by the last of
/// DECSCA and SPA. The expectations are esctest2's (tests/ech.py, ed.py,
/// el.py `respectsISOProtection` and `doesNotRespectDECProtection`, which
/// xterm 379 passes; decsed.py's `doesNotRespectISOProtect`, which xterm
/// fails by design) and xterm's ctlseqs.
@Suite("Character protection: DECSCA and SPA/EPA")
struct ProtectionTests {
    /// "ab", then "c" protected by SPA…EPA (esctest2's setup), then `erase`
    /// from the first column.
    func isoProtected(then erase: String, columns: Int = 8) -> Terminal {
        terminal(columns, 2, "ab\(ESC)Vc\(ESC)W\(CSI)1;1H" + erase)
    }

    func checksum(_ t: Terminal, row: Int, column: Int) -> String {
        var out: [UInt8] = []
        t.writeBack = { out += $0 }
        t.feed("\(CSI)1;1;\(row);\(column);\(row);\(column)*y")
        return String(decoding: out, as: UTF8.self)
    }

    @Test("ISO protected cells survive erase characters") func isoProtectedCellsSurviveEraseCharacters() {
        let t = isoProtected(then: "\(CSI)3X")
        #expect(t.screenLine(0) == "  c")
        #expect(t.cellAt(0, 2).isProtected)
    }

    @Test("ISO protected cells survive erase display and erase line")
    func isoProtectedCellsSurviveEraseDisplayAndEraseLine() {
        #expect(isoProtected(then: "\(CSI)J").screenLine(0) == "  c")
        #expect(isoProtected(then: "\(CSI)2J").screenLine(0) == "  c")
        #expect(isoProtected(then: "\(CSI)K").screenLine(0) == "  c")
        #expect(isoProtected(then: "\(CSI)1;8H\(CSI)1K").screenLine(0) == "  c")
        #expect(isoProtected(then: "\(CSI)2K").screenLine(0) == "  c")
    }

    @Test("The blanks before a kept cell are written ones") func theBlanksBeforeAKeptCellAreWrittenOnes() {
        // esctest2 expects blank(), blank(), "c": the two erased cells read
        // back as written spaces (DECRQCRA 0x20, negated), the cells after
        // the protected one, erased to the end of the line, as never
        // written (0).
        let t = isoProtected(then: "\(CSI)J")
        #expect(checksum(t, row: 1, column: 1) == "\(ESC)P1!~FFE0\(ESC)\\")
        #expect(checksum(t, row: 1, column: 4) == "\(ESC)P1!~0000\(ESC)\\")
    }

    @Test("DEC protected cells do not survive normal erases") func decProtectedCellsDoNotSurviveNormalErases() {
        let dec = "ab\(CSI)1\"qc\(CSI)0\"q\(CSI)1;1H"
        #expect(terminal(8, 1, dec + "\(CSI)3X").screenLine(0) == "")
        #expect(terminal(8, 1, dec + "\(CSI)J").screenLine(0) == "")
        #expect(terminal(8, 1, dec + "\(CSI)K").screenLine(0) == "")
    }

    @Test("Selective erases keep ISO protected cells too") func selectiveErasesKeepIsoProtectedCellsToo() {
        // xterm: "DECSED respects ISO protection for backward compatibility".
        #expect(terminal(8, 1, "a\(ESC)Vb\(ESC)W\(CSI)?2J").screenLine(0) == " b")
        #expect(terminal(8, 1, "a\(ESC)Vb\(ESC)W\(CSI)?2K").screenLine(0) == " b")
    }

    @Test("Selective rectangle erase keeps only DEC protected cells")
    func selectiveRectangleEraseKeepsOnlyDecProtectedCells() {
        // xterm's DECSERA (ScrnWipeRectangle) looks at DEC protection only.
        #expect(terminal(4, 1, "a\(ESC)Vb\(ESC)W\(CSI)1;1;1;4${").screenLine(0) == "")
        #expect(terminal(4, 1, "a\(CSI)1\"qb\(CSI)0\"q\(CSI)1;1;1;4${").screenLine(0) == " b")
    }

    @Test("The last of DECSCA and SPA decides for every protected cell")
    func theLastOfDecscaAndSpaDecidesForEveryProtectedCell() {
        // SPA, then DECSCA: DEC mode, so ED erases the SPA-protected "c".
        #expect(terminal(8, 1, "ab\(ESC)Vc\(ESC)W\(CSI)0\"q\(CSI)1;1H\(CSI)J").screenLine(0) == "")
        // DECSCA, then SPA…EPA: ISO mode, so ED keeps the DECSCA-protected "c".
        #expect(terminal(8, 1, "ab\(CSI)1\"qc\(CSI)0\"q\(ESC)V\(ESC)W\(CSI)1;1H\(CSI)J").screenLine(0) == "  c")
    }

    @Test("EPA ends protection and keeps the mode") func epaEndsProtectionAndKeepsTheMode() {
        let t = terminal(8, 1, "a\(ESC)Vb\(ESC)Wc")
        #expect(!t.isPenProtected)
        #expect(t.protectionMode == .iso)
        #expect(!t.cellAt(0, 2).isProtected)
        t.feed("\(CSI)2K")
        #expect(t.screenLine(0) == " b")
    }

    @Test("Protection mode follows the controls") func protectionModeFollowsTheControls() {
        #expect(terminal(8, 1).protectionMode == .off)
        #expect(terminal(8, 1, "\(CSI)0\"q").protectionMode == .dec)
        let t = terminal(8, 1, "\(ESC)V")
        #expect(t.protectionMode == .iso && t.isPenProtected)
        t.feed("\(ESC)c")  // RIS: nothing is protected any more
        #expect(t.protectionMode == .off && !t.isPenProtected)
    }

    @Test("C1 SPA and EPA are the escapes") func c1SpaAndEpaAreTheEscapes() {
        #expect(terminal(8, 1, "ab\u{96}c\u{97}d\(CSI)1;1H\(CSI)K").screenLine(0) == "  c")
    }

    @Test("DECSTR stops protecting new characters") func decstrStopsProtectingNewCharacters() {
        // DECSTR resets the protection attribute (VT510: DECSCA "normal").
        let t = terminal(8, 1, "\(ESC)V\(CSI)!pb\(CSI)1;1H\(CSI)K")
        #expect(!t.isPenProtected)
        #expect(t.screenLine(0) == "")
    }

    @Test("DECSTR turns the protection mode off") func decstrTurnsTheProtectionModeOff() {
        // xterm's ReallyReset sets protected_mode to OFF_PROTECT for DECSTR
        // as for RIS: the cells protected before no longer survive a
        // selective erase (DEC) or an ED (ISO).
        let dec = terminal(8, 1, "\(CSI)1\"qa\(CSI)!p")
        #expect(dec.protectionMode == .off && dec.cellAt(0, 0).isProtected)
        dec.feed("\(CSI)?2J")
        #expect(dec.screenLine(0) == "")
        #expect(terminal(8, 1, "\(ESC)Va\(CSI)!p\(CSI)2J").screenLine(0) == "")
    }

    @Test("DECSC saves and DECRC restores the protection") func decscSavesAndDecrcRestoresTheProtection() {
        // DECSC saves the selective-erase attribute with the rendition (VT510
        // manual; xterm saves its PROTECTED flag), SPA's as DECSCA's.
        let t = terminal(8, 1, "\(ESC)V\(ESC)7\(ESC)W\(ESC)8x")
        #expect(t.isPenProtected)
        #expect(t.cellAt(0, 0).isProtected)
    }
}
