import Foundation
import NBridgeTesting
import Testing

/// The real `nbridge` binary, its output and exit codes.
@Suite(.onTestThreads) struct RunCommandTests {
  let dir: TemporaryDirectory
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-cli")
    env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
  }

  func run(_ script: String, _ extra: [String] = [], name: String = "app.js") throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let path = try dir.write(name, script)
    return try NBridgeTest.command(["run", path] + extra, environment: env)
  }

  @Test func helloWorldExitsZero() throws {
    let r = try run("console.log('hello', 42, { a: [1, 'x'], b: null }, '%s=%d', 'n', 7)")
    #expect(r.status == 0)
    #expect(r.stdout == "hello 42 { a: [ 1, 'x' ], b: null } %s=%d n 7\n")
  }

  @Test func primitivesPrintAsInspectPrintsThemAloneAndBesideAnObject() throws {
    // Strings, numbers, booleans and undefined alone take a shorter path than a line with an
    // object or a placeholder; both must print them alike (negative zero included).
    let r = try run(
      "console.log(42, -0, 0, 1.5, NaN, -Infinity, true, undefined, 'x');\n"
        + "console.log(42, -0, 0, 1.5, NaN, -Infinity, true, undefined, 'x', {});\nconsole.log(-0);\n")
    #expect(r.stdout == "42 -0 0 1.5 NaN -Infinity true undefined x\n42 -0 0 1.5 NaN -Infinity true undefined x {}\n-0\n")
  }

  @Test func formatsPlaceholdersAndSendsWarnToStderr() throws {
    let r = try run("console.log('%s is %d years', 'Ann', 42); console.warn('careful'); console.error(new Error('bad'))")
    #expect(r.stdout == "Ann is 42 years\n")
    #expect(r.stderr.hasPrefix("careful\nError: bad\n    at "))
  }

  @Test func seldomUsedConsoleMethodsPrintFromTheirFirstCall() throws {
    // trace, assert, count, time, dir, table, ... are loaded on the first call of one: that call
    // prints as every later one, and each method has its name and length before and after.
    let script = """
      const shape = () => ['trace', 'assert', 'count', 'countReset', 'time', 'timeLog', 'timeEnd', 'dir', 'dirxml', 'table']
        .map((k) => k + '/' + console[k].name + '/' + console[k].length + '/' + ('prototype' in console[k])).join(' ');
      const before = shape();
      function f() { console.trace('here', 1); }
      f();
      console.assert(1 === 2, 'nope', { a: 1 });
      console.assert(true, 'not printed');
      console.count(); console.count('a'); console.count(); console.countReset(); console.count();
      console.time('t'); console.timeLog('never started');
      console.dir({ a: [1, 2] }); console.dirxml('a', 2); console.table([1, 2]);
      console.log(Object.keys(console).join(','));
      console.log(shape() === before ? before : 'changed: ' + shape());
      """
    let r = try run(script)
    #expect(r.status == 0)
    #expect(
      r.stdout == """
        default: 1
        a: 1
        default: 2
        default: 1
        { a: [ 1, 2 ] }
        a 2
        [ 1, 2 ]
        log,info,debug,warn,error,trace,assert,count,countReset,time,timeLog,timeEnd,dir,dirxml,table
        trace/trace/0/false assert/assert/1/false count/count/0/false countReset/countReset/0/false \
        time/time/0/false timeLog/timeLog/0/false timeEnd/timeEnd/0/false dir/dir/1/false dirxml/dirxml/0/false \
        table/table/1/false

        """)
    // The trace's first frame is the method the script called, then the script's own frames.
    let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 6)
    #expect(lines.first == "Trace: here 1")
    #expect(lines.dropFirst().first?.hasPrefix("    at trace (nbridge:") == true)
    #expect(Array(lines.dropFirst(2)) == [
      "    at f (\(dir.file("app.js")):4:29)", "    at global code (\(dir.file("app.js")):5:2)",
      "Assertion failed: nope { a: 1 }", "",
    ])
  }

  @Test func uncaughtExceptionExitsOneWithLocation() throws {
    let r = try run("function boom() {\n  throw new TypeError('no');\n}\nboom();\n")
    #expect(r.status == 1)
    #expect(r.stderr.contains("Uncaught TypeError: no\n    at boom (\(dir.file("app.js")):2:"))
  }

  @Test func topLevelAwaitKeepsLinesAndColumns() throws {
    let r = try run("await 0; null.x;\n")
    #expect(r.status == 1)
    // The same column as without the await: the '.' of `null.x` is column 14 of line 1.
    #expect(r.stderr.contains("\(dir.file("app.js")):1:14\n"))
  }

  @Test func syntaxErrorNamesFileAndLine() throws {
    let r = try run("let ok = 1;\nlet broken = {;\n")
    #expect(r.status == 1)
    #expect(r.stderr.contains("SyntaxError"))
    #expect(r.stderr.contains("\(dir.file("app.js")):2"))
    #expect(r.stderr.contains("let broken = {;"))
  }

  @Test func unhandledRejectionExitsOne() throws {
    let r = try run("Promise.reject(new Error('nobody caught me'))")
    #expect(r.status == 1)
    #expect(r.stderr.contains("Uncaught (in promise) Error: nobody caught me"))
  }

  @Test func appExitSetsTheCode() throws {
    let r = try run("setTimeout(() => console.log('late'), 1000); nbridge.app.exit({ code: 7 });")
    #expect(r.status == 7)
    #expect(!r.stdout.contains("late"))
  }

  @Test func usageErrorsExitTwoWithOneLine() throws {
    let missing = try NBridgeTest.command(["run", dir.file("missing.js")], environment: env)
    #expect(missing.status == 2)
    #expect(missing.stderr.split(separator: "\n").count == 1)
    let flag = try NBridgeTest.command(["run", "--bogus", dir.file("missing.js")], environment: env)
    #expect(flag.status == 2)
  }

  @Test func badManifestExitsTwoNamingTheField() throws {
    try dir.write("bad/nbridge.json", #"{"id": "com.example.bad", "colour": "red"}"#)
    let path = try dir.write("bad/index.js", "console.log('never')")
    let r = try NBridgeTest.command(["run", path], environment: env)
    #expect(r.status == 2)
    #expect(r.stderr.contains("unknown field \"colour\""))
    #expect(r.stdout.isEmpty)
  }

  @Test func manifestPermissionsAndFlagsDecide() throws {
    try dir.write("perm/nbridge.json", #"{"id": "com.example.perm", "permissions": ["app"]}"#)
    let path = try dir.write(
      "perm/index.js",
      """
      nbridge.storage.get({ key: 'k' }).then(() => console.log('storage ok'), (e) => console.log(e.code));
      nbridge.app.appInfo().then((i) => console.log('app', i.id), (e) => console.log('app', e.code));
      """)
    let plain = try NBridgeTest.command(["run", path], environment: env)
    #expect(plain.stdout.contains("permission_denied") && plain.stdout.contains("app com.example.perm"))
    let allowed = try NBridgeTest.command(["run", "--allow", "storage", "--deny", "app", path], environment: env)
    #expect(allowed.stdout.contains("storage ok") && allowed.stdout.contains("app permission_denied"))
  }

  @Test func scriptArgumentsAreNbridgeArgs() throws {
    let path = try dir.write("args.js", "console.log(JSON.stringify(nbridge.args))")
    let r = try NBridgeTest.command(["run", path, "--", "a b", "--watch"], environment: env)
    #expect(r.stdout == "[\"a b\",\"--watch\"]\n")
  }

  @Test func timeoutStopsAnEndlessLoop() throws {
    let r = try run("let i = 0; while (true) { i++; }", ["--timeout", "1"])
    #expect(r.status == 124)
    #expect(r.stderr == "nbridge: stopped after --timeout 1s\n")
  }

  @Test func timeoutStopsAnEndlessLoopInATimer() throws {
    let r = try run("setTimeout(() => { while (true) {} }, 10); console.log('set')", ["--timeout", "0.5"])
    #expect(r.status == 124)
    #expect(r.stderr == "nbridge: stopped after --timeout 0.5s\n")
    #expect(r.stdout == "set\n")
  }

  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func signalStopsCleanly(signal: Int32, status: Int32) throws {
    let path = try dir.write("wait.js", "console.log('ready'); setInterval(() => {}, 1000);")
    let child = try NBridgeTest.start(["run", path], environment: env)
    #expect(child.waitForOutput("ready"))
    child.signal(signal)
    #expect(child.wait(timeout: 10) == status)
  }

  @Test func secondSignalEndsAStuckScript() throws {
    let path = try dir.write("stuck.js", "console.log('ready'); while (true) {}")
    let child = try NBridgeTest.start(["run", path], environment: env)
    #expect(child.waitForOutput("ready"))
    child.signal(SIGINT)
    #expect(child.waitUntilDelivered(SIGINT))
    child.signal(SIGINT)
    #expect(child.wait(timeout: 10) == 130)
  }

  @Test func versionAndHelp() throws {
    let version = try NBridgeTest.command(["--version"], environment: env)
    #expect(version.status == 0 && !version.stdout.isEmpty)
    let help = try NBridgeTest.command(["run", "--help"], environment: env)
    #expect(help.status == 0 && help.stdout.contains("--timeout"))
  }
}
