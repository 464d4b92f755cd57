import Foundation

/// An X display with a window manager (Xvfb and openbox, started and stopped by PID) and an app
/// folder of the test's own with a manifest and a page: `nbridge app` runs there with a
/// `--script`, and the test acts on its windows as a user would (`xdotool`) and reads them as a
/// user's tools see them (`xwininfo`, `xprop`, `xwd`). The window, dialog and menu tests build
/// on it.
open class AppDesktop {
  /// The X server, stopped when the desktop goes.
  public let xvfb: XvfbServer
  /// The window manager on it.
  public let wm: OpenboxWindowManager
  /// The test's folder: the app, its data and shared folders.
  public let dir: TemporaryDirectory
  /// The environment `nbridge app` starts with: this display, the test's folders.
  public var env: [String: String?]
  /// The display's name (`:N`).
  public var display: String { xvfb.display }
  /// The app's folder, holding `nbridge.json` and `index.html`.
  public var appFolder: String { dir.file("app") }

  /// Starts the display and its window manager and writes the app: `manifest` as its
  /// `nbridge.json`, `page` as its `index.html`; `prefix` names the test's folder.
  public init(prefix: String, manifest: String, page: String) throws {
    xvfb = try XvfbServer()
    wm = try OpenboxWindowManager(display: xvfb.display)
    dir = try TemporaryDirectory(prefix: prefix)
    env = NBridgeTest.headless
    env["DISPLAY"] = xvfb.display
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    try FileManager.default.createDirectory(atPath: appFolder, withIntermediateDirectories: true)
    try write("nbridge.json", manifest)
    try write("index.html", page)
  }

  deinit { wm.stop() }

  /// Writes `text` as the app folder's file `name`.
  public func write(_ name: String, _ text: String) throws {
    try text.write(toFile: appFolder + "/" + name, atomically: true, encoding: .utf8)
  }

  /// Starts `nbridge app` on the app's page with `script` as its `--script`, ending once the
  /// script has.
  open func start(script: String) throws -> ChildProcess {
    try write("script.js", script)
    return try NBridgeTest.start(
      ["app", appFolder + "/index.html", "--script", appFolder + "/script.js", "--exit-after-script"], environment: env)
  }

  /// Runs an X tool (`xdotool`, `xwininfo`, ...) on this display; its stdout.
  @discardableResult
  public func tool(_ name: String, _ arguments: [String]) throws -> String {
    try ChildProcess.run(name, arguments, environment: ["DISPLAY": display], timeout: 20).stdout
  }

  /// The window titled `name`, once it is shown and activated, and has the input focus (GTK
  /// takes keys once it has: before, a key can reach a widget not yet realized and be lost) or
  /// 30 s went by.
  public func activeWindow(_ name: String) throws -> String {
    var id: String?
    _ = try waitUntil(timeout: 30) {
      if id == nil {
        let found = try tool("xdotool", ["search", "--onlyvisible", "--name", "^\(name)$"])
        guard let first = found.split(separator: "\n").first else { return false }
        id = String(first)
        try tool("xdotool", ["windowactivate", "--sync", String(first)])
      }
      return try tool("xdotool", ["getwindowfocus"]).trimmingCharacters(in: .whitespacesAndNewlines) == id
    }
    guard let id else { throw ChildProcessError.notReady("no window named \(name)") }
    return id
  }
}
