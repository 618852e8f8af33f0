// Read-only access to the state a later byte can observe but a front end
// does not draw: tab stops, margins, the pen, character sets, the saved
// cursors, the kitty keyboard stacks, the title stack and the screen that is
// not shown. A replay compactor needs all of it to rebuild the same terminal;
// a debugger can show it. Nothing here changes the terminal.

/// The character sets designated into G0–G3 and the one invoked into GL
/// (ECMA-35 / ISO 2022 as the VT100 implements it).
public struct CharacterSets: Equatable, Sendable {
    /// A set a designation (`ESC ( F` and kin) can select.
    public enum Set: Equatable, Sendable {
        /// US ASCII (final byte `B`).
        case ascii
        /// DEC Special Graphics (final byte `0`): line drawing.
        case decSpecialGraphics
        /// United Kingdom (final byte `A`): `#` is `£`.
        case british

        /// The final byte that designates the set.
        public var finalByte: UInt8 {
            switch self {
            case .ascii: return UInt8(ascii: "B")
            case .decSpecialGraphics: return UInt8(ascii: "0")
            case .british: return UInt8(ascii: "A")
            }
        }
    }

    /// G0, G1, G2, G3.
    public var designations: [Set]
    /// The set invoked into GL: 0 (SI), 1 (SO), 2 (LS2) or 3 (LS3).
    public var gl: Int
    /// A single shift (2 for SS2, 3 for SS3) waiting for the next character.
    public var singleShift: Int?

    /// The power-on state: ASCII everywhere, G0 in GL.
    public init(designations: [Set] = [.ascii, .ascii, .ascii, .ascii], gl: Int = 0, singleShift: Int? = nil) {
        self.designations = designations
        self.gl = gl
        self.singleShift = singleShift
    }

    init(_ state: CharsetState) {
        designations = state.designations.map { set in
            switch set {
            case .ascii: return .ascii
            case .decSpecialGraphics: return .decSpecialGraphics
            case .british: return .british
            }
        }
        gl = state.gl
        singleShift = state.singleShift
    }
}

/// What DECSC saved for one screen, and DECRC would restore.
public struct SavedCursorState: Equatable, Sendable {
    /// The saved position, in screen coordinates.
    public var position: ScreenPosition
    /// The saved pending-wrap flag.
    public var pendingWrap: Bool
    /// The saved rendition.
    public var style: Style
    /// The saved character sets.
    public var characterSets: CharacterSets
    /// The saved origin mode (DECOM).
    public var originMode: Bool
    /// The saved protection attribute (DECSCA, SPA/EPA).
    public var isProtected: Bool

    /// What DECRC restores when nothing was saved: home, default rendition.
    public static let powerOn = SavedCursorState(
        position: ScreenPosition(row: 0, column: 0), pendingWrap: false, style: Style(),
        characterSets: CharacterSets(), originMode: false, isProtected: false)

    /// A saved cursor from its parts.
    public init(
        position: ScreenPosition, pendingWrap: Bool, style: Style, characterSets: CharacterSets, originMode: Bool,
        isProtected: Bool
    ) {
        self.position = position
        self.pendingWrap = pendingWrap
        self.style = style
        self.characterSets = characterSets
        self.originMode = originMode
        self.isProtected = isProtected
    }

    init(_ saved: SavedCursor) {
        self.init(
            position: ScreenPosition(row: saved.cursor.row, column: saved.cursor.col),
            pendingWrap: saved.cursor.pendingWrap, style: saved.pen, characterSets: CharacterSets(saved.charsets),
            originMode: saved.originMode, isProtected: saved.protected)
    }
}

/// One entry of the title stack (XTWINOPS 22/23); nil where the push left a
/// part out.
public struct TitleStackEntry: Equatable, Sendable {
    /// The window title pushed, or nil when the push (XTWINOPS 22 ; 1) kept
    /// the icon name only.
    public var title: String?
    /// The icon name pushed, or nil when the push (XTWINOPS 22 ; 2) kept the
    /// title only.
    public var iconName: String?
    /// An entry with either part, or both.
    public init(title: String?, iconName: String?) {
        self.title = title
        self.iconName = iconName
    }
}

extension Terminal {
    /// The columns that hold a tab stop, ascending.
    /// - Complexity: O(columns).
    public var tabStops: [Int] { state.tabStops.indices.filter { state.tabStops[$0] } }

    /// The scroll region (DECSTBM), inclusive screen rows.
    public var scrollRegion: ClosedRange<Int> { state.scrollTop...state.scrollBottom }

    /// The left and right margins (DECSLRM), inclusive columns; the whole
    /// width unless DECLRMM is on.
    public var horizontalMargins: ClosedRange<Int> { state.marginLeft...state.marginRight }

