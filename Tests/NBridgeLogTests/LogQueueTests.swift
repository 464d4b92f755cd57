import NBridgeLog
import Testing

/// The `--log-to` queue on its own: what the sender is given to write, what a full queue drops
/// and what its `dropped` markers say.
@Suite struct LogQueueTests {
  /// Appends records whose message is their text.
  func append(_ queue: LogQueue, _ messages: [String]) {
    for message in messages {
      let body = Array(#","t":0,"level":"info","msg":"\#(message)"}"#.utf8) + [0x0A]
      _ = body.withUnsafeBufferPointer { queue.append($0) }
    }
  }

  /// What the sender is handed until there is nothing left: marker ranges, and each record's
  /// seq and message, in order; nil when there was nothing.
  func take(_ queue: LogQueue) -> (markers: [ClosedRange<UInt64>], records: [String])? {
    var markers: [ClosedRange<UInt64>] = []
    var records: [String] = []
    var taken = false
    while let batch = queue.take() {
      taken = true
      markers += batch.markers.map { $0.from...$0.to }
      let text = String(decoding: batch.lines[batch.range], as: UTF8.self)
      records += text.split(separator: "\n").map { line in
        let seq = line.firstMatch(of: /"seq":(\d+)/).map { String($0.output.1) } ?? "?"
        let message = line.firstMatch(of: /"msg":"([^"]*)"/).map { String($0.output.1) } ?? "?"
        return "\(seq) \(message)"
      }
    }
    return taken ? (markers, records) : nil
  }

  @Test func recordsAreNumberedFromOneAndResentAfterTheLastAck() throws {
    let queue = LogQueue(limit: 100, byteLimit: 1 << 20)
    queue.connected()
    append(queue, ["a", "b", "c"])
    #expect(take(queue)?.records == ["1 a", "2 b", "3 c"])
    #expect(take(queue) == nil)
    append(queue, ["d"])
    #expect(take(queue)?.records == ["4 d"])
    queue.acknowledge(2)
    #expect(queue.undelivered.count == 2)
    // A new connection starts again after the last acknowledgement, in the middle of what was taken.
    queue.connected()
    #expect(take(queue)?.records == ["3 c", "4 d"])
    queue.acknowledge(4)
    #expect(queue.undelivered.count == 0)
  }

  @Test func aFullQueueDropsTheOldestUnderOneMarker() throws {
    let queue = LogQueue(limit: 3, byteLimit: 1 << 20)
    queue.connected()
    append(queue, ["a", "b", "c", "d", "e", "f"])
    let batch = try #require(take(queue))
    #expect(batch.markers == [1...3])
    #expect(batch.records == ["4 d", "5 e", "6 f"])
    #expect(queue.undelivered.count == 6)
  }

  @Test func aWrittenMarkerNeverGrowsIntoALaterOne() throws {
    let queue = LogQueue(limit: 3, byteLimit: 1 << 20)
    queue.connected()
    append(queue, ["a", "b", "c", "d", "e"])
    let first = try #require(take(queue))
    #expect(first.markers == [1...2])
    // Not acknowledged yet: two more push out 3 and 4, which the written marker does not cover.
    append(queue, ["f", "g"])
    let second = try #require(take(queue))
    #expect(second.markers == [3...4])
    #expect(second.records == ["6 f", "7 g"])
    #expect(queue.undelivered.count == 7)
    // After a reconnect both markers go again, as they were, then the records kept.
    queue.connected()
    let again = try #require(take(queue))
    #expect(again.markers == [1...2, 3...4])
    #expect(again.records == ["5 e", "6 f", "7 g"])
    queue.acknowledge(4)
    #expect(queue.undelivered.count == 3)
    queue.connected()
    #expect(take(queue)?.markers == [])
  }

  @Test func theByteLimitDropsTooButKeepsOneRecord() throws {
    let queue = LogQueue(limit: 100, byteLimit: 150)
    queue.connected()
    append(queue, [String(repeating: "x", count: 100), String(repeating: "y", count: 100), "z"])
    let batch = try #require(take(queue))
    #expect(batch.markers == [1...2])
    #expect(batch.records == ["3 z"])
  }
}
