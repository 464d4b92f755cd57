/// The app's lifecycle state machine, one per run, shared by the runtime, the window and every
/// plugin (`PluginContext.lifecycle`).
///
/// Anything may ask for a move (`move(to:)`); the runtime delivers it on the loop: observers
/// first (plugins, in the order they observed), then the script's `app` events. A background
/// app with no awake hold is suspended after the turn that delivered `pause`: no JS runs until
/// it leaves background or something holds it awake again (`holdAwake`), while native work
/// (plugin timers, descriptor watches, GLib sources) goes on.
///
/// ```swift
/// let watch = context.lifecycle.observe { change in
///   if change.entersBackground { budget.start() }
/// }
/// let hold = context.lifecycle.holdAwake("upload")  // JS keeps running in background
/// hold.release()                                     // suspends if still in background
/// ```
@BridgeActor
public final class Lifecycle {
  /// The current state.
  public private(set) var state: AppState
  /// Whether JS is held back now (background, nothing holding the app awake).
  public package(set) var isSuspended = false
  /// Whether the desktop session (logind) may move the state: not under `nbridge test`.
  public package(set) var followsSession = true
  /// When (on the run's loop clock) the app last entered background, while it is there.
  public private(set) var backgroundSince: LoopInstant?

  /// In the order they began observing (ids grow). A list, not a dictionary keyed by id: the
  /// background plugin observes at every start, and a dictionary of closures made its type at
  /// run time (about 0.28 M instructions of each start under callgrind).
  private var observers: [(id: Int, body: @BridgeActor (AppStateChange) -> Void)] = []
  private var holds: [Int: String] = [:]
  private var nextID = 1

  /// The runtime's side: how a requested move is delivered (on the loop, in order).
  package var requestHandler: (@BridgeActor (AppState) -> Void)?
  /// The runtime's side: how a move is delivered now, in this turn (`moveNow(to:)`).
  package var deliverHandler: (@BridgeActor (AppState) -> Void)?
  /// The window's side (`nbridge app`): brings the app's window to the front; nil headless.
  package var presentHandler: (@BridgeActor () -> Void)?
  /// The runtime's side: called when the holds go from none to some or back.
  package var holdsChanged: (@BridgeActor () -> Void)?
  /// The runtime's side: the loop's clock.
  package var now: @BridgeActor () -> LoopInstant = { LoopInstant(nanoseconds: 0) }

  /// A state machine starting in `state` (a fetch launch starts in background).
  package init(state: AppState = .active) {
    self.state = state
  }

  /// Asks for a move to `state`; it is delivered on the loop (a move to the current state does nothing).
  public func move(to state: AppState) {
    if let requestHandler { requestHandler(state) } else { apply(state) }
  }

  /// Moves the app to `state` now: its observers and listeners hear of it in this turn, where
  /// `move(to:)` waits for the next one (the control socket's `state` op, a test's `simulate`).
  package func moveNow(to state: AppState) {
    if let deliverHandler { deliverHandler(state) } else { apply(state) }
  }

  /// Makes the app active and, when it shows a window (`nbridge app`), brings that window to the
  /// front: shown, raised and focused, as far as the window manager allows. What a URL handed to
  /// the running app does (`nbridge open`); a headless run only moves to active.
  public func bringToFront() {
    presentHandler?()
    move(to: .active)
  }

  /// Records the move and tells the observers; the runtime calls this when it delivers a move.
  @discardableResult
  package func apply(_ newState: AppState) -> AppStateChange? {
    guard newState != state else { return nil }
    let change = AppStateChange(from: state, to: newState)
    state = newState
    if change.entersBackground { backgroundSince = now() }
    if change.leavesBackground { backgroundSince = nil }
    for observer in observers { observer.body(change) }
    return change
  }

  /// Calls `body` after each move, before the script hears of it; keep the observation to keep observing.
  public func observe(_ body: @escaping @BridgeActor (AppStateChange) -> Void) -> LifecycleObservation {
    let id = makeID()
    observers.append((id, body))
    return LifecycleObservation { [weak self] in self?.observers.removeAll { $0.id == id } }
  }

  /// Keeps the app from being suspended (and wakes it if it is) until the hold is released:
  /// open background tasks and pending fetches hold it. `reason` names it in `nbridge ps`-style listings.
  public func holdAwake(_ reason: String) -> AwakeHold {
    let id = makeID()
    let wasEmpty = holds.isEmpty
    holds[id] = reason
    if wasEmpty { holdsChanged?() }
    return AwakeHold { [weak self] in
      guard let self, self.holds.removeValue(forKey: id) != nil else { return }
      if self.holds.isEmpty { self.holdsChanged?() }
    }
  }

  /// Whether anything holds the app awake.
  public var isHeldAwake: Bool { !holds.isEmpty }

  private func makeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }
}

/// An observer registration of `Lifecycle.observe`; cancelled when cancelled or released.
@BridgeActor
public final class LifecycleObservation {
  private var cancelBody: (@BridgeActor () -> Void)?
  init(_ cancel: @escaping @BridgeActor () -> Void) { cancelBody = cancel }
  /// Stops observing (again is harmless).
  public func cancel() {
    cancelBody?()
    cancelBody = nil
  }
  isolated deinit { cancelBody?() }
}

/// A hold of `Lifecycle.holdAwake`; the app may be suspended once every hold is released.
@BridgeActor
public final class AwakeHold {
  private var releaseBody: (@BridgeActor () -> Void)?
  init(_ release: @escaping @BridgeActor () -> Void) { releaseBody = release }
  /// Releases the hold (again is harmless).
  public func release() {
    releaseBody?()
    releaseBody = nil
  }
}
