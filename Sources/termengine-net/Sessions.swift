import CommandLineOptions
import Foundation
import TermAttach
import TermCore
import TermEngineCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `termengine sessions`: the server's live sessions as a table, and with
/// `--thumbnails DIR` a PNG per session made from its preview.
enum SessionsCommand {
    static let usage = NetworkCommands.sessionsUsage

    static let details = """
        Lists the live sessions of the web-terminal server at URL (http://host:port or
        https://host:port): id, status (! while a gate is pending), size, cost and context.

          --origin O           the Origin header for requests that send one (the listing and the
                               previews, GET requests, send none)
          --thumbnails DIR     also write DIR/<id>.png from each session's preview (the first
                               \(maxThumbnails) sessions)
          --timeout S          seconds for the whole command, listing and thumbnails together
                               (default \(Int(defaultTimeout)), at most 86400)
        """

    /// The most thumbnails one run writes: 32. Each is a preview request (up
    /// to 15 s) and a render (up to ~70 MB and a second for the largest
    /// session), and a listing may hold 4,096 entries: 32 covers a screenful
    /// of sessions. The rest are counted in one warning.
    static let maxThumbnails = 32
    /// The whole command's deadline by default: 60 s, for the listing and
    /// every thumbnail together (32 typical previews take a second or two).
    /// `--timeout S` sets another.
    static let defaultTimeout: Double = 60

    /// The command's deadline passed (exit 2, one line).
    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ arguments: inout Arguments) throws {
        let origin = try arguments.values("--origin").last
        let thumbnails = try arguments.values("--thumbnails").last
        let timeoutText = try arguments.values("--timeout").last
        let positionals = try arguments.positionals()
        guard positionals.count == 1 else {
            throw Arguments.Failure(description: "sessions takes one URL\nusage: \(usage)")
        }
        var timeout = defaultTimeout
        if let timeoutText {
            guard let value = Double(timeoutText), value > 0, value <= 86_400 else {
                throw Arguments.Failure(description: "--timeout must be seconds in (0, 86400], got '\(timeoutText)'")
            }
            timeout = value
        }
        let endpoint = try parseEndpoint(positionals[0])
        let colour = isatty(STDOUT_FILENO) != 0
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
        // A client whose requests end by the command's deadline: each has
        // 15 s at most, and no more than what is left; `boundByDeadline`
        // when what is left is the less.
        @Sendable func client() -> (client: AttachHTTPClient, boundByDeadline: Bool)? {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            let client = AttachHTTPClient(
                endpoint: endpoint, origin: origin,
                transport: StreamingHTTPTransport(timeout: min(AttachHTTPClient.requestTimeout, seconds)))
            return (client, seconds < AttachHTTPClient.requestTimeout)
        }
        // A request cut short by the command's deadline: its own timeout was
        // what was left of the deadline, or the deadline has passed. (The
        // transport's clock may end the request a hair before `deadline` by
        // this one: the clock alone said "the HTTP request timed out after
        // 0.9 s" now and then.)
        @Sendable func cutShort(_ error: any Error, boundByDeadline: Bool) -> Bool {
            if ContinuousClock.now >= deadline { return true }
            if boundByDeadline, case AttachError.timeout = error { return true }
            return false
        }
        let timedOut = Timeout(description: "timed out after \(formatted(timeout)) s")
        try runAsync {
            guard let listingClient = client() else { throw timedOut }
            let listing: LiveSessionListing
            do {
                listing = try await listingClient.client.liveSessionListing()
            } catch {
                // A request cut short by the command's deadline: say so.
                if cutShort(error, boundByDeadline: listingClient.boundByDeadline) { throw timedOut }
                throw error
            }
            let sessions = listing.sessions
            let now = Int(Date().timeIntervalSince1970 * 1000)
            print(table(sessions, nowMilliseconds: now, colour: colour), terminator: "")
            if listing.skippedInvalidIDs > 0 {
                // Such an id is never printed, used as a file name or put in a URL.
                let count = listing.skippedInvalidIDs
                warn("skipped \(count) session\(count == 1 ? "" : "s") whose id is not a UUID v4")
            }
            guard let thumbnails else { return }
            try FileManager.default.createDirectory(atPath: thumbnails, withIntermediateDirectories: true)
            // The listing has checked them: a UUID v4 is a safe file name.
            // A listed id twice is one thumbnail (the file would be the same).
            var seen = Set<String>()
            let ids = sessions.map(\.id).filter { SessionID($0) != nil && seen.insert($0).inserted }
            if ids.count > maxThumbnails {
                let rest = ids.count - maxThumbnails
                warn(
                    "wrote thumbnails for the first \(maxThumbnails) sessions only (the limit of a run): "
                        + "\(rest) session\(rest == 1 ? "" : "s") without one")
            }
            for (index, id) in ids.prefix(maxThumbnails).enumerated() {
                let written = "\(index) of \(min(ids.count, maxThumbnails)) thumbnails written"
                guard let thumbnailClient = client() else {
                    throw Timeout(description: "\(timedOut.description) (\(written))")
                }
                let png: [UInt8]
                do {
                    png = try await thumbnailClient.client.thumbnailPNG(id: id)
                } catch {
                    if cutShort(error, boundByDeadline: thumbnailClient.boundByDeadline) {
                        throw Timeout(description: "\(timedOut.description) (\(written))")
                    }
                    throw error
                }
                let path = (thumbnails as NSString).appendingPathComponent("\(id).png")
                guard FileManager.default.createFile(atPath: path, contents: Data(png)) else {
                    throw Arguments.Failure(description: "cannot write \(path)")
                }
                print("wrote \(path)")
            }
        }
    }

    private static func warn(_ text: String) {
        FileHandle.standardError.write(Data("termengine sessions: \(text)\n".utf8))
    }

    private static func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
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
