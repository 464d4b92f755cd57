import CLITestSupport
import Foundation
import NBridgeTesting
import Testing

/// `www/index.js` headless: no display, no Wayland, no session bus.
@Suite(.onTestThreads) struct SampleAppTests {
  @Test func sampleAppRunsHeadlessAndEndsByItself() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-sample")
    let env = try SampleApp.environment(dir)
    let started = Date()
    let r = try NBridgeTest.command(["run", SampleApp.root + "/www/index.js"], environment: env, timeout: 30)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(Date().timeIntervalSince(started) < 15)
    #expect(r.stdout.contains("app.appInfo: { id: 'dev.nbridge.sample'"))
    #expect(r.stdout.contains("preference.get: { dark: true, accent: '#0a84ff' }"))
    #expect(r.stdout.contains("pasteboard.getString: Copied by the nbridge sample"))
    #expect(r.stdout.contains("First launch: stored a glossary of 4 words."))
    #expect(r.stdout.contains("launch #1"))
    #expect(r.stdout.contains("Copied \"Retina\" -> A display whose pixels"))
    #expect(r.stderr.contains("Retina: A display whose pixels"))
    #expect(r.stdout.contains("background.getFetchStatus: { interval: 'never', nextFetchAt: null }"), "\(r.stdout)")
    #expect(r.stdout.contains("No background refresh yet."))
    #expect(r.stdout.contains("\n  location.current: "), "a position, or why there is none: \(r.stdout)")
    #expect(r.stdout.contains("\n  app.clearCache: { cleared: ["), "what clearCache cleared: \(r.stdout)")
    // No tray, no display: the sample says why, and goes on (an unhandled rejection would fail the run).
    #expect(
      r.stdout.contains(
        "\n  tray.create: no tray icon (unavailable: tray.create: no session bus (DBUS_SESSION_BUS_ADDRESS is not set)"),
      "\(r.stdout)")
    #expect(
      r.stdout.contains(
        "\n  shortcut.register: no Ctrl+Alt+M (unavailable: shortcut.register: no display (DISPLAY is not set)"),
      "\(r.stdout)")
    let second = try NBridgeTest.command(["run", SampleApp.root + "/www/index.js"], environment: env, timeout: 30)
    #expect(second.stdout.contains("launch #2") && !second.stdout.contains("First launch"))
  }

  /// Xcode's "Simulate Background Fetch" against the running sample app, by its folder: the
  /// app's listener records the refresh in storage and answers `newData`; a run woken by the
  /// scheduler (`run --fetch`) only answers its fetch; the next launch shows the last refresh.
  @Test func simulateFetchWakesTheRunningSampleApp() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-sample-fetch")
    let env = try SampleApp.environment(dir)
    let app = try NBridgeTest.start(["run", SampleApp.root + "/www/index.js", "--", "--watch"], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("`nbridge simulate fetch www` wakes it", timeout: 30), "\(app.stdout)\(app.stderr)")

    let simulated = try NBridgeTest.command(["simulate", "fetch", SampleApp.root + "/www"], environment: env)
    #expect(simulated.status == 0, "\(simulated.stderr)")
    #expect(
      simulated.stdout.range(of: #"^fetch 1: newData in \d+ ms\n$"#, options: .regularExpression) != nil,
      "\(simulated.stdout)")
    let line = app.stdout.split(separator: "\n").first { $0.hasPrefix("  background fetch 1: ") }
    let at = line.flatMap { $0.firstMatch(of: #/at: '([^']+)', reason: 'simulated'/#)?.output.1 }
    #expect(at != nil, "\(app.stdout)")
    app.stop()

    let woken = try NBridgeTest.command(["run", "--fetch", SampleApp.root + "/www/index.js"], environment: env, timeout: 30)
    #expect(woken.status == 0, "\(woken.stderr)")
    let wokenAt = woken.stdout.firstMatch(of: #/^  background fetch 2: \{ at: '([^']+)', reason: 'schedule' \}\n$/#)?
      .output.1
    #expect(wokenAt != nil, "\(woken.stdout)")

    let next = try NBridgeTest.command(["run", SampleApp.root + "/www/index.js"], environment: env, timeout: 30)
    #expect(next.status == 0, "\(next.stderr)")
    #expect(next.stdout.contains("  Last background refresh: \(wokenAt ?? "?") (schedule).\n"), "\(next.stdout)")
    #expect(at.map { "\($0)" < "\(wokenAt ?? "")" } == true, "the refreshes are not in order")
  }

  /// `-- --schedule-fetch` where no systemd user manager answers: the run still ends by itself,
  /// leaving `nbridge daemon` to wake `www/index.js` for its fetch; `-- --no-fetch` removes the
  /// schedule and the daemon leaves. A plain run (`make run`) schedules nothing.
  @Test func scheduleFetchLeavesADaemonThatNoFetchRemoves() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-sample-daemon")
    var env = try SampleApp.environment(dir)
    env["NBRIDGE_SCHEDULER"] = "daemon"
    env["XDG_DATA_HOME"] = dir.file("data-home")
    env["XDG_STATE_HOME"] = dir.file("state-home")
    env["XDG_CONFIG_HOME"] = dir.file("config-home")
    let lock = dir.file("data-home/nbridge/fetch/daemon.lock")
    func daemonPID() -> Int32? {
      (try? String(contentsOfFile: lock, encoding: .utf8)).flatMap {
        Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
    }
    defer { if let pid = daemonPID() { kill(pid, SIGTERM) } }

    let record = dir.file("data-home/nbridge/fetch/dev.nbridge.sample.json")
    let plain = try NBridgeTest.command(["run", SampleApp.root + "/www/index.js"], environment: env, timeout: 30)
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(!FileManager.default.fileExists(atPath: record), "a plain run scheduled a fetch")
    #expect(daemonPID() == nil, "a plain run started the daemon")

    let run = try NBridgeTest.command(
      ["run", SampleApp.root + "/www/index.js", "--", "--schedule-fetch"], environment: env, timeout: 30)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("background.setMinimumFetchInterval: { interval: 600, nextFetchAt: '"), "\(run.stdout)")
    #expect(run.stdout.contains("\nDone. Try: "))
    let schedule =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: record))) as? [String: Any]
    let command = schedule?["command"] as? [String] ?? []
    #expect(Array(command.dropFirst().prefix(2)) == ["run", "--fetch"], "\(command)")
    #expect(command.last == SampleApp.root + "/www/index.js", "\(command)")
    #expect(schedule?["interval"] as? Double == 600)
    var pid: Int32?
    let started = Date().addingTimeInterval(10)
    while pid == nil && Date() < started {
      pid = daemonPID()
      if pid == nil { usleep(50_000) }
    }
    let daemon = try #require(pid, "no nbridge daemon was started")

    let off = try NBridgeTest.command(
      ["run", SampleApp.root + "/www/index.js", "--", "--no-fetch"], environment: env, timeout: 30)
    #expect(
      off.stdout.contains("background.setMinimumFetchInterval: { interval: 'never', nextFetchAt: null }"),
      "\(off.stdout)")
    #expect(!FileManager.default.fileExists(atPath: record))
    let gone = Date().addingTimeInterval(10)
    while kill(daemon, 0) == 0 && !ProcessState.isGone(daemon) && Date() < gone { usleep(50_000) }
    #expect(kill(daemon, 0) != 0 || ProcessState.isGone(daemon), "the daemon stayed with no schedule left")
  }

  @Test func typesDeclareEveryBuiltIn() throws {
    let r = try NBridgeTest.command(["types"])
    #expect(r.status == 0)
    let builtIns = [
      "app", "storage", "preference", "pasteboard", "notification", "background", "location", "autostart", "fs",
      "window", "dialog", "tray", "shortcut", "menu",
    ]
    for service in builtIns {
      #expect(r.stdout.contains("  \(service): NBridge"))
    }
    #expect(
      r.stdout.contains(
        "set(options: { key: string; value: JSONValue; group?: string; secure?: boolean }): Promise<void>;"))
    #expect(r.stdout.contains("addListener(event: 'change', callback: (payload: PasteboardChange) => void)"))
    let json = try NBridgeTest.command(["plugins", "--json"])
    let services = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
    #expect(
      services?.map { $0["service"] as? String } == [
        "app", "storage", "preference", "pasteboard", "notification", "background", "location", "autostart", "fs",
        "window", "dialog", "tray", "shortcut", "menu",
      ])
    #expect(
      r.stdout.contains(
        "current(options?: { timeout?: number; accuracy?: LocationAccuracy }): Promise<LocationPosition>;"))
  }
}
