/// The plugins a runtime offers, by service name.
public struct PluginRegistry: Sendable {
  /// The registered plugins in registration order.
  public private(set) var plugins: [RegisteredPlugin] = []

  /// An empty registry.
  public init() {}

  /// A registry holding `types`.
  public init(_ types: [any Plugin.Type]) {
    for type in types { register(type) }
  }

  /// Registers a plugin type; a later registration of the same service replaces the earlier one.
  public mutating func register(_ type: any Plugin.Type) {
    let entry = RegisteredPlugin(type)
    if let index = plugins.firstIndex(where: { $0.service == entry.service }) {
      plugins[index] = entry
    } else {
      plugins.append(entry)
    }
  }

  /// The plugin registered under `service`.
  public func plugin(named service: String) -> RegisteredPlugin? { plugins.first { $0.service == service } }
}

/// A registered plugin with its type erased: its declarations and how to make and call it.
public struct RegisteredPlugin: Sendable {
  /// The name under `nbridge` that JS calls it by.
  public let service: String
  /// The permission guarding it.
  public let permission: String
  /// The definition's one-line summary, for `nbridge plugins`.
  public let summary: String
  /// Whether it starts at launch.
  public let startsAtLaunch: Bool
  /// Its actions' declarations (names, shapes, summaries), in definition order.
  public let actions: [ActionInfo]
  /// The events JS can listen to, with their payload shapes.
  public let events: [EventSpec]
  private let makeInstance: @BridgeActor @Sendable (PluginContext) throws -> PluginInstance

  init<P: Plugin>(_ type: P.Type) {
    let definition = P.definition
    service = definition.service
    permission = definition.permission
    summary = definition.summary
    startsAtLaunch = definition.startsAtLaunch
    actions = definition.actions.map {
      ActionInfo(
        name: $0.name, options: $0.options, result: $0.result, streams: $0.streams, summary: $0.summary,
        timeLimit: $0.timeLimit, answersWithoutPermission: $0.answersWithoutPermission)
    }
    events = definition.events
    makeInstance = { context in PluginInstance(try P(context: context), definition: definition) }
  }

  /// Creates the plugin for a run.
  @BridgeActor
  package func instantiate(context: PluginContext) throws -> PluginInstance { try makeInstance(context) }
}

/// An action's declaration, without its body.
public struct ActionInfo: Sendable, Hashable {
  /// The action name JS calls (`set` for `nbridge.storage.set`).
  public var name: String
  /// The shape of the options object it takes.
  public var options: Shape
  /// The shape of the value its Promise resolves with.
  public var result: Shape
  /// Its streamed intermediate results' shape, if it streams.
  public var streams: Shape?
  /// The action's one-line summary, for `nbridge plugins` and the `.d.ts`.
  public var summary: String
  /// Its time limit in seconds, if any.
  public var timeLimit: Double?
  /// Whether it answers even when the app may not use the service.
  public var answersWithoutPermission: Bool = false
}

/// A live plugin of one run, with its actions ready to call.
@BridgeActor
package final class PluginInstance {
  /// How a call of one action runs.
  package enum Invocation {
    /// Inline: returns the result or throws.
    case sync(@BridgeActor (JSONValue, Call) throws -> JSONValue)
    /// As a task on the loop.
    case async(@BridgeActor (JSONValue, Call) async throws -> JSONValue)
    /// Inline, answering later through the reply.
    case deferred(@BridgeActor (JSONValue, Call, PendingReply) throws -> Void)
  }

  /// The instance, for hooks.
  package let object: any Plugin
  /// Each action's invocation, by index.
  package let invocations: [Invocation]

  init<P: Plugin>(_ plugin: P, definition: PluginDefinition<P>) {
    object = plugin
    invocations = definition.actions.map { action in
      switch action.body {
      case .sync(let body): .sync { json, call in try body(plugin, json, call) }
      case .async(let body): .async { json, call in try await body(plugin, json, call) }
      case .deferred(let body): .deferred { json, call, reply in try body(plugin, json, call, reply) }
      }
    }
  }
}
