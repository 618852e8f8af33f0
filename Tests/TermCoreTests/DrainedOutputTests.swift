import TermCore
import TestSupport
import Testing

/// A random program output with queries (whose answers depend on the state
/// the output before them left: cursor reports, mode reports, sizes) and
/// events (bells, titles, notifications, clipboard writes), in `count`
/// pieces of one item each.
func queryingStream(seed: UInt64, count: Int) -> [[UInt8]] {
    var random = SplitMix64(seed: seed)
    let items: [(inout SplitMix64) -> String] = [
        { "\(CSI)\(Int.random(in: 1...24, using: &$0));\(Int.random(in: 1...80, using: &$0))H" },
        { "text \(Int.random(in: 0...999, using: &$0))" },
        { _ in "\r\n" },
        { _ in "\(CSI)6n" },  // CPR: where the cursor is now
        { _ in "\(CSI)c" },
        { _ in "\(CSI)5n" },
        { "\(CSI)?\([1, 6, 7, 25, 1049, 2004].randomElement(using: &$0)!)\(Bool.random(using: &$0) ? "h" : "l")" },
        { "\(CSI)?\([1, 6, 7, 25, 1049, 2004].randomElement(using: &$0)!)$p" },  // DECRQM
        { _ in "\(CSI)18t" },
        { _ in "\(ESC)P$qm\(ESC)\\" },  // DECRQSS SGR
        { "\(CSI)\(Int.random(in: 30...37, using: &$0))m" },
        { _ in "\(ESC)]10;?\u{07}" },  // foreground colour query
        { _ in "\u{07}" },
        { "\(ESC)]2;title \(Int.random(in: 0...99, using: &$0))\u{07}" },
        { "\(ESC)]9;note \(Int.random(in: 0...99, using: &$0))\u{07}" },
        { _ in "\(ESC)]52;c;aGVsbG8=\u{07}" },
    ]
    return (0..<count).map { _ in Array(items.randomElement(using: &random)!(&random).utf8) }
}

@Suite("Replies and events drained instead of delivered")
struct DrainedOutputTests {
    /// The same output to a terminal with closures and to one that queues,
    /// drained at random moments (after several feeds, after none): the
    /// drained bytes and events are the closures', in the same order.
    @Test("Draining gives what the closures get", arguments: [1, 2, 3] as [UInt64])
    func drainingGivesWhatTheClosuresGet(seed: UInt64) {
        let pieces = queryingStream(seed: seed, count: 3000)
        let withClosures = Terminal(columns: 80, rows: 24)
        var replies: [UInt8] = []
        var events: [TerminalEvent] = []
        withClosures.writeBack = { replies += $0 }
        withClosures.onEvent = { events.append($0) }
        let draining = Terminal(columns: 80, rows: 24)
        draining.queuesReplies = true
        draining.queuesEvents = true
        var drainedReplies: [UInt8] = []
        var drainedEvents: [TerminalEvent] = []
        var random = SplitMix64(seed: seed &+ 100)
        // Chunks of 1 to 8 pieces, split anywhere inside too.
        var index = 0
        while index < pieces.count {
            let end = min(pieces.count, index + Int.random(in: 1...8, using: &random))
            let chunk = Array(pieces[index..<end].joined())
            let cut = Int.random(in: 0...chunk.count, using: &random)
            for part in [chunk[..<cut], chunk[cut...]] {
                withClosures.feed(part)
                draining.feed(part)
                if Int.random(in: 0..<3, using: &random) == 0 { drainedReplies += draining.drainReplies() }
                if Int.random(in: 0..<3, using: &random) == 0 { drainedEvents += draining.drainEvents() }
            }
            index = end
        }
        drainedReplies += draining.drainReplies()
        drainedEvents += draining.drainEvents()
        #expect(replies.count > 10_000 && events.count > 500)  // the streams do ask
        #expect(drainedReplies == replies)
        #expect(drainedEvents == events)
        #expect(draining.drainReplies().isEmpty && draining.drainEvents().isEmpty)
        #expect(draining.counters == withClosures.counters)
    }

