import Foundation
import TermCore
import TermRender
import Testing

@testable import TermAttach

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HostileTests {
    /// "Hostile until proven otherwise": every buffer the server can grow has
    /// a named limit, and the work is linear in the input.
    @Suite("Finding 8: every buffer the server can grow is bounded")
    struct Limits {
        @Test("a document of more than JSONReader.maxValues values is refused (frames and HTTP answers)")
        func valueLimit() {
            // 50 arrays of 4096 zeros: within depth and container bounds, 204,800 values.
            let inner = "[" + Array(repeating: "0", count: 4096).joined(separator: ",") + "]"
            let many = "[" + Array(repeating: inner, count: 50).joined(separator: ",") + "]"
            var decoder = ServerFrameDecoder()
            #expect(decoder.decode(Array(#"{"type":"status","status":"idle","x":\#(many)}"#.utf8)) == nil)
            #expect(decoder.statistics.malformed == 1)
            #expect(decoder.statistics.lastProblem?.contains("more than 131072 values") == true)
            #expect(JSONTree.parse(Array(many.utf8)) == nil)
            // 31 arrays (126,977 values with the outer one) are still read.
            let fewer = "[" + Array(repeating: inner, count: 31).joined(separator: ",") + "]"
            #expect(JSONTree.parse(Array(fewer.utf8)) != nil)
        }

        @Test("an events answer of 20,000 entries is read whole: arrays are bounded by the document's values")
        func longTimeline() async throws {
            let entry = #"{"at":1700000000000,"class":"tool","toolName":"Bash","label":"ls"}"#
            let body = "[" + Array(repeating: entry, count: 20_000).joined(separator: ",") + "]"
            let client = AttachHTTPClient(
                endpoint: try AttachEndpoint("http://127.0.0.1:1"), transport: StaticHTTPTransport(body: body))
            let events = try await client.events(id: HostileTests.validID)
            #expect(events.count == 20_000)
            #expect(events.last == TimelineEvent(at: 1_700_000_000_000, kind: .tool, toolName: "Bash", label: "ls"))
            // An object keeps its 4096-member bound.
            let members = (0...4096).map { #""k\#($0)":0"# }.joined(separator: ",")
            #expect(JSONTree.parse(Array("{\(members)}".utf8)) == nil)
        }

        @Test("a server frame's string field over 4 KiB makes it malformed; output data is not limited by it")
        func fieldLimit() {
            var decoder = ServerFrameDecoder()
            let long = String(repeating: "d", count: WireLimits.maxFieldBytes + 1)
            let exact = String(repeating: "d", count: WireLimits.maxFieldBytes)
            #expect(decoder.decode(Array(#"{"type":"status","status":"idle","detail":"\#(long)"}"#.utf8)) == nil)
            #expect(decoder.decode(Array(#"{"type":"exit","code":1,"reason":"\#(long)"}"#.utf8)) == nil)
            #expect(decoder.statistics.malformed == 2)
            #expect(
                decoder.decode(Array(#"{"type":"status","status":"idle","detail":"\#(exact)"}"#.utf8))
                    == .status(SessionStatus(state: .idle, detail: exact)))
            let data = String(repeating: "o", count: 100_000)
            #expect(
                decoder.decode(Array(#"{"type":"output","data":"\#(data)"}"#.utf8)) == .output(Array(data.utf8)[...]))
        }

        @Test("waiting pongs are kept as one, and empty messages count against the queue's bytes")
        func queueBounds() async throws {
            let queue = MessageQueue(byteLimit: 1 << 20)
            for _ in 0..<1000 { queue.push(.pong) }
            queue.push(.text([]))
            queue.push(.text([]))
            #expect(queue.queuedBytes == 3 * MessageQueue.messageOverhead)
            queue.finish(.failure(.closedLocally))
            #expect(try await queue.receive() == .pong)
            #expect(try await queue.receive() == .text([]))
            #expect(try await queue.receive() == .text([]))
            await #expect(throws: AttachError.closedLocally) { try await queue.receive() }
        }

        @Test("a queue that never runs empty releases what was consumed and keeps its slots bounded")
        func queueNeverEmpty() async throws {
            let queue = MessageQueue(byteLimit: 1 << 20)
            queue.push(.text([0]))
            let message = [UInt8](repeating: 1, count: 1024)
            for _ in 0..<10_000 {
                queue.push(.text(message))
                _ = try await queue.receive()
                // Consumed slots are released at once and dropped in bulk.
                #expect(queue.slotCount <= 2 * MessageQueue.compactAfter + 1)
            }
            #expect(queue.queuedBytes == 1024 + MessageQueue.messageOverhead)
        }

        @Test(
            "a live-output flood to a client whose input is not read: attach --until --timeout 10 exits by 11 s under 100 MiB"
        )
        func outputFloodCLI() async throws {
            let peer = try TestPeer.hostile("output-flood", ["--body-limit", "\(40 << 30)"])
            defer { peer.stop() }
            let run = try await MeasuredRun.termengine(
                [
                    "attach", peer.baseURL, "--new", "--send", String(repeating: "x", count: 4096), "--until", "NEVER",
                    "--timeout", "10",
                ], deadline: 30)
            #expect(!run.timedOut)
            #expect(run.status == 2)
            #expect(
                run.errors == "termengine attach: timed out after 10 s waiting for a screen line matching /NEVER/\n")
            HostileTests.expectResources(run, seconds: 11)
        }

        @Test(
            "the end of a handshake head is found however the head is split, each search starting where the last stopped"
        )
        func handshakeHeadScan() {
            let head = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\nrest".utf8)
            let expected = head.count - 4
            #expect(WebSocketHandshake.endOfHead(head) == expected)
            // Byte by byte, each search starting 3 bytes before the new byte.
            var received: [UInt8] = []
            var found: Int?
            for byte in head where found == nil {
                let searched = max(0, received.count - 3)
                received.append(byte)
                found = WebSocketHandshake.endOfHead(received, from: searched)
            }
            #expect(found == expected)
        }

        @Test("a preview over 1 MiB is refused while it streams")
        func previewLimit() async throws {
            let peer = try TestPeer.hostile("none", ["--preview-bytes", "\(2 << 20)"])
            defer { peer.stop() }
            let client = AttachHTTPClient(endpoint: peer.endpoint)
            await #expect(
                throws: AttachError.responseTooLarge(
                    request: "GET /live-sessions/\(HostileTests.validID)/preview",
                    limit: AttachHTTPClient.maxPreviewBytes)
            ) {
                _ = try await client.preview(id: HostileTests.validID)
            }
        }

        @Test("a thumbnail keeps to maxThumbnailPixels: fewer pixels a cell for a session too large")
        func thumbnailSize() {
            #expect(AttachHTTPClient.thumbnailSize(.full, columns: 80, rows: 24) == .full)
            #expect(AttachHTTPClient.thumbnailSize(.full, columns: 240, rows: 100) == .full)  // 3,072,000 px
            #expect(AttachHTTPClient.thumbnailSize(.full, columns: 241, rows: 100) == .minimap)
            #expect(
                AttachHTTPClient.thumbnailSize(.full, columns: 1000, rows: 1000)
                    == .minimap(cellWidth: 1, cellHeight: 2))
            #expect(AttachHTTPClient.thumbnailSize(.minimap, columns: 80, rows: 24) == .minimap)
        }

        @Test("sessions --thumbnails for a 1000×1000 session writes a valid PNG under 100 MiB resident")
        func largeThumbnailCLI() async throws {
            let peer = try TestPeer.hostile("none", ["--preview-size", "1000x1000"])
            defer { peer.stop() }
            let directory = temporaryPath("thumbs")
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try await MeasuredRun.termengine(["sessions", peer.baseURL, "--thumbnails", directory.path])
            #expect(run.status == 0, "\(run.errors)")
            HostileTests.expectResources(run)
            let path = directory.appendingPathComponent("\(HostileTests.validID).png").path
            #expect(try CLITests.checkPNG(path) == "ok 1000x2000")  // 1×2 pixels a cell
        }
    }
}

/// An HTTP transport that answers every request with `body` (status 200).
struct StaticHTTPTransport: HTTPTransport {
    let body: String

    func send(_ request: URLRequest, maxBodyBytes: Int) async throws -> (Data, HTTPURLResponse) {
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
        return (Data(body.utf8), response)
    }
}
