import Foundation
import TermAttach
import TermCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `termengine sessions`: the server's live sessions as a table, and with
/// `--thumbnails DIR` a PNG per session made from its preview.
enum SessionsCommand {
    static let usage = "termengine sessions URL [--origin O] [--thumbnails DIR]"

    static func run(_ arguments: inout Arguments) throws {
        let origin = try arguments.values("--origin").last
        let thumbnails = try arguments.values("--thumbnails").last
        let positionals = try arguments.positionals()
        guard positionals.count == 1 else {
            throw Arguments.Failure(description: "sessions takes one URL\nusage: \(usage)")
        }
        let endpoint = try parseEndpoint(positionals[0])
        let client = AttachHTTPClient(endpoint: endpoint, origin: origin)
        let colour = isatty(STDOUT_FILENO) != 0
        try runAsync {
            let listing = try await client.liveSessionListing()
            let sessions = listing.sessions
            let now = Int(Date().timeIntervalSince1970 * 1000)
            print(table(sessions, nowMilliseconds: now, colour: colour), terminator: "")
            if listing.skippedInvalidIDs > 0 {
                // Such an id is never printed, used as a file name or put in a URL.
                let count = listing.skippedInvalidIDs
                FileHandle.standardError.write(
                    Data(
                        "termengine sessions: skipped \(count) session\(count == 1 ? "" : "s") whose id is not a UUID v4\n"
                            .utf8))
            }
            guard let thumbnails else { return }
            try FileManager.default.createDirectory(atPath: thumbnails, withIntermediateDirectories: true)
            for session in sessions {
                // The listing has checked it: a UUID v4 is a safe file name.
                guard SessionID(session.id) != nil else { continue }
                let png = try await client.thumbnailPNG(id: session.id)
                let path = (thumbnails as NSString).appendingPathComponent("\(session.id).png")
                guard FileManager.default.createFile(atPath: path, contents: Data(png)) else {
                    throw Arguments.Failure(description: "cannot write \(path)")
                }
                print("wrote \(path)")
            }
        }
    }

    /// The table: id, status (`!` while a gate is pending, with its kind),
    /// size, cost and context; telemetry older than 30 s is greyed (or marked
    /// "stale" when the output is not a terminal).
    static func table(_ sessions: [LiveSession], nowMilliseconds: Int, colour: Bool) -> String {
        var rows = [["ID", "STATUS", "SIZE", "COST", "CONTEXT"]]
        var stale: [Bool] = [false]
        for session in sessions {
            var status = session.status.rawValue
            if session.pending { status = "!" + status + (session.gate.map { " (\($0.rawValue) gate)" } ?? " (gate)") }
            if session.exited { status += " exited" }
            let size = session.columns.flatMap { columns in session.rows.map { "\(columns)×\($0)" } } ?? "-"
            let telemetry = session.telemetry
            let cost = telemetry?.costUsd.map { String(format: "$%.2f", $0) } ?? "-"
            let context = telemetry?.contextUsedPct.map { String(format: "%.0f%%", $0) } ?? "-"
            let isStale = telemetry?.isStale(nowMilliseconds: nowMilliseconds) ?? false
            // Every cell that holds server text is sanitized (the id is a checked UUID v4 already).
            rows.append([
                ServerText.sanitized(session.id), status, size, cost, context + (isStale && !colour ? " (stale)" : ""),
            ])
            stale.append(isStale)
        }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var out = ""
        for (index, row) in rows.enumerated() {
            var line = ""
            for column in 0..<5 {
                var cell = row[column].padding(toLength: widths[column], withPad: " ", startingAt: 0)
                if column >= 3 && stale[index] && colour { cell = "\u{1B}[2m" + cell + "\u{1B}[0m" }
                line += (column == 0 ? "" : "  ") + cell
            }
            out += line.droppingTrailingSpaces() + "\n"
        }
        if sessions.isEmpty { out += "(no live sessions)\n" }
        return out
    }
}

/// Parses a base URL for the CLI, with the endpoint's own message.
func parseEndpoint(_ text: String) throws -> AttachEndpoint {
    do {
        return try AttachEndpoint(text)
    } catch {
        throw Arguments.Failure(description: error.description)
    }
}

/// Runs async work from the synchronous CLI and waits for it.
func runAsync(_ body: @escaping @Sendable () async throws -> Void) throws {
    final class Outcome: @unchecked Sendable {
        // Written once by the task before the semaphore is signalled, read after.
        var error: (any Error)?
    }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do {
            try await body()
        } catch {
            outcome.error = error
        }
        done.signal()
    }
    done.wait()
    if let error = outcome.error { throw error }
}
