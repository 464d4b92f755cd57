import CSoup
import Glibc
import NBridgePlugin
import NBridgeRuntime

/// One `fetch` request in flight, through the runtime's own HTTP/1.1 client (`PlainHTTPRequest`,
/// plain `http:` to an address or `localhost`, see `PlainHTTPTarget`) or libsoup: the JS function told of its progress
/// (`handler(0, status, reason, headers)`, then `handler(1, arrayBuffer)`, or
/// `handler(2, kind, message)`), and the hold that keeps the run alive until the head arrives,
/// then again while the body is consumed (`consume`); a body nobody reads keeps nothing alive,
/// and is discarded when more than `NBH_UNREAD_LIMIT` newer ones wait unread too.
@BridgeActor
final class HTTPExchange {
  let id: Int
  private let handler: ExtensionCallback
  private let host: ExtensionHost
  /// Weak: a libsoup event may come after the run (and its state) is gone.
  private weak var state: WebState?
  private var request: UnsafeMutableRawPointer?
  private var plain: PlainHTTPRequest?
  private var hold: Int?
  private var consuming = false
  /// Set when the body was cancelled for waiting unread too long (see `discardOldUnread`).
  private var discarded = false

  /// What a failed request ran into, as `TypeError.cause.code` names it.
  static let errorKinds = [
    "network_error", "aborted", "connection_refused", "host_not_found", "bad_certificate", "timed_out", "bad_url",
    "connection_closed",
  ]

  /// An exchange reporting to `handler`; `start` sends it.
  init(id: Int, host: ExtensionHost, state: WebState, handler: ExtensionCallback) {
    self.id = id
    self.host = host
    self.state = state
    self.handler = handler
    hold = host.loop.hold("fetch")
  }

  /// Sends `method url` with `headers` (`name\nvalue\n...`) and `body` (each string
  /// NUL-terminated bytes) through the plain client when it takes the request, else libsoup; the
  /// outcome reaches the handler, at once when libsoup cannot be opened or the URL is refused.
  func start(
    method: UnsafePointer<CChar>, url: UnsafePointer<CChar>, headers: UnsafePointer<CChar>, body: UnsafeRawBufferPointer?,
    userAgent: UnsafePointer<CChar>
  ) {
    if let state, !state.libsoupOnly, let target = PlainHTTPTarget(url: url, headers: headers) {
      let plain = PlainHTTPRequest(
        exchange: self, pool: state.connections, loop: host.loop, target: target, method: method, headers: headers,
        body: body, userAgent: userAgent)
      self.plain = plain
      plain.start()
      return
    }
    var failure: UnsafePointer<CChar>?
    guard nbh_load(&failure) == 0 else {
      let reason = failure.map { String(cString: $0) } ?? "unknown error"
      deliver(.failure(kind: 0, message: "libsoup 3 (libsoup-3.0-0) cannot be opened: \(reason)"))
      return
    }
    let retained = Unmanaged.passRetained(self)
    request = nbh_send(
      method, url, headers, body?.baseAddress, body?.count ?? 0, userAgent, exchangeEvent, retained.toOpaque())
    if request == nil {
      retained.release()
      deliver(.failure(kind: Int(NBH_BAD_URL.rawValue), message: "libsoup cannot parse the URL \(String(cString: url))"))
    }
  }

  /// Cancels the request; it ends with an `aborted` failure unless it has ended already.
  func cancel() {
    if let request { nbh_cancel(request) }
    plain?.cancel()
  }

  /// Reads the body to its end (it arrives whole as `handler(1, arrayBuffer)`), keeping the run
  /// alive meanwhile; until then libsoup reads only a bounded read-ahead.
  func consume() {
    guard request != nil || plain != nil, !consuming else { return }
    consuming = true
    state?.unreadBodies.removeAll { $0 == id }
    if hold == nil, host.isAlive { hold = host.loop.hold("fetch") }
    if let request { nbh_consume(request) }
    plain?.consume()
  }

