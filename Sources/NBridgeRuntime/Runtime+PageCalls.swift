import NBridgePlugin

/// Calls that do not come from the run's own JS context: a window's page sends its calls,
/// listener counts and console lines as messages (NBridgeWindow's page glue reads them), and
/// the window makes calls of its own (`Runtime+HostCalls`).
extension Runtime {
  /// A call by number, as a page sends it: `code` is `sid * 65536 + aid` (the order of the
  /// services and actions in `bridgeTables()`), `json` its options text (empty: none), parsed as
  /// a headless call's are. `sink` gets a streaming action's partial results, `done` its answer;
  /// `permissions`: a remote page's (nil for the app's own code).
  package func call(
    code: Int, json: Substring, sink: (@BridgeActor (JSONValue) -> Void)?, permissions: Set<String>?,
    _ done: @escaping @BridgeActor (Result<JSONValue, BridgeError>) -> Void
  ) {
    let sid = code >> 16
    let aid = code & 0xFFFF
    guard slots.indices.contains(sid), slots[sid].definition.actions.indices.contains(aid) else {
      return done(.failure(BridgeError(.invalidActionName, "no action number \(code)")))
    }
    let slot = slots[sid]
    let settlement = Settlement.handler(done)
    if let refusal = refusal(slot, aid, within: permissions) {
      return settle(settlement, .failure(refusal), label: slot.labels[aid])
    }
    var options = CallOptions.value(.object(JSONObject()))
    if !json.isEmpty {
      do throws(BridgeError) {
        options =
          slot.definition.actions[aid].readsOptionsText
          ? .text(try BridgeError.pageOptionsText(json)) : .value(try BridgeError.pageOptions(json))
      } catch {
        return settle(settlement, .failure(error), label: slot.labels[aid])
      }
    }
    dispatch(slot, aid, options, settlement, callback: nil, sink: sink)
  }

  /// Calls `service.action` by name with `options` (null: none) for a page's seed-system
  /// protocol: unknown names, options that are not an object and refused permissions settle
  /// `done` with their error codes. `sink` gets a streaming action's partial results. Returns
  /// the call's id in `callSlots` while it runs (nil when it settled at once).
  @discardableResult
  package func callByName(
    _ service: String, _ action: String, _ options: JSONValue, permissions: Set<String>?,
    sink: (@BridgeActor (JSONValue) -> Void)?, _ done: @escaping @BridgeActor (Result<JSONValue, BridgeError>) -> Void
  ) -> Int? {
    guard let sid = slots.firstIndex(where: { $0.definition.service == service }) else {
      done(.failure(BridgeError(.invalidService, BridgeMessages.fill(BridgeMessages.unknownService, ["service": service]))))
      return nil
    }
    guard let aid = slots[sid].definition.actions.firstIndex(where: { $0.name == action }) else {
      let message = BridgeMessages.fill(BridgeMessages.unknownAction, ["service": service, "action": action])
      done(.failure(BridgeError(.invalidActionName, message)))
      return nil
    }
    let slot = slots[sid]
    let settlement = Settlement.handler(done)
    var options = options
    if options == .null { options = .object(JSONObject()) }
    guard case .object = options else {
      let problem = BridgeError(.invalidParameter, "options must be an object")
      settle(settlement, .failure(problem), label: slot.labels[aid])
      return nil
    }
    if let refusal = refusal(slot, aid, within: permissions) {
      settle(settlement, .failure(refusal), label: slot.labels[aid])
      return nil
    }
    let streams = slot.definition.actions[aid].streams != nil
    return dispatch(slot, aid, .value(options), settlement, callback: nil, sink: streams ? sink : nil)
  }

  /// Whether `service.action` exists and streams partial results.
  package func actionStreams(_ service: String, _ action: String) -> Bool {
    slots.first { $0.definition.service == service }?.definition.actions.contains {
      $0.name == action && $0.streams != nil
    } ?? false
  }

  /// The JS side now has `count` listeners for `event` of the service numbered `service` (its
  /// place in `bridgeTables()`); ignored for an unknown number or, with `permissions` (a remote
  /// page's), a service outside them.
  package func listenersChanged(service: Int, event: String, count: Int, permissions: Set<String>?) {
    guard slots.indices.contains(service) else { return }
    if let permissions, !permissions.contains(slots[service].definition.permission) { return }
    listenersChanged(slot: slots[service], event: event, count: count)
  }

  /// The JS side's listeners are all gone (a page replaced by a new document).
  package func dropAllListeners() {
    for slot in slots {
      for (event, count) in slot.listenerCounts where count > 0 {
        listenersChanged(slot: slot, event: event, count: 0)
      }
    }
  }
}
