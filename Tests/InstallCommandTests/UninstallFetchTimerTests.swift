import CLITestSupport
import Foundation
import NBridgeTesting
import Testing

/// `nbridge uninstall` takes the app's background-fetch wake-up with it: the systemd user timer's
/// units, or the schedule `nbridge daemon` waits on (and the daemon, once no schedule is left).
@Suite(.serialized, .onTestThreads) struct UninstallFetchTimerTests {
  let dir: TemporaryDirectory
  var env: [String: String?]
  let id = "dev.nbridge.uninstall-fetch"
  let entry: String

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-uninstall")
    env = NBridgeTest.headless
    for name in ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"] {
      env[name] = dir.file(name.lowercased())
    }
    try FileManager.default.createDirectory(
      atPath: dir.file("xdg_runtime_dir"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    env["XDG_DATA_DIRS"] = dir.file("system-data")
    env["XDG_CONFIG_DIRS"] = dir.file("system-config")
    env["NBRIDGE_DATA_DIR"] = nil
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env["NBRIDGE_FETCH_MINIMUM"] = "1"
    try dir.write("app/nbridge.json", #"{"id": "\#(id)", "urlSchemes": ["dbufetch"]}"#)
    // A fetch an hour from now: the wake-up stays armed after the run ends.
    entry = try dir.write(
      "app/index.js",
      """
      nbridge.background.addListener('fetch', () => 'noData');
      await nbridge.background.setMinimumFetchInterval({ interval: 3600 }).catch((e) => console.log(e.code));
      """)
  }

  func nbridge(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try NBridgeTest.command(arguments, environment: env)
  }

  func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  /// Every file or link under `folder` whose name mentions `text`.
  func files(under folder: String, naming text: String) -> [String] {
    let names = (try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.contains(text) }
  }

  @Test mutating func uninstallRemovesTheSystemdTimerUnits() throws {
    env["NBRIDGE_SCHEDULER"] = "systemd"
    #expect(try nbridge(["install", dir.file("app")]).status == 0)
    let run = try nbridge(["run", entry])
    #expect(run.status == 0, "\(run.stderr)")
    let units = dir.file("xdg_config_home/systemd/user")
    let unit = "nbridge-fetch-\(id)"
    #expect(exists("\(units)/\(unit).timer") && exists("\(units)/\(unit).service"), "the run armed its timer")

    let r = try nbridge(["uninstall", id])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(files(under: units, naming: unit) == [], "no unit, and no link enabling one, is left")
    #expect(!exists(dir.file("xdg_data_home/nbridge/installed/\(id).json")))
  }

  @Test mutating func uninstallRemovesTheDaemonScheduleAndTheIdleDaemonLeaves() throws {
    env["NBRIDGE_SCHEDULER"] = "daemon"
    #expect(try nbridge(["install", dir.file("app")]).status == 0)
    let run = try nbridge(["run", entry])
    #expect(run.status == 0, "\(run.stderr)")
    let folder = dir.file("xdg_data_home/nbridge/fetch")
    #expect(exists("\(folder)/\(id).json"), "the run wrote its schedule")
    // The daemon writes its pid in its lock file once it holds the lock.
    var daemon: Int32?
    let started = Date().addingTimeInterval(20)
    while daemon == nil && Date() < started {
      daemon = Int32((try? String(contentsOfFile: "\(folder)/daemon.lock", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
      if daemon == nil { usleep(50_000) }
    }
    let pid = try #require(daemon)
    defer { if !ProcessState.isGone(pid) { kill(pid, SIGTERM) } }
    #expect(!ProcessState.isGone(pid), "a daemon waits for the schedule")

    let r = try nbridge(["uninstall", id])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!exists("\(folder)/\(id).json"), "the schedule is gone")
    let deadline = Date().addingTimeInterval(20)
    while !ProcessState.isGone(pid) && Date() < deadline { usleep(50_000) }
    #expect(ProcessState.isGone(pid), "with no schedule left the daemon ends")
  }
}
