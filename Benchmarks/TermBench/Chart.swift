import Foundation

/// A hand-written SVG bar chart of MiB/s: one panel per terminal size, one
/// group of horizontal bars per corpus file, one bar per engine, on a log
/// scale (the engines and the memchr bound span four decades).
struct Chart {
    let report: Report

    let width = 1100.0
    let labelWidth = 210.0
    let rightMargin = 60.0
    let barHeight = 9.0
    let barGap = 1.5
    let groupGap = 9.0
    let colours = [
        "termengine": "#e8590c", "libvterm": "#1971c2", "alacritty": "#2f9e44", "vt100": "#7048e8",
        "ghostty": "#e64980", "swiftterm": "#0c8599", "memchr": "#adb5bd",
    ]

    /// An engine's bar colour: the base build (`termengine@…`) in a lighter
    /// shade of termengine's.
    func colour(_ name: String) -> String {
        colours[name] ?? (name.hasPrefix(report.subject + "@") ? "#ffa94d" : "#868e96")
    }

    func svg() -> String {
        let engineNames = report.measuredEngines + (report.limitEngine.map { [$0] } ?? [])
        let rates = report.results.flatMap { $0.measurements.filter { $0.error == nil }.map(\.mibps) }
        let top = pow(10, ceil(log10(max(rates.max() ?? 10, 10))))
        let bottom = 1.0
        let plotLeft = labelWidth + 10
        let plotWidth = width - plotLeft - rightMargin
        func x(_ mibps: Double) -> Double {
            plotLeft + plotWidth * (log10(max(mibps, bottom)) - log10(bottom)) / (log10(top) - log10(bottom))
        }

        var body: [String] = []
        var y = 20.0
        body.append(
            text(
                12, y,
                "TermEngine throughput, MiB/s (log scale), \(report.runner.scrollback) lines of scrollback, "
                    + "median of \(report.runner.runs) run(s) — Benchmarks/results/latest.json", size: 14,
                weight: "bold"))
        y += 22
        var legendX = 12.0
        for name in engineNames {
            body.append(
                "<rect x=\"\(f(legendX))\" y=\"\(f(y - 9))\" width=\"12\" height=\"10\" fill=\"\(colour(name))\"/>"
            )
            let label = name == report.limitEngine ? "\(name) scan (bound)" : name
            body.append(text(legendX + 16, y, label, size: 12))
            legendX += 30 + Double(label.count) * 7
        }
        y += 16

        for size in report.runner.sizes {
            let rows = report.results.filter { $0.size == size }
            guard !rows.isEmpty else { continue }
            y += 14
            body.append(text(12, y, "\(size.columns)×\(size.rows)", size: 13, weight: "bold"))
            y += 8
            let panelTop = y
            let groupHeight = Double(engineNames.count) * (barHeight + barGap)
            let panelHeight = Double(rows.count) * (groupHeight + groupGap)
            // Decade grid lines, and the 1 GiB/s line of the scrolling target.
            var decade = bottom
            while decade <= top {
                let gx = x(decade)
                body.append(
                    "<line x1=\"\(f(gx))\" y1=\"\(f(panelTop))\" x2=\"\(f(gx))\" y2=\"\(f(panelTop + panelHeight))\" stroke=\"#dee2e6\"/>"
                )
                body.append(text(gx, panelTop + panelHeight + 12, decadeLabel(decade), size: 10, anchor: "middle"))
                decade *= 10
            }
            let gib = x(1024)
            body.append(
                "<line x1=\"\(f(gib))\" y1=\"\(f(panelTop))\" x2=\"\(f(gib))\" y2=\"\(f(panelTop + panelHeight))\" stroke=\"#c92a2a\" stroke-dasharray=\"4 3\"/>"
            )
            body.append(text(gib + 3, panelTop + 8, "1 GiB/s", size: 9, fill: "#c92a2a"))
            for result in rows {
                var label = result.corpus
                if let ratio = report.ratio(result) { label += "  \(format(ratio, 2))×" }
                body.append(text(labelWidth, y + groupHeight / 2 + 4, label, size: 11, anchor: "end"))
                for name in engineNames {
                    if let m = result.measurement(name), m.error == nil {
                        let end = x(m.mibps)
                        body.append(
                            "<rect x=\"\(f(plotLeft))\" y=\"\(f(y))\" width=\"\(f(max(end - plotLeft, 1)))\" "
                                + "height=\"\(f(barHeight))\" fill=\"\(colour(name))\"><title>\(escape(name)) "
                                + "\(escape(result.corpus)) \(size): \(format(m.mibps, 1)) MiB/s</title></rect>")
                        let mark = m.screenMatchesSubject == false ? "*" : ""
                        body.append(
                            text(end + 3, y + barHeight - 1, format(m.mibps, m.mibps < 100 ? 1 : 0) + mark, size: 8))
                    }
                    y += barHeight + barGap
                }
                y += groupGap
            }
            y += 18
        }
        body.append(
            text(
                12, y + 4,
                "ratio after each name: termengine ÷ fastest reference"
                    + (report.baseEngine.map { "; termengine ÷ \($0) in the JSON (ratio_vs_base)" } ?? "") + ". "
                    + "* final screen differs from termengine's.", size: 10, fill: "#495057"))
        let height = y + 16
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(height))" viewBox="0 0 \(f(width)) \(f(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
            <rect width="100%" height="100%" fill="white"/>
            \(body.joined(separator: "\n"))
            </svg>

            """
    }

    func decadeLabel(_ value: Double) -> String {
        switch value {
        case ..<1000: return "\(Int(value))"
        case ..<1_000_000: return "\(Int(value / 1000))k"
        default: return "\(Int(value / 1_000_000))M"
        }
    }

    func text(
        _ x: Double, _ y: Double, _ content: String, size: Int, weight: String = "normal", anchor: String = "start",
        fill: String = "#212529"
    ) -> String {
        "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(size)\" font-weight=\"\(weight)\" text-anchor=\"\(anchor)\" fill=\"\(fill)\">\(escape(content))</text>"
    }

    func f(_ value: Double) -> String { String(format: "%.1f", value) }

    func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
