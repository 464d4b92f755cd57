import Glibc
import NBridgePlugin
import NBridgeSystem

/// The lifecycle on the loop: moves delivered in order (observers, then the script's `app`
/// events and WKBridgeKit's listeners), and suspension: while the app is in background with
/// nothing holding it awake, JS timers are frozen and every other way into JS (events, call
/// results, streamed values) waits in `heldDeliveries` for the app to wake; a page's own
/// timers hold what comes due (`page-timers.js`).
extension Runtime {
  /// The service whose listeners hear `stateChange`, `pause` and `resume`.
  static let lifecycleService = "app"

  /// Connects the run's `Lifecycle` to the loop; called once, from `init`.
  func wireLifecycle() {
    lifecycle.now = { [clock = configuration.clock] in clock.now() }
    // Weak throughout: a plugin may keep the lifecycle, and posted work may outlive the run.
    lifecycle.requestHandler = { [weak self] state in
      // A move asked for inside JS (a listener, `simulate`) is delivered at the next turn.
      LoopExecutor.shared.post { [weak self] in BridgeActor.assumeIsolated { self?.deliverMove(to: state) } }
    }
    lifecycle.holdsChanged = { [weak self] in
      guard let self else { return }
      if self.lifecycle.isHeldAwake {
        self.wake()
      } else {
        LoopExecutor.shared.post { [weak self] in BridgeActor.assumeIsolated { self?.suspendIfIdle() } }
      }
    }
  }

  /// Moves to `state` now: observers, then the script's events in Capacitor's order.
  func deliverMove(to state: AppState) {
    guard exitCode == nil, let change = lifecycle.apply(state) else { return }
    let payload: JSONValue = ["state": .string(state.rawValue), "isActive": .bool(state.isActive)]
    if change.leavesBackground {
      // `resume` and `stateChange` come first; what waited while suspended follows them.
      let wasSuspended = unsuspend()
      emit(service: Self.lifecycleService, event: "resume", payload: .null)
      lifecycleListener("Resume")
      emit(service: Self.lifecycleService, event: "stateChange", payload: payload)
      stopsWhenSuspended = false
      deliverHeld()
      if wasSuspended { thawPage() }
    } else if change.entersBackground {
      emit(service: Self.lifecycleService, event: "stateChange", payload: payload)
      emit(service: Self.lifecycleService, event: "pause", payload: .null)
      lifecycleListener("Pause")
      suspendIfIdle()
    } else {
      emit(service: Self.lifecycleService, event: "stateChange", payload: payload)
    }
  }

  /// Suspends the app when it is in background and nothing holds it awake; stops the process
  /// too when Ctrl-Z asked for it.
  func suspendIfIdle() {
    guard exitCode == nil, lifecycle.state == .background, !lifecycle.isHeldAwake else { return }
    if !lifecycle.isSuspended {
      lifecycle.isSuspended = true
      holdDeliveries()
      page?.evaluateInPage("__nbridgeSuspend(true)")
    }
    if stopsWhenSuspended {
      stopsWhenSuspended = false
      RunSignals.stopProcess()
    }
  }

  /// Lets JS run again: unfreezes its timers and delivers what waited, in order.
  func wake() {
    guard unsuspend() else { return }
    deliverHeld()
    thawPage()
  }

  /// Lets a page's own timers run again (`page-timers.js`): what came due while the app was
  /// suspended runs now, after what the runtime held, unless that suspended the app again.
  private func thawPage() {
    guard !lifecycle.isSuspended else { return }
    page?.evaluateInPage("__nbridgeSuspend(false)")
  }

  /// Ends suspension (JS timers run again); false when the app was not suspended.
  @discardableResult
  func unsuspend() -> Bool {
    guard lifecycle.isSuspended else { return false }
    lifecycle.isSuspended = false
    openDeliveries()
    return true
  }

  /// Calls WKBridgeKit's `nbridge.call<name>Listener()` if the script or page defines it.
  private func lifecycleListener(_ name: String) {
    if let page {
      page.evaluateInPage("__nbridgeLifecycle(\(JSONValue.string(name).jsonText))")
      return
    }
    do { _ = try callHook("lifecycleListener", [js.string(name)]) } catch { reportUncaught(error.value) }
    afterCallback()
  }
}
