import NBridgePlugin

/// A service's slot in one run: its plugin's definition, whether the app may use it, its live plugin once started.
@BridgeActor
final class ServiceSlot {
  enum State {
    case idle
    case starting(Task<Void, Never>)
    case ready(AnyPlugin)
    case failed(BridgeError)
  }

  /// What the service's plugin declares.
  let definition: AnyPluginDefinition
  let allowed: Bool
  var state: State = .idle
  var context: PluginContext?
  var listenerCounts: [String: Int] = [:]
  var listenerHolds: [String: Int] = [:]

  /// The plugin's actions and events, read from its definition (built then, if it was not) on
  /// the service's first call or listing, then kept here for every call.
  lazy var actions: [ActionInfo] = definition.actions
  lazy var events: [EventSpec] = definition.events

  /// One `Call` per action for calls without a `retainCallback`: a `Call` holds nothing of
  /// one call but its sink, so the object is shared instead of allocated per call. Made on the
  /// service's first call, as `labels` is: a run makes a slot for every plugin, most never called.
  lazy var plainCalls: [Call?] = Array(repeating: nil, count: actions.count)

  /// `service.action` for each action, the prefix of its error messages.
  lazy var labels: [String] = actions.map { "\(definition.service).\($0.name)" }

  init(_ definition: AnyPluginDefinition, allowed: Bool) {
    self.definition = definition
    self.allowed = allowed
  }

  /// The service's live plugin, once started.
  var plugin: AnyPlugin? {
    if case .ready(let plugin) = state { return plugin }
    return nil
  }
}
