import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

/// Single instance: a launch of an app that is running already hands its arguments to the running
/// one (`appLaunch`) over the control socket and exits 0; `--new-instance` opts out.
@Suite(.onTestThreads) struct SingleInstanceTests {
  let dir: TemporaryDirectory
  /// A short folder for XDG_RUNTIME_DIR: a socket path must fit in 107 bytes.
  let runtimeDir: TemporaryDirectory
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-single")
    runtimeDir = try TemporaryDirectory(prefix: "r")
    env = NBridgeTest.headless
    env["XDG_RUNTIME_DIR"] = runtimeDir.path
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env.updateValue(nil, forKey: "NBRIDGE_NEW_INSTANCE")  // the test helper's default is a new instance each
    try dir.write("app/nbridge.json", #"{"id": "dev.nbridge.single-test", "name": "Single"}"#)
    // Prints its own arguments, then each launch handed to it; a launch with `quit` ends it.
    try dir.write(
      "app/index.js",
      """
      console.log('args ' + JSON.stringify(nbridge.args));
      await new Promise((resolve) => setTimeout(resolve, 100)); // the listener comes after an await
      nbridge.app.addListener('appLaunch', ({ args, cwd }) => {
        console.log('launch ' + JSON.stringify(args) + ' from ' + cwd);
        if (args[0] === 'quit') nbridge.app.exit();
      });
      """)
    try FileManager.default.createDirectory(atPath: dir.file("elsewhere"), withIntermediateDirectories: true)
  }

  func start(_ arguments: [String]) throws -> ChildProcess {
    let app = try NBridgeTest.start(["run", dir.file("app/index.js"), "--"] + arguments, environment: env)
    #expect(app.waitForOutput("args \(JSONValue.array(arguments.map(JSONValue.string)).jsonText)\n"), "\(app.stderr)")
    return app
  }

  /// `nbridge run` of the app from `elsewhere`, bounded: a hand-off that hangs fails the test.
  func launch(_ options: [String], _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try ChildProcess.run(
      NBridgeTest.executable, ["run"] + options + [dir.file("app/index.js"), "--"] + arguments, environment: env,
      directory: dir.file("elsewhere"), timeout: 10)
  }

  @Test func aSecondLaunchHandsItsArgumentsToTheRunningAppAndExitsZero() throws {
    let first = try start(["first"])
    defer { first.stop() }
    let second = try launch([], ["second", "two words", "--flag"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout == "", "the second launch ran nothing itself")
    #expect(second.stderr == "nbridge: dev.nbridge.single-test is running: this launch went to it (--new-instance starts another)\n")
    #expect(first.waitForOutput(#"launch ["second","two words","--flag"] from \#(dir.file("elsewhere"))"#), "\(first.stdout)")

    let third = try launch([], ["quit"])
    #expect(third.status == 0, "\(third.stderr)")
    #expect(first.wait(timeout: 20) == 0, "\(first.stderr)")
    #expect(first.stdout.split(separator: "\n").filter { $0.hasPrefix("launch") }.count == 2, "each launch once")
  }

  @Test func newInstanceStartsASecondOne() throws {
    let first = try start(["first"])
    defer { first.stop() }
    let second = try NBridgeTest.start(
      ["run", "--new-instance", dir.file("app/index.js"), "--", "second"], environment: env)
    defer { second.stop() }
    #expect(second.waitForOutput("args [\"second\"]\n"), "\(second.stderr)")
    #expect(second.isRunning && first.isRunning)
    #expect(second.stderr == "")
    // The first still owns the socket: a plain launch reaches it, not the second.
    #expect(try launch([], ["third"]).status == 0)
    #expect(first.waitForOutput("launch [\"third\"]"), "\(first.stdout)")
    #expect(!second.stdout.contains("launch"), "\(second.stdout)")
  }

  @Test func aScriptWithoutAManifestRunsAsOftenAsItIsStarted() throws {
    let script = try dir.write("tool/count.js", "console.log('ran ' + nbridge.args[0]); setTimeout(() => {}, 3000);")
    let first = try NBridgeTest.start(["run", script, "--", "1"], environment: env)
    defer { first.stop() }
    #expect(first.waitForOutput("ran 1\n"))
    let second = try ChildProcess.run(NBridgeTest.executable, ["run", script, "--", "2"], environment: env, timeout: 20)
    #expect(second.status == 0 && second.stdout == "ran 2\n", "\(second.stderr)")
  }

  @Test func aLaunchInBackgroundLeavesTheAppsStateAlone() throws {
    try dir.write(
      "app/index.js",
      """
      console.log('args ' + JSON.stringify(nbridge.args));
      nbridge.app.addListener('stateChange', ({ state }) => console.log('state ' + state));
      nbridge.app.addListener('appLaunch', ({ args }) => console.log('launch ' + args.join(' ')));
      """)
    let first = try NBridgeTest.start(
      ["run", "--background", dir.file("app/index.js"), "--", "first"], environment: env)
    defer { first.stop() }
    #expect(first.waitForOutput("args [\"first\"]\n"), "\(first.stderr)")
    #expect(try launch(["--background"], ["quiet"]).status == 0)
    #expect(first.waitForOutput("launch quiet\n"), "\(first.stdout)")
    #expect(try launch([], ["loud"]).status == 0)
    #expect(first.waitForOutput("launch loud\n"), "\(first.stdout)")
    let lines = first.stdout.split(separator: "\n").map(String.init)
    #expect(lines == ["args [\"first\"]", "launch quiet", "state active", "launch loud"], "a plain launch brings the app to the front before its event")
  }
}
