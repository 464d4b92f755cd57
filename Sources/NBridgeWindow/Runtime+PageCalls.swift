import NBridgePlugin
import NBridgeRuntime

/// A page's calls and listener counts, sent as messages (`Runtime+Page` reads them), onto the
/// runtime's calls from outside its JS context (`Runtime.startCall`).
extension Runtime {
  /// A call by number, as a page sends it: `code` is `sid * 65536 + aid` (the order of the
  /// services and actions in `bridgeTables()`), `json` its options text (empty: none), parsed as
  /// a headless call's are. `sink` gets a streaming action's partial results, `done` its answer;
  /// `permissions`: a remote page's (nil for the app's own code).
  func call(
    code: Int, json: Substring, sink: (@BridgeActor (JSONValue) -> Void)?, permissions: Set<String>?,
    _ done: @escaping @BridgeActor (Result<JSONValue, BridgeError>) -> Void
  ) {
    startCall(code: code, permissions: permissions, sink: sink, options: { action throws(BridgeError) in
      json.isEmpty ? .value(.object(JSONObject())) : try CallOptions(text: json, readsText: action.readsOptionsText)
    }, done)
  }

  /// Calls `service.action` by name with `options` (null: none) for a page's seed-system
  /// protocol: unknown names, options that are not an object and refused permissions settle
  /// `done` with their error codes. `sink` gets a streaming action's partial results. Returns
  /// the call's id while it runs (nil when it settled at once).
  @discardableResult
  func callByName(
    _ service: String, _ action: String, _ options: JSONValue, permissions: Set<String>?,
    sink: (@BridgeActor (JSONValue) -> Void)?, _ done: @escaping @BridgeActor (Result<JSONValue, BridgeError>) -> Void
  ) -> Int? {
    let services = serviceDefinitions
    guard let sid = services.firstIndex(where: { $0.service == service }) else {
      done(.failure(BridgeError(.invalidService, BridgeMessages.fill(BridgeMessages.unknownService, ["service": service]))))
      return nil
    }
    guard let aid = services[sid].actions.firstIndex(where: { $0.name == action }) else {
      let message = BridgeMessages.fill(BridgeMessages.unknownAction, ["service": service, "action": action])
      done(.failure(BridgeError(.invalidActionName, message)))
      return nil
    }
    guard options == .null || options.objectValue != nil else {
      done(.failure(BridgeError(.invalidParameter, "\(service).\(action): options must be an object")))
      return nil
    }
    let streams = services[sid].actions[aid].streams != nil
    return startCall(code: sid << 16 | aid, permissions: permissions, sink: streams ? sink : nil, options: { _ in
      .value(options == .null ? .object(JSONObject()) : options)
    }, done)
  }

  /// Whether `service.action` exists and streams partial results.
  func actionStreams(_ service: String, _ action: String) -> Bool {
    serviceDefinitions.first { $0.service == service }?.actions.contains { $0.name == action && $0.streams != nil }
      ?? false
  }

  /// The page now has `count` listeners for `event` of the service numbered `service` (its
  /// place in `bridgeTables()`); ignored for an unknown number or, with `permissions` (a remote
  /// page's), a service outside them.
  func listenersChanged(service: Int, event: String, count: Int, permissions: Set<String>?) {
    let services = serviceDefinitions
    guard services.indices.contains(service) else { return }
    if let permissions, !permissions.contains(services[service].permission) { return }
    listenersChanged(service: service, event: event, count: count)
  }
}
