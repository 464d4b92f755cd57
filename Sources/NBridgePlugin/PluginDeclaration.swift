/// What the runtime needs of a plugin before its first call: its service name, permission and
/// whether it starts at launch.
///
/// A registry reads it for every plugin at every start; the plugin's ``PluginDefinition`` (its
/// actions' and events' declarations, a closure and shapes each) is built only when the service is
/// first called or listed (`nbridge plugins`, `nbridge types`, the first read of `nbridge`). A
/// plugin that declares one builds its definition from it, so the two cannot differ:
///
/// ```swift
/// nonisolated static let declaration = PluginDeclaration(service: "greeter")
/// nonisolated static let definition = PluginDefinition<GreeterPlugin>(declaration, actions: [...])
/// ```
///
/// A plugin without one gets it from its definition, built at registration.
public struct PluginDeclaration: Sendable, Hashable {
  /// The name under `nbridge` (`storage` for `nbridge.storage`).
  public var service: String
  /// The permission that guards it; its own service name unless told otherwise.
  public var permission: String
  /// Create and start the plugin at launch, before the script runs (default: lazily, on first use).
  public var startsAtLaunch: Bool

  /// Declares a plugin's service name, permission (default: `service`) and launch.
  public init(service: String, permission: String? = nil, startsAtLaunch: Bool = false) {
    self.service = service
    self.permission = permission ?? service
    self.startsAtLaunch = startsAtLaunch
  }
}

extension Plugin {
  /// The declaration its definition makes (building the definition at registration); a plugin
  /// declares its own to have its definition built on first use instead.
  public nonisolated static var declaration: PluginDeclaration { definition.declaration }
}

extension PluginDefinition {
  /// Declares a plugin with the service name, permission and launch of `declaration` (the
  /// plugin's own `declaration`), its actions and events.
  ///
  /// - Parameters:
  ///   - declaration: the service name, permission and launch, as the plugin declares them.
  ///   - summary: one line for `nbridge plugins` and the `.d.ts` comments.
  ///   - actions: what JS can call, in the order `nbridge plugins` lists them.
  ///   - events: what JS can `addListener` to.
  public init(_ declaration: PluginDeclaration, summary: String = "", actions: [Action<P>], events: [EventSpec] = []) {
    self.init(
      service: declaration.service, permission: declaration.permission, summary: summary,
      startsAtLaunch: declaration.startsAtLaunch, actions: actions, events: events)
  }

  /// Its service name, permission and launch.
  public var declaration: PluginDeclaration {
    PluginDeclaration(service: service, permission: permission, startsAtLaunch: startsAtLaunch)
  }
}
