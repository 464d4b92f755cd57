import NBridgePlugin

/// The seam for calls that do not come from the run's own JS context: a window's page sends
/// its calls and listener counts as messages, and the window makes calls of its own
/// (NBridgeWindow's `Runtime+PageCalls` and `Runtime+HostCalls` read them onto these).
extension Runtime {
  /// The run's services, in the order of `bridgeTables()`: a service's number is its place here.
  package var serviceDefinitions: [AnyPluginDefinition] { slots.map(\.definition) }

  /// Starts the action numbered `code` (sid * 65536 + aid) as every call starts (`startCall`),
  /// its options read by `options` for the action, refused outside `permissions` (a remote
  /// page's) too. `sink` gets a streaming action's partial results, `done` its answer (an
  /// error's message starts with `service.action: `). Returns the call's id while it runs (nil
  /// when it settled at once), for `cancelCall`.
  @discardableResult
  package func startCall(
    code: Int, permissions: Set<String>?, sink: (@BridgeActor (JSONValue) -> Void)?,
    options: (ActionInfo) throws(BridgeError) -> CallOptions,
    _ done: @escaping @BridgeActor (Result<JSONValue, BridgeError>) -> Void
  ) -> Int? {
    startCall(code: code, .handler(done), permissions: permissions, callback: nil, sink: sink, options: options)
  }

  /// Ends the call `id` (`startCall`'s) if it still runs: the action hears it is cancelled (its
  /// cancel handlers run), and the call settles with `error`.
  package func cancelCall(_ id: Int, _ error: BridgeError) {
    guard let slot = callSlots[id] else { return }
    slot.cancel()
    closeCallSlot(id, .failure(error))
  }

  /// The other side now has `count` listeners for `event` of the service numbered `service`.
  package func listenersChanged(service: Int, event: String, count: Int) {
    listenersChanged(slot: slots[service], event: event, count: count)
  }

  /// The other side's listeners are all gone (a page replaced by a new document).
  package func dropAllListeners() {
    for slot in slots {
      for (event, count) in slot.listenerCounts where count > 0 {
        listenersChanged(slot: slot, event: event, count: 0)
      }
    }
  }
}