    /// The rendition printed characters get now (the SGR pen).
    public var pen: Style { state.pen }

    /// The OSC 8 link printed characters get now, if any.
    public var penHyperlink: Hyperlink? {
        guard let key = state.penTarget else { return nil }
        var table = HyperlinkTable()
        return table.id(storedKey: key).flatMap { table[$0] }
    }

    /// True when characters printed now are protected (DECSCA 1, or
    /// between SPA and EPA).
    public var isPenProtected: Bool { state.protectedPen }

    /// Which erases keep protected cells: DEC after DECSCA, ISO after SPA.
    public var protectionMode: ProtectionMode { state.protectionMode }

    /// G0–G3, GL and a pending single shift.
    public var characterSets: CharacterSets { CharacterSets(state.charsets) }

    /// What DECSC saved on the primary or the alternate screen, or nil when
    /// nothing was (DECRC then restores ``SavedCursorState/powerOn``).
    public func savedCursor(alternateScreen: Bool) -> SavedCursorState? {
        (alternateScreen ? state.savedAlternate : state.savedPrimary).map(SavedCursorState.init)
    }

    /// The kitty keyboard flags stack of a screen, oldest first (the flags in
    /// force are ``TerminalModes/kittyKeyboardFlags``).
    public func kittyKeyboardStack(alternateScreen: Bool) -> [UInt8] {
        alternateScreen ? state.kittyStackAlternate : state.kittyStackPrimary
    }

    /// The title stack (XTWINOPS 22), oldest first.
    public var titleStack: [TitleStackEntry] {
        state.titleStack.map { TitleStackEntry(title: $0.title, iconName: $0.iconName) }
    }

    /// The rows of the primary or the alternate screen, whichever is shown:
    /// the screen that is not shown keeps its content, and a later switch
    /// (DECSET 47) shows it again.
    /// - Complexity: O(rows × columns): the rows are copied.
    public func screenLines(alternateScreen: Bool) -> [SnapshotLine] {
        let grid = alternateScreen == state.isAlternateScreen ? state.active : state.inactive
        var pageTables: [Int: SnapshotTables] = [:]
        return (0..<rows).map { index in
            let row = ScreenRow(index)
            let page = grid.page(ofScreenRow: row)
            let tables = pageTables[page] ?? SnapshotTables(grid.pages[page])
            pageTables[page] = tables
            return SnapshotLine(
                row: makeRow(grid.readRow(row), flags: grid.flags(row), mark: grid.mark(row), tables: tables),
                columns: columns)
        }
    }
}

extension Terminal.Limits {
    /// The longest working directory OSC 7 keeps, in scalars (the sanitizer's
    /// cap for it; titles and icon names take ``TitleSanitizer/defaultLimit``).
    public static let workingDirectory = TermCore.Limits.workingDirectoryScalars
}

extension Terminal {
    /// The most scrollback lines the primary screen keeps.
    public var scrollbackLimit: Int { state.primary.scrollbackLimit }
}

extension SnapshotLine {
    /// The number of columns.
    public var columnCount: Int { columns }

    /// True when the cell at `column` is the power-on cell: blank, default
    /// style, no link, not protected.
    public func isEmpty(_ column: Int) -> Bool { row.cells[column].isEmptyOrWrittenBlank }

    /// True when every cell is the power-on cell and the row has no wrap,
    /// size or mark.
    /// - Complexity: O(columns).
    public var isEmpty: Bool {
        !row.isWrapped && row.size == .single && row.mark == nil && row.cells.allSatisfy(\.isEmptyOrWrittenBlank)
    }
}

extension CellContent {
    /// The power-on cell: blank, default style, no link.
    public static let empty = CellContent(
        scalars: [], width: .narrow, style: Style(), isProtected: false, hyperlink: nil)
}

extension Terminal {
    /// The width of the one cell `scalars` make when printed straight after
    /// a control or escape sequence (so nothing before them can join them),
    /// with mode 2027 on (`graphemeClustering`) or off; nil when they make no
    /// cell or more than one. A replay compactor asks it to print a stored
    /// cell in the mode that gives it back whole and as wide as it is.
    ///
    /// Mode off, each scalar of width 0 joins the cell and the first scalar
    /// gives the width; mode on, the scalars UAX #29 keeps together join, and
    /// the cluster's width is recomputed each time one does (`GraphemeBreak`).
    /// - Complexity: O(scalars).
    public static func printedWidth(of scalars: [Unicode.Scalar], graphemeClustering: Bool) -> Int? {
        guard let first = scalars.first else { return nil }
        var width = first.value < 0x80 ? 1 : UnicodeWidth.width(of: first.value)
        guard width > 0 else { return nil }  // it would join the cell before
        var state: Int32 = 0
        var last = first.value
        for index in scalars.indices.dropFirst() {
            let scalar = scalars[index].value
            guard scalar >= 0x80 else { return nil }  // ASCII starts a cell in both modes
            if graphemeClustering {
                let joins = !GraphemeBreak.isBoundary(between: last, and: scalar, state: &state)
                last = scalar
                if joins {
                    width = GraphemeBreak.width(of: scalars[...index].map(\.value))
                    continue
                }
            }
            guard UnicodeWidth.width(of: scalar) == 0 else { return nil }
        }
        return width
    }

