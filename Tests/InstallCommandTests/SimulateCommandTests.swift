import Foundation
import NBridgeTesting
import Testing

/// `nbridge simulate background|foreground APP` against a real `nbridge run`, through its
/// control socket in a private runtime folder.
@Suite(.serialized, .onTestThreads) struct SimulateCommandTests {
  static let script = """
    nbridge.app.addListener('stateChange', (s) => console.log('state ' + s.state));
    nbridge.app.addListener('pause', () => console.log('pause'));
    nbridge.app.addListener('resume', () => console.log('resume'));
    let n = 0;
    setInterval(() => console.log('tick ' + ++n), 50);
    """

  static func ticks(_ text: String) -> Int { text.split(separator: "\n").filter { $0.hasPrefix("tick") }.count }

  @Test func backgroundSuspendsAndForegroundResumesARunningApp() throws {
    let dir = try TemporaryDirectory()
    try dir.write("app/nbridge.json", #"{"id": "com.example.simulated"}"#)
    let script = try dir.write("app/index.js", Self.script)
    let runtimeDir = dir.file("xdg")
    try FileManager.default.createDirectory(atPath: runtimeDir, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtimeDir)
    let env: [String: String?] = ["NBRIDGE_DATA_DIR": dir.file("data"), "XDG_RUNTIME_DIR": runtimeDir]
    let app = try NBridgeTest.start(["run", script], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("tick 2"))

    // By entry script.
    let background = try NBridgeTest.command(["simulate", "background", script], environment: env)
    #expect(background.status == 0, "\(background.stderr)")
    #expect(background.stdout == "background (suspended)\n")
    #expect(app.waitForOutput("state background\npause\n"))
    let frozen = Self.ticks(app.stdout)
    // Round trips through the app's loop (ps) until the interval's period has passed eight
    // times: a tick that came due meanwhile would have been printed before the last answer.
    let frozenAt = Date()
    var listed = try NBridgeTest.command(["ps"], environment: env)
    while Date().timeIntervalSince(frozenAt) < 0.4 { listed = try NBridgeTest.command(["ps"], environment: env) }
    #expect(Self.ticks(app.stdout) == frozen, "the interval ran while suspended")
    #expect(listed.stdout.contains("com.example.simulated") && listed.stdout.contains("background"), "\(listed.stdout)")

    // By folder, then by id.
    let foreground = try NBridgeTest.command(["simulate", "foreground", dir.file("app")], environment: env)
    #expect(foreground.status == 0, "\(foreground.stderr)")
    #expect(foreground.stdout == "active\n")
    #expect(app.waitForOutput("pause\nresume\nstate active\n"))
    #expect(Self.waitFor { Self.ticks(app.stdout) > frozen })
    let again = try NBridgeTest.command(["simulate", "foreground", "com.example.simulated"], environment: env)
    #expect(again.stdout == "active\n")
  }

  @Test func anAppThatIsNotRunningIsExitOne() throws {
    let dir = try TemporaryDirectory()
    let runtimeDir = dir.file("xdg")
    try FileManager.default.createDirectory(atPath: runtimeDir, withIntermediateDirectories: true)
    let result = try NBridgeTest.command(
      ["simulate", "background", "com.example.absent"], environment: ["XDG_RUNTIME_DIR": runtimeDir])
    #expect(result.status == 1)
    #expect(result.stderr == "nbridge simulate: com.example.absent is not running\n")
    let wrong = try NBridgeTest.command(["simulate", "sideways", "com.example.absent"])
    #expect(wrong.status == 2 && wrong.stderr.contains("'sideways'"))
  }

  @Test func theManifestRejectsUnknownLifecycleAndBackgroundFields() throws {
    let dir = try TemporaryDirectory()
    let script = try dir.write("app/index.js", "console.log('ran');")
    try dir.write("app/nbridge.json", #"{"id": "com.example.m", "lifecycle": {"followSessions": false}}"#)
    let lifecycle = try NBridgeTest.command(["run", script], environment: ["NBRIDGE_DATA_DIR": dir.file("data")])
    #expect(lifecycle.status == 2)
    #expect(lifecycle.stderr.contains("unknown field \"lifecycle.followSessions\""), "\(lifecycle.stderr)")
    try dir.write("app/nbridge.json", #"{"id": "com.example.m", "background": {"taskBudget": -1}}"#)
    let budget = try NBridgeTest.command(["run", script], environment: ["NBRIDGE_DATA_DIR": dir.file("data")])
    #expect(budget.status == 2)
    #expect(budget.stderr.contains("\"background.taskBudget\""), "\(budget.stderr)")
    try dir.write(
      "app/nbridge.json",
      #"{"id": "com.example.m", "lifecycle": {"followSession": false}, "background": {"taskBudget": 30}}"#)
    let fine = try NBridgeTest.command(["run", script], environment: ["NBRIDGE_DATA_DIR": dir.file("data")])
    #expect(fine.status == 0 && fine.stdout == "ran\n", "\(fine.stderr)")
  }

  static func waitFor(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if condition() { return true }
      usleep(10_000)
    }
    return condition()
  }
}

/// `nbridge test` with a test that leaves the app suspended: its time limit still ends it.
@Suite(.onTestThreads) struct SuspendedTestTimeLimitTests {
  @Test func aTestLeftSuspendedFailsAtItsTimeLimit() throws {
    let dir = try TemporaryDirectory()
    let file = try dir.write(
      "stuck.test.js",
      """
      test('stuck in background', async () => {
        await simulate('background');
        await new Promise(() => {});
      });
      test('the next test runs in the foreground', async () => {
        assert.equal((await nbridge.app.getState()).state, 'active');
      });
      """)
    let result = try NBridgeTest.command(["test", "--test-timeout", "500", file], timeout: 30)
    #expect(result.status == 1)
    #expect(
      result.stdout.contains("not ok 1 - stuck in background\n  # Error: the test did not settle within 500 ms"),
      "\(result.stdout)")
    #expect(result.stdout.contains("ok 2 - the next test runs in the foreground\n"), "\(result.stdout)")
    #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"))
  }
}
