import CSoup
import Glibc
import NBridgePlugin
import NBridgeRuntime

/// One request of the runtime's own HTTP/1.1 client, on the run's loop (non-blocking sockets
/// watched by `EventLoop`, connections kept alive in `HTTPConnectionPool`): what libsoup does for
/// a plain `http:` request (see `PlainHTTPTarget` for which ones), reported to its
/// `HTTPExchange` as libsoup's events are: the head, then the whole body (read up to
/// `readAhead` until `consume`; the rest waits in the kernel and the server), or a failure. A
/// request that finds a reused connection closed before any byte of its reply is sent once more
/// on a new connection when its method is idempotent; a non-idempotent one takes only an idle
/// connection that still looks open.
@BridgeActor
final class PlainHTTPRequest {
  private enum Phase { case connecting, writing, head, body, paused, done }
  private enum Framing {
    case none
    case length(Int)
    case chunked
    case close
  }
  private enum ChunkStep { case size, data(Int), dataEnd, trailer }

  /// How much of a body is read before `consume` asks for the rest (libsoup's read-ahead).
  static let readAhead = 1024 * 1024
  /// The largest response head taken.
  static let headLimit = 256 * 1024
  private static let idempotentMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"]

  private var exchange: HTTPExchange?
  private let pool: HTTPConnectionPool
  private let loop: EventLoop
  private let target: PlainHTTPTarget
  private let idempotent: Bool
  private let isHead: Bool
  private let message: [UInt8]
  private var written = 0
  private var connection: HTTPConnection?
  private var nextAddress = 0
  private var retried = false
  /// Whether a byte of the reply has come on this connection.
  private var replied = false
  /// While `start` runs: a failure then is reported on the next turn, never inside the call.
  private var starting = false
  private var watch: Int?
  private var watchedEvents: Int16 = 0
  private var lastProgress = 0.0
  private var phase = Phase.connecting
  private var framing = Framing.none
  private var chunk = ChunkStep.size
  private var keepAlive = true
  /// 1 gzip, 0 deflate, -1 none.
  private var coding: Int32 = -1
  private var consuming = false
  private var body: UnsafeMutablePointer<UInt8>?
  private var bodyLength = 0
  private var bodyCapacity = 0

  /// A request for `exchange`: `method` to `target` with the request's `headers`
  /// (`name\nvalue\n...`), `body` (copied) and `userAgent`, as libsoup would send them.
  init(
    exchange: HTTPExchange, pool: HTTPConnectionPool, loop: EventLoop, target: PlainHTTPTarget,
    method: UnsafePointer<CChar>, headers: UnsafePointer<CChar>, body: UnsafeRawBufferPointer?,
    userAgent: UnsafePointer<CChar>
  ) {
    self.exchange = exchange
    self.pool = pool
    self.loop = loop
    self.target = target
    let method = String(cString: method)
    idempotent = Self.idempotentMethods.contains(method)
    isHead = method == "HEAD"
    message = Self.message(method: method, target: target, headers: headers, body: body, userAgent: userAgent)
  }

