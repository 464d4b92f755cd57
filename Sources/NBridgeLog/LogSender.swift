import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// Forwards a run's log records to a viewer (`--log-to`) on a thread of its own: it connects
/// (backing off from 0.1 s, doubling to 5 s), says hello, writes records as JSON lines, and lets
/// go of what the viewer acknowledges; after a reconnect it starts again after the last ack.
/// The JS thread only appends to the queue, and wakes the thread when it sleeps.
final class LogSender: Sendable {
  let destination: LogDestination
  let queue: LogQueue
  /// The line each connection opens with (`LogWire`'s hello).
  let hello: [UInt8]
  /// What the thread polls: woken by `append` (only when the sender is idle) and by `finish`.
  private let wake: WakeSignal

  /// A sender for `destination`; fails when its wake pipe cannot be made (no descriptor left).
  init(destination: LogDestination, app: String) throws(SystemError) {
    self.destination = destination
    queue = LogQueue(limit: destination.queueLimit, byteLimit: destination.byteLimit)
    var line: [UInt8] = []
    line += LogWire.first(LogWire.hello) + [UInt8(ascii: "1")] + LogWire.field(LogWire.app) + [LogWire.quote]
    JSONEscaping.append(utf8: Substring(app), to: &line)
    line += [LogWire.quote] + LogWire.field(LogWire.pid)
    JSONEscaping.appendDecimal(Int64(getpid()), to: &line)
    line += LogWire.field(LogWire.run) + [LogWire.quote]
    line += RandomID.bytes(8).flatMap { byte in [byte >> 4, byte & 15].map { Array("0123456789abcdef".utf8)[Int($0)] } }
    line += "\"}\n".utf8
    hello = line
    wake = try WakeSignal()
  }

  /// Starts the sender thread (detached; it holds this object until it ends).
  func start() {
    var thread = pthread_t()
    let box = Unmanaged.passRetained(self).toOpaque()
    let started = pthread_create(
      &thread, nil,
      { raw in
        let sender = Unmanaged<LogSender>.fromOpaque(raw!).takeRetainedValue()
        sender.run()
        return nil
      }, box)
    if started == 0 {
      pthread_detach(thread)
    } else {
      Unmanaged<LogSender>.fromOpaque(box).release()
    }
  }

  /// Queues a record (its JSON line after `{"seq":N`, as `LogRecord` encodes it); never blocks
  /// on the network.
  func append(_ body: [UInt8]) {
    if body.withUnsafeBufferPointer({ queue.append($0) }) { signal() }
  }

  /// Ends forwarding at the end of a run: waits at most `seconds` for acknowledgements when a
  /// viewer is connected (not at all otherwise); returns how many records were not delivered.
  func finish(seconds: Double = 2) -> Int {
    let connected = queue.close()
    signal()
    if connected {
      // Real time, whatever the run's clock: this waits on a socket.
      let realClock = MonotonicClock()
      let deadline = realClock.now() + Duration(clampingSeconds: seconds)
      while realClock.now() < deadline {
        let (count, stillConnected) = queue.undelivered
        if count == 0 || !stillConnected { break }
        usleep(1000)
      }
    }
    queue.stop()
    signal()
    return queue.undelivered.count
  }

  private func signal() {
    wake.wake()
  }

  /// Sleeps `milliseconds`, or less when `finish` wakes the thread.
  private func pause(_ milliseconds: Int32) {
    wake.wait(milliseconds: milliseconds)
    wake.drain()
  }

  // MARK: The thread

  private func run() {
    var backoff: Int32 = 100
    // Closing while not connected ends the thread: the run does not wait for a viewer. An
    // attempt under way is seen through (the run waits for it, within its 2 s).
    var first = true
    while first || !queue.isClosing {
      if !first { wake.drain() }
      first = false
      queue.connecting(true)
      let fd: Int32
      do {
        let addresses = try SocketAddress.resolve(host: destination.host, port: destination.port)
        fd = try TCP.connect(addresses, timeout: 2000, interrupt: -1)
      } catch {
        queue.connecting(false)
        if queue.isClosing { return }
        pause(backoff)
        backoff = min(backoff * 2, 5000)
        continue
      }
      backoff = 100
      queue.connected()
      serve(fd)
      queue.disconnected()
      close(fd)
      pause(backoff)
    }
  }

