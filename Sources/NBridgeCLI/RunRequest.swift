import ArgumentParser
import Glibc
import NBridgeAppSetup
import NBridgeLog
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem
import NBridgeWatchdog

/// What `nbridge run` was asked to do, however it was parsed.
struct RunRequest {
  var file: String
  var dataDir: String? = nil
  var allowed: [String] = []
  var denied: [String] = []
  var timeout: Double? = nil
  var scriptArguments: [String] = []
  var logLevel: String? = nil
  var logTo: String? = nil
  var logQueue: Int? = nil
  /// Set when the run is a fetch launch: `schedule` (`run --fetch`) or `simulated`.
  var fetch: String? = nil
  var url: String? = nil
  var background = false
  /// `--new-instance`: run even when the app runs already.
  var newInstance = false

  /// The plain form `run FILE [-- ARGS...]` (no option), read without the argument parser:
  /// it is what most runs are, and the parser's reflection costs about 2 ms of a 20 ms
  /// start. Nil for anything else, which the parser handles.
  init?(plainArguments arguments: [String]) {
    guard arguments.count >= 3, arguments[1] == "run", !arguments[2].hasPrefix("-") else { return nil }
    guard arguments.count == 3 || arguments[3] == "--" else { return nil }
    file = arguments[2]
    scriptArguments = Array(arguments.dropFirst(4))
  }

  init(file: String) { self.file = file }

  /// A request for `file` with the shared app options and the script's arguments.
  init(file: String, app: AppOptions, arguments: [String]) {
    self.file = file
    dataDir = app.dataDir
    allowed = app.allowed
    denied = app.denied
    logLevel = app.logLevel
    logTo = app.logTo
    logQueue = app.logQueue
    url = app.url
    background = app.background
    newInstance = app.newInstance
    scriptArguments = arguments
  }

  /// The checks the parser runs before `run` (a `ValidationError` is a usage error, exit 2).
  func validate() throws {
    if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    if !fileIsReadable(file) { throw ValidationError("cannot read \(file): no such file") }
    if let url, AppSetup.scheme(of: url) == nil { throw ValidationError("--url must be a URL with a scheme, got \"\(url)\"") }
    if background && url == nil && isPage { throw ValidationError("--background needs --url URL (a window has no hidden start)") }
    if let logLevel, LogLevel(name: logLevel) == nil {
      throw ValidationError("--log-level must be one of \(LogLevel.accepted) (got \"\(logLevel)\")")
    }
    if let logQueue, logQueue < 1 { throw ValidationError("--log-queue must be at least 1 (got \(logQueue))") }
  }

  /// The arguments a launch hands to the app's running instance instead of running (single
  /// instance): this launch's own, for an app (an entry with an `nbridge.json`); nil with
  /// `--new-instance` (or env `NBRIDGE_NEW_INSTANCE=1`), for a fetch launch, and for a script without a manifest, which runs as
  /// often as it is started.
  var launchHandOff: [String]? {
    let forced = ProcessEnvironment.value("NBRIDGE_NEW_INSTANCE").map { !$0.isEmpty && $0 != "0" } ?? false
    guard !newInstance, !forced, fetch == nil, fileIsReadable(AppSetup.manifestPath(forEntry: file)) else {
      return nil
    }
    return scriptArguments
  }

  /// Whether the file is a page (`nbridge app`), not a script.
  var isPage: Bool { file.hasSuffix(".html") || file.hasSuffix(".htm") }

  /// The script a fetch wake-up runs (`nbridge run --fetch`): the entry, or for a page
  /// (`nbridge app`) the `index.js` beside it; nil (a page without one): nothing wakes the app.
  var wakeEntry: String? {
    guard isPage else { return absolutePath(file) }
    let folder = file.lastIndex(of: "/").map { String(file[...$0]) } ?? ""
    return fileIsReadable(folder + "index.js") ? absolutePath(folder + "index.js") : nil
  }

