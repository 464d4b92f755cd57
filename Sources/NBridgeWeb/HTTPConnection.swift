import Glibc
import NBridgePlugin
import NBridgeRuntime

/// One non-blocking TCP connection of the plain HTTP client and the bytes read from it that no
/// response has taken yet.
@BridgeActor
final class HTTPConnection {
  /// The socket; -1 once closed.
  private(set) var fd: Int32
  /// The `host:port` it was opened to (the pool's key).
  let authority: String
  /// Read bytes not yet parsed: `input[start..<end]` of `capacity`.
  private(set) var input: UnsafeMutablePointer<UInt8>
  private var capacity = 16 * 1024
  private(set) var start = 0
  private(set) var end = 0
  /// Whether a response has come on it already: a failure before the next reply's first byte may
  /// be the server having closed it while idle.
  var reused = false
  /// When it went back to the pool (CLOCK_MONOTONIC seconds).
  var idleSince = 0.0

  /// A connection over `fd`, which it closes.
  init(fd: Int32, authority: String) {
    self.fd = fd
    self.authority = authority
    input = .allocate(capacity: capacity)
  }

  isolated deinit {
    if fd >= 0 { Glibc.close(fd) }
    input.deallocate()
  }

  /// Closes the socket (the peer sees the close at once).
  func close() {
    if fd >= 0 { Glibc.close(fd) }
    fd = -1
  }

  /// The bytes read and not yet taken.
  var pending: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: input + start, count: end - start) }

  /// Marks `count` pending bytes as taken.
  func take(_ count: Int) {
    start += count
    if start == end {
      start = 0
      end = 0
    }
  }

  /// One `read(2)` after the pending bytes (room made first, the buffer grown to `atLeast` free
  /// bytes): the count read, 0 at the end of the stream, -1 (`errno` set) on an error or when
  /// nothing has arrived (`EAGAIN`).
  func read(atLeast: Int = 4096) -> Int {
    if start > 0 && capacity - end < atLeast {
      (input).update(from: input + start, count: end - start)
      end -= start
      start = 0
    }
    if capacity - end < atLeast {
      let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity * 2, end + atLeast))
      grown.update(from: input, count: end)
      input.deallocate()
      input = grown
      capacity = max(capacity * 2, end + atLeast)
    }
    let n = Glibc.read(fd, input + end, capacity - end)
    if n > 0 { end += n }
    return n
  }

  /// Whether an idle connection still looks open: nothing to read and no end of stream yet.
  func looksOpen() -> Bool {
    var byte: UInt8 = 0
    let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
  }
}

/// The plain HTTP client's kept-alive connections, idle ones by `host:port` (newest last), and
/// the requests in flight that its timeout sweep looks at.
@BridgeActor
final class HTTPConnectionPool {
  /// How long a connection waits idle, or a request without progress, before it is given up (libsoup's 60 s).
  static let timeout = 60.0
  private var idle: [String: [HTTPConnection]] = [:]
  /// Requests in flight, by identity.
  var active: [ObjectIdentifier: PlainHTTPRequest] = [:]
  private var sweepTimer: Int?

  /// An idle connection to `authority` (the newest), checked to still look open when `check`;
  /// nil when there is none. Connections idle too long are closed on the way.
  func take(_ authority: String, check: Bool) -> HTTPConnection? {
    let now = monotonicSeconds()
    while let connection = idle[authority]?.popLast() {
      if now - connection.idleSince < Self.timeout, !check || connection.looksOpen() { return connection }
      connection.close()
    }
    return nil
  }

  /// Keeps `connection` for a later request to its host.
  func put(_ connection: HTTPConnection) {
    connection.reused = true
    connection.idleSince = monotonicSeconds()
    idle[connection.authority, default: []].append(connection)
  }

  /// Closes every idle connection (the run ends).
  func closeAll() {
    for list in idle.values { for connection in list { connection.close() } }
    idle = [:]
  }

  /// Tracks `request` for the timeout sweep, which runs every few seconds while requests are in flight.
  func started(_ request: PlainHTTPRequest, loop: EventLoop) {
    active[ObjectIdentifier(request)] = request
    if sweepTimer == nil { armSweep(loop) }
  }

  private func armSweep(_ loop: EventLoop) {
    sweepTimer = loop.addTimer(delay: .seconds(5), interval: nil, keepsAlive: false) { [weak self, weak loop] in
      guard let self else { return }
      self.sweepTimer = nil
      let now = monotonicSeconds()
      for request in Array(self.active.values) { request.timeOutIfIdle(now: now, after: Self.timeout) }
      if !self.active.isEmpty, let loop { self.armSweep(loop) }
    }
  }

  /// Stops tracking `request`.
  func ended(_ request: PlainHTTPRequest) { active[ObjectIdentifier(request)] = nil }
}

/// CLOCK_MONOTONIC_COARSE in seconds: cheap enough to read on every read and write.
func monotonicSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