  /// Writes and reads on one connection until it ends, or the run's end has nothing left for it.
  ///
  /// While records keep coming it naps 2 ms between takes instead of sleeping until woken, so a
  /// busy script costs one wake-up and one `sendmsg` per batch, not per record, and never a write
  /// to the wake pipe; after 20 ms with nothing new it sleeps until an append wakes it.
  private func serve(_ fd: Int32) {
    var head = hello
    var headOffset = 0
    var lines: [UInt8] = []
    var range = 0..<0
    var input: [UInt8] = []
    input.reserveCapacity(4096)
    // Real time, whatever the run's clock: the naps pace a socket.
    let realClock = MonotonicClock()
    var lastTaken = realClock.now()
    while !queue.senderShouldEnd {
      var timeout: Int32 = queue.isClosing ? 50 : -1
      if headOffset == head.count && range.isEmpty {
        head.removeAll(keepingCapacity: true)
        headOffset = 0
        if let batch = queue.take() {
          for marker in batch.markers { LogSender.encode(marker, into: &head) }
          lines = batch.lines
          range = batch.range
          lastTaken = realClock.now()
        } else {
          lines = []
          if realClock.now() - lastTaken < .milliseconds(20) {
            timeout = 2
          } else if !queue.sleep() {
            continue
          }
        }
      }
      let writing = headOffset < head.count || !range.isEmpty
      var fds = (
        pollfd(fd: fd, events: Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0), revents: 0),
        pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)
      )
      let ready = withUnsafeMutableBytes(of: &fds) {
        poll($0.baseAddress!.assumingMemoryBound(to: pollfd.self), 2, timeout)
      }
      guard ready >= 0 || errno == EINTR else { return }
      if fds.1.revents != 0 { wake.drain() }
      if fds.0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
        guard let n = TCP.read(fd, into: &input, max: 4096) else { continue }
        if n <= 0 { return }
        readAcknowledgements(&input)
      }
      if fds.0.revents & Int16(POLLOUT) != 0 {
        let n = LogSender.send(fd, head, from: headOffset, lines, range)
        if n < 0 { return }
        let fromHead = min(n, head.count - headOffset)
        headOffset += fromHead
        range = (range.lowerBound + n - fromHead)..<range.upperBound
      }
    }
  }

  /// Writes `head[offset...]` then `lines[range]` with one `sendmsg`, as much as the socket takes
  /// now: the count written (0 when full), or -1 when the connection is gone.
  private static func send(_ fd: Int32, _ head: [UInt8], from offset: Int, _ lines: [UInt8], _ range: Range<Int>) -> Int
  {
    let n = head.withUnsafeBytes { head in
      lines.withUnsafeBytes { lines in
        var pieces = (
          iovec(
            iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress.map { $0 + offset }),
            iov_len: head.count - offset),
          iovec(
            iov_base: UnsafeMutableRawPointer(mutating: lines.baseAddress.map { $0 + range.lowerBound }),
            iov_len: range.count)
        )
        return withUnsafeMutableBytes(of: &pieces) { raw in
          var message = msghdr()
          message.msg_iov = raw.baseAddress!.assumingMemoryBound(to: iovec.self)
          message.msg_iovlen = 2
          return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
        }
      }
    }
    if n >= 0 { return n }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1
  }

  /// Handles the complete `{"ack":N}` lines at the front of `input`.
  private func readAcknowledgements(_ input: inout [UInt8]) {
    guard let lastNewline = input.lastIndex(of: UInt8(ascii: "\n")) else { return }
    var highest: UInt64 = 0
    for line in input[...lastNewline].split(separator: UInt8(ascii: "\n")) {
      guard let key = line.firstRange(of: LogSender.ackKey) else { continue }
      var value: UInt64 = 0
      for byte in line[key.upperBound...] {
        guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { break }
        value = value &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
      }
      highest = max(highest, value)
    }
    input.removeFirst(lastNewline + 1)
    if highest > 0 { queue.acknowledge(highest) }
  }

  /// `"ack":`, read in the viewer's acknowledgements.
  private static let ackKey = Array(LogWire.first(LogWire.ack).dropFirst())

  /// A `dropped` marker's line: numbered as the last record it stands for.
  static func encode(_ dropped: LogQueue.Dropped, into out: inout [UInt8]) {
    out += LogWire.first(LogWire.seq)
    JSONEscaping.appendDecimal(Int64(dropped.to), to: &out)
    out += LogWire.field(LogWire.dropped)
    JSONEscaping.appendDecimal(Int64(dropped.count), to: &out)
    out += LogWire.field(LogWire.from)
    JSONEscaping.appendDecimal(Int64(dropped.from), to: &out)
    out += LogWire.field(LogWire.to)
    JSONEscaping.appendDecimal(Int64(dropped.to), to: &out)
    out += LogWire.field(LogWire.time)
    JSONEscaping.appendDecimal(LogRecord.now(), to: &out)
    out += "}\n".utf8
  }
}
