import NBridgePlugin
import NBridgeSystem

/// `nbridge.app`: the app's identity and launch history, the device, `exit`, and the lifecycle
/// state (`getState`; the runtime emits its `stateChange`, `pause` and `resume` events).
///
/// It starts at launch to count the run, whether or not the script calls it.
@BridgeActor
public final class AppPlugin: Plugin {
  /// The service name, permission and launch, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "app", startsAtLaunch: true)
  /// `appInfo`, `deviceInfo`, `exit`, `getState`, the URL hand-off, the desktop's (`openBrowser`,
  /// `goSettings`, `share`), the page's (`clearCache`, `screenshot`) and popup windows
  /// (`openWindow`, `closeWindow`); the lifecycle events.
  public nonisolated static let definition = PluginDefinition<AppPlugin>(
    declaration,
    summary:
      "App info and launch history, device info, exit, the lifecycle state, and the desktop's browser, settings and mail.",
    actions: [
      Action(
        "appInfo", result: appInfoShape, summary: "The manifest's fields with the launch count and first launch date."
      ) { (plugin, _: NoOptions, _) in
        AppInfo(
          manifest: plugin.context.manifest, record: try plugin.launchRecord(), now: ISO8601.currentMilliseconds())
      },
      Action(
        "deviceInfo", result: deviceInfoShape,
        summary:
          "The OS, machine (DMI model and manufacturer, null when unknown) and locale, and a device id stable per data dir."
      ) { (plugin, _: NoOptions, _) in
        plugin.probe.info(environment: plugin.context.environment, deviceId: try plugin.launchRecord().deviceId)
      },
      Action(
        "exit",
        summary: "Ends the run with the code (default 0) once pending storage writes are committed."
      ) { (plugin, options: ExitOptions, _) in
        plugin.context.exit(code: options.code)
        return JSONValue.null
      },
      Action(
        "getState", result: appStateShape, summary: "The lifecycle state: active, inactive or background."
      ) { (plugin, _: NoOptions, _) in
        AppStatePayload(plugin.context.lifecycle.state)
      },
    ] + urlActions + desktopActions + pageActions + windowActions,
    events: [
      EventSpec("stateChange", payload: appStateShape, summary: "The state moved (after `resume`, before `pause`)."),
      EventSpec(
        "pause", payload: .null,
        summary: "The app entered background; it is suspended after this turn unless a task is open."),
      EventSpec("resume", payload: .null, summary: "The app is leaving background (before `stateChange`)."),
    ] + urlEvents + windowEvents)

  nonisolated static let appStateShape = Shape.named(
    "AppState",
    .fields([
      "state": .oneOf([.literal("active"), .literal("inactive"), .literal("background")]), "isActive": .boolean,
    ]))

  nonisolated static let appInfoShape = Shape.named(
    "AppInfo",
    .fields([
      "id": .string, "name": .string, "version": .string, "build": .string, "launchCount": .integer,
      "firstLaunchDate": .string, "daysSinceFirstLaunch": .integer,
    ]))

  nonisolated static let deviceInfoShape = Shape.named(
    "DeviceInfo",
    .fields([
      "platform": .literal("linux"), "osVersion": .string, "version": .string, "model": Shape.string.orNull,
      "manufacturer": Shape.string.orNull, "arch": .string,
      "language": .string, "region": Shape.string.orNull, "deviceId": .string,
    ]))

  let context: PluginContext
  private var urls: HandOffInbox<URLOpen>?
  private var launches: HandOffInbox<LaunchArguments>?
  private let probe = DeviceProbe()
  private var session: SessionWatcher?
  private var record: LaunchCount?
  private var counting: ThreadedValue<LaunchCount>?

  /// Keeps the context; the launch is counted in `start()`.
  public init(context: PluginContext) throws {
    self.context = context
    urls = HandOffInbox(
      context: context, op: "url", event: "appUrlOpen", what: "URLs",
      first: context.launchURL.map { URLOpen(url: $0, launch: true) }, read: URLOpen.read)
    launches = HandOffInbox(
      context: context, op: "launch", event: "appLaunch", what: "launches", read: LaunchArguments.read)
  }

