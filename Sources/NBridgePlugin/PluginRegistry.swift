/// The plugins a runtime offers, by service name.
public struct PluginRegistry: Sendable {
  /// The registered plugins' definitions, in registration order.
  public private(set) var definitions: [AnyPluginDefinition] = []

  /// An empty registry.
  public init() {}

  /// A registry holding `types`.
  public init(_ types: [any Plugin.Type]) {
    for type in types { register(type) }
  }

  /// Registers a plugin type; a later registration of the same service replaces the earlier one.
  public mutating func register(_ type: any Plugin.Type) {
    let definition = AnyPluginDefinition(type)
    if let index = definitions.firstIndex(where: { $0.service == definition.service }) {
      definitions[index] = definition
    } else {
      definitions.append(definition)
    }
  }

  /// The definition of the plugin registered under `service`.
  public func definition(named service: String) -> AnyPluginDefinition? { definitions.first { $0.service == service } }
}

/// A plugin's definition with its type erased, as the registry holds it: its declarations and how to make the plugin.
///
/// The service name, permission and launch come from the plugin's ``PluginDeclaration``; the
/// rest (summary, actions, events) from its ``PluginDefinition``, built on the first read of any
/// of them: a run builds the definitions of the services it calls, not of every registered one.
public struct AnyPluginDefinition: Sendable {
  /// The name under `nbridge` that JS calls it by.
  public let service: String
  /// The permission guarding it.
  public let permission: String
  /// Whether it starts at launch.
  public let startsAtLaunch: Bool
  /// The definition's one-line summary, for `nbridge plugins`.
  public var summary: String { details.value.summary }
  /// Its actions' declarations (names, shapes, summaries), in definition order.
  public var actions: [ActionInfo] { details.value.actions }
  /// The events JS can listen to, with their payload shapes.
  public var events: [EventSpec] { details.value.events }
  private let details: LazyDefinition
  private let makePluginBody: @BridgeActor @Sendable (PluginContext) throws -> AnyPlugin

  init<P: Plugin>(_ type: P.Type) {
    let declaration = P.declaration
    service = declaration.service
    permission = declaration.permission
    startsAtLaunch = declaration.startsAtLaunch
    details = LazyDefinition {
      let definition = P.definition
      precondition(
        definition.declaration == declaration,
        "\(P.self): its declaration \(declaration) differs from its definition's \(definition.declaration)")
      return LazyDefinition.Details(
        summary: definition.summary,
        actions: definition.actions.map {
          ActionInfo(
            name: $0.name, lazyOptions: $0.lazyOptions, result: $0.result, streams: $0.streams, summary: $0.summary,
            timeLimit: $0.timeLimit, answersWithoutPermission: $0.answersWithoutPermission,
            readsOptionsText: $0.readsOptionsText, startsAtTurnEnd: $0.startsAtTurnEnd)
        }, events: definition.events)
    }
    makePluginBody = { context in AnyPlugin(try P(context: context)) }
  }

  /// Whether its definition was built (a test's view of the laziness).
  package var isBuilt: Bool { details.isBuilt }

  /// Creates the plugin for a run.
  @BridgeActor
  package func makePlugin(context: PluginContext) throws -> AnyPlugin { try makePluginBody(context) }
}

/// An action's declaration, without its body.
public struct ActionInfo: Sendable, Hashable {
  /// The action name JS calls (`set` for `nbridge.storage.set`).
  public var name: String
  /// The shape of the options object it takes (recorded from the options type on first read).
  public var options: Shape {
    get { lazyOptions.value }
    set { lazyOptions = LazyShape(newValue) }
  }
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
  /// Whether the action takes its options as JSON text (`OptionsFromJSON`): the runtime then
  /// hands it the text as it came, unparsed. Not part of the declaration (not compared).
  package var readsOptionsText = false
  /// Whether a headless run may start the action's calls together, once the turn's synchronous
  /// code has run (`Action.startsAtTurnEnd`). Not part of the declaration (not compared).
  package var startsAtTurnEnd = false
  private var lazyOptions: LazyShape
  /// The options shape when the action declared it (or it was read before); nil, never recorded here.
  package var declaredOptions: Shape? { lazyOptions.known }

  init(
    name: String, lazyOptions: LazyShape, result: Shape, streams: Shape?, summary: String, timeLimit: Double?,
    answersWithoutPermission: Bool, readsOptionsText: Bool = false, startsAtTurnEnd: Bool = false
  ) {
    self.name = name
    self.readsOptionsText = readsOptionsText
    self.startsAtTurnEnd = startsAtTurnEnd
    self.lazyOptions = lazyOptions
    self.result = result
    self.streams = streams
    self.summary = summary
    self.timeLimit = timeLimit
    self.answersWithoutPermission = answersWithoutPermission
  }

  /// Equal when every declared field is, the options shape included.
  public static func == (lhs: ActionInfo, rhs: ActionInfo) -> Bool {
    lhs.name == rhs.name && lhs.result == rhs.result && lhs.streams == rhs.streams && lhs.summary == rhs.summary
      && lhs.timeLimit == rhs.timeLimit && lhs.answersWithoutPermission == rhs.answersWithoutPermission
      && lhs.options == rhs.options
  }

  /// Hashes every declared field, the options shape included.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(options)
    hasher.combine(result)
    hasher.combine(streams)
    hasher.combine(summary)
    hasher.combine(timeLimit)
    hasher.combine(answersWithoutPermission)
  }
}

/// A live plugin of one run with its type erased, its actions ready to call.
@BridgeActor
package final class AnyPlugin {
  /// How a call of one action runs.
  package enum Invocation {
    /// Inline: returns the result or throws.
    case sync(@BridgeActor (JSONValue, Call) throws -> JSONValue)
    /// As a task on the loop.
    case async(@BridgeActor (JSONValue, Call) async throws -> JSONValue)
    /// Inline, answering later through the reply.
    case deferred(@BridgeActor (JSONValue, Call, AnyReply) throws -> Void)
    /// Inline, returning bytes (an action whose result is `Bytes`): the runtime hands them to JS
    /// as a `Uint8Array` where it can, else as Base64 text.
    case bytes(@BridgeActor (JSONValue, Call) throws -> Bytes)
    /// Inline, answering later through the reply, reading the options' JSON text itself.
    case deferredText(@BridgeActor (OptionsText, Call, AnyReply) throws -> Void)
  }

  /// The plugin object, for its hooks.
  package let object: any Plugin
  /// Each action's invocation, by index: made from the plugin's definition on its first call
  /// (a plugin that starts at launch is made and started at every start, most never called).
  package private(set) lazy var invocations: [Invocation] = makeInvocations()
  private let makeInvocations: @BridgeActor () -> [Invocation]

  init<P: Plugin>(_ plugin: P) {
    object = plugin
    makeInvocations = {
      P.definition.actions.map { action in
        switch action.body {
        case .sync(let body): .sync { json, call in try body(plugin, json, call) }
        case .async(let body): .async { json, call in try await body(plugin, json, call) }
        case .deferred(let body): .deferred { json, call, reply in try body(plugin, json, call, reply) }
        case .bytes(let body): .bytes { json, call in try body(plugin, json, call) }
        case .deferredText(let body): .deferredText { text, call, reply in try body(plugin, text, call, reply) }
        }
      }
    }
  }
}
