import NBridgePlugin

/// `nbridge.background`: work an app does while it is not in front — background fetch, woken
/// by a systemd user timer or `nbridge daemon` when the app is not running.
@BridgeActor
public final class BackgroundPlugin: Plugin {
  /// The service's actions and events.
  public nonisolated static let definition = PluginDefinition<BackgroundPlugin>(
    service: "background",
    summary: "Background execution: periodic background fetch, woken even when the app is not running.",
    startsAtLaunch: true,
    actions: fetchActions,
    events: fetchEvents)

  let context: PluginContext
  private(set) lazy var fetches = FetchService(context: context)

  /// Creates the plugin; nothing is read until a call or a fetch launch needs it.
  public init(context: PluginContext) throws {
    self.context = context
  }

  /// Delivers the fetch a `run --fetch` launch was started for.
  public func start() async throws {
    guard context.isAllowed(service: "background"), let launch = FetchLaunch(environment: context.environment) else {
      return
    }
    startLaunchFetch(launch)
  }

  /// A fetch waiting for its first listener goes out once there is one.
  public func listenersChanged(event: String, count: Int) {
    if event == "fetch" { fetches.listenersChanged(count: count) }
  }
}
