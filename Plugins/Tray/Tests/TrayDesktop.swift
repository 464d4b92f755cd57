import Foundation
import NBridgeTesting

/// A private session bus with a stand-in StatusNotifierWatcher on it (`sni-watcher.py`), both
/// started here and stopped by their PIDs, and an app folder whose runs use that bus.
final class TrayDesktop: @unchecked Sendable {
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/sni-watcher.py").path
  /// Debian's Python, which has `python3-dbus` and `python3-gi` (a Python of the user's may not).
  static let python = "/usr/bin/python3"

  let bus: SessionBus
  let folder: TemporaryDirectory
  private(set) var watcher: ChildProcess?

  /// Starts the bus and, with `watcher`, the stand-in watcher; writes the app's manifest and `icon.png`.
  init(watcher startWatcher: Bool = true, permissions: String = #"["app", "tray"]"#) throws {
    bus = try SessionBus()
    folder = try TemporaryDirectory(prefix: "nbridge-tray")
    try folder.write(
      "app/nbridge.json", #"{"id": "org.example.words", "name": "Words", "permissions": \#(permissions)}"#)
    let png = try ChildProcess.run(Self.python, [Self.fixture, "png", folder.file("app/icon.png")], timeout: 30)
    guard png.status == 0 else { throw ChildProcessError.notReady("sni-watcher.py png: \(png.stderr)") }
    try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
    if startWatcher { try startWatcherProcess() }
  }

  /// Starts a (new) watcher and waits until it owns its name.
  func startWatcherProcess() throws {
    let child = try ChildProcess(Self.python, [Self.fixture], environment: bus.environment)
    guard child.waitForOutput("ready\n", timeout: 20) else {
      child.stop()
      throw ChildProcessError.notReady("sni-watcher.py: \(child.stderr)")
    }
    watcher = child
  }

  /// Stops the watcher by its PID and waits until its name is gone from the bus.
  func stopWatcher() {
    watcher?.stop()
    watcher = nil
  }

  /// The environment of the app's runs: this bus, no display.
  var environment: [String: String?] {
    NBridgeTest.headless.merging(bus.environment) { $1 }.merging([
      "NBRIDGE_DATA_DIR": folder.file("data"), "NBRIDGE_SHARED_DIR": folder.file("data"),
    ]) { $1 }
  }

  /// Starts `nbridge run` of `source` as the app's `index.js`.
  func start(_ source: String) throws -> ChildProcess {
    let script = try folder.write("app/index.js", source)
    return try NBridgeTest.start(["run", script], environment: environment)
  }

  /// The JSON lines the watcher has printed that have `key` (`registered`, `gone`).
  func reports(_ key: String) -> [[String: Any]] {
    (watcher?.stdout ?? "").split(separator: "\n").compactMap { line in
      guard let data = line.data(using: .utf8),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object[key] != nil
      else { return nil }
      return object
    }
  }

  /// Waits up to `timeout` seconds for the watcher's `count`th report with `key`; returns it.
  func waitForReport(_ key: String, count: Int = 1, timeout: Double = 20) -> [String: Any]? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let found = reports(key)
      if found.count >= count { return found[count - 1] }
      usleep(10_000)
    }
    return nil
  }

  /// Calls `method` (`interface.Member`) on `destination` at `path` with `gdbus call`, as a tray would.
  @discardableResult
  func call(_ destination: String, _ path: String, _ method: String, _ arguments: [String] = []) throws -> String {
    let result = try ChildProcess.run(
      "gdbus",
      ["call", "--session", "--dest", destination, "--object-path", path, "--method", method] + arguments,
      environment: bus.environment, timeout: 20)
    return result.status == 0 ? result.stdout : "failed: \(result.stderr)"
  }
}
