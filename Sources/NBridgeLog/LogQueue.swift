import Synchronization

/// The records a run has not yet had acknowledged, kept as the JSON lines the viewer reads and
/// shared by the JS thread (which appends and never waits) and the sender thread (which writes
/// them and lets go of what the viewer acknowledges).
///
/// Lines go into chunks of bytes. The sender takes a chunk's lines whole and closes it, so what
/// it writes is neither copied nor changed while it writes; appends then start a new chunk.
/// Sequence numbers run from 1 without gaps, so a record's number is its place in the queue.
/// When the queue is full the oldest records go and a `dropped` marker, numbered as the last
/// record it stands for, takes their place. A marker is never changed once written: records
/// dropped after that get a marker of their own, so no two markers cover the same numbers.
package final class LogQueue: Sendable {
  /// Records dropped for room: how many, and the first and last number.
  package struct Dropped: Equatable, Sendable {
    package var count: Int
    package var from: UInt64
    package var to: UInt64

    package init(count: Int, from: UInt64, to: UInt64) {
      self.count = count
      self.from = from
      self.to = to
    }
  }

  /// What the sender writes next: markers not yet written on this connection, then the whole
  /// lines `lines[range]`, records `firstSeq` to `lastSeq`.
  package struct Batch: Sendable {
    package var markers: [Dropped]
    package var lines: [UInt8]
    package var range: Range<Int>
    package var firstSeq: UInt64
    package var lastSeq: UInt64
  }

  /// Lines from record `firstSeq` on; `ends[k]` is where record `firstSeq + k` ends.
  private struct Chunk {
    var firstSeq: UInt64
    var bytes: [UInt8] = []
    var ends: [Int] = []
    /// Taken by the sender: nothing more goes in.
    var closed = false

    var endSeq: UInt64 { firstSeq + UInt64(ends.count) }
    func start(_ seq: UInt64) -> Int { seq == firstSeq ? 0 : ends[Int(seq - firstSeq) - 1] }
    func end(_ seq: UInt64) -> Int { ends[Int(seq - firstSeq)] }
  }

  private struct State {
    var chunks: [Chunk] = []
    /// `chunks[..<headChunk]` are let go.
    var headChunk = 0
    /// The oldest record kept, and the number the next one gets.
    var firstSeq: UInt64 = 1
    var nextSeq: UInt64 = 1
    var bytes = 0
    /// Markers not yet acknowledged, oldest first; the first `frozen` have been written.
    var markers: [Dropped] = []
    var frozen = 0
    /// Markers written on the current connection.
    var markersWritten = 0
    /// The last number written on the current connection.
    var sentThrough: UInt64 = 0
    var acknowledged: UInt64 = 0
    var senderIdle = false
    var connected = false
    /// A connection attempt is under way (the first starts with the thread).
    var connecting = true
    var closing = false
    var stopped = false

    var count: Int { Int(nextSeq - firstSeq) }
  }

  /// Records kept at most.
  package let limit: Int
  /// Bytes kept at most (at least one record is always kept).
  package let byteLimit: Int
  /// A chunk past this size is not appended to.
  private static let chunkBytes = 64 << 10
  private let state = Mutex(State())
  private static let seqKey = LogWire.first(LogWire.seq)

  package init(limit: Int, byteLimit: Int) {
    self.limit = max(limit, 1)
    self.byteLimit = byteLimit
  }

  /// Appends the record whose JSON line, after `{"seq":N`, is `body` (`,"t":…}` and its
  /// newline); true when the sender sleeps and must be woken.
  package func append(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
    state.withLock { s in
      if s.closing { return false }
      let seq = s.nextSeq
      s.nextSeq += 1
      if s.headChunk == s.chunks.count || s.chunks[s.chunks.count - 1].closed
        || s.chunks[s.chunks.count - 1].bytes.count >= LogQueue.chunkBytes
      {
        var chunk = Chunk(firstSeq: seq)
        chunk.bytes.reserveCapacity(2048)
        s.chunks.append(chunk)
      }
      let last = s.chunks.count - 1
      let before = s.chunks[last].bytes.count
      s.chunks[last].bytes += LogQueue.seqKey
      JSONEscaping.appendDecimal(Int64(seq), to: &s.chunks[last].bytes)
      s.chunks[last].bytes += body
      s.chunks[last].ends.append(s.chunks[last].bytes.count)
      s.bytes += s.chunks[last].bytes.count - before
      while s.count > limit || (s.bytes > byteLimit && s.count > 1) { LogQueue.dropOldest(&s) }
      guard s.senderIdle else { return false }
      s.senderIdle = false
      return true
    }
  }

  private static func dropOldest(_ s: inout State) {
    let seq = s.firstSeq
    release(through: seq, &s)
    if s.markers.count > s.frozen, s.markers[s.markers.count - 1].to + 1 == seq {
      s.markers[s.markers.count - 1].count += 1
      s.markers[s.markers.count - 1].to = seq
    } else {
      s.markers.append(Dropped(count: 1, from: seq, to: seq))
    }
  }

  /// Lets go of the records up to `seq`, and of the chunks that held only those.
  private static func release(through seq: UInt64, _ s: inout State) {
    let last = min(seq, s.nextSeq - 1)
    while s.firstSeq <= last {
      let chunk = s.chunks[s.headChunk]
      let end = min(last + 1, chunk.endSeq)
      s.bytes -= chunk.start(end) - chunk.start(s.firstSeq)
      s.firstSeq = end
      guard end == chunk.endSeq else { break }
      s.chunks[s.headChunk] = Chunk(firstSeq: 0)
      s.headChunk += 1
    }
    if s.headChunk == s.chunks.count {
      s.chunks.removeAll(keepingCapacity: true)
      s.headChunk = 0
    } else if s.headChunk > 256 && s.headChunk * 2 > s.chunks.count {
      s.chunks.removeFirst(s.headChunk)
      s.headChunk = 0
    }
  }

  /// The markers and records not yet written on this connection (at most one chunk's worth of
  /// records); nil when there are none. The sender then naps, or calls `sleep`.
  package func take() -> Batch? {
    state.withLock { s in
      let markers = Array(s.markers[s.markersWritten...])
      s.markersWritten = s.markers.count
      s.frozen = s.markers.count
      let start = max(s.sentThrough + 1, s.firstSeq)
      guard start < s.nextSeq else {
        return markers.isEmpty
          ? nil : Batch(markers: markers, lines: [], range: 0..<0, firstSeq: start, lastSeq: start - 1)
      }
      // The chunk holding `start`: the last whose first number is not after it.
      var low = s.headChunk
      var high = s.chunks.count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if s.chunks[middle].firstSeq <= start { low = middle } else { high = middle - 1 }
      }
      s.chunks[low].closed = true
      let chunk = s.chunks[low]
      s.sentThrough = chunk.endSeq - 1
      return Batch(
        markers: markers, lines: chunk.bytes, range: chunk.start(start)..<chunk.bytes.count, firstSeq: start,
        lastSeq: chunk.endSeq - 1)
    }
  }

  /// The sender goes to sleep unless something came meanwhile (then false: take it); asleep,
  /// the next append wakes it.
  package func sleep() -> Bool {
    state.withLock { s in
      guard s.markersWritten == s.markers.count, max(s.sentThrough + 1, s.firstSeq) >= s.nextSeq else { return false }
      s.senderIdle = true
      return true
    }
  }

  /// The viewer has everything up to `seq`: those records, and markers, are let go.
  package func acknowledge(_ seq: UInt64) {
    state.withLock { s in
      guard seq > s.acknowledged, seq < s.nextSeq else { return }
      s.acknowledged = seq
      let done = s.markers.prefix { $0.to <= seq }.count
      s.markers.removeFirst(done)
      s.frozen = max(0, s.frozen - done)
      s.markersWritten = max(0, s.markersWritten - done)
      LogQueue.release(through: seq, &s)
    }
  }

  /// A new connection: everything not acknowledged is written again (the viewer skips what it has).
  package func connected() {
    state.withLock { s in
      s.connected = true
      s.connecting = false
      s.sentThrough = s.acknowledged
      s.markersWritten = 0
      s.senderIdle = false
    }
  }

  /// The connection is gone.
  package func disconnected() { state.withLock { $0.connected = false } }

  /// A connection attempt starts (true) or failed (false).
  package func connecting(_ attempting: Bool) { state.withLock { $0.connecting = attempting } }

  /// No more records: returns whether a viewer is connected or being connected to (then it is
  /// worth waiting for acks).
  package func close() -> Bool {
    state.withLock { s in
      s.closing = true
      return s.connected || s.connecting
    }
  }

  /// The sender is to stop now, connected or not.
  package func stop() { state.withLock { $0.stopped = true } }

  /// Whether the sender should end: stopped, or closing with nothing left to deliver or no connection.
  package var senderShouldEnd: Bool {
    state.withLock { s in s.stopped || (s.closing && (!s.connected || (s.count == 0 && s.markers.isEmpty))) }
  }

  /// Whether records are closed to new ones (the run is ending).
  package var isClosing: Bool { state.withLock { $0.closing } }

  /// Records not yet acknowledged, dropped ones included; and whether a viewer is connected,
  /// or a connection attempt is under way (worth waiting for at exit: on loopback it ends at once).
  package var undelivered: (count: Int, connected: Bool) {
    state.withLock { s in (s.count + s.markers.reduce(0) { $0 + $1.count }, s.connected || s.connecting) }
  }
}