  /// Where records go: `--log-to`, else `NBRIDGE_LOG_TO`; nil when neither is set.
  func logDestination() throws -> LogDestination? {
    guard let text = logTo ?? ProcessEnvironment.value("NBRIDGE_LOG_TO"), !text.isEmpty else { return nil }
    var destination: LogDestination
    do {
      destination = try LogDestination(parsing: text)
    } catch {
      throw ValidationError(logTo == nil ? "NBRIDGE_LOG_TO: \(error.description)" : error.description)
    }
    if let logQueue {
      // A bigger queue asked for is a bigger memory allowance too: 256 bytes a record past 8 MiB.
      destination.queueLimit = logQueue
      destination.byteLimit = max(destination.byteLimit, logQueue * 256)
    }
    return destination
  }

  /// Runs the script and ends the process with its exit status. `_exit` (after flushing
  /// stdio) skips the C++ and GLib destructors that `exit` runs: they only touch memory the
  /// kernel frees anyway (about 1 MiB of peak RSS), and every plugin has flushed in its stop
  /// hook by then.
  func run(_ configuration: RuntimeConfiguration) -> Never {
    var configuration = configuration
    switch configuration.claimControlSocket(url: url, background: background, launchArguments: launchHandOff) {
    case .run: break
    case .handedOff: _exit(0)
    case .failed: _exit(1)
    }
    Runtime.runThenExit(configuration, file: file)
  }

  /// The runtime configuration for this run, after `validate()`; throws a `ValidationError`
  /// for a bad manifest or an unknown service in `--allow`/`--deny`.
  func configuration() throws -> RuntimeConfiguration {
    try validate()
    let manifest: AppManifest
    let registry = PluginRegistry(NBridgeCommand.plugins)
    let known = RuntimeConfiguration.knownPermissions(registry)
    do {
      manifest = try AppSetup.manifest(forEntry: file)
      try AppSetup.checkPermissions(manifest, known: known, path: AppSetup.manifestPath(forEntry: file))
    } catch {
      throw ValidationError(error.description)
    }
    for name in allowed + denied where !known.contains(name) {
      throw ValidationError("unknown service \"\(name)\" in --allow/--deny (known: \(known.sorted().joined(separator: ", ")))")
    }
    var configuration = RuntimeConfiguration(
      plugins: registry, manifest: manifest,
      dataDirectory: AppSetup.dataDirectory(flag: dataDir, manifest: manifest),
      sharedDirectory: AppSetup.sharedDirectory)
    configuration.arguments = scriptArguments
    configuration.allow = allowed
    configuration.deny = denied
    configuration.timeout = timeout.map { Duration(clampingSeconds: $0) }
    configuration.logLevel = logLevel.flatMap(LogLevel.init(name:))
    configuration.extensions = NBridgeCommand.extensions(logTo: try logDestination())
    if let watchdog = Watchdog.makeExtension(configuration) { configuration.extensions.append(watchdog) }
    configuration.environment = ProcessEnvironment.current
    configuration.moduleCacheDirectory = XDGPaths.moduleCache
    // What the background plugin needs to wake this app for a fetch and to know a fetch
    // launch (Plugins/Background: FetchWaker, FetchLaunch); never taken from the caller's own environment.
    configuration.environment["NBRIDGE_RUN_ENTRY"] = wakeEntry
    configuration.environment["NBRIDGE_RUN_DATA_DIR"] =
      (dataDir ?? ProcessEnvironment.value("NBRIDGE_DATA_DIR")).map(absolutePath)
    configuration.environment["NBRIDGE_RUN_FETCH"] = fetch
    // What the autostart plugin's entry starts (Plugins/Autostart: AutostartCommand): the page of `nbridge app`.
    configuration.environment["NBRIDGE_RUN_PAGE"] = isPage ? absolutePath(file) : nil
    if fetch != nil { configuration.initialState = .background }
    configuration.handlesSignals = true
    configuration.extensions.append(SignalExtension.make())
    // `run --background` (an autostart entry's launch) starts in background; with --url the hand-off stays in background too.
    if background { configuration.initialState = .background }
    return configuration
  }
}
