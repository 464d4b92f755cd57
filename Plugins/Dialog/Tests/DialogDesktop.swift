import Foundation
import NBridgeTesting

/// An X display with a window manager (Xvfb and openbox, started and stopped by PID) and an app
/// folder of the test's own: `nbridge app` runs there with a `--script`, and the test answers
/// its dialogs with `xdotool`, as a user would with the keyboard.
final class DialogDesktop {
  let xvfb: XvfbServer
  let wm: OpenboxWindowManager
  let dir: TemporaryDirectory
  var env: [String: String?]
  var display: String { xvfb.display }
  var appFolder: String { dir.file("app") }

  init() throws {
    xvfb = try XvfbServer()
    wm = try OpenboxWindowManager(display: xvfb.display)
    dir = try TemporaryDirectory(prefix: "nbridge-dialog")
    env = NBridgeBinary.headless
    env["DISPLAY"] = xvfb.display
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    try FileManager.default.createDirectory(atPath: appFolder, withIntermediateDirectories: true)
    try write(
      "nbridge.json",
      #"{"id": "dev.nbridge.dialogtest", "name": "Dialog Test", "window": {"width": 600, "height": 440}}"#)
    try write("index.html", "<!doctype html><title>Dialog Test</title><p>main</p>\n")
  }

  deinit { wm.stop() }

  func write(_ name: String, _ text: String) throws {
    try text.write(toFile: appFolder + "/" + name, atomically: true, encoding: .utf8)
  }

  /// Starts `nbridge app` on the app's folder with `script` as its `--script`.
  func start(script: String) throws -> ChildProcess {
    try write("script.js", script)
    return try NBridgeBinary.start(
      ["app", appFolder + "/index.html", "--script", appFolder + "/script.js", "--exit-after-script"], environment: env)
  }

  @discardableResult
  func tool(_ name: String, _ arguments: [String]) throws -> String {
    try ChildProcess.run(name, arguments, environment: ["DISPLAY": display], timeout: 20).stdout
  }

  /// The window titled `name`, once it is shown, activated (it has the keyboard).
  func activeWindow(_ name: String) throws -> String {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      let found = try tool("xdotool", ["search", "--onlyvisible", "--name", "^\(name)$"])
      if let id = found.split(separator: "\n").first.map(String.init) {
        try tool("xdotool", ["windowactivate", "--sync", id])
        // GTK takes keys once the window has the input focus (before, a key can reach a widget
        // not yet realized and be lost).
        while Date() < deadline,
          try tool("xdotool", ["getwindowfocus"]).trimmingCharacters(in: .whitespacesAndNewlines) != id
        {
          usleep(50_000)
        }
        return id
      }
      usleep(50_000)
    }
    throw ChildProcessError.notReady("no window named \(name)")
  }

  /// Types `text` into the focused window, then presses `keys` one after the other.
  func type(_ text: String?, then keys: [String]) throws {
    if let text { try tool("xdotool", ["type", "--delay", "30", text]) }
    for key in keys { try tool("xdotool", ["key", key]) }
  }
}
