import CLITestSupport
import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

/// An app that has exited is woken for its fetch: by `nbridge daemon`, or by a systemd user
/// timer (a real one where `systemctl --user` answers; else its units pass `systemd-analyze verify`).
@Suite(.serialized, .onTestThreads) struct FetchWakeTests {
  let dir: TemporaryDirectory
  var env: [String: String?]
  let entry: String

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-wake")
    env = NBridgeTest.headless
    for name in ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"] {
      env[name] = dir.file(name.lowercased())
    }
    try FileManager.default.createDirectory(
      atPath: dir.file("xdg_runtime_dir"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    env["NBRIDGE_DATA_DIR"] = nil
    env["NBRIDGE_SHARED_DIR"] = nil
    env["NBRIDGE_FETCH_MINIMUM"] = "1"
    try dir.write("app/nbridge.json", #"{"id": "dev.nbridge.waketest"}"#)
    entry = try dir.write(
      "app/index.js",
      """
      nbridge.background.addListener('fetch', async ({ reason }) => {
        const now = Date.now();  // the first fetch's time is kept
        if (!(await nbridge.storage.get({ key: 'fetchedAt' }))) await nbridge.storage.set({ key: 'fetchedAt', value: now });
        return 'newData';
      });
      // The runs the test starts set the schedule ('start') or end it ('stop'); a run the scheduler
      // wakes has no arguments and leaves it as it is (else a woken run still going when the test
      // says 'stop' would set it again after).
      const interval = { start: 1, stop: 'never' }[nbridge.args[0]];
      if (interval) await nbridge.background.setMinimumFetchInterval({ interval }).catch((e) => console.log(e.code));
      """)
    try dir.write("app/check.js", "console.log(await nbridge.storage.get({ key: 'fetchedAt', defaultValue: 0 }))")
  }

  /// When a woken run's fetch last wrote storage (ms since 1970; 0: never).
  func fetchedAt() throws -> Int64 {
    let r = try NBridgeTest.command(["run", dir.file("app/check.js")], environment: env)
    return Int64(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  /// Waits up to `timeout` seconds for a fetch to have written storage.
  func waitForFetch(timeout: Double) throws -> Int64 {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
      let at = try fetchedAt()
      if at > 0 { return at }
      Thread.sleep(forTimeInterval: 0.2)
    }
    return 0
  }

  /// Stops what the test started: the schedule (`never`), the daemon by the pid in its lock
  /// file, and any woken run of this app, found by its entry path.
  func cleanUp(daemonPID: Int32?) throws {
    _ = try NBridgeTest.command(["run", entry, "--", "stop"], environment: env)
    if let daemonPID, daemonPID > 0 { kill(daemonPID, SIGTERM) }
    for pid in Self.processes(mentioning: entry) { kill(pid, SIGKILL) }
  }

  static func processes(mentioning text: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { name in
      guard let pid = Int32(name), pid != getpid(),
        let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline")
      else { return nil }
      return String(decoding: data, as: UTF8.self).contains(text) ? pid : nil
    }
  }

  @Test mutating func theDaemonWakesAnAppThatHasExitedForItsFetch() throws {
    env["NBRIDGE_SCHEDULER"] = "daemon"
    let first = try NBridgeTest.command(["run", entry, "--", "start"], environment: env)
    // When the schedule says the fetch is due (a second after the app set its interval).
    let record = dir.file("xdg_data_home/nbridge/fetch/dev.nbridge.waketest.json")
    let schedule = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: record))) as? [String: Any]
    let due = Int64(try #require(schedule?["at"] as? Double))
    // The daemon writes its pid in its lock file once it holds the lock.
    let lock = dir.file("xdg_data_home/nbridge/fetch/daemon.lock")
    var pid: Int32?
    let started = Date().addingTimeInterval(10)
    while pid == nil && Date() < started {
      pid = Int32((try? String(contentsOfFile: lock, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
      if pid == nil { Thread.sleep(forTimeInterval: 0.05) }
    }
    defer { try? cleanUp(daemonPID: pid) }
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout == "")
    let daemon = try #require(pid)
    #expect(!ProcessState.isGone(daemon))
    let fetched = try waitForFetch(timeout: 30)
    #expect(fetched > 0, "no fetch; daemon log: \((try? String(contentsOfFile: dir.file("xdg_state_home/nbridge/daemon.log"), encoding: .utf8)) ?? "")")
    // Woken for its due time, not at some later poll: within 10 s of it even on a loaded machine
    // (the woken run is a debug build starting beside make test's other targets: 4.9 s once).
    #expect(fetched >= due && fetched - due < 10_000, "fetched \(fetched - due) ms after it was due")

    // No schedule left: the daemon leaves by itself.
    _ = try NBridgeTest.command(["run", entry, "--", "stop"], environment: env)
    let end = Date().addingTimeInterval(10)
    while !ProcessState.isGone(daemon) && Date() < end { Thread.sleep(forTimeInterval: 0.1) }
    #expect(ProcessState.isGone(daemon))
  }

  /// A page in `nbridge app` that sets an interval is woken, once its window is closed, through
  /// the `index.js` beside it (the page itself cannot run headless).
  @Test mutating func aWindowAppIsWokenThroughTheScriptBesideItsPage() throws {
    let xvfb = try XvfbServer()
    env["DISPLAY"] = xvfb.display
    env["NBRIDGE_SCHEDULER"] = "daemon"
    try dir.write("app/index.html", "<!doctype html><title>wake</title><p>wake</p>")
    let set = try dir.write("set.js", "await nbridge.background.setMinimumFetchInterval({ interval: 1 });")
    let window = try NBridgeTest.command(
      ["app", dir.file("app"), "--script", set, "--exit-after-script"], environment: env, timeout: 60)
    let lock = dir.file("xdg_data_home/nbridge/fetch/daemon.lock")
    let pid = Int32((try? String(contentsOfFile: lock, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
    env["DISPLAY"] = nil
    defer { try? cleanUp(daemonPID: pid) }
    #expect(window.status == 0, "\(window.stderr)")
    let record = dir.file("xdg_data_home/nbridge/fetch/dev.nbridge.waketest.json")
    let schedule = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: record))) as? [String: Any]
    #expect((schedule?["command"] as? [String])?.last == entry, "\(schedule ?? [:])")
    #expect(try waitForFetch(timeout: 30) > 0)
  }

  @Test mutating func aSystemdUserTimerWakesTheAppOrItsUnitsVerify() throws {
    env["NBRIDGE_SCHEDULER"] = "systemd"
    let managerAnswers = try ChildProcess.run("systemctl", ["--user", "show-environment"], environment: env).status == 0
    let first = try NBridgeTest.command(["run", entry, "--", "start"], environment: env)
    defer { try? cleanUp(daemonPID: nil) }
    #expect(first.status == 0, "\(first.stderr)")
    let units = dir.file("xdg_config_home/systemd/user")
    let timer = try String(contentsOfFile: "\(units)/nbridge-fetch-dev.nbridge.waketest.timer", encoding: .utf8)
    let service = try String(contentsOfFile: "\(units)/nbridge-fetch-dev.nbridge.waketest.service", encoding: .utf8)
    let nbridge = URL(fileURLWithPath: NBridgeTest.executable).resolvingSymlinksInPath().path
    #expect(service.contains("\nExecStart=\(nbridge) run --fetch \(entry)\n"))
    #expect(timer.contains("\nPersistent=true\nAccuracySec=1s\n"))
    let calendar = try #require(timer.split(separator: "\n").first { $0.hasPrefix("OnCalendar=") })
    #expect(calendar.range(of: #"^OnCalendar=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$"#, options: .regularExpression) != nil)

    let verify = try ChildProcess.run(
      "systemd-analyze",
      [
        "--user", "--man=no", "verify", "\(units)/nbridge-fetch-dev.nbridge.waketest.timer",
        "\(units)/nbridge-fetch-dev.nbridge.waketest.service",
      ], environment: env)
    #expect(verify.status == 0, "\(verify.stderr)")
    #expect(verify.stderr == "")
    guard managerAnswers else {
      // No user manager here (a container): the app is told its schedule cannot be armed.
      #expect(first.stdout == "unavailable\n")
      return
    }
    // A user manager reads units from its own folders, not this test's temporary ones: run the
    // generated command from a transient user timer on a calendar time two seconds ahead.
    let unit = "nbridge-fetch-test-\(getpid())"
    let due = SystemdCalendar.format(Date().addingTimeInterval(2))
    var arguments = ["--user", "--unit=\(unit)", "--on-calendar=\(due)", "--timer-property=AccuracySec=1s"]
    for line in service.split(separator: "\n") where line.hasPrefix("Environment=") {
      arguments.append("--setenv=\(line.dropFirst("Environment=".count))")
    }
    arguments += ["--", nbridge, "run", "--fetch", entry]
    let armed = try ChildProcess.run("systemd-run", arguments, environment: env)
    defer { _ = try? ChildProcess.run("systemctl", ["--user", "stop", "\(unit).timer", "\(unit).service"], environment: env) }
    #expect(armed.status == 0, "\(armed.stderr)")
    #expect(try waitForFetch(timeout: 30) > 0)
  }
}

/// `YYYY-MM-DD HH:MM:SS UTC`, the form of the generated `OnCalendar=`.
enum SystemdCalendar {
  static func format(_ date: Date) -> String {
    let iso = ISO8601.format(milliseconds: Int64(date.timeIntervalSince1970.rounded(.up)) * 1000)
    return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8)) + " UTC"
  }
}
