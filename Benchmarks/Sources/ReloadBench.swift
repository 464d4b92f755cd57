import Foundation
import Glibc

/// `nbridge app --watch` under an Xvfb this benchmark starts and stops: the time from writing a
/// changed file of the app to the reloaded page's first `nbridge` call answered (`reload_ms`),
/// against the same app's cold load in the same run (process start → the page's first call
/// answered, as `app_load_ms` counts it). Both ends are wall clocks of this machine (ms since
/// the epoch): the bench's before the write, the page's `Date.now()` after its call.
struct ReloadBench {
  let nbridge: String
  let directory: String

  struct Figures {
    var reload: Double?
    var coldLoad: Double?
  }

  /// The page's script, `version` of it: one call, then the line the bench waits for.
  static func script(_ version: Int) -> String {
    "await nbridge.app.appInfo();\nconsole.log('BENCH loaded \(version) ' + Date.now());\n"
  }

  func run(rounds: Int, edits: Int) -> Figures {
    let display = ":\(500 + getpid() % 300)"
    let xvfb = Spawned(["Xvfb", display, "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset"])
    defer {
      kill(xvfb.pid, SIGTERM)
      _ = xvfb.wait()
    }
    let socket = "/tmp/.X11-unix/X\(display.dropFirst())"
    for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
    let app = "\(directory)/app"
    try? FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
    try? "<!doctype html><title>reload</title><p>reload</p><script type=\"module\" src=\"page.js\"></script>\n"
      .write(toFile: app + "/index.html", atomically: true, encoding: .utf8)
    try? #"{"id": "dev.nbridge.reloadbench", "permissions": ["app"]}"#
      .write(toFile: app + "/nbridge.json", atomically: true, encoding: .utf8)
    var reloads: [Double] = [], coldLoads: [Double] = []
    for round in 0..<rounds {
      progress("reload, round \(round + 1) of \(rounds): nbridge app --watch, its cold load, then \(edits) edits")
      try? Self.script(0).write(toFile: app + "/page.js", atomically: true, encoding: .utf8)
      let t0 = Date().timeIntervalSince1970 * 1000
      let child = Spawned(
        [nbridge, "app", "--watch", app],
        set: ["DISPLAY": display, "NBRIDGE_DATA_DIR": "\(directory)/data", "NBRIDGE_SHARED_DIR": "\(directory)/shared"],
        unset: ["WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"], stdout: "\(directory)/app-\(round).out")
      defer {
        kill(child.pid, SIGTERM)
        _ = child.wait()
      }
      guard let loaded = Self.loaded(0, in: child, seconds: 60) else { continue }
      coldLoads.append(loaded - t0)
      for edit in 1...edits {
        let written = Date().timeIntervalSince1970 * 1000
        // Written in place, as an editor saving the file does (inotify's close-after-write).
        try? Self.script(edit).write(toFile: app + "/page.js", atomically: false, encoding: .utf8)
        guard let reloaded = Self.loaded(edit, in: child, seconds: 10) else { break }
        reloads.append(reloaded - written)
      }
    }
    return Figures(reload: median(reloads), coldLoad: median(coldLoads))
  }

  /// The page's clock when `version` had its call answered; nil when it does not within `seconds`.
  static func loaded(_ version: Int, in child: Spawned, seconds: Int) -> Double? {
    let prefix = "BENCH loaded \(version) "
    for _ in 0..<(seconds * 500) {
      // The page's console line: `page.js:2: BENCH loaded N MS`.
      for line in child.output().split(separator: "\n") {
        if let range = line.range(of: prefix) { return Double(line[range.upperBound...]) }
      }
      usleep(2_000)
    }
    return nil
  }
}
