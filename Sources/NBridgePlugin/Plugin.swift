/// A native service reachable from JavaScript as `nbridge.<service>`.
///
/// A plugin is a class isolated to the loop (`@BridgeActor`). The runtime creates it
/// on first use (or at launch when `startsAtLaunch`), calls its actions, and resolves
/// or rejects each call's Promise itself, so no path can leave a Promise pending.
@BridgeActor
public protocol Plugin: AnyObject, Sendable {
  /// The service name, actions, events and permission: what JS can call.
  nonisolated static var definition: PluginDefinition<Self> { get }
  /// The service name, permission and launch, read at every start without building
  /// `definition` (which is then built on the service's first call or listing). Optional: by
  /// default it is `definition`'s, built at registration.
  nonisolated static var declaration: PluginDeclaration { get }
  /// Creates the plugin for one run; keep it cheap, do slow work in `start()` or lazily.
  init(context: PluginContext) throws
  /// Runs once per launch, before the script when `startsAtLaunch` is set, else before the first call.
  func start() async throws
  /// Flushes at exit or on a signal; in-flight calls have been cancelled by then.
  func stop() async
  /// Tells the plugin how many JS listeners an event now has (start or stop a watcher here).
  func listenersChanged(event: String, count: Int)
}

extension Plugin {
  /// No start work by default.
  public func start() async throws {}
  /// No stop work by default.
  public func stop() async {}
  /// Listener counts are ignored by default.
  public func listenersChanged(event: String, count: Int) {}
}

/// What a plugin declares about itself.
///
/// `P` is the plugin's type. The type itself does not require `P: Plugin` (the registry does):
/// a generic type's constraint is checked each time a concrete form of it is first made, and a
/// check that misses the runtime's cache walks every protocol conformance in the executable
/// (about 0.2 M instructions). Every plugin's static `definition` makes `PluginDefinition<Self>`
/// and `Action<Self>` at every start, so without the constraint a start skips one such walk a plugin.
public struct PluginDefinition<P>: Sendable {
  /// The name under `nbridge` (`storage` for `nbridge.storage`).
  public var service: String
  /// The permission that guards it; its own service name unless told otherwise.
  public var permission: String
  /// One line for `nbridge plugins` and the `.d.ts` comments.
  public var summary: String
  /// Create and start the plugin at launch, before the script runs (default: lazily, on first use).
  public var startsAtLaunch: Bool
  /// The actions JS can call.
  public var actions: [Action<P>]
  /// The events JS can listen to.
  public var events: [EventSpec]

  /// Declares a plugin: the service name JS sees, its actions and events.
  ///
  /// - Parameters:
  ///   - service: the name under `nbridge` (`greeter` for `nbridge.greeter`).
  ///   - permission: the permission that guards it (default: `service`); several services may share one.
  ///   - summary: one line for `nbridge plugins` and the `.d.ts` comments.
  ///   - startsAtLaunch: create and start the plugin before the script runs (default: on first use).
  ///   - actions: what JS can call, in the order `nbridge plugins` lists them.
  ///   - events: what JS can `addListener` to.
  public init(
    service: String, permission: String? = nil, summary: String = "", startsAtLaunch: Bool = false,
    actions: [Action<P>], events: [EventSpec] = []
  ) {
    self.service = service
    self.permission = permission ?? service
    self.summary = summary
    self.startsAtLaunch = startsAtLaunch
    self.actions = actions
    self.events = events
  }
}

/// An event a plugin emits to `addListener(name, callback)`.
public struct EventSpec: Sendable, Hashable {
  /// The event name JS passes to `addListener` (`change` for `addListener('change', ...)`).
  public var name: String
  /// The shape of the listener's argument.
  public var payload: Shape
  /// One line for `nbridge plugins` and the `.d.ts` comment above the event.
  public var summary: String
  /// Whether a listener keeps the run alive until removed (it waits on the outside world).
  public var keepsAlive: Bool
  /// Whether the emits that wait while the app is suspended are coalesced into the latest one
  /// (a pasteboard `change`: only the newest content matters).
  public var coalescesWhileSuspended: Bool
  /// An action of the same service that a listener's return value is handed to, as
  /// `{id: payload.id, result}` (a Promise is awaited; a throw or a rejection answers
  /// `'failed'`); nil: return values are ignored. Background `fetch` uses `completeFetch`.
  public var answeredBy: String?

  /// Declares an event.
  ///
  /// - Parameters:
  ///   - name: what JS passes to `addListener`.
  ///   - payload: the shape of the value the listener gets (`nbridge types` prints it).
  ///   - summary: one line of documentation.
  ///   - keepsAlive: whether a listener keeps the run alive until removed (for events from outside, such as clipboard changes).
  ///   - coalescesWhileSuspended: whether emits held while the app is suspended collapse into the latest one.
  ///   - answeredBy: the action of this service that a listener's return value is handed to (nil: none).
  public init(
    _ name: String, payload: Shape, summary: String = "", keepsAlive: Bool = false,
    coalescesWhileSuspended: Bool = false, answeredBy: String? = nil
  ) {
    self.name = name
    self.payload = payload
    self.summary = summary
    self.keepsAlive = keepsAlive
    self.coalescesWhileSuspended = coalescesWhileSuspended
    self.answeredBy = answeredBy
  }
}

/// Options that decode from anything; for actions that take none.
public struct NoOptions: Decodable, Sendable {
  /// Accepts any options value.
  public init(from decoder: any Decoder) throws {}
  /// The empty options value, for calling an action's body directly (in a test).
  public init() {}
}
