#if canImport(Glibc)
  import Glibc
#endif

/// Everything a plugin gets from the run: the app, its folders, and the loop.
@BridgeActor
public final class PluginContext {
  /// The plugin's service name.
  public let service: String
  /// The app's manifest.
  public let manifest: AppManifest
  /// This app's data folder (storage, launch counts, notification history); created before the script runs.
  public let dataDirectory: String
  /// The folder every nbridge app of the user shares (named pasteboards, the headless clipboard).
  public let sharedDirectory: String
  /// The script's arguments (what follows `--`).
  public let arguments: [String]
  /// True when the plugin must not touch the desktop (clipboard, notification server): `nbridge test` without `--desktop`.
  public let headless: Bool
  /// The environment the run sees (`DISPLAY`, `DBUS_SESSION_BUS_ADDRESS`, ...).
  public let environment: [String: String]
  /// The URL this run was launched to open (`nbridge open`, `nbridge run --url`), or nil.
  public let launchURL: String?
  /// The app's lifecycle, shared by the whole run: its state, moves, observers and awake holds.
  public let lifecycle: Lifecycle
  private unowned let host: any PluginHost
  private let warnings: (@Sendable (String) -> Void)?

  /// A context; the runtime creates these. `warnings` receives `warn`'s lines (stderr when nil);
  /// `lifecycle` is the run's (a fresh one, active, when nil).
  package init(
    service: String, manifest: AppManifest, dataDirectory: String, sharedDirectory: String, arguments: [String],
    headless: Bool, environment: [String: String], host: any PluginHost,
    warnings: (@Sendable (String) -> Void)? = nil, lifecycle: Lifecycle? = nil, launchURL: String? = nil
  ) {
    self.launchURL = launchURL
    self.warnings = warnings
    self.lifecycle = lifecycle ?? Lifecycle()
    self.service = service
    self.manifest = manifest
    self.dataDirectory = dataDirectory
    self.sharedDirectory = sharedDirectory
    self.arguments = arguments
    self.headless = headless
    self.environment = environment
    self.host = host
  }

  /// Calls this service's JS listeners for `event` with `payload`.
  public func emit<T: Encodable>(_ event: String, _ payload: T) {
    guard let value = try? JSONValueEncoder().encode(payload) else { return }
    host.emit(service: service, event: event, payload: value)
  }

  /// How many JS listeners `event` has now.
  public func listenerCount(_ event: String) -> Int { host.listenerCount(service: service, event: event) }

  /// Keeps the run alive (while waiting on the outside world) until the handle is released.
  public func keepAlive(_ reason: String) -> KeepAlive { KeepAlive(host: host, token: host.holdRun(reason: reason)) }

  /// Runs `body` on the loop after `delay` (then every `repeating`), on the run's clock. Timers
  /// alone do not keep the run alive.
  public func setTimer(after delay: Duration, repeating: Duration? = nil, _ body: @escaping @BridgeActor () -> Void)
    -> LoopTimer
  {
    LoopTimer(host: host, id: host.addTimer(after: delay, repeating: repeating, body))
  }

  /// `setTimer` for a delay in seconds as the manifest gives them (NaN and negatives as zero).
  public func setTimer(after seconds: Double, repeating: Double? = nil, _ body: @escaping @BridgeActor () -> Void)
    -> LoopTimer
  {
    setTimer(after: Duration(clampingSeconds: seconds), repeating: repeating.map { Duration(clampingSeconds: $0) }, body)
  }

  /// The time now on the run's loop clock: measure spans with it (`context.now - started`), not
  /// with `clock_gettime`, so a test's manual clock moves them too.
  public var now: LoopInstant { host.now }

  /// The wall-clock time in Unix milliseconds (for times that outlive the run: a schedule's `at`);
  /// under a test's manual clock it starts at the run's real start and moves only with that clock.
  public var wallClockMilliseconds: Int64 { host.wallClockMilliseconds }

  /// Runs `body` on the loop whenever `fd` is readable; no thread, no polling.
  public func watchReadable(_ fd: Int32, _ body: @escaping @BridgeActor () -> Void) -> DescriptorWatch {
    DescriptorWatch(host: host, id: host.watchReadable(fd, body))
  }

  /// Answers requests `{"op": op, ...}` on the app's control socket (served by `nbridge run` and
  /// `nbridge app`, not `nbridge test`) with `handler`. Register in `init` or `start` of a plugin
  /// that `startsAtLaunch`, so the op is answered from the first turn of the loop; `ping` is the
  /// runtime's own.
  public func handleControl(_ op: String, _ handler: @escaping ControlHandler) { host.handleControl(op: op, handler) }

  /// Ends the run with `code` (plugins are stopped first, so pending writes are flushed).
  public func exit(code: Int32) { host.requestExit(code: code) }

  /// Whether the app may use `service` (for `checkPermission`-style actions).
  public func isAllowed(service: String) -> Bool { host.isAllowed(service: service) }

  /// The app's window in `nbridge app` (WebKit's website data, page snapshots);
  /// nil in a headless run, where page-only actions answer `unavailable`.
  public var window: (any WindowHost)? { host.window }

  /// Removes the runtime's caches of this app (its compiled modules, kept between runs) and
  /// keeps none for the rest of the run; the kinds removed (`moduleCache`), empty when there were none to keep.
  public func clearRuntimeCaches() -> [String] { host.clearRuntimeCaches() }

  /// The GLib main context the loop iterates (a `GMainContext *`), for GDBus and friends.
  public var glibMainContext: OpaquePointer? { host.glibMainContext }

  /// Prints one line on the run's stderr: `nbridge: <service>: <message>`.
  public nonisolated func warn(_ message: String) {
    var line = "nbridge: \(service): \(message)\n"
    if let warnings { return warnings(line) }
    line.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
  }

  /// Runs `work` on the loop thread; safe to call from any thread.
  public nonisolated static func post(_ work: @escaping @Sendable @BridgeActor () -> Void) {
    LoopExecutor.shared.post { BridgeActor.assumeIsolated(work) }
  }
}

/// A hold on the run; the run may end once every hold is released.
@BridgeActor
public final class KeepAlive {
  private unowned let host: any PluginHost
  private var token: Int?
  init(host: any PluginHost, token: Int) {
    self.host = host
    self.token = token
  }
  /// Releases the hold (again is harmless).
  public func release() {
    if let token { host.releaseRun(token) }
    token = nil
  }
}

/// A timer on the loop.
@BridgeActor
public final class LoopTimer {
  private unowned let host: any PluginHost
  private var id: Int?
  init(host: any PluginHost, id: Int) {
    self.host = host
    self.id = id
  }
  /// Cancels the timer (again is harmless).
  public func cancel() {
    if let id { host.cancelTimer(id) }
    id = nil
  }
}

/// A file-descriptor watch on the loop.
@BridgeActor
public final class DescriptorWatch {
  private unowned let host: any PluginHost
  private var id: Int?
  init(host: any PluginHost, id: Int) {
    self.host = host
    self.id = id
  }
  /// Stops watching (again is harmless).
  public func cancel() {
    if let id { host.cancelWatch(id) }
    id = nil
  }
}
