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

  init(plugin: RegisteredPlugin, allowed: Bool) {
    self.plugin = plugin
    self.allowed = allowed
  }

  var instance: PluginInstance? {
    if case .ready(let instance) = state { return instance }
    return nil
  }
}
