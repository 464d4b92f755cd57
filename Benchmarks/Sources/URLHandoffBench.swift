import Foundation
import Glibc
import NBridgeSystem

/// The control socket and URL hand-off (issue 15): `nbridge open` → a running app's listener,
/// → an app it must launch, `xdg-open` → a running app, and a `ping` round trip on the control
/// socket beside a bare Unix-socket echo floor, all measured in the same run.
struct URLHandoffBench {
  let nbridge: String
  let directory: String

  struct Result {
    var warmMs: Double?
    var coldMs: Double?
    var xdgOpenMs: Double?
    var pingUs: Double?
    var echoFloorUs: Double?
  }

  /// Temporary XDG folders (a short runtime folder: socket paths must fit in 107 bytes).
  var environment: [String: String] {
    [
      "XDG_DATA_HOME": "\(directory)/data", "XDG_CONFIG_HOME": "\(directory)/config",
      "XDG_STATE_HOME": "\(directory)/state", "XDG_RUNTIME_DIR": "\(directory)/run",
      "NBRIDGE_SHARED_DIR": "\(directory)/shared", "NBRIDGE_DATA_DIR": "",
    ]
  }

  var socket: String { "\(directory)/run/nbridge/dev.nbridge.bench.urls.sock" }

  func run(rounds: Int) -> Result {
    try? FileManager.default.createDirectory(atPath: "\(directory)/run", withIntermediateDirectories: true)
    let app = "\(directory)/app"
    try! FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
    try! #"{"id": "dev.nbridge.bench.urls", "urlSchemes": ["nbridgebench"]}"#.write(
      toFile: "\(app)/nbridge.json", atomically: true, encoding: .utf8)
    // Prints each URL; exits after one when launched by it (the cold figure needs a fresh start each round).
    try! """
      const launched = await nbridge.app.getLaunchUrl();
      nbridge.app.addListener('appUrlOpen', ({ url }) => {
        console.log('URL ' + url);
        if (launched) nbridge.app.exit();
      });
      if (!launched) console.log('READY');
      """.write(toFile: "\(app)/index.js", atomically: true, encoding: .utf8)
    guard Spawned([nbridge, "install", app], set: environment).wait().status == 0 else { return Result() }
    var result = Result()

    // Warm: a running app whose stdout is a pipe we read.
    if let running = LineChild([nbridge, "run", "\(app)/index.js"], environment: environment), running.waitFor("READY") {
      var warm: [Double] = []
      var xdg: [Double] = []
      let xvfb = XvfbDisplay()
      for round in 0..<(rounds + 2) {
        let start = Clock.nanos()
        let open = Spawned([nbridge, "open", "nbridgebench://warm/\(round)"], set: environment)
        if running.waitFor("URL nbridgebench://warm/\(round)") && round >= 2 { warm.append(Double(Clock.nanos() - start) / 1e6) }
        _ = open.wait()
        if let display = xvfb?.display {
          var desktop = environment
          desktop["DISPLAY"] = display
          let start = Clock.nanos()
          let xdgOpen = Spawned(["xdg-open", "nbridgebench://xdg/\(round)"], set: desktop, unset: ["XDG_CURRENT_DESKTOP"])
          if running.waitFor("URL nbridgebench://xdg/\(round)") && round >= 2 { xdg.append(Double(Clock.nanos() - start) / 1e6) }
          _ = xdgOpen.wait()
        }
      }
      xvfb?.stop()
      result.warmMs = median(warm)
      result.xdgOpenMs = median(xdg)
      result.pingUs = ControlPing.roundTrip(socket: socket, count: 20_000)
      running.stop()
    }
    result.echoFloorUs = ControlPing.echoFloor(path: "\(directory)/echo.sock", count: 20_000)

    // Cold: nothing runs; `open` launches the app, whose output goes to its log.
    let log = "\(directory)/state/nbridge/dev.nbridge.bench.urls.log"
    var cold: [Double] = []
    for round in 0..<(rounds + 1) {
      while FileManager.default.fileExists(atPath: socket) { usleep(1000) }
      let before = (try? String(contentsOfFile: log, encoding: .utf8))?.utf8.count ?? 0
      let start = Clock.nanos()
      let open = Spawned([nbridge, "open", "nbridgebench://cold/\(round)"], set: environment)
      let deadline = start + 20_000_000_000
      var seen = false
      while !seen && Clock.nanos() < deadline {
        if let text = try? String(contentsOfFile: log, encoding: .utf8), text.utf8.count > before,
          text.contains("URL nbridgebench://cold/\(round)\n")
        {
          seen = true
        } else {
          usleep(100)
        }
      }
      if seen && round >= 1 { cold.append(Double(Clock.nanos() - start) / 1e6) }
      _ = open.wait()
    }
    result.coldMs = median(cold)
    _ = Spawned([nbridge, "uninstall", "dev.nbridge.bench.urls"], set: environment).wait()
    return result
  }
}

/// A child whose stdout is a pipe read line by line (started by NBridgeSystem's `Spawn`, as
/// Foundation's `Process.run` faults now and then on Linux).
final class LineChild {
  let pid: pid_t
  private let reader: Int32
  private var buffer = ""

  init?(_ argv: [String], environment extra: [String: String]) {
    var environment = ProcessInfo.processInfo.environment
    for (key, value) in extra { environment[key] = value.isEmpty ? nil : value }
    var standard = Spawn.Standard(stdin: false, capture: true)
    standard.errorPipe = false
    guard let child = try? Spawn.launch(argv, environment: environment, standard: standard) else { return nil }
    pid = child.pid
    reader = child.stdout
  }

  deinit { close(reader) }

  /// Reads until a line equal to `line` arrives (10 s at most).
  func waitFor(_ line: String) -> Bool {
    let deadline = Clock.nanos() + 10_000_000_000
    while Clock.nanos() < deadline {
      if let range = buffer.range(of: line + "\n") {
        buffer.removeSubrange(buffer.startIndex..<range.upperBound)
        return true
      }
      guard readMore() else { return false }
    }
    return false
  }

  /// Reads until a line starting with `prefix` arrives (10 s at most) and returns the rest of it.
  func waitForLine(startingWith prefix: String) -> String? {
    let deadline = Clock.nanos() + 10_000_000_000
    while Clock.nanos() < deadline {
      let lines = buffer.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      if let line = lines.first(where: { $0.hasPrefix(prefix) }) {
        buffer.removeSubrange(buffer.startIndex..<line.endIndex)
        return String(line.dropFirst(prefix.count))
      }
      guard readMore() else { return nil }
    }
    return nil
  }

  private func readMore() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 4096)
    let n = read(reader, &chunk, chunk.count)
    if n <= 0 { return false }
    buffer += String(decoding: chunk[0..<n], as: UTF8.self)
    return true
  }

  func stop() {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
  }
}

/// An Xvfb server for the `xdg-open` figure (xdg-utils hands scheme URLs on only with a display).
struct XvfbDisplay {
  let display: String
  let pid: pid_t

  init?() {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") else { return nil }
    var number = 200 + Int(getpid() % 300)
    while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") { number += 1 }
    display = ":\(number)"
    pid = Spawned(["/usr/bin/Xvfb", display, "-screen", "0", "320x240x24", "-nolisten", "tcp"]).pid
    for _ in 0..<500 where !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") { usleep(10_000) }
  }

  func stop() {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
  }
}