  /// The request's bytes: libsoup's headers for the same request (the caller's, then
  /// Content-Length, Accept-Encoding, User-Agent, Connection and Host), then the body.
  private static func message(
    method: String, target: PlainHTTPTarget, headers: UnsafePointer<CChar>, body: UnsafeRawBufferPointer?,
    userAgent: UnsafePointer<CChar>
  ) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(256 + strlen(headers) + (body?.count ?? 0))
    out += method.utf8
    out.append(32)
    out += target.path.utf8
    out += " HTTP/1.1\r\n".utf8
    // The caller's headers, less those the client sets itself.
    let raw = UnsafeBufferPointer(start: UnsafeRawPointer(headers).assumingMemoryBound(to: UInt8.self), count: strlen(headers))
    var index = 0
    while index < raw.count {
      let nameEnd = raw[index...].firstIndex(of: 10) ?? raw.count
      let valueStart = min(nameEnd + 1, raw.count)
      let valueEnd = raw[valueStart...].firstIndex(of: 10) ?? raw.count
      let name = UnsafeBufferPointer(rebasing: raw[index..<nameEnd])
      if !isSetByClient(name) {
        out += name
        out += ": ".utf8
        out += raw[valueStart..<valueEnd]
        out += "\r\n".utf8
      }
      index = valueEnd + 1
    }
    if let body {
      out += "Content-Length: \(body.count)\r\n".utf8
    } else if method == "POST" || method == "PUT" {
      out += "Content-Length: 0\r\n".utf8
    }
    out += "Accept-Encoding: gzip, deflate\r\nUser-Agent: ".utf8
    out += UnsafeBufferPointer(start: UnsafeRawPointer(userAgent).assumingMemoryBound(to: UInt8.self), count: strlen(userAgent))
    out += "\r\nConnection: Keep-Alive\r\nHost: ".utf8
    out += target.authority.utf8
    out += "\r\n\r\n".utf8
    if let body { out += body }
    return out
  }

  private static func isSetByClient(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    for set in ["accept-encoding", "user-agent", "connection", "host", "content-length"] where set.utf8.count == name.count {
      if zip(set.utf8, name).allSatisfy({ $0 == ($1 | 0x20) }) { return true }
    }
    return false
  }

  // MARK: Sending

  /// Sends the request: on an idle connection to the host when there is one, else on a new one.
  func start() {
    starting = true
    defer { starting = false }
    pool.started(self, loop: loop)
    lastProgress = monotonicSeconds()
    if let idle = pool.take(target.authority, check: !idempotent) {
      connection = idle
      send()
    } else {
      connect()
    }
  }

  private var lastConnectError: Int32 = ECONNREFUSED

  /// Opens a connection to the next address (each refused one tries the next).
  private func connect() {
    phase = .connecting
    while nextAddress < target.addresses.count {
      let address = target.addresses[nextAddress]
      nextAddress += 1
      let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      guard fd >= 0 else { return fail(kind: 0, "cannot open a socket: \(String(cString: strerror(errno)))") }
      var one: Int32 = 1
      setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
      let connection = HTTPConnection(fd: fd, authority: target.authority)
      self.connection = connection
      var storage = address.storage
      let status = withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, address.length) }
      }
      if status == 0 { return send() }
      if errno == EINPROGRESS { return watch(Int16(POLLOUT)) { $0.connected() } }
      lastConnectError = errno
      connection.close()
      self.connection = nil
    }
    let kind = lastConnectError == ECONNREFUSED ? 2 : lastConnectError == ETIMEDOUT ? 5 : 0
    fail(kind: kind, "Could not connect to \(target.authority): \(String(cString: strerror(lastConnectError)))")
  }

  private func connected() {
    guard let connection else { return }
    var error: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(connection.fd, SOL_SOCKET, SO_ERROR, &error, &length)
    if error == 0 { return send() }
    lastConnectError = error
    connection.close()
    self.connection = nil
    connect()
  }

  /// Writes what is left of the request; then waits for the reply.
  private func send() {
    guard let connection else { return }
    phase = .writing
    while written < message.count {
      let n = message.withUnsafeBytes { Glibc.send(connection.fd, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL)) }
      if n > 0 {
        written += n
        lastProgress = monotonicSeconds()
        continue
      }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { return watch(Int16(POLLOUT)) { $0.send() } }
      return lost(errno)
    }
    phase = .head
    watch(Int16(POLLIN)) { $0.readable() }
  }

  private func watch(_ events: Int16, _ body: @escaping @BridgeActor (PlainHTTPRequest) -> Void) {
    if let watch { loop.cancelWatch(watch) }
    guard let fd = connection?.fd else { return }
    watchedEvents = events
    watch = loop.watch(fd, events: events) { [self] in body(self) }
  }

  private func stopWatching() {
    if let watch { loop.cancelWatch(watch) }
    watch = nil
  }

  // MARK: Receiving

  /// Reads what has arrived (a few reads at most, so a fast large body lets the loop turn).
  private func readable() {
    for _ in 0..<16 {
      guard let connection, phase == .head || phase == .body else { return }
      var n: Int
      if phase == .body, case .length(let left) = framing, connection.pending.isEmpty {
        // A body of known length goes straight into its buffer.
        if bodyCapacity == bodyLength { grow(to: min(bodyLength + left, max(bodyCapacity * 2, 64 * 1024))) }
        n = Glibc.read(connection.fd, body! + bodyLength, min(left, bodyCapacity - bodyLength))
        if n > 0 {
          replied = true
          lastProgress = monotonicSeconds()
          bodyLength += n
          framing = .length(left - n)
          if left == n { return complete() }
          if !consuming && bodyLength >= Self.readAhead { return pause() }
          continue
        }
      } else {
        n = connection.read()
        if n > 0 {
          replied = true
          lastProgress = monotonicSeconds()
          process()
          continue
        }
      }
      if n == 0 { return endOfStream() }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { return }
      return lost(errno)
    }
  }

  /// Takes what the connection holds: the head (1xx ones skipped), then the body.
  private func process() {
    while let connection {
      switch phase {
      case .head:
        let pending = connection.pending
        guard let end = Self.headEnd(pending) else {
          if pending.count > Self.headLimit { fail(kind: 0, "the response head is larger than \(Self.headLimit) bytes") }
          return
        }
        guard let head = parseHead(UnsafeBufferPointer(rebasing: pending[..<end])) else {
          return fail(kind: 0, "the server's response is not HTTP/1.1")
        }
        connection.take(end)
        if (100..<200).contains(head.status) && head.status != 101 { continue }
        phase = .body
        if case .none = framing {
          // No body: the connection is free before the head's handler may start the next request.
          putBack()
          deliverHead(head)
          return complete()
        }
        deliverHead(head)
        guard self.phase == .body else { return }
      case .body:
        guard takeBody(from: connection) else { return }
        if case .none = framing { return complete() }
        if !consuming && bodyLength >= Self.readAhead { return pause() }
        return
      default: return
      }
    }
  }

  /// The index just past the blank line that ends a head, or nil when it has not all arrived.
  private static func headEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    while let newline = bytes[index...].firstIndex(of: 10) {
      let next = newline + 1
      if next < bytes.count && bytes[next] == 10 { return next + 1 }
      if next + 1 < bytes.count && bytes[next] == 13 && bytes[next + 1] == 10 { return next + 2 }
      index = next
    }
    return nil
  }

  private struct Head {
    var status: Int
    /// The reason phrase and the header block (`name\nvalue\n...`), each NUL-terminated UTF-8.
    var reason: [UInt8]
    var block: [UInt8]
  }

  /// The status, reason and header block of a head (invalid UTF-8 replaced as libsoup does); sets
  /// the body's framing, coding and keep-alive. Bytes are compared in place: no strings are made.
  private func parseHead(_ bytes: UnsafeBufferPointer<UInt8>) -> Head? {
    var index = 0
    let status = Self.line(bytes, &index)
    guard status.count >= 12, Self.equal(bytes, status.lowerBound..<status.lowerBound + 7, "HTTP/1."),
      bytes[status.lowerBound + 8] == 32, status.count == 12 || bytes[status.lowerBound + 12] == 32
    else { return nil }
    var code = 0
    for offset in 9..<12 {
      let digit = Int(bytes[status.lowerBound + offset]) - 48
      guard (0...9).contains(digit) else { return nil }
      code = code * 10 + digit
    }
    let http10 = bytes[status.lowerBound + 7] == UInt8(ascii: "0")
    var reason = Array(bytes[min(status.lowerBound + 13, status.upperBound)..<status.upperBound])
    var block: [UInt8] = []
    block.reserveCapacity(bytes.count)
    var length: Int?
    var chunked = false, closeToken = false, keep = false
    coding = -1
    while index < bytes.count {
      let range = Self.line(bytes, &index)
      if range.isEmpty { break }
      if bytes[range.lowerBound] == 32 || bytes[range.lowerBound] == 9 {
        // An obsolete folded line continues the previous value.
        block.append(32)
        block += bytes[Self.trimmed(bytes, range)]
        continue
      }
      var colon = range.lowerBound
      while colon < range.upperBound && bytes[colon] != 58 { colon += 1 }
      guard colon < range.upperBound else { continue }
      let name = range.lowerBound..<colon
      let value = Self.trimmed(bytes, colon + 1..<range.upperBound)
      if !block.isEmpty { block.append(10) }
      block += bytes[name]
      block.append(10)
      block += bytes[value]
      switch name.count {
      case 14 where Self.equal(bytes, name, "content-length"):
        var count = 0
        for byte in bytes[value] {
          guard byte >= 48 && byte <= 57, count < Int.max / 10 - 9 else { return nil }
          count = count * 10 + Int(byte - 48)
        }
        guard !value.isEmpty else { return nil }
        length = count
      case 17 where Self.equal(bytes, name, "transfer-encoding"):
        var last = value.lowerBound
        for offset in value where bytes[offset] == 44 { last = offset + 1 }
        chunked = Self.equal(bytes, Self.trimmed(bytes, last..<value.upperBound), "chunked")
        if !chunked { length = nil }
      case 10 where Self.equal(bytes, name, "connection"):
        var start = value.lowerBound
        for offset in value.lowerBound...value.upperBound where offset == value.upperBound || bytes[offset] == 44 {
          let token = Self.trimmed(bytes, start..<offset)
          if Self.equal(bytes, token, "close") { closeToken = true }
          if Self.equal(bytes, token, "keep-alive") { keep = true }
          start = offset + 1
        }
      case 16 where Self.equal(bytes, name, "content-encoding"):
        coding =
          Self.equal(bytes, value, "gzip") || Self.equal(bytes, value, "x-gzip")
          ? 1 : Self.equal(bytes, value, "deflate") ? 0 : -1
      default: break
      }
    }
    keepAlive = http10 ? keep && !closeToken : !closeToken
    if isHead || code == 204 || code == 304 || (100..<200).contains(code) {
      framing = .none
      if code == 101 { keepAlive = false }
    } else if chunked {
      framing = .chunked
      chunk = .size
    } else if let length {
      framing = length == 0 ? .none : .length(length)
    } else {
      framing = .close
      keepAlive = false
    }
    if case .length(let count) = framing, count < 8 * 1024 * 1024 { grow(to: count) }
    return Head(status: code, reason: Self.cString(&reason), block: Self.cString(&block))
  }

  /// The line at `index` without its CR LF (empty at the blank line or the end); `index` moves past it.
  private static func line(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Range<Int> {
    var end = index
    while end < bytes.count && bytes[end] != 10 { end += 1 }
    let start = index
    index = end + 1
    if end > start && bytes[end - 1] == 13 { end -= 1 }
    return start..<end
  }

  /// `range` without the spaces and tabs at either end.
  private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
    var start = range.lowerBound, end = range.upperBound
    while start < end && (bytes[start] == 32 || bytes[start] == 9) { start += 1 }
    while end > start && (bytes[end - 1] == 32 || bytes[end - 1] == 9) { end -= 1 }
    return start..<end
  }

  /// Whether `bytes[range]` is `lower` (ASCII, lower case) in any case.
  private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ lower: StaticString) -> Bool {
    guard range.count == lower.utf8CodeUnitCount else { return false }
    let text = lower.utf8Start
    for offset in 0..<range.count {
      let byte = bytes[range.lowerBound + offset]
      if byte != text[offset] && byte | 0x20 != text[offset] { return false }
    }
    return true
  }

  /// NUL-terminated UTF-8, invalid sequences replaced by U+FFFD.
  private static func cString(_ bytes: inout [UInt8]) -> [UInt8] {
    var ascii = true
    for byte in bytes where byte >= 0x80 { ascii = false }
    if !ascii { bytes = Array(String(decoding: bytes, as: UTF8.self).utf8) }
    bytes.append(0)
    return bytes
  }

  private func deliverHead(_ head: Head) {
    head.reason.withUnsafeBufferPointer { reason in
      head.block.withUnsafeBufferPointer { block in
        reason.withMemoryRebound(to: CChar.self) { reason in
          block.withMemoryRebound(to: CChar.self) { block in
            exchange?.deliver(.head(status: head.status, reason: reason.baseAddress, headers: block.baseAddress))
          }
        }
      }
    }
  }

  /// Moves pending body bytes into the body by its framing (`framing` becomes `.none` at its
  /// end); false when the response cannot be read (the request has failed).
  private func takeBody(from connection: HTTPConnection) -> Bool {
    while !connection.pending.isEmpty {
      let pending = connection.pending
      switch framing {
      case .none: return true
      case .close:
        append(pending)
        connection.take(pending.count)
      case .length(let left):
        let count = min(left, pending.count)
        append(UnsafeBufferPointer(rebasing: pending[..<count]))
        connection.take(count)
        framing = left == count ? .none : .length(left - count)
      case .chunked:
        switch chunk {
        case .data(let left):
          let count = min(left, pending.count)
          append(UnsafeBufferPointer(rebasing: pending[..<count]))
          connection.take(count)
          chunk = left == count ? .dataEnd : .data(left - count)
        case .size, .dataEnd, .trailer:
          guard let newline = pending.firstIndex(of: 10) else {
            if pending.count > 4096 { fail(kind: 0, "a chunk's size line is too long"); return false }
            return true
          }
          var line = pending[..<newline]
          if line.last == 13 { line = line.dropLast() }
          connection.take(newline + 1)
          switch chunk {
          case .dataEnd:
            guard line.isEmpty else { fail(kind: 0, "a chunk does not end with CRLF"); return false }
            chunk = .size
          case .trailer:
            if line.isEmpty { framing = .none }
          default:
            let digits = line.prefix { $0 != 59 && $0 != 32 && $0 != 9 }
            guard let size = Int(String(decoding: digits, as: UTF8.self), radix: 16), size >= 0 else {
              fail(kind: 0, "a chunk's size is not hexadecimal")
              return false
            }
            chunk = size == 0 ? .trailer : .data(size)
          }
        }
      }
    }
    return true
  }

  private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    if bodyCapacity - bodyLength < bytes.count { grow(to: max(bodyCapacity * 2, bodyLength + bytes.count, 16 * 1024)) }
    (body! + bodyLength).update(from: bytes.baseAddress!, count: bytes.count)
    bodyLength += bytes.count
  }

  private func grow(to capacity: Int) {
    guard capacity > bodyCapacity || body == nil else { return }
    let size = max(capacity, 1)
    body = realloc(body, size)?.assumingMemoryBound(to: UInt8.self)
    bodyCapacity = body == nil ? 0 : size
    if body == nil { fatalError("out of memory reading a response body") }
  }

  /// The read-ahead is full and nobody has asked for the body: reading stops until `consume`.
  private func pause() {
    phase = .paused
    stopWatching()
  }

  /// Reads the body to its end (it then reaches the exchange whole).
  func consume() {
    consuming = true
    guard phase == .paused else { return }
    phase = .body
    lastProgress = monotonicSeconds()
    watch(Int16(POLLIN)) { $0.readable() }
  }

  private func endOfStream() {
    if phase == .body, case .close = framing { return complete() }
    if !replied, let connection, connection.reused, idempotent, !retried { return retry() }
    // libsoup reports an end of stream before the response's end as a failure of its own
    // (`network_error`), a reset connection as GIO's `connection_closed`.
    fail(kind: 0, "Connection terminated unexpectedly")
  }

  /// A read or write failed with `error`.
  private func lost(_ error: Int32) {
    if error == ECONNRESET || error == EPIPE {
      if !replied, let connection, connection.reused, idempotent, !retried { return retry() }
      return fail(kind: 7, "Connection terminated unexpectedly")
    }
    fail(kind: 0, "Error on the connection: \(String(cString: strerror(error)))")
  }

  /// Sends the request once more on a new connection (a reused one was closed by the server).
  private func retry() {
    retried = true
    stopWatching()
    connection?.close()
    connection = nil
    written = 0
    nextAddress = 0
    connect()
  }

  // MARK: Ending

  /// The whole response is in: the connection goes back to the pool when the server keeps it,
  /// then the body (decoded when compressed) reaches the exchange.
  private func complete() {
    guard phase != .done else { return }
    putBack()
    phase = .done
    pool.ended(self)
    if body == nil { grow(to: 1) }
    var bytes = UnsafeMutableRawPointer(body)
    var length = bodyLength
    body = nil
    if coding >= 0, length > 0 {
      var decoded = 0
      let plain = nbh_inflate(bytes, length, coding, &decoded)
      free(bytes)
      guard let plain else {
        return end(.failure(kind: 0, message: "the response's \(coding == 1 ? "gzip" : "deflate") body cannot be decoded"))
      }
      bytes = plain
      length = decoded
    }
    end(.body(bytes, length))
  }

  /// Gives the connection back to the pool when the server keeps it, else closes it.
  private func putBack() {
    stopWatching()
    if let connection {
      if keepAlive && connection.pending.isEmpty { pool.put(connection) } else { connection.close() }
    }
    connection = nil
  }

  /// Cancels the request: it ends with an `aborted` failure on a later turn; the connection is closed.
  func cancel() {
    guard phase != .done else { return }
    release()
    let exchange = self.exchange
    self.exchange = nil
    _ = loop.addTimer(delay: .zero, interval: nil, keepsAlive: false) {
      exchange?.deliver(.failure(kind: 1, message: "Operation was cancelled"))
    }
  }

  /// Ends with `timed_out` when nothing was read or written for `after` seconds (a body paused
  /// for backpressure waits on the reader, not the server).
  func timeOutIfIdle(now: Double, after: Double) {
    guard phase != .done, phase != .paused, now - lastProgress >= after else { return }
    fail(kind: 5, "Socket I/O timed out")
  }

  private func fail(kind: Int, _ message: String) {
    guard phase != .done else { return }
    release()
    end(.failure(kind: kind, message: message))
  }

  /// Closes the connection and frees the body read so far.
  private func release() {
    phase = .done
    stopWatching()
    connection?.close()
    connection = nil
    free(body)
    body = nil
    pool.ended(self)
  }

  private func end(_ event: HTTPExchange.Event) {
    let exchange = self.exchange
    self.exchange = nil
    if starting {
      _ = loop.addTimer(delay: .zero, interval: nil, keepsAlive: false) { exchange?.deliver(event) }
    } else {
      exchange?.deliver(event)
    }
  }
}