    /// Never drained, the queue stops at 64 KiB: what is kept is the first
    /// 64 KiB of what a closure got (whole replies), the rest is counted.
    @Test("An undrained reply queue is bounded and keeps the oldest")
    func anUndrainedReplyQueueIsBoundedAndKeepsTheOldest() {
        let query = String(repeating: "\(CSI)5n", count: 1000)  // 1,000 answers of 4 bytes per feed
        let withClosure = Terminal(columns: 80, rows: 24)
        var replies: [UInt8] = []
        withClosure.writeBack = { replies += $0 }
        let queueing = Terminal(columns: 80, rows: 24)
        queueing.queuesReplies = true
        for _ in 0..<20 {
            withClosure.feed(query)
            queueing.feed(query)
        }
        let kept = 64 * 1024 / 4
        #expect(replies.count == 20 * 1000 * 4)  // per feed, far below its bound
        #expect(queueing.counters.droppedQueuedReplies == 20 * 1000 - kept)
        #expect(queueing.counters.droppedReplies == 0)
        #expect(queueing.drainReplies() == Array(replies.prefix(kept * 4)))
        // Drained, it queues again.
        queueing.feed("\(CSI)5n")
        #expect(queueing.drainReplies() == Array("\(CSI)0n".utf8))
    }

    /// Each feed keeps its own bound while queueing: a flood in one feed is
    /// counted as the closure's would be.
    @Test("A flood in one feed is counted as with a closure") func aFloodInOneFeedIsCountedAsWithAClosure() {
        let flood = String(repeating: "\(CSI)5n", count: 20_000)  // 80,000 bytes of answers
        let withClosure = Terminal(columns: 80, rows: 24)
        var replies: [UInt8] = []
        withClosure.writeBack = { replies += $0 }
        let queueing = Terminal(columns: 80, rows: 24)
        queueing.queuesReplies = true
        withClosure.feed(flood)
        queueing.feed(flood)
        #expect(queueing.counters.droppedReplies == 20_000 - 64 * 1024 / 4)
        #expect(queueing.counters == withClosure.counters)
        #expect(queueing.drainReplies() == replies)
    }

    @Test("An undrained event queue is bounded") func anUndrainedEventQueueIsBounded() {
        let bells = String(repeating: "\u{07}", count: 600)
        let queueing = Terminal(columns: 80, rows: 24)
        queueing.queuesEvents = true
        for _ in 0..<3 { queueing.feed(bells) }
        #expect(queueing.drainEvents() == Array(repeating: .bell, count: 1024))
        #expect(queueing.counters.droppedQueuedEvents == 3 * 600 - 1024)
        #expect(queueing.counters.droppedEvents == 0)
        #expect(queueing.counters.bells == 1800)
    }

    /// A clipboard answer goes after the replies queued before it, and is
    /// the embedder's own, so the queue's bound does not cut it.
    @Test("A clipboard answer is queued in order") func aClipboardAnswerIsQueuedInOrder() {
        let t = Terminal(columns: 80, rows: 24)
        t.queuesReplies = true
        t.queuesEvents = true
        t.allowsClipboardRead = true
        t.feed("\(CSI)5n\(ESC)]52;c;?\u{07}")
        #expect(t.drainEvents() == [.clipboardReadRequest(selection: "c")])
        let data = [UInt8](repeating: 0x41, count: 60_000)  // 80,000 bytes in base64
        t.answerClipboardRead(selection: "c", data: data)
        let drained = t.drainReplies()
        #expect(drained.starts(with: Array("\(CSI)0n\(ESC)]52;c;QUFB".utf8)))
        #expect(drained.count == 4 + 7 + 80_000 + 2)
    }

    @Test("Nothing is queued without asking and a reset keeps the queue")
    func nothingIsQueuedWithoutAskingAndAResetKeepsTheQueue() {
        let t = Terminal(columns: 80, rows: 24)
        t.feed("\(CSI)5n\u{07}")
        #expect(t.drainReplies().isEmpty && t.drainEvents().isEmpty)
        t.queuesReplies = true
        t.queuesEvents = true
        t.feed("\(CSI)5n\u{07}")
        t.reset()
        t.feed("\(ESC)c\(CSI)6n")  // RIS keeps them too
        #expect(t.drainReplies() == Array("\(CSI)0n\(CSI)1;1R".utf8))
        #expect(t.drainEvents() == [.bell])
    }

    /// Turning the queue off hands what waits to the closure, before the
    /// next feed's own.
    @Test("Turning the queue off delivers what waits") func turningTheQueueOffDeliversWhatWaits() {
        let t = Terminal(columns: 80, rows: 24)
        t.queuesReplies = true
        t.feed("\(CSI)5n")
        var replies: [UInt8] = []
        t.writeBack = { replies += $0 }
        t.feed("\(CSI)6n")
        #expect(replies.isEmpty)  // still queueing: the closure is not called
        t.queuesReplies = false
        t.feed("\(CSI)c")
        #expect(replies == Array("\(CSI)0n\(CSI)1;1R\(CSI)?64;1;6;22;28c".utf8))
        #expect(t.drainReplies().isEmpty)
    }
}
