import Foundation
import Glibc

/// `nbridge app` against a bare WebKitGTK window, both run by `nbridge-bench-webview` under an
/// Xvfb this benchmark starts and stops: page round trips, load time and memory (PSS of every
/// process of the app: UI, web and network).
struct WebViewBench {
  let binary: String
  let directory: String
  let root: String

  struct Figures {
    var floorRoundTrip: Double?
    var roundTrip: Double?
    var wkbridgeRoundTrip: Double?
    var floorLoad: Double?
    var appLoad: Double?
    var floorPSS: Double?
    var appPSS: Double?
  }

  func run(rounds: Int, calls: Int) -> Figures? {
    guard FileManager.default.isExecutableFile(atPath: binary) else { return nil }
    let display = ":\(200 + getpid() % 300)"
    let xvfb = Spawned(["Xvfb", display, "-screen", "0", "1280x1024x24", "-nolisten", "tcp"])
    defer {
      kill(xvfb.pid, SIGTERM)
      _ = xvfb.wait()
    }
    let socket = "/tmp/.X11-unix/X\(display.dropFirst())"
    for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
    let page = "\(directory)/roundtrip/index.html"
    try? FileManager.default.createDirectory(atPath: "\(directory)/roundtrip", withIntermediateDirectories: true)
    try? "<!doctype html><title>bench</title><p>bench</p>\n".write(toFile: page, atomically: true, encoding: .utf8)
    let sample = "\(root)/www/index.html"
    var floor: [Double] = [], app: [Double] = [], wkbridge: [Double] = []
    var floorLoad: [Double] = [], appLoad: [Double] = [], floorPSS: [Double] = [], appPSS: [Double] = []
    for round in 0..<rounds {
      progress("window, round \(round + 1) of \(rounds): bare WebKitGTK, then nbridge app")
      let f = measure("floor", page, calls, display)
      floor += f["roundtrip_us"] ?? []
      let a = measure("nbridge", page, calls, display)
      app += a["roundtrip_us"] ?? []
      wkbridge += a["wkbridge_us"] ?? []
      let fl = measure("floor", sample, 10, display)
      floorLoad += fl["load_ms"] ?? []
      floorPSS += fl["pss_mib"] ?? []
      let al = measure("nbridge", sample, 10, display)
      appLoad += al["load_ms"] ?? []
      appPSS += al["pss_mib"] ?? []
    }
    return Figures(
      floorRoundTrip: median(floor), roundTrip: median(app), wkbridgeRoundTrip: median(wkbridge),
      floorLoad: median(floorLoad), appLoad: median(appLoad), floorPSS: median(floorPSS), appPSS: median(appPSS))
  }

  /// Runs one window; returns its `BENCH` figures and the PSS of its processes once it is done.
  func measure(_ mode: String, _ page: String, _ calls: Int, _ display: String) -> [String: [Double]] {
    let out = "\(directory)/\(mode)-\(getpid()).out"
    let t0 = String(Int(Date().timeIntervalSince1970 * 1000))
    let child = Spawned(
      [binary, mode, page, String(calls), t0],
      set: ["DISPLAY": display, "NBRIDGE_DATA_DIR": "\(directory)/data-\(mode)", "NBRIDGE_SHARED_DIR": "\(directory)/shared"],
      unset: ["WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"], stdout: out)
    var figures: [String: [Double]] = [:]
    for _ in 0..<6000 {
      if child.output().contains("BENCH done") {
        figures["pss_mib"] = [pss(ofTree: child.pid)]
        break
      }
      usleep(10_000)
    }
    _ = child.wait()
    // The bare window keeps WebKit's data and cache in a folder named for its PID (nbridge's own in its data dir).
    if mode == "floor" { try? FileManager.default.removeItem(atPath: "/tmp/nbridge-bench-floor-\(child.pid)") }
    for line in child.output().split(separator: "\n") {
      guard let range = line.range(of: "BENCH ") else { continue }
      let parts = line[range.upperBound...].split(separator: " ")
      if parts.count == 2, let value = Double(parts[1]) { figures[String(parts[0]), default: []].append(value) }
    }
    return figures
  }

  /// The summed PSS (MiB) of `pid` and its descendants.
  func pss(ofTree pid: pid_t) -> Double {
    var total = 0.0
    var queue = [pid]
    while let next = queue.popLast() {
      if let rollup = try? String(contentsOfFile: "/proc/\(next)/smaps_rollup", encoding: .utf8),
        let line = rollup.split(separator: "\n").first(where: { $0.hasPrefix("Pss:") }),
        let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
      {
        total += kib / 1024
      }
      let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(next)/task")) ?? []
      for task in tasks {
        let children = (try? String(contentsOfFile: "/proc/\(next)/task/\(task)/children", encoding: .utf8)) ?? ""
        queue += children.split(separator: " ").compactMap { pid_t($0) }
      }
    }
    return total
  }
}
