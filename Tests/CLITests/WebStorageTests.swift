import Foundation
import NBridgeSQLite
import NBridgeTesting
import Testing

/// `localStorage` in the app's data folder across runs, processes and a kill -9; `sessionStorage` for one run.
@Suite(.onTestThreads) struct WebStorageTests {
  let dir: TemporaryDirectory
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-webstorage")
    env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
  }

  func run(_ script: String, name: String = "app.js") throws -> (status: Int32, stdout: String, stderr: String) {
    try NBridgeTest.command(["run", try dir.write(name, script)], environment: env)
  }

  @Test func localStorageSurvivesTheRunAndSessionStorageDoesNot() throws {
    let first = try run(
      """
      localStorage.setItem('greeting', 'hello');
      localStorage.count = 3;
      localStorage['lone \\uD800'] = 'x\\uDFFF';
      localStorage.setItem('gone', 'soon');
      localStorage.removeItem('gone');
      sessionStorage.setItem('session', 'only now');
      console.log(localStorage.length, sessionStorage.getItem('session'));
      """)
    #expect(first.stdout == "3 only now\n", "\(first.stderr)")
    let second = try run(
      """
      console.log(localStorage.length, localStorage.greeting, localStorage.getItem('count'), typeof localStorage.count);
      console.log(localStorage.getItem('lone \\uD800') === 'x\\uDFFF', localStorage.gone, localStorage.key(0));
      console.log(JSON.stringify(Object.keys(localStorage)), sessionStorage.length, sessionStorage.getItem('session'));
      localStorage.clear();
      """)
    #expect(
      second.stdout == """
        3 hello 3 string
        true undefined greeting
        ["greeting","count","lone \\ud800"] 0 null

        """, "\(second.stderr)")
    let third = try run("console.log(localStorage.length)")
    #expect(third.stdout == "0\n")
  }

  /// Two processes starting on a new data folder both switch localStorage's new file to WAL; the one
  /// SQLite answers "database is locked" at once waits for the other instead of failing.
  @Test func localStorageWaitsForAnotherConnectionHoldingItsNewFile() throws {
    try FileManager.default.createDirectory(atPath: dir.file("data"), withIntermediateDirectories: true)
    let other = try SQLiteConnection(path: dir.file("data/localStorage.sqlite"), busyTimeout: 0)
    try other.execute("CREATE TABLE other (x); BEGIN IMMEDIATE; INSERT INTO other VALUES (1)")
    let app = try NBridgeTest.start(
      [
        "run",
        try dir.write(
          "app.js", "console.log('ready'); localStorage.setItem('k', 'v'); console.log('stored ' + localStorage.k);"),
      ], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("ready", timeout: 30))
    // The lock is held for half a second more: long past SQLite's immediate answers.
    Thread.sleep(forTimeInterval: 0.5)
    #expect(!app.stdout.contains("stored"), "stored while another connection held the write lock")
    try other.execute("COMMIT")
    #expect(app.wait(timeout: 30) == 0, "\(app.stderr)")
    #expect(app.stdout == "ready\nstored v\n")
  }

  @Test func aValueWhoseSetItemReturnedSurvivesKill9() throws {
    let writer = try NBridgeTest.start(
      [
        "run",
        try dir.write(
          "writer.js",
          "localStorage.setItem('durable', 'yes ' + 42); console.log('stored'); setInterval(() => {}, 1000);"),
      ], environment: env)
    #expect(writer.waitForOutput("stored", timeout: 30))
    writer.signal(SIGKILL)
    #expect(writer.wait(timeout: 10) == 128 + SIGKILL)
    let reader = try run("console.log(localStorage.getItem('durable'))")
    #expect(reader.stdout == "yes 42\n", "\(reader.stderr)")
  }

  @Test func twoProcessesSeeEachOthersWrites() throws {
    let first = try NBridgeTest.start(
      [
        "run",
        try dir.write(
          "first.js",
          "localStorage.setItem('from', 'first'); console.log('stored'); setInterval(() => {}, 1000);"),
      ], environment: env)
    defer { first.stop() }
    #expect(first.waitForOutput("stored", timeout: 30))
    let second = try run("console.log(localStorage.getItem('from')); localStorage.setItem('reply', 'second');")
    #expect(second.stdout == "first\n", "\(second.stderr)")
    first.stop()
    let third = try run("console.log(localStorage.getItem('from'), localStorage.getItem('reply'))")
    #expect(third.stdout == "first second\n", "\(third.stderr)")
  }

  @Test func theQuotaIsFiveMiBAndAFullStorageThrowsQuotaExceededError() throws {
    let r = try run(
      """
      const mib = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < 4; i++) localStorage.setItem('k' + i, mib);
      try { localStorage.setItem('k4', mib); console.log('stored a fifth MiB?'); } catch (e) {
        console.log(e instanceof DOMException, e.name, localStorage.length);
      }
      localStorage.setItem('k4', mib.slice(0, 1024 * 1024 - 16));
      console.log(localStorage.length);
      """)
    #expect(r.stdout == "true QuotaExceededError 4\n5\n", "\(r.stderr)")
    let again = try run("console.log(localStorage.length, localStorage.getItem('k4').length)")
    #expect(again.stdout == "5 \(1024 * 1024 - 16)\n")
  }

  @Test func aPlainScriptTouchesNoStorageFile() throws {
    let r = try run("console.log('plain')")
    #expect(r.stdout == "plain\n")
    #expect(!FileManager.default.fileExists(atPath: dir.file("data/localStorage.sqlite")))
  }
}