  /// Delivers waiting URLs and launches once `appUrlOpen` or `appLaunch` has a listener.
  public func listenersChanged(event: String, count: Int) {
    if event == urls?.event { urls?.listenersChanged(count: count) }
    if event == launches?.event { launches?.listenersChanged(count: count) }
  }

  /// Counts this launch in the data dir, on a thread of its own (a read, a write and a rename
  /// that overlap the JS context's set-up); `appInfo`/`deviceInfo` and `stop()` wait for it. A
  /// failure is reported on stderr and by `appInfo`/`deviceInfo`, never by stopping the run.
  public func start() async throws {
    let directory = context.dataDirectory
    let now = ISO8601.currentMilliseconds()
    counting = ThreadedValue { Self.countLaunch(in: directory, now: now) }
    if context.lifecycle.followsSession, context.manifest.lifecycle?.followSession != false {
      let watcher = SessionWatcher(lifecycle: context.lifecycle, mainContext: context.glibMainContext)
      watcher.startWhenTheLoopWaits(address: context.environment["NBRIDGE_LOGIND_BUS"])
      session = watcher
    }
  }

  /// Stops following the session; the launch is counted by then.
  public func stop() async {
    if counting != nil { _ = recordedLaunch() }
    session?.stop()
  }

  /// The launch record, counting this launch the first time it is asked for.
  private func launchRecord() throws(BridgeError) -> LaunchRecord {
    try recordedLaunch().get()
  }

  private func recordedLaunch() -> LaunchCount {
    if let record { return record }
    let count = counting?.value ?? Self.countLaunch(in: context.dataDirectory, now: ISO8601.currentMilliseconds())
    counting = nil
    for warning in count.warnings { context.warn(warning) }
    record = count
    return count
  }

  /// Counts a launch in `directory`: the record, or why it could not be counted, and what to warn about.
  private nonisolated static func countLaunch(in directory: String, now: Int64) -> LaunchCount {
    var warnings: [String] = []
    do {
      let record = try LaunchRecord.recordLaunch(in: directory, now: now, warn: { warnings.append($0) })
      return LaunchCount(outcome: .counted(record), warnings: warnings)
    } catch let error as BridgeError {
      return LaunchCount(outcome: .failed(error), warnings: warnings + [error.message])
    } catch {
      return LaunchCount(
        outcome: .failed(BridgeError.unavailable("cannot record this launch: \(error)")),
        warnings: warnings + ["\(error)"])
    }
  }
}

/// This launch counted in the data dir, or why it could not be, with what to warn about. Its own
/// enum rather than a `Result<LaunchRecord, BridgeError>`: making that type at every start checks
/// `BridgeError: Error` by a walk of the executable's protocol conformances (about 0.2 M instructions).
private struct LaunchCount: Sendable {
  enum Outcome: Sendable {
    case counted(LaunchRecord)
    case failed(BridgeError)
  }

  let outcome: Outcome
  let warnings: [String]

  /// The record, or the error that kept the launch from being counted.
  func get() throws(BridgeError) -> LaunchRecord {
    switch outcome {
    case .counted(let record): return record
    case .failed(let error): throw error
    }
  }
}

/// `exit`'s options: `{code?}`, an exit status from 0 to 255.
struct ExitOptions: Decodable {
  let code: Int32

  init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer(), single.decodeNil() {
      code = 0
      return
    }
    let fields = try decoder.container(keyedBy: Field.self)
    let code = try fields.decodeIfPresent(Int32.self, forKey: .code) ?? 0
    guard (0...255).contains(code) else {
      throw BridgeError.invalidParameter("code", "must be from 0 to 255 (got \(code))")
    }
    self.code = code
  }

  private enum Field: String, CodingKey { case code }
}

/// `getState()`'s result and `stateChange`'s payload.
struct AppStatePayload: Encodable {
  let state: String
  let isActive: Bool

  init(_ state: AppState) {
    self.state = state.rawValue
    isActive = state.isActive
  }
}