  enum Event {
    /// The reason phrase and the header block, NUL-terminated UTF-8 from libsoup.
    case head(status: Int, reason: UnsafePointer<CChar>?, headers: UnsafePointer<CChar>?)
    case body(UnsafeMutableRawPointer?, Int)
    case failure(kind: Int, message: String)
  }

  /// Passes one event to the JS handler; the last one releases the hold.
  func deliver(_ event: Event) {
    guard let state, !host.isExiting else {
      if case .body(let bytes, _) = event { free(bytes) }
      return finish()
    }
    let arguments: [ExtensionResult]
    switch event {
    case .head(let status, let reason, let headers):
      arguments = [.json(.number(0)), .json(.number(Double(status))), .utf8(reason), .utf8(headers)]
    case .body(let bytes, let length):
      arguments = [.json(.number(1)), .arrayBuffer(UnsafeMutableRawBufferPointer(start: bytes, count: bytes == nil ? 0 : length))]
      finish()
    case .failure(let kind, let message):
      var name = HTTPExchange.errorKinds.indices.contains(kind) ? HTTPExchange.errorKinds[kind] : "network_error"
      var detail = message
      if discarded {
        name = "body_discarded"
        detail = "more than \(NBH_UNREAD_LIMIT) newer responses waited unread: read or abort a body you do not need"
      }
      arguments = [.json(.number(2)), .json(.string(name)), .json(.string(detail))]
      finish()
    }
    handler.call(arguments)
    // The head is there: a body nobody has asked for does not keep the run alive.
    if case .head = event, !consuming, request != nil || plain != nil, host.isAlive {
      if let held = hold { host.loop.release(held) }
      hold = nil
      state.unreadBodies.append(id)
      discardOldUnread(state)
    }
  }

  /// An unread body holds its connection: past `NBH_UNREAD_LIMIT` of them, the oldest is
  /// cancelled (reading it rejects with `body_discarded`), so that they cannot take every
  /// connection libsoup allows and block later requests for good.
  private func discardOldUnread(_ state: WebState) {
    while state.unreadBodies.count > Int(NBH_UNREAD_LIMIT) {
      let oldest = state.fetches[state.unreadBodies.removeFirst()]
      oldest?.discarded = true
      oldest?.cancel()
    }
  }

  private func finish() {
    request = nil
    plain = nil
    state?.unreadBodies.removeAll { $0 == id }
    if let held = hold, host.isAlive { host.loop.release(held) }
    hold = nil
    state?.fetches[id] = nil
  }
}

/// The raw parts of a libsoup event, carried into `@BridgeActor` code (it is the same thread).
private struct RawEvent: @unchecked Sendable {
  let data: UnsafeMutableRawPointer?
  let event: Int32
  let bytes: UnsafeMutableRawPointer?
  let length: Int
}

private let exchangeEvent: nbh_callback = { data, event, status, text, bytes, length, kind in
  let raw = RawEvent(data: data, event: event, bytes: bytes, length: length)
  let text = UnsafeRawPointer(text)
  let reason = RawEvent(data: UnsafeMutableRawPointer(mutating: text), event: 0, bytes: nil, length: 0)
  let status = Int(status), kind = Int(kind)
  BridgeActor.assumeIsolated {
    guard let data = raw.data else { return }
    let last = raw.event != Int32(NBH_HEAD.rawValue)
    let unmanaged = Unmanaged<HTTPExchange>.fromOpaque(data)
    let exchange = unmanaged.takeUnretainedValue()
    switch raw.event {
    case Int32(NBH_HEAD.rawValue):
      exchange.deliver(
        .head(
          status: status, reason: reason.data.map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) },
          headers: raw.bytes.map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) }))
    case Int32(NBH_BODY.rawValue): exchange.deliver(.body(raw.bytes, raw.length))
    default:
      let message = reason.data.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
      exchange.deliver(.failure(kind: kind, message: message))
    }
    if last { unmanaged.release() }
  }
}