    /// How to print `scalars` as one cell `width` columns wide when neither
    /// setting of mode 2027 alone does (cells printed partly with the mode
    /// on and partly off: a ZWJ sequence joined with the mode on, then a
    /// VS15 added with it off, keeps its two columns): runs of scalars in
    /// order, each printed with the mode on or off, in the fewest switches
    /// starting from `clustering`. Nil when no runs make that cell.
    ///
    /// A scalar joins the cell with the mode off only when it is zero width
    /// (the width stays); with the mode on also when UAX #29 continues the
    /// cell's cluster (the width is then the cluster's, `GraphemeBreak`).
    /// - Complexity: O(scalars²), for the cell's few scalars.
    public static func printRuns(of scalars: [Unicode.Scalar], width: Int, clustering: Bool)
        -> [(clustering: Bool, count: Int)]?
    {
        let values = scalars.map(\.value)
        guard let first = values.first else { return nil }
        let firstWidth = first < 0x80 ? 1 : UnicodeWidth.width(of: first)
        guard firstWidth > 0, width == 1 || width == 2 else { return nil }
        // best[w][m]: the fewest switches that print the scalars so far as a
        // cell w + 1 columns wide, the mode being on (m = 1) or off last;
        // with the mode of each scalar, to read the runs back.
        struct Path {
            var switches: Int
            var modes: [Bool]
        }
        var best: [[Path?]] = [[nil, nil], [nil, nil]]
        for mode in [false, true] {
            best[firstWidth - 1][mode ? 1 : 0] = Path(switches: mode == clustering ? 0 : 1, modes: [mode])
        }
        for index in values.indices.dropFirst() {
            let scalar = values[index]
            guard scalar >= 0x80 else { return nil }  // ASCII starts a cell in both modes
            let zeroWidth = UnicodeWidth.width(of: scalar) == 0
            let continues = GraphemeBreak.continues(values[..<index], with: scalar)
            let clusterWidth = continues ? GraphemeBreak.width(of: Array(values[...index])) : 0
            var next: [[Path?]] = [[nil, nil], [nil, nil]]
            func offer(_ path: Path, width: Int, mode: Bool) {
                let slot = next[width - 1][mode ? 1 : 0]
                if slot == nil || path.switches < slot!.switches { next[width - 1][mode ? 1 : 0] = path }
            }
            for cellWidth in 1...2 {
                for mode in [false, true] {
                    guard let path = best[cellWidth - 1][mode ? 1 : 0] else { continue }
                    // Off: only a zero-width scalar joins, the width stays.
                    if zeroWidth {
                        offer(
                            Path(switches: path.switches + (mode ? 1 : 0), modes: path.modes + [false]),
                            width: cellWidth, mode: false)
                    }
                    // On: a continued cluster takes its own width; a
                    // zero-width scalar that does not continue it joins
                    // as with the mode off.
                    if continues || zeroWidth {
                        offer(
                            Path(switches: path.switches + (mode ? 0 : 1), modes: path.modes + [true]),
                            width: continues ? clusterWidth : cellWidth, mode: true)
                    }
                }
            }
            best = next
        }
        let ends = best[width - 1].compactMap { $0 }
        guard let path = ends.min(by: { $0.switches < $1.switches }) else { return nil }
        var runs: [(clustering: Bool, count: Int)] = []
        for mode in path.modes {
            if let last = runs.last, last.clustering == mode {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((mode, 1))
            }
        }
        return runs
    }

    /// With mode 2027 on, whether `next` printed with the cursor just after
    /// a character whose cell holds `cell` (or on it, with a wrap pending)
    /// would join that cell instead of starting one: UAX #29 judged from
    /// the cell's own scalars, as the engine does. ASCII never joins.
    /// - Complexity: O(cell).
    public static func joinsCluster(_ next: Unicode.Scalar, afterCell cell: [Unicode.Scalar]) -> Bool {
        guard !cell.isEmpty, next.value >= 0x80 else { return false }
        return GraphemeBreak.continues(cell.lazy.map(\.value), with: next.value)
            || UnicodeWidth.width(of: next.value) == 0
    }
}
