import NBridgePlugin

/// The URLs handed to this run, waiting for the script's `appUrlOpen` listener: the launch URL
/// first, then each `url` request of the control socket, in arrival order, each delivered once
/// and verbatim. Up to `capacity` wait while no listener exists, so a URL that started the app
/// is not lost when the listener is added after an `await`.
@BridgeActor
final class URLInbox {
  /// How many URLs may wait for a listener; more are refused (`unavailable`) to their sender.
  static let capacity = 64
  static let event = "appUrlOpen"

  private let context: PluginContext
  private var waiting: [URLOpen] = []
  private var deliveryPosted = false

  /// Holds the launch URL, if any, and answers the control socket's `url` op.
  init(context: PluginContext) {
    self.context = context
    if let url = context.launchURL { waiting.append(URLOpen(url: url, launch: true)) }
    context.handleControl("url") { [weak self] request in
      guard let self else { throw BridgeError.unavailable("the app is exiting") }
      return try self.receive(request)
    }
  }

  /// A URL from another process (`nbridge open`, a second `nbridge run --url`): the app becomes
  /// active first (`resume`, `stateChange`; a window comes to the front), unless the request
  /// says `background: true`.
  func receive(_ request: ControlRequest) throws(BridgeError) -> JSONObject {
    let url = try request.string("url")
    guard url.contains(":") else { throw BridgeError.invalidParameter("url", "must be a URL with a scheme") }
    guard waiting.count < Self.capacity else {
      throw BridgeError.unavailable("\(Self.capacity) URLs are waiting for an appUrlOpen listener already")
    }
    if request.fields["background"] != .bool(true) { context.lifecycle.bringToFront() }
    waiting.append(URLOpen(url: url, launch: false))
    postDelivery()
    return JSONObject()
  }

  /// Delivers what waits once the script listens.
  func listenersChanged(count: Int) {
    if count > 0 { postDelivery() }
  }

  /// Delivery runs at a later turn of the loop, after any state move asked for before it (moves
  /// are posted too): `resume` and `stateChange` reach the script before `appUrlOpen`, and no
  /// event enters JS from inside the `addListener` call that made it listen.
  private func postDelivery() {
    guard !deliveryPosted, !waiting.isEmpty else { return }
    deliveryPosted = true
    PluginContext.post { [weak self] in self?.deliver() }
  }

  private func deliver() {
    deliveryPosted = false
    while !waiting.isEmpty, context.listenerCount(Self.event) > 0 {
      context.emit(Self.event, waiting.removeFirst())
    }
  }
}

/// `appUrlOpen`'s payload.
struct URLOpen: Encodable, Sendable {
  /// The URL exactly as it was sent (percent-escapes kept).
  var url: String
  /// Whether it launched this run.
  var launch: Bool
}
