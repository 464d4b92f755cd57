import NBridgePlugin

/// `nbridge.background`: work that goes on out of sight. `beginTask` holds the app awake in
/// background (and keeps the run alive) until `endTask`, within one app-wide budget of
/// background time (`background.taskBudget`, default 600 s); tasks still open when it runs
/// out hear `expiration` first and are then ended by the runtime. Background fetch
/// (`BackgroundPlugin+Fetch.swift`) wakes the app periodically, through a systemd user timer
/// or `nbridge daemon` when it is not running.
@BridgeActor
public final class BackgroundPlugin: Plugin {
  /// The service name, permission and launch, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "background", startsAtLaunch: true)
  /// `beginTask`, `endTask`, `timeRemaining`; the `expiration` event; then the fetch actions and event.
  public nonisolated static let definition = PluginDefinition<BackgroundPlugin>(
    declaration,
    summary: "Background tasks within the app's budget of background time, and periodic background fetch.",
    actions: [
      Action(
        "beginTask", result: .named("BackgroundTask", .fields(["id": .integer])),
        summary: "Opens a task that keeps the app running in background; unavailable once the budget is spent."
      ) { (plugin, options: BeginTaskOptions, _) in
        BeginTaskResult(id: try plugin.budget.begin(name: options.name))
      },
      Action(
        "endTask", summary: "Ends a task (not_found if unknown or ended)."
      ) { (plugin, options: EndTaskOptions, _) in
        try plugin.budget.end(id: options.id)
        return JSONValue.null
      },
      Action(
        "timeRemaining", result: Shape.number.orNull,
        summary: "Seconds of the budget left while in background; null otherwise."
      ) { (plugin, _: NoOptions, _) in
        plugin.budget.remaining()
      },
    ] + fetchActions,
    events: [
      EventSpec(
        "expiration", payload: .named("BackgroundExpiration", .fields(["id": .integer, "name": Shape.string.orNull])),
        summary: "A task is about to be ended: 5 s of the budget left (half of it when under 10 s).")
    ] + fetchEvents)

  let context: PluginContext
  let budget: TaskBudget
  private(set) lazy var fetches = FetchService(context: context)

  /// Reads the budget from the manifest; it starts counting when the app enters background.
  public init(context: PluginContext) throws {
    self.context = context
    budget = TaskBudget(seconds: context.manifest.background?.taskBudget ?? TaskBudget.defaultSeconds, context: context)
  }

  /// Answers the control socket's `fetch` op; delivers the fetch a `run --fetch` launch was started for.
  public func start() async throws {
    guard context.isAllowed(service: "background") else { return }
    context.handleControl("fetch") { [weak self] request in
      guard let self else { throw BridgeError.unavailable("the app is ending") }
      return try await self.handleFetchOp(request)
    }
    if let launch = FetchLaunch(environment: context.environment) { startLaunchFetch(launch) }
  }

  /// A fetch waiting for its first listener goes out once there is one.
  public func listenersChanged(event: String, count: Int) {
    if event == "fetch" { fetches.listenersChanged(count: count) }
  }

  /// Ends every open task and the pending fetch (the run is ending).
  public func stop() async {
    budget.endAll()
    fetches.endPending()
  }
}

/// `beginTask`'s options: `{name?}`, the name at most `maxNameBytes` (it is kept while the task is
/// open and printed when the budget ends it).
struct BeginTaskOptions: Decodable {
  /// The longest task name, in bytes of UTF-8.
  static let maxNameBytes = 256
  var name: String?

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    name = try fields.decodeIfPresent(String.self, forKey: .name).map { (name) throws(BridgeError) in
      try BridgeLimits.text(name, field: "name", maxBytes: Self.maxNameBytes)
    }
  }

  private enum Field: String, CodingKey { case name }
}

/// `beginTask`'s result: `{id}`.
struct BeginTaskResult: Encodable {
  var id: Int
}

/// `endTask`'s options: `{id}`.
struct EndTaskOptions: Decodable {
  var id: Int
}
