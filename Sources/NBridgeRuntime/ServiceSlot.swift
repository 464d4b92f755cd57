import NBridgePlugin

/// One registered service in a run: its declaration, whether it is allowed, and its live plugin.
@BridgeActor
final class ServiceSlot {
  enum State {
    case idle
    case starting(Task<Void, Never>)
    case ready(PluginInstance)
    case failed(BridgeError)
  }

  let plugin: RegisteredPlugin
  let allowed: Bool
  var state: State = .idle
  var context: PluginContext?
  var listenerCounts: [String: Int] = [:]
  var listenerHolds: [String: Int] = [:]

  /// One `Call` per action for synchronous calls without a `retainCallback`: they finish
  /// before the next call starts, so the object can be reused instead of allocated per call.
  var plainCalls: [Call?] = []

  /// `service.action` for each action, the prefix of its error messages.
  let labels: [String]

  init(plugin: RegisteredPlugin, allowed: Bool) {
    self.plugin = plugin
    self.allowed = allowed
    labels = plugin.actions.map { "\(plugin.service).\($0.name)" }
    plainCalls = Array(repeating: nil, count: plugin.actions.count)
  }

  var instance: PluginInstance? {
    if case .ready(let instance) = state { return instance }
    return nil
  }
}
