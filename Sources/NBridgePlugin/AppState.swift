/// Where the app stands with the user: in front (`active`), shown but not in front
/// (`inactive`), or out of sight (`background`, where it is suspended unless something holds
/// it awake). Capacitor's and UIKit's three states.
public enum AppState: String, Sendable, Hashable, Codable, CaseIterable {
  /// Focused: the user is working with the app.
  case active
  /// Shown but not focused (another window has the focus, the session is idle).
  case inactive
  /// Minimized, hidden, stopped with Ctrl-Z, or its session locked.
  case background

  /// `isActive` of `getState()` and `stateChange`.
  public var isActive: Bool { self == .active }
}

/// One move of the app's state, as observers see it.
public struct AppStateChange: Sendable, Hashable {
  /// The state before the move.
  public var from: AppState
  /// The state after it.
  public var to: AppState

  /// Whether this move enters `background` (the budget of background tasks starts counting).
  public var entersBackground: Bool { to == .background && from != .background }
  /// Whether this move leaves `background`.
  public var leavesBackground: Bool { from == .background && to != .background }

  /// A move from one state to another, as `Lifecycle.observe` reports it.
  public init(from: AppState, to: AppState) {
    self.from = from
    self.to = to
  }
}
