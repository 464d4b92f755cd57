import Dispatch
import NBridgePlugin
import NBridgeSystem

/// URL hand-off: `getLaunchUrl`, `canOpenURL`, `openURL` and the `appUrlOpen` event. Whether
/// a URL can be opened, and opening it, is `nbridge open`'s work (installed apps' schemes, their
/// control sockets, launching them, `xdg-open`): the plugin runs this program's `open` command.
extension AppPlugin {
  nonisolated static let urlActions: [Action<AppPlugin>] = [
    Action(
      "getLaunchUrl", result: Shape.fields(["url": .string]).orNull,
      summary: "The URL that launched this run (nbridge open, run --url), or null."
    ) { (plugin, _: NoOptions, _) in
      guard let url = plugin.context.launchURL else { return JSONValue.null }
      return ["url": .string(url)] as JSONValue
    },
    Action(
      "canOpenURL", result: .boolean,
      summary: "Whether an installed app claims the URL's scheme, or the desktop has a handler for it."
    ) { (plugin, options: URLOptions, _) async throws in
      try await plugin.runOpen(["open", "--check", options.url]) == 0
    },
    Action(
      "openURL", result: .fields(["completed": .boolean]),
      summary: "Opens the URL in the app that claims it (launching it if needed), else with the desktop."
    ) { (plugin, options: URLOptions, _) async throws in
      try await plugin.open(options.url, action: "openURL")
    },
  ]

  nonisolated static let urlEvents: [EventSpec] = [
    EventSpec(
      "appUrlOpen", payload: .named("URLOpen", .fields(["url": .string, "launch": .boolean])),
      summary: "A URL for this app, verbatim, each once, in order (the launch URL too, held until a listener exists).",
      keepsAlive: true),
    EventSpec(
      "appLaunch", payload: .named("AppLaunch", .fields(["args": .array(.string), "cwd": .string])),
      summary: "The app was started again while running: that launch's arguments, handed over instead of a second instance.",
      keepsAlive: true),
  ]

  /// Runs `nbridge <arguments>` (this program) with the run's environment; its exit status.
  func runOpen(_ arguments: [String]) async throws(BridgeError) -> Int32 {
    guard let program = Spawn.currentExecutable else { throw BridgeError.unavailable("cannot find the nbridge program") }
    let pid: Int32
    do {
      pid = try Spawn.start([program] + arguments, environment: context.environment, output: .discard)
    } catch {
      throw BridgeError.unavailable("cannot start \(program) open: \(error)")
    }
    return await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: Spawn.wait(pid)) }
    }
  }
}

/// `{url}`: a URL with a scheme, at most `maxBytes`, without control characters (it is handed to
/// another process as an argument, and on to another app).
struct URLOptions: Decodable {
  /// The longest URL, in bytes of UTF-8 (well under the 128 KiB a single argument may be).
  static let maxBytes = 32 * 1024
  let url: String

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    guard let url = try? fields.decode(String.self, forKey: .url) else {
      throw BridgeError.invalidParameter("url", "must be a string")
    }
    _ = try BridgeLimits.text(url, field: "url", maxBytes: Self.maxBytes)
    guard let colon = url.firstIndex(of: ":"), colon > url.startIndex else {
      throw BridgeError.invalidParameter("url", "must be a URL with a scheme, got \(QuotedValue.text(url))")
    }
    if url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      throw BridgeError.invalidParameter("url", "must not contain control characters (percent-encode them)")
    }
    self.url = url
  }

  private enum Field: String, CodingKey { case url }
}
