import NBridgePlugin

/// The seam the lifecycle extension (NBridgeLifecycle) drives: the app's `Lifecycle`, the run's
/// delivery gate (`Runtime+Delivery`) and its event sink (the run's own context, or a window's page).
extension ExtensionHost {
  /// The app's lifecycle (its state, whether it is suspended), shared with every plugin's context.
  package var lifecycle: Lifecycle { runtime.lifecycle }

  /// Closes the delivery gate: JS timers freeze, and events, call answers and streamed values
  /// wait, in order, until it opens.
  package func holdDeliveries() {
    runtime.deliveriesHeld = true
    runtime.loop.jsTimersFrozen = true
  }

  /// Opens the delivery gate (JS timers run again, new deliveries go in at once); what waited
  /// stays until `deliverHeld()`. False when the gate was open.
  @discardableResult
  package func openDeliveries() -> Bool {
    guard runtime.deliveriesHeld else { return false }
    runtime.deliveriesHeld = false
    runtime.loop.jsTimersFrozen = false
    return true
  }

  /// Delivers, in order, what waited while the gate was closed (until it closes again).
  package func deliverHeld() {
    let runtime = self.runtime
    while !runtime.deliveriesHeld, runtime.exitCode == nil, !runtime.heldDeliveries.isEmpty {
      runtime.heldDeliveries.removeFirst().body()
    }
  }

  /// The event sink when the run's JS is a window's page (`nbridge app`): events and moves
  /// reach it as script; nil headless, where they reach the run's own context.
  package var page: PageHost? { runtime.page }

  /// Sends `event` of `service` with `payload` to the script's listeners, through the gate and the sink.
  package func emit(service: String, event: String, payload: JSONValue) {
    runtime.emit(service: service, event: event, payload: payload)
  }

  /// The state of the run's extension whose state is an `S`: how one extension reaches another's.
  package func state<S: AnyObject>(of type: S.Type) -> S? {
    for state in runtime.extensionStates { if let state = state as? S { return state } }
    return nil
  }
}
