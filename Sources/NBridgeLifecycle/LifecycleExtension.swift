import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// The lifecycle as an extension of the runtime: moves delivered in order (observers, then the
/// script's `app` events and WKBridgeKit's listeners), and suspension: while the app is in
/// background with nothing holding it awake, the run's delivery gate is closed (JS timers frozen,
/// every other way into JS waiting for the app to wake); a page's own timers hold what comes
/// due (`page-timers.js`).
package enum LifecycleExtension {
  /// The extension: its state connects the run's `Lifecycle` to the loop.
  package static func make() -> RuntimeExtension {
    RuntimeExtension(name: "lifecycle", state: { host in LifecycleState(host) })
  }

  /// The files of a window's page: `lifecycle.js`, which calls WKBridgeKit's listeners there
  /// (a headless run's are called from Swift, and its prelude parses nothing for them).
  package static let pageScripts: [[UInt8]] = [EmbeddedFiles.lifecycle_js]
}

/// What a move to background or back does for one run.
@BridgeActor
final class LifecycleState {
  /// The service whose listeners hear `stateChange`, `pause` and `resume`.
  static let service = "app"

  let host: ExtensionHost
  var lifecycle: Lifecycle { host.lifecycle }
  /// Set by Ctrl-Z: stop the process (SIGSTOP) once the app is suspended.
  var stopsWhenSuspended = false

  /// Connects the run's `Lifecycle` to the loop; made once, when the runtime is.
  init(_ host: ExtensionHost) {
    self.host = host
    let clock = host.configuration.clock
    lifecycle.now = { clock.now() }
    // Weak throughout: a plugin may keep the lifecycle, and posted work may outlive the run.
    lifecycle.requestHandler = { [weak self] state in
      // A move asked for inside JS (a listener, `simulate`) is delivered at the next turn.
      LoopExecutor.shared.post { [weak self] in BridgeActor.assumeIsolated { self?.deliverMove(to: state) } }
    }
    lifecycle.deliverHandler = { [weak self] state in self?.deliverMove(to: state) }
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
    guard !host.isExiting, let change = lifecycle.apply(state) else { return }
    let payload: JSONValue = ["state": .string(state.rawValue), "isActive": .bool(state.isActive)]
    if change.leavesBackground {
      // `resume` and `stateChange` come first; what waited while suspended follows them.
      let wasSuspended = unsuspend()
      host.emit(service: Self.service, event: "resume", payload: .null)
      lifecycleListener("Resume")
      host.emit(service: Self.service, event: "stateChange", payload: payload)
      stopsWhenSuspended = false
      host.deliverHeld()
      if wasSuspended { thawPage() }
    } else if change.entersBackground {
      host.emit(service: Self.service, event: "stateChange", payload: payload)
      host.emit(service: Self.service, event: "pause", payload: .null)
      lifecycleListener("Pause")
      suspendIfIdle()
    } else {
      host.emit(service: Self.service, event: "stateChange", payload: payload)
    }
  }

  /// Suspends the app when it is in background and nothing holds it awake; stops the process
  /// too when Ctrl-Z asked for it.
  func suspendIfIdle() {
    guard !host.isExiting, lifecycle.state == .background, !lifecycle.isHeldAwake else { return }
    if !lifecycle.isSuspended {
      lifecycle.isSuspended = true
      host.holdDeliveries()
      host.page?.evaluateInPage("__nbridgeSuspend(true)")
    }
    if stopsWhenSuspended {
      stopsWhenSuspended = false
      RunSignals.stopProcess()
    }
  }

  /// Lets JS run again: unfreezes its timers and delivers what waited, in order.
  func wake() {
    guard unsuspend() else { return }
    host.deliverHeld()
    thawPage()
  }

  /// Lets a page's own timers run again (`page-timers.js`): what came due while the app was
  /// suspended runs now, after what the runtime held, unless that suspended the app again.
  private func thawPage() {
    guard !lifecycle.isSuspended else { return }
    host.page?.evaluateInPage("__nbridgeSuspend(false)")
  }

  /// Ends suspension (JS timers run again); false when the app was not suspended.
  @discardableResult
  func unsuspend() -> Bool {
    guard lifecycle.isSuspended else { return false }
    lifecycle.isSuspended = false
    host.openDeliveries()
    return true
  }

  /// Calls WKBridgeKit's `nbridge.call<name>Listener()` if the script or page defines it.
  private func lifecycleListener(_ name: String) {
    if let page = host.page {
      page.evaluateInPage("__nbridgeLifecycle(\(JSONValue.string(name).jsonText))")
      return
    }
    do throws(ThrownValue) {
      guard let (target, listener) = try headlessListener(name) else { return }
      _ = try host.call(listener, this: target, [])
    } catch {
      host.reportUncaught(error.value)
    }
    host.afterCallback()
  }

  /// A headless script's `nbridge` and its `call<name>Listener` function, if it has one. A
  /// script that never read `nbridge` (its lazy accessor is still there) cannot have set one,
  /// unless it assigned its own object first (WKBridgeKit's page script): that object is read
  /// as it is, and the built-in one is not built for it.
  private func headlessListener(_ name: String) throws(ThrownValue) -> (ScriptValue, ScriptValue)? {
    let object = host.property(host.global, "Object")
    let describe = host.property(object, "getOwnPropertyDescriptor")
    let descriptor = try host.call(describe, this: object, [host.global, host.string("nbridge")])
    guard host.isObject(descriptor), !host.isObject(host.property(descriptor, "get")) else { return nil }
    let target = host.property(descriptor, "value")
    let listener = host.property(target, "call\(name)Listener")
    return host.isFunction(listener) ? (target, listener) : nil
  }
}

/// What the CLI asks of the lifecycle: Ctrl-Z's stop, and the move when the process goes on.
extension ExtensionHost {
  /// The run's lifecycle extension, if it has one.
  private var lifecycleState: LifecycleState? { state(of: LifecycleState.self) }

  /// Ctrl-Z: moves the app to background, and stops the process (SIGSTOP) once the app is
  /// suspended, that is once no background task is open.
  package func stopProcessWhenSuspended() {
    guard let run = lifecycleState else { return }
    run.stopsWhenSuspended = true
    if lifecycle.state == .background { run.suspendIfIdle() } else { run.deliverMove(to: .background) }
  }

  /// The process went on (SIGCONT): no stop is pending any more, and the app moves to `state`.
  package func continueProcess(as state: AppState) {
    guard let run = lifecycleState else { return }
    run.stopsWhenSuspended = false
    run.deliverMove(to: state)
  }
}
