// Style and cluster ids, with compaction when a table fills up.

extension TerminalState {
    /// The key of `style`. When all 65,536 table ids are taken, the table is
    /// compacted to the styles cells still use, so a long truecolor session
    /// never runs out (SwiftTerm's table fills and then drops colours).
    mutating func styleKey(for style: Style) -> StyleKey {
        if let key = styles.key(for: style) { return key }
        compactStyles()
        return styles.key(for: style) ?? .default
    }

    mutating func clusterID(for scalars: [UInt32]) -> UInt32? {
        if let id = clusters.id(for: scalars) { return id }
        compactClusters()
        return clusters.id(for: scalars)
    }

    /// Drops styles no cell, pen or saved cursor refers to, and renumbers.
    /// - Complexity: O(cells stored), once per 65,536 new styles at most.
    mutating func compactStyles() {
        let columns = columns
        let (primary, other) = (active, inactive)
        func eachRow(_ body: (UnsafeMutablePointer<Cell>) -> Void) {
            primary.forEachRow(body)
            other.forEachRow(body)
        }
        styles.compact(
            markUsed: { markUsed in
                eachRow { row in
                    for col in 0..<columns where !row[col].styleKey.isPalettePair { markUsed(row[col].styleBits) }
                }
            },
            renumber: { map in
                eachRow { row in
                    for col in 0..<columns where !row[col].styleKey.isPalettePair {
                        row[col].styleBits = UInt16(truncatingIfNeeded: map[Int(row[col].styleBits)])
                    }
                }
            })
        counters.styleCompactions += 1
        tablesEpoch += 1
        // The pen and saved cursors hold styles by value: intern them again.
        penKey = styles.key(for: pen) ?? .default
        cachedEraseKey = nil
    }

    /// Drops clusters no cell refers to, and renumbers.
    mutating func compactClusters() {
        var used = [Bool](repeating: false, count: clusters.count)
        for grid in [active, inactive] {
            grid.forEachRow { row in
                for col in 0..<columns where row[col].isCluster { used[Int(row[col].value)] = true }
            }
        }
        if let (content, _) = lastGraphic, content & Cell.clusterFlag != 0 {
            used[Int(content & Cell.valueMask)] = true
        }
        let remap = clusters.compact(keeping: used)
        clusterExtensions.removeAll()
        for grid in [active, inactive] {
            grid.forEachRow { row in
                for col in 0..<columns where row[col].isCluster { row[col].setCluster(remap[Int(row[col].value)]) }
            }
        }
        if let (content, width) = lastGraphic, content & Cell.clusterFlag != 0 {
            lastGraphic = (Cell.clusterFlag | remap[Int(content & Cell.valueMask)], width)
        }
        counters.clusterCompactions += 1
        tablesEpoch += 1
    }
}

extension TerminalState {
    /// Drops hyperlinks no cell refers to, and renumbers.
    mutating func compactHyperlinks() {
        var used = [Bool](repeating: false, count: hyperlinks.count)
        for grid in [active, inactive] {
            grid.forEachRow { row in
                for col in 0..<columns { used[Int(row[col].linkID)] = true }
            }
        }
        let remap = hyperlinks.compact(keeping: used)
        for grid in [active, inactive] {
            grid.forEachRow { row in
                for col in 0..<columns { row[col].linkID = remap[Int(row[col].linkID)] }
            }
        }
        penLink = 0
        counters.hyperlinkCompactions += 1
        tablesEpoch += 1
    }
}
