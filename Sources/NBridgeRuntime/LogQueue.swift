import Synchronization

/// The records a run has not yet had acknowledged, shared by the JS thread (which appends and
/// never waits) and the sender thread (which takes, sends and removes what the viewer acks).
///
/// Sequence numbers run from 1 without gaps, so a record's number is its place in the queue.
/// When the queue is full the oldest records go, and one `dropped` marker (numbered as the last
/// record it stands for) takes their place at the head.
final class LogQueue: Sendable {
  /// Records dropped for room: how many, and the first and last number.
  struct Dropped: Equatable {
    var count: Int
    var from: UInt64
    var to: UInt64
  }

  /// What the sender writes next: the marker (when not yet sent), then records from `firstSeq`.
  struct Batch {
    var dropped: Dropped?
    var records: ArraySlice<LogRecord>
    var firstSeq: UInt64
  }

  private struct State {
    var records: [LogRecord] = []
    var head = 0
    /// The number of `records[head]`.
    var firstSeq: UInt64 = 1
    var bytes = 0
    var dropped: Dropped?
    var droppedSent = false
    /// The last number written on the current connection.
    var sentThrough: UInt64 = 0
    var acknowledged: UInt64 = 0
    var senderIdle = false
    var connected = false
    /// A connection attempt is under way (the first starts with the thread).
    var connecting = true
    var closing = false
    var stopped = false

    var count: Int { records.count - head }
  }

  /// Records kept at most.
  let limit: Int
  /// Bytes kept at most (at least one record is always kept).
  let byteLimit: Int
  private let state = Mutex(State())

  init(limit: Int, byteLimit: Int) {
    self.limit = max(limit, 1)
    self.byteLimit = byteLimit
  }

  /// Appends a record; true when the sender is idle and must be woken.
  func append(_ record: LogRecord) -> Bool {
    state.withLock { s in
      if s.closing { return false }
      s.records.append(record)
      s.bytes += record.size
      while s.count > limit || (s.bytes > byteLimit && s.count > 1) { LogQueue.dropOldest(&s) }
      if s.head > 4096 && s.head * 2 > s.records.count {
        s.records.removeFirst(s.head)
        s.head = 0
      }
      guard s.senderIdle else { return false }
      s.senderIdle = false
      return true
    }
  }

  private static func dropOldest(_ s: inout State) {
    let seq = s.firstSeq
    s.bytes -= s.records[s.head].size
    s.records[s.head].tail = []
    s.head += 1
    s.firstSeq += 1
    if var dropped = s.dropped {
      dropped.count += 1
      dropped.to = seq
      s.dropped = dropped
    } else {
      s.dropped = Dropped(count: 1, from: seq, to: seq)
    }
    // A marker that grew is news: it goes (again) with its new number.
    s.droppedSent = false
  }

  /// Up to `max` records not yet written on this connection (the marker first); nil when there
  /// is nothing, and the sender counts as idle until the next append wakes it.
  func take(max: Int) -> Batch? {
    state.withLock { s in
      let dropped = s.droppedSent ? nil : s.dropped
      let start = Swift.max(s.sentThrough + 1, s.firstSeq)
      let available = Int(s.firstSeq + UInt64(s.count) - start)
      if dropped == nil && available <= 0 {
        s.senderIdle = true
        return nil
      }
      s.droppedSent = true
      let n = Swift.min(Swift.max(available, 0), max)
      let from = s.head + Int(start - s.firstSeq)
      s.sentThrough = Swift.max(s.sentThrough, start + UInt64(n) - 1, dropped?.to ?? 0)
      return Batch(dropped: dropped, records: s.records[from..<from + n], firstSeq: start)
    }
  }

  /// The viewer has everything up to `seq`: those records are let go.
  func acknowledge(_ seq: UInt64) {
    state.withLock { s in
      guard seq > s.acknowledged else { return }
      s.acknowledged = seq
      if let dropped = s.dropped, dropped.to <= seq { s.dropped = nil }
      while s.count > 0 && s.firstSeq <= seq {
        s.bytes -= s.records[s.head].size
        s.records[s.head].tail = []
        s.head += 1
        s.firstSeq += 1
      }
    }
  }

  /// A new connection: everything not acknowledged is sent again (the viewer skips what it has).
  func connected() {
    state.withLock { s in
      s.connected = true
      s.connecting = false
      s.sentThrough = s.acknowledged
      s.droppedSent = false
      s.senderIdle = false
    }
  }

  /// The connection is gone.
  func disconnected() { state.withLock { $0.connected = false } }

  /// A connection attempt starts (true) or failed (false).
  func connecting(_ attempting: Bool) { state.withLock { $0.connecting = attempting } }

  /// No more records: returns whether a viewer is connected or being connected to (then it is
  /// worth waiting for acks).
  func close() -> Bool {
    state.withLock { s in
      s.closing = true
      return s.connected || s.connecting
    }
  }

  /// The sender is to stop now, connected or not.
  func stop() { state.withLock { $0.stopped = true } }

  /// Whether the sender should end: stopped, or closing with nothing left to deliver or no connection.
  var senderShouldEnd: Bool {
    state.withLock { s in s.stopped || (s.closing && (!s.connected || (s.count == 0 && s.dropped == nil))) }
  }

  /// Whether records are closed to new ones (the run is ending).
  var isClosing: Bool { state.withLock { $0.closing } }

  /// Records not yet acknowledged, dropped ones included; and whether a viewer is connected,
  /// or a connection attempt is under way (worth waiting for at exit: on loopback it ends at once).
  var undelivered: (count: Int, connected: Bool) {
    state.withLock { s in (s.count + (s.dropped?.count ?? 0), s.connected || s.connecting) }
  }
}
