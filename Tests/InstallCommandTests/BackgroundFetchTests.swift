import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

/// Background fetch through the real binary: `run --fetch`, `simulate fetch --launch`, the
/// answers, the backoff, `background.json`, and the wake-ups (`nbridge daemon`, systemd units).
@Suite(.onTestThreads) struct BackgroundFetchTests {
  let dir: TemporaryDirectory
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-fetch")
    env = NBridgeTest.headless
    for name in ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"] {
      env[name] = dir.file(name.lowercased())
    }
    try FileManager.default.createDirectory(
      atPath: dir.file("xdg_runtime_dir"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    env["NBRIDGE_DATA_DIR"] = nil
    env["NBRIDGE_SHARED_DIR"] = nil
    env["NBRIDGE_FETCH_MINIMUM"] = nil
    env["NBRIDGE_SCHEDULER"] = "off"
  }

  /// An app `dev.nbridge.fetchtest` in `app/` with `index.js` and a fetch time limit of `timeLimit` seconds.
  /// A fetch's time runs from the launch, so a test whose listener answers keeps 30 s: on a loaded machine a
  /// debug build can take more than a second to reach `addListener`, and its answer would come late.
  /// The tests of a late fetch pass 1 s.
  @discardableResult
  func app(_ script: String, timeLimit: Double = 30) throws -> String {
    try dir.write(
      "app/nbridge.json", #"{"id": "dev.nbridge.fetchtest", "background": {"fetchTimeLimit": \#(timeLimit)}}"#)
    return try dir.write("app/index.js", script)
  }

  /// `getFetchStatus()` of the app, read by another script of the same app.
  func status() throws -> [String: Any] {
    let path = try dir.write("app/status.js", "console.log(JSON.stringify(await nbridge.background.getFetchStatus()))")
    let r = try NBridgeTest.command(["run", path], environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
  }

  func history() throws -> [[String: Any]] { try status()["history"] as? [[String: Any]] ?? [] }

  /// Seconds from the newest fetch's start to the next due time.
  func secondsToNextFetch() throws -> Double {
    let status = try status()
    let newest = try #require((status["history"] as? [[String: Any]])?.first)
    let nextText = try #require(status["nextFetchAt"] as? String)
    let startedText = try #require(newest["startedAt"] as? String)
    let next = try #require(ISO8601.parse(nextText))
    let started = try #require(ISO8601.parse(startedText))
    return Double(next - started) / 1000
  }

  @Test func theListenersPromiseAnswersNewData() throws {
    let entry = try app(
      """
      nbridge.background.addListener('fetch', async ({ id, reason }) => {
        await nbridge.storage.set({ key: 'reason', value: reason });
        return 'newData';
      });
      """)
    let simulated = try NBridgeTest.command(["simulate", "fetch", "--launch", dir.file("app")], environment: env)
    #expect(simulated.status == 0, "\(simulated.stderr)")
    #expect(simulated.stdout.range(of: #"^fetch 1: newData in \d+ ms\n$"#, options: .regularExpression) != nil)
    let scheduled = try NBridgeTest.command(["run", "--fetch", entry], environment: env)
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    let history = try history()
    #expect(history.map { $0["id"] as? Int } == [2, 1])
    #expect(history.map { $0["reason"] as? String } == ["schedule", "simulated"])
    #expect(history.map { $0["result"] as? String } == ["newData", "newData"])
    #expect(history.map { $0["late"] as? Bool } == [false, false])
  }

  @Test func aFetchNobodyAnswersIsLateAndPushesTheNextFourIntervalsBack() throws {
    let entry = try app(
      """
      await nbridge.background.setMinimumFetchInterval({ interval: 'minimum' });
      nbridge.background.addListener('fetch', () => new Promise(() => {}));
      """, timeLimit: 1)
    let r = try NBridgeTest.command(["run", "--fetch", entry], environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    let newest = try #require(try history().first)
    #expect(newest["result"] as? String == "failed")
    #expect(newest["late"] as? Bool == true)
    #expect((newest["duration"] as? Int ?? 0) >= 1000)
    #expect(try secondsToNextFetch() == 4 * 600)
  }

  @Test func aFetchWithoutAListenerFails() throws {
    let entry = try app("await nbridge.storage.set({ key: 'ran', value: true });", timeLimit: 1)
    let r = try NBridgeTest.command(["run", "--fetch", entry], environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    let newest = try #require(try history().first)
    #expect(newest["result"] as? String == "failed")
    #expect(newest["late"] as? Bool == true)
  }

  @Test func resultsWithoutNewDataDoubleTheDelayAndNewDataResetsIt() throws {
    let entry = try app(
      """
      await nbridge.background.setMinimumFetchInterval({ interval: 'minimum' });
      nbridge.background.addListener('fetch', ({ id }) => ['noData', 'failed', 'noData', 'noData', 'newData'][id - 1]);
      """)
    var delays: [Double] = []
    for _ in 0..<5 {
      let r = try NBridgeTest.command(["run", "--fetch", entry], environment: env)
      #expect(r.status == 0, "\(r.stderr)")
      delays.append(try secondsToNextFetch())
    }
    #expect(delays == [1200, 2400, 4800, 4800, 600])
    #expect(try history().map { $0["result"] as? String } == ["newData", "noData", "noData", "failed", "noData"])
  }

  @Test func theFirstAnswerWins() throws {
    let entry = try app(
      """
      nbridge.background.addListener('fetch', async ({ id }) => {
        const first = await nbridge.background.completeFetch({ id, result: 'noData' });
        const second = await nbridge.background.completeFetch({ id, result: 'newData' });
        const unknown = await nbridge.background.completeFetch({ id: 99, result: 'newData' }).catch((e) => e.code);
        const bad = await nbridge.background.completeFetch({ id, result: 'maybe' }).catch((e) => e.message);
        console.log(first, second, unknown, bad);
        return 'failed';
      });
      """)
    let r = try NBridgeTest.command(["run", "--fetch", entry], environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout
        == "true false not_found background.completeFetch: \"result\" must be 'newData', 'noData' or 'failed' (got \"maybe\")\n"
    )
    #expect(try history().map { $0["result"] as? String } == ["noData"])
  }

  @Test func aFetchLaunchEndsOnlyOnceNoTaskIsOpen() throws {
    let entry = try app(
      """
      nbridge.background.addListener('fetch', async () => {
        const { id } = await nbridge.background.beginTask({ name: 'save' });
        setTimeout(async () => {
          await nbridge.storage.set({ key: 'saved', value: true });
          console.log('task ended');
          await nbridge.background.endTask({ id });
        }, 500);
        return 'newData';
      });
      setInterval(() => {}, 1000);
      """)
    let r = try NBridgeTest.command(["run", "--fetch", entry], environment: env, timeout: 30)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "task ended\n")
    #expect(try history().first?["result"] as? String == "newData")
  }

  @Test func aThrowingListenerAnswersFailed() throws {
    let entry = try app("nbridge.background.addListener('fetch', () => { throw new Error('offline'); });")
    let r = try NBridgeTest.command(["run", "--fetch", entry], environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    let newest = try #require(try history().first)
    #expect(newest["result"] as? String == "failed")
    #expect(newest["late"] as? Bool == false)
  }

  @Test func theIntervalIsKeptAcrossRunsAndRaisedToTheFloor() throws {
    try app("")
    func set(_ interval: String, _ extra: [String: String?] = [:]) throws -> String {
      let path = try dir.write(
        "app/set.js",
        """
        const r = await nbridge.background.setMinimumFetchInterval({ interval: \(interval) })
          .then((s) => s.interval, (e) => e.code + ': ' + e.message);
        console.log(r);
        """)
      var environment = env
      for (k, v) in extra { environment[k] = v }
      let r = try NBridgeTest.command(["run", path], environment: environment)
      #expect(r.status == 0, "\(r.stderr)")
      return r.stdout
    }
    #expect(try status()["interval"] as? String == "never")
    #expect(try status()["nextFetchAt"] is NSNull)
    #expect(try set("900") == "900\n")
    let kept = try status()
    #expect(kept["interval"] as? Int == 900)
    let nextText = try #require(kept["nextFetchAt"] as? String)
    let next = try #require(ISO8601.parse(nextText))
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    #expect(next > now + 800_000 && next <= now + 900_000)
    #expect(try set("'minimum'") == "600\n")
    #expect(try set("100") == "600\n")
    #expect(try set("100", ["NBRIDGE_FETCH_MINIMUM": "1"]) == "100\n")
    #expect(try set("'never'") == "never\n")
    #expect(try status()["nextFetchAt"] is NSNull)
    #expect(
      try set("'sometimes'")
        == "invalid_parameter: background.setMinimumFetchInterval: \"interval\" must be 'never', 'minimum' or a positive number of seconds (got \"sometimes\")\n"
    )
    #expect(FileManager.default.fileExists(atPath: dir.file("xdg_data_home/nbridge/apps/dev.nbridge.fetchtest/background.json")))
  }

  @Test func anIntervalPastTheMaximumIsRefusedAndASavedOneIsBroughtWithinIt() throws {
    let entry = try app("nbridge.background.addListener('fetch', () => 'noData');")
    let set = try dir.write(
      "app/set.js",
      """
      for (const interval of [1e16, 9.2e15, 31536001, 31536000]) {
        console.log(await nbridge.background.setMinimumFetchInterval({ interval })
          .then((s) => s.interval, (e) => e.code + ': ' + e.message));
      }
      """)
    let r = try NBridgeTest.command(["run", set], environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    let refusal = "invalid_parameter: background.setMinimumFetchInterval: \"interval\" must be at most 31536000 seconds (365 days)"
    #expect(
      r.stdout.split(separator: "\n") == [
        "\(refusal) (got 10000000000000000)", "\(refusal) (got 9200000000000000)", "\(refusal) (got 31536001)", "31536000",
      ])
    // A background.json written by hand (or by an nbridge without the limit): its interval is
    // brought within the limit, and a fetch's backoff arithmetic on it does not overflow.
    let saved = dir.file("xdg_data_home/nbridge/apps/dev.nbridge.fetchtest/background.json")
    try #"{"interval": 9.2e15, "backoff": {"level": 0}, "nextID": 1, "history": []}"#.write(toFile: saved, atomically: true, encoding: .utf8)
    let fetched = try NBridgeTest.command(["run", "--fetch", entry], environment: env)
    #expect(fetched.status == 0, "\(fetched.stderr)")
    #expect(try status()["interval"] as? Int == 31_536_000)
    #expect(try secondsToNextFetch() == 2 * 31_536_000)
  }

  @Test func simulateFetchOfAnAppThatIsNotRunningExitsOne() throws {
    try app("")
    let r = try NBridgeTest.command(["simulate", "fetch", dir.file("app")], environment: env)
    #expect(r.status == 1)
    #expect(r.stderr.contains("is not running"))
  }

  /// A running app with a fetch listener that prints what it got; `ready` once listening.
  func startRunningApp() throws -> ChildProcess {
    let entry = try app(
      """
      nbridge.background.addListener('fetch', async ({ id, reason }) => {
        const { state } = await nbridge.app.getState();
        console.log('fetch', id, reason, state);
        return 'noData';
      });
      nbridge.app.addListener('pause', () => console.log('paused'));
      await nbridge.background.beginTask({ name: 'stay' });
      console.log('ready');
      """)
    let child = try NBridgeTest.start(["run", entry], environment: env)
    #expect(child.waitForOutput("ready"))
    return child
  }

  @Test func simulateFetchReachesARunningAppAndLeavesItsState() throws {
    let child = try startRunningApp()
    defer { child.stop() }
    for name in ["dev.nbridge.fetchtest", dir.file("app"), dir.file("app/index.js")] {
      let r = try NBridgeTest.command(["simulate", "fetch", name], environment: env)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.range(of: #"^fetch \d: noData in \d+ ms\n$"#, options: .regularExpression) != nil, "\(r.stdout)")
    }
    #expect(child.waitForOutput("fetch 3 simulated active"))
    #expect(child.stdout.contains("fetch 1 simulated active\nfetch 2 simulated active\n"))
    #expect(try history().map { $0["reason"] as? String } == ["simulated", "simulated", "simulated"])
  }

  @Test func runFetchHandsTheFetchToARunningAppInBackgroundAndSkipsItWhileActive() throws {
    let child = try startRunningApp()
    defer { child.stop() }
    let entry = dir.file("app/index.js")
    let active = try NBridgeTest.command(["run", "--fetch", entry], environment: env)
    #expect(active.status == 0, "\(active.stderr)")
    #expect(active.stdout == "dev.nbridge.fetchtest is running: fetch skipped (the app is active, or a fetch is pending)\n")
    // Ctrl-Z moves it to background; the open task keeps the process running.
    child.signal(SIGTSTP)
    #expect(child.waitForOutput("paused"))
    let background = try NBridgeTest.command(["run", "--fetch", entry], environment: env)
    #expect(background.status == 0, "\(background.stderr)")
    #expect(background.stdout == "dev.nbridge.fetchtest is running: fetch handed over\n")
    #expect(child.waitForOutput("fetch 1 schedule background"))
    #expect(child.isRunning)
  }

  @Test func aSuspendedAppRunsForASimulatedFetchThenSuspendsAgain() throws {
    let entry = try app(
      """
      nbridge.background.addListener('fetch', async ({ id }) => {
        console.log('fetch', id, (await nbridge.app.getState()).state);
        return 'newData';
      });
      setInterval(() => {}, 1000);
      console.log('ready');
      """)
    let child = try NBridgeTest.start(["run", entry], environment: env)
    defer { child.stop() }
    #expect(child.waitForOutput("ready"))
    let moved = try NBridgeTest.command(["simulate", "background", "dev.nbridge.fetchtest"], environment: env)
    #expect(moved.stdout == "background (suspended)\n", "\(moved.stderr)")
    let r = try NBridgeTest.command(["simulate", "fetch", "dev.nbridge.fetchtest"], environment: env)
    #expect(r.stdout.range(of: #"^fetch 1: newData in \d+ ms\n$"#, options: .regularExpression) != nil, "\(r.stdout)\(r.stderr)")
    #expect(child.waitForOutput("fetch 1 background"))
    // Left as it was: in background, and suspended again once the fetch let go of it (asking for
    // the state it is in moves nothing and answers it).
    var state = ""
    let end = Date().addingTimeInterval(10)
    while Date() < end {
      state = try NBridgeTest.command(["simulate", "background", "dev.nbridge.fetchtest"], environment: env).stdout
      if state == "background (suspended)\n" { break }
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(state == "background (suspended)\n")
  }
}
