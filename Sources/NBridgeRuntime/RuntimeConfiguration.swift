import NBridgePlugin

/// Everything a run needs to know: the plugins, the app, its folders and the limits.
public struct RuntimeConfiguration: Sendable {
  /// The plugins the script can call.
  public var plugins: PluginRegistry
  /// The app's manifest.
  public var manifest: AppManifest
  /// This app's data folder (created if missing).
  public var dataDirectory: String
  /// The folder shared by every nbridge app of the user (created if missing).
  public var sharedDirectory: String
  /// `nbridge.args`.
  public var arguments: [String] = []
  /// Services added to the manifest's permissions (`--allow`).
  public var allow: [String] = []
  /// Services removed from them (`--deny`).
  public var deny: [String] = []
  /// Keep plugins off the desktop (clipboard, notification server).
  public var headless: Bool = false
  /// The environment plugins see.
  public var environment: [String: String] = [:]
  /// Stop the script after this long, even inside `while(true){}` (exit 124), in a run that lists
  /// NBridgeWatchdog's extension (`nbridge run` and NBridgeTesting's runs add it when this is set).
  public var timeout: Duration?
  /// The clock the loop reads (timers, `timeout`, the background budget, `performance.now()`).
  public var clock: any LoopClock = MonotonicClock()
  /// Where `console` and error reports go (fd 1 or 2, text); nil writes to the process's stdout/stderr.
  public var output: (@Sendable (Int32, String) -> Void)?
  /// The least level `nbridge.log` prints (`--log-level`); nil takes the manifest's `log.level`, else debug.
  public var logLevel: LogLevel?
  /// Whether a stopping signal (SIGINT, SIGTERM, SIGHUP) received decides the run's end status
  /// (`RunSignals.stoppedStatus`); the CLI sets it and adds the extension that handles the
  /// signals (`SignalExtension`, with SIGTSTP/SIGCONT for the lifecycle). An embedding program
  /// may not want either.
  public var handlesSignals: Bool = false
  /// The URL this run was launched to open (`nbridge run --url`); the `app` plugin delivers it first.
  public var launchURL: String?
  /// The state the app starts in (a run launched for a background fetch starts in `background`).
  public var initialState: AppState = .active
  /// The folder where compiled ES modules are kept between runs, one file per entry (`nbridge
  /// run` uses `$XDG_CACHE_HOME/nbridge/modules`); nil keeps nothing.
  public var moduleCacheDirectory: String?
  /// Whether the logind session may move the state (`nbridge test` and embedders turn it off).
  public var followsSession: Bool = true
  /// The folder `fetch` and the module loader may read when it is wider than the entry's (nil:
  /// the entry's): `nbridge test` gives the folder it runs in when the test file lies under it,
  /// so a project's tests import its app's code from a sibling folder. Relative URLs still
  /// resolve against the entry's folder.
  package var readableFolder: String?
  /// The concerns registered with the runtime besides its core (`nbridge.log`, the control
  /// socket), in order; the CLI lists them (`NBridgeCommand.extensions`).
  package var extensions: [RuntimeExtension] = []

  /// A configuration.
  public init(plugins: PluginRegistry, manifest: AppManifest, dataDirectory: String, sharedDirectory: String) {
    self.plugins = plugins
    self.manifest = manifest
    self.dataDirectory = dataDirectory
    self.sharedDirectory = sharedDirectory
  }

  /// The permissions the runtime itself checks (no service behind them), with what each guards:
  /// `--allow`/`--deny` and the manifest accept them beside the services' permissions.
  public static let runtimePermissions: [(name: String, summary: String)] = [
    ("network", "fetch to http: and https: URLs (the app's own files need no permission)")
  ]

  /// Every permission a run with `registry`'s plugins checks: the services' and the runtime's own.
  public static func knownPermissions(_ registry: PluginRegistry) -> Set<String> {
    Set(registry.definitions.map(\.permission) + runtimePermissions.map(\.name))
  }

  /// Whether the app may use a service guarded by `permission`.
  public func allows(permission: String) -> Bool {
    if deny.contains(permission) { return false }
    if allow.contains(permission) { return true }
    guard let granted = manifest.permissions else { return true }
    return granted.contains(permission)
  }
}
