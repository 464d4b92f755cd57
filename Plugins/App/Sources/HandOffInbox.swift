import NBridgePlugin

/// What other processes hand this run over its control socket (URLs from `nbridge open`, the
/// arguments of a second launch), waiting for the script's listener: the launch's own first,
/// then each request of the op, in arrival order, each delivered once and verbatim. Up to
/// `capacity` wait while no listener exists, so what started the app is not lost when the
/// listener is added after an `await`.
///
/// `Payload` is constrained on `init`, not on the class: the app plugin makes its two inboxes at
/// every launch, and a class constraint is checked by a walk of every protocol conformance in the
/// executable when the class's concrete type is first made (about 0.2 M instructions each).
@BridgeActor
final class HandOffInbox<Payload: Sendable> {
  /// How many may wait for a listener; more are refused (`unavailable`) to their sender.
  let capacity = 64
  /// The event they are delivered as (`appUrlOpen`, `appLaunch`).
  let event: String

  private let context: PluginContext
  private let what: String
  private let read: @BridgeActor (ControlRequest) throws(BridgeError) -> Payload
  /// Emits one payload as `event` (`PluginContext.emit`, which encodes it).
  private let emit: @BridgeActor (Payload) -> Void
  private var waiting: [Payload] = []
  private var deliveryPosted = false

  /// Holds `first` (this launch's own, if any) and answers the control socket's `op` with
  /// `read`, which turns a request into the payload (or throws `invalid_parameter`); `what`
  /// names them in the message of a refusal (`URLs`).
  init(
    context: PluginContext, op: String, event: String, what: String, first: Payload? = nil,
    read: @escaping @BridgeActor (ControlRequest) throws(BridgeError) -> Payload
  ) where Payload: Encodable {
    self.context = context
    self.event = event
    self.what = what
    self.read = read
    emit = { payload in context.emit(event, payload) }
    if let first { waiting.append(first) }
    context.handleControl(op) { [weak self] request in
      guard let self else { throw BridgeError.unavailable("the app is exiting") }
      return try self.receive(request)
    }
  }

  /// A request from another process: the app becomes active first (`resume`, `stateChange`; a
  /// window comes to the front), unless the request says `background: true`.
  func receive(_ request: ControlRequest) throws(BridgeError) -> JSONObject {
    let payload = try read(request)
    guard waiting.count < capacity else {
      throw BridgeError.unavailable("\(capacity) \(what) are waiting for an \(event) listener already")
    }
    if request.fields["background"] != .bool(true) { context.lifecycle.bringToFront() }
    waiting.append(payload)
    postDelivery()
    return JSONObject()
  }

  /// Delivers what waits once the script listens.
  func listenersChanged(count: Int) {
    if count > 0 { postDelivery() }
  }

  /// Delivery runs at a later turn of the loop, after any state move asked for before it (moves
  /// are posted too): `resume` and `stateChange` reach the script before the event, and no
  /// event enters JS from inside the `addListener` call that made it listen.
  private func postDelivery() {
    guard !deliveryPosted, !waiting.isEmpty else { return }
    deliveryPosted = true
    PluginContext.post { [weak self] in self?.deliver() }
  }

  private func deliver() {
    deliveryPosted = false
    while !waiting.isEmpty, context.listenerCount(event) > 0 {
      emit(waiting.removeFirst())
    }
  }
}

/// `appUrlOpen`'s payload.
struct URLOpen: Encodable, Sendable {
  /// The URL exactly as it was sent (percent-escapes kept).
  var url: String
  /// Whether it launched this run.
  var launch: Bool

  /// The `url` op's request (`{"op":"url","url":...}`) as the payload.
  static func read(_ request: ControlRequest) throws(BridgeError) -> URLOpen {
    let url = try request.string("url")
    guard url.contains(":") else { throw BridgeError.invalidParameter("url", "must be a URL with a scheme") }
    return URLOpen(url: url, launch: false)
  }
}

/// `appLaunch`'s payload: a second launch of the app, handed over instead of running.
struct LaunchArguments: Encodable, Sendable {
  /// Its arguments (what `nbridge.args` would have been).
  var args: [String]
  /// The folder it was started in, for arguments that are relative paths.
  var cwd: String

  /// The `launch` op's request (`{"op":"launch","args":[...],"cwd":...}`) as the payload.
  static func read(_ request: ControlRequest) throws(BridgeError) -> LaunchArguments {
    guard case .array(let list)? = request.fields["args"] else {
      throw BridgeError.invalidParameter("args", "must be an array of strings")
    }
    var args: [String] = []
    for (index, value) in list.enumerated() {
      guard case .string(let arg) = value else {
        throw BridgeError.invalidParameter("args[\(index)]", "must be a string")
      }
      args.append(arg)
    }
    return LaunchArguments(args: args, cwd: try request.string("cwd"))
  }
}
