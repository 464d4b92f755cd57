import Glibc
import NBridgePlugin
import NBridgeSystem

/// The page's side of `app`: `clearCache` (the runtime's caches, and WebKit's in a window) and
/// `screenshot` (a window only). The window is reached through `PluginContext.window`.
extension AppPlugin {
  nonisolated static let pageActions: [Action<AppPlugin>] = [
    Action(
      "clearCache", result: .named("ClearedCaches", .fields(["cleared": .array(.string)])),
      summary:
        "Clears the runtime's module cache and, in a window, WebKit's disk and memory caches and cookies; what it cleared."
    ) { (plugin, _: NoOptions, _, reply: Reply<JSONValue>) in
      let runtime = plugin.context.clearRuntimeCaches()
      func answer(_ kinds: [String]) -> JSONValue { ["cleared": .array(kinds.map { .string($0) })] }
      guard let window = plugin.context.window else { return reply.resolve(answer(runtime)) }
      window.clearWebsiteData { outcome in
        reply.settle(outcome.map { answer(runtime + $0) }.mapError { $0 as any Error })
      }
    },
    Action(
      "screenshot", result: .named("Screenshot", .fields(["path": .string, "width": .integer, "height": .integer])),
      summary: "A PNG of the page's visible part under the app's data dir (a window only; headless unavailable)."
    ) { (plugin, _: NoOptions, _, reply: Reply<JSONValue>) in
      guard let window = plugin.context.window else {
        throw BridgeError.unavailable("screenshot needs the app's window (nbridge app); this run has no page")
      }
      let path = try plugin.newScreenshotPath()
      window.snapshot(to: path) { outcome in
        reply.settle(
          outcome.map {
            ["path": .string(path), "width": .number(Double($0.width)), "height": .number(Double($0.height))]
          }
          .mapError { $0 as any Error })
      }
    },
  ]

  /// A new file name under `<data dir>/screenshots` (created when missing), named for the time.
  func newScreenshotPath() throws(BridgeError) -> String {
    let folder = context.dataDirectory + "/screenshots"
    do {
      try POSIX.makeDirectories(folder)
    } catch {
      throw BridgeError.unavailable("cannot create \(folder): \(error)")
    }
    let stem = folder + "/screenshot-\(ISO8601.currentMilliseconds())"
    var path = stem + ".png"
    var taken = 1
    while access(path, F_OK) == 0 {
      taken += 1
      path = stem + "-\(taken).png"
    }
    return path
  }
}
