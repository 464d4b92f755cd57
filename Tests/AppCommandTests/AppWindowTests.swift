import CLITestSupport
import Foundation
import NBridgeTesting
import Testing

/// `nbridge app`: a real WebKitGTK window under Xvfb, driven with `--script` and `--screenshot`.
@Suite(.serialized, .onTestThreads) struct AppWindowTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/page").path

  /// A display, a data dir and a shared dir for one test; no session bus.
  struct Desktop {
    let xvfb: XvfbServer
    let dir: TemporaryDirectory
    var env: [String: String?]

    init() throws {
      xvfb = try XvfbServer()
      dir = try TemporaryDirectory(prefix: "nbridge-app")
      env = NBridgeTest.headless
      env["DISPLAY"] = xvfb.display
      env["NBRIDGE_DATA_DIR"] = dir.file("data")
      env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    }

    func app(_ arguments: [String], timeout: Double = 60) throws -> (status: Int32, stdout: String, stderr: String) {
      try NBridgeTest.command(["app", AppWindowTests.fixtures] + arguments, environment: env, timeout: timeout)
    }

    func script(_ name: String) -> String { AppWindowTests.fixtures + "/" + name }

    /// The stored value of `key`, read by a headless run on the same data dir.
    func stored(_ key: String) throws -> String {
      let file = dir.file("read.js")
      try "nbridge.storage.get({ key: '\(key)' }).then((v) => console.log(JSON.stringify(v)));"
        .write(toFile: file, atomically: true, encoding: .utf8)
      try FileManager.default.copyItem(
        atPath: AppWindowTests.fixtures + "/nbridge.json", toPath: dir.file("nbridge.json"))
      defer { try? FileManager.default.removeItem(atPath: dir.file("nbridge.json")) }
      let r = try NBridgeTest.command(["run", file], environment: env, timeout: 30)
      #expect(r.status == 0, "\(r.stderr)")
      return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  @Test func aPageCallsEveryBuiltInService() throws {
    let desktop = try Desktop()
    let r = try desktop.app(["--script", desktop.script("every-service.js"), "--exit-after-script", "--", "one", "two"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("page.js:2: page.js loaded, platform linux args [ 'one', 'two' ]"), "\(r.stdout)")
    let result = ScriptOutput.json(r.stdout)
    #expect((result["appInfo"] as? [String: Any])?["id"] as? String == "dev.nbridge.pagetest")
    #expect((result["stored"] as? [String: Any])?["list"] as? [String] == ["a", "b"])
    #expect(result["pref"] as? String == "yes")
    #expect(result["pasted"] as? String == "copied in a page")
    #expect(result["shown"] as? Bool == true)
    let error = result["error"] as? [String: Any]
    #expect(error?["name"] as? String == "NBridgeError")
    #expect(error?["code"] as? String == "invalid_parameter")
    #expect(error?["message"] as? String == "storage.set: \"key\" must be a non-empty string")
    #expect(result["unknownService"] as? String == "invalid_service")
    #expect(result["echo"] as? String == "dev.nbridge.pagetest")
    #expect((result["status"] as? String)?.hasPrefix("launch 1, stored {\"n\":1") == true)
    // The notification went to stderr (no session bus), and the storage write is on disk.
    #expect(r.stderr.contains("From a page"))
    #expect(try desktop.stored("fromPage") == "{\"n\":1,\"list\":[\"a\",\"b\"]}")
  }

  @Test func wkBridgeKitStylePageIsAnsweredThroughResolvePromise() throws {
    let desktop = try Desktop()
    let r = try NBridgeTest.command(
      ["app", desktop.script("wkbridge.html"), "--script", desktop.script("wkbridge.js"), "--exit-after-script"],
      environment: desktop.env, timeout: 60)
    #expect(r.status == 0, "\(r.stderr)")
    let result = ScriptOutput.json(r.stdout)
    #expect(result["value"] as? String == "value1")
    #expect(result["id"] as? String == "dev.nbridge.pagetest")
    #expect(result["rejected"] as? String == "invalid_action_name")
    // No global nBridge without `pageProtocol: "nbridgekit"`: WKBridgeKit's own nbridge.js takes
    // the Android path when it finds one.
    #expect(result["nBridge"] as? String == "undefined")
    #expect(
      (result["cleared"] as? [String: Any])?["cleared"] as? [String] == [
        "moduleCache", "diskCache", "memoryCache", "cookies",
      ])
  }

  @Test func wkBridgeKitStylePageStreamsToItsRetainedCallback() throws {
    let desktop = try Desktop()
    var env = desktop.env
    env["NBRIDGE_LOCATION"] = "37.5665,126.978"
    let r = try NBridgeTest.command(
      ["app", desktop.script("wkbridge.html"), "--script", desktop.script("wkbridge-stream.js"), "--exit-after-script"],
      environment: env, timeout: 60)
    #expect(r.status == 0, "\(r.stderr)")
    let result = ScriptOutput.json(r.stdout)
    #expect(result["positions"] as? [[Double]] == [[37.5665, 126.978], [35.1796, 129.0756]])
    #expect((result["cleared"] as? [String: Any])?["cleared"] as? Int == 1)
    // The watch settled through finallyResolvePromise: its retained callback did not swallow it.
    #expect(result["settled"] != nil)
  }

  @Test func screenshotIsThePagesSizeAndNotBlank() throws {
    let desktop = try Desktop()
    let png = desktop.dir.file("shot.png")
    let r = try desktop.app(["--screenshot", png])
    #expect(r.status == 0, "\(r.stderr)")
    let check = try ChildProcess.run(
      "python3", [AppWindowTests.fixtures + "/../png-colors.py", png], environment: [:], timeout: 30)
    #expect(check.status == 0, "\(check.stderr)")
    let fields = check.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    #expect(fields.count == 3)
    #expect(fields.first == 640 && fields.dropFirst().first == 480, "\(check.stdout)")
    #expect((fields.last ?? 0) >= 8, "distinct colours: \(check.stdout)")
  }

  @Test func theSampleAppShowsItsFace() throws {
    let desktop = try Desktop()
    let png = desktop.dir.file("sample.png")
    let ready = desktop.dir.file("ready.js")
    try "await window.ready; return document.getElementById('welcome').textContent;"
      .write(toFile: ready, atomically: true, encoding: .utf8)
    let www = URL(fileURLWithPath: AppWindowTests.fixtures + "/../../../../www").standardized.path
    let r = try NBridgeTest.command(
      ["app", www, "--script", ready, "--screenshot", png], environment: desktop.env, timeout: 60)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("\"nbridge Sample 1.0.0 · launch #1 · 0 days since the first one\""), "\(r.stdout)")
    // The console line names sample.js's line that logs it (read from the file: the sample grows).
    let sample = try String(contentsOfFile: www + "/sample.js", encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    let line = try #require(sample.firstIndex { $0.contains("First launch: stored") }) + 1
    #expect(r.stdout.contains("sample.js:\(line):   First launch: stored a glossary of 4 words."), "\(r.stdout)")
    let check = try ChildProcess.run(
      "python3", [AppWindowTests.fixtures + "/../png-colors.py", png], environment: [:], timeout: 30)
    let fields = check.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    #expect(fields.count == 3 && fields[0] == 900 && fields[1] == 600 && fields[2] >= 8, "\(check.stdout)")
  }

  @Test func theSampleAppsClearCacheButtonClearsWebKitsCaches() throws {
    let desktop = try Desktop()
    let click = desktop.dir.file("click.js")
    try """
      await window.ready;
      const button = [...document.querySelectorAll('#buttons button')].find((b) => b.textContent === 'clear cache');
      if (!button) return 'no clear cache button';
      button.click();
      for (let i = 0; i < 500 && !document.getElementById('log').textContent.includes('app.clearCache'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return document.getElementById('log').textContent.split('\\n').find((l) => l.startsWith('app.clearCache'));
      """.write(toFile: click, atomically: true, encoding: .utf8)
    let www = URL(fileURLWithPath: AppWindowTests.fixtures + "/../../../../www").standardized.path
    let r = try NBridgeTest.command(
      ["app", www, "--script", click, "--exit-after-script"], environment: desktop.env, timeout: 60)
    #expect(r.status == 0, "\(r.stderr)")
    let line = r.stdout.split(separator: "\n").first { $0.hasPrefix(#""app.clearCache: {\"cleared\":["#) } ?? ""
    for kind in ["diskCache", "memoryCache", "cookies"] {
      #expect(line.contains(#"\"\#(kind)\""#), "WebKit's \(kind) among what the button cleared: \(r.stdout)")
    }
  }

  @Test func aPasteboardChangeFromAnotherProcessReachesAPageListener() throws {
    let desktop = try Desktop()
    let setter = desktop.dir.file("setter.js")
    try """
    const name = 'dev.nbridge.pagetest.watch';
    let n = 0;
    const timer = setInterval(async () => {
      try { await nbridge.pasteboard.setString({ name, string: 'from another process ' + n }); } catch (e) {}
      if (++n === 40) clearInterval(timer);
    }, 250);
    """.write(toFile: setter, atomically: true, encoding: .utf8)
    var setterEnv = desktop.env
    setterEnv["DISPLAY"] = nil
    let other = try NBridgeTest.start(["run", setter], environment: setterEnv)
    defer { other.stop() }
    let r = try desktop.app(["--script", desktop.script("listener.js"), "--exit-after-script"])
    #expect(r.status == 0, "\(r.stderr)")
    let result = ScriptOutput.json(r.stdout)
    #expect(result["name"] as? String == "dev.nbridge.pagetest.watch")
    #expect((result["text"] as? String)?.hasPrefix("from another process") == true, "\(r.stdout)")
  }

  @Test func anotherOriginsFrameDoesNoWork() throws {
    let desktop = try Desktop()
    let r = try desktop.app(["--script", desktop.script("iframe.js"), "--exit-after-script"])
    #expect(r.status == 0, "\(r.stderr)")
    let result = ScriptOutput.json(r.stdout)
    #expect((result["frameReply"] as? String)?.hasPrefix("0permission_denied") == true, "\(r.stdout)")
    #expect(r.stderr.contains("ignored a WKBridge message from a frame that is not the app's own page"))
    #expect(try desktop.stored("fromFrame") == "null", "the frame's WKBridge storage.set landed")
    #expect(try desktop.stored("fromFrame2") == "null", "the frame's nbridge storage.set landed")
  }

  @Test func aPageNavigatedToAnotherOriginDoesNoWork() throws {
    let desktop = try Desktop()
    let server = try StaticFileServer(directory: AppWindowTests.fixtures)
    defer { withExtendedLifetime(server) {} }
    let port = server.port
    // The navigated page cannot close a window it did not open: the test ends the run (SIGTERM).
    let app = try NBridgeTest.start(
      ["app", AppWindowTests.fixtures, "--script", desktop.script("navigate.js"), "--", String(port)],
      environment: desktop.env)
    defer { app.stop() }
    let deadline = Date().addingTimeInterval(30)
    while !app.stderr.contains("ignored a WKBridge message") && Date() < deadline { usleep(20_000) }
    #expect(app.stderr.contains("nbridge app: ignored a WKBridge message"), "\(app.stderr)")
    app.signal(SIGTERM)
    // A window's end stops WebKit's processes too: seconds on a loaded machine (10 s was missed once).
    #expect(app.wait(timeout: 30) == 143, "\(app.stderr)")
    #expect(try desktop.stored("fromNavigated") == "null")
  }

  @Test func appExitAndClosingTheWindowKeepWhatWasStored() throws {
    let desktop = try Desktop()
    let exited = try desktop.app(["--script", desktop.script("exit.js")])
    #expect(exited.status == 3, "\(exited.stderr)")
    #expect(try desktop.stored("beforeExit") == "\"kept\"")
    let closed = try desktop.app(["--script", desktop.script("close.js")])
    #expect(closed.status == 0, "\(closed.stderr)")
    #expect(try desktop.stored("beforeClose") == "\"kept too\"")
  }

  @Test func dialogsPrintUnderAutomationAndAPageErrorIsNotFatal() throws {
    let desktop = try Desktop()
    let r = try desktop.app(["--script", desktop.script("dialogs.js"), "--exit-after-script"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("alert: hello\nconfirm: sure?\nprompt: name?\n"), "\(r.stdout)")
    let result = ScriptOutput.json(r.stdout)
    #expect(result["confirmed"] as? Bool == false)
    #expect(result["answer"] is NSNull)
    #expect(result["alive"] as? Bool == true)
    #expect(r.stderr.contains("Error: thrown in a timer"), "\(r.stderr)")
  }

  @Test func aFailingScriptExitsOne() throws {
    let desktop = try Desktop()
    let file = desktop.dir.file("fail.js")
    try "await 1; throw new TypeError('nope');".write(toFile: file, atomically: true, encoding: .utf8)
    let r = try desktop.app(["--script", file, "--exit-after-script"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("--script failed") && r.stderr.contains("nope"), "\(r.stderr)")
  }

  @Test func aScriptAwaitingWhatNothingCanSettleKeepsTheWindowOpen() throws {
    let desktop = try Desktop()
    let file = desktop.dir.file("forever.js")
    // The awaited Promise is garbage at once; the page then makes the collector run many times
    // over, and ends the app itself once it has.
    try """
      let rounds = 0;
      const churn = setInterval(() => {
        for (let i = 0; i < 20; i++) new Array(100000).fill(rounds);
        if (++rounds === 150) {
          clearInterval(churn);
          console.log('churned');
          nbridge.app.exit();
        }
      }, 1);
      await new Promise(() => {});
      """.write(toFile: file, atomically: true, encoding: .utf8)
    let r = try desktop.app(["--script", file, "--exit-after-script"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("churned") && !r.stderr.contains("--script failed"), "\(r.stdout)\n\(r.stderr)")
  }

  @Test func aCrashedWebProcessIsReportedAndThePageReloadedOnce() throws {
    let desktop = try Desktop()
    // A --script runs once the page has loaded; its printed result says the load is over (a
    // crash before the first load is the other path: a relaunch with the fallback renderer).
    let app = try NBridgeTest.start(
      ["app", AppWindowTests.fixtures, "--script", desktop.script("every-service.js")], environment: desktop.env)
    defer { app.stop() }
    #expect(app.waitForOutput("\"status\":", timeout: 30))
    // The web process (WebKit may start it a moment after the page's first output).
    var web: Int32?
    let found = Date().addingTimeInterval(10)
    while web == nil && Date() < found {
      let children = try ChildProcess.run(
        "sh", ["-c", "cat /proc/\(app.pid)/task/*/children"], environment: [:], timeout: 10
      ).stdout.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
      web = children.first { pid in
        ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").hasPrefix("WebKitWebProces")
      }
      if web == nil { usleep(50_000) }
    }
    #expect(web != nil, "no WebKitWebProcess child of \(app.pid)")
    // SIGKILL: the web process handles SIGSEGV itself (JavaScriptCore), and a kill signal is what
    // an out-of-memory killer or a crash in a GPU driver looks like from outside.
    if let web { kill(web, SIGKILL) }
    let deadline = Date().addingTimeInterval(30)
    while (app.stdout.components(separatedBy: "page.js loaded").count < 3 || !app.stderr.contains("reloading"))
      && Date() < deadline
    {
      usleep(20_000)
    }
    #expect(app.stdout.components(separatedBy: "page.js loaded").count == 3, "\(app.stdout)")
    #expect(app.stderr.contains("nbridge app: the web process crashed; reloading the page"), "\(app.stderr)")
    app.signal(SIGTERM)
    // A window's end stops WebKit's processes too: seconds on a loaded machine (10 s was missed once).
    #expect(app.wait(timeout: 30) == 143, "\(app.stderr)")
  }

  @Test func withoutADisplayItExitsTwoAtOnce() throws {
    var env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = try TemporaryDirectory(prefix: "nbridge-nodisplay").file("data")
    let r = try NBridgeTest.command(["app", AppWindowTests.fixtures], environment: env, timeout: 10)
    #expect(r.status == 2)
    #expect(r.stderr.contains("nbridge app: needs a display") && r.stderr.contains("nbridge run"), "\(r.stderr)")
    env["DISPLAY"] = ":4999"
    let unreachable = try NBridgeTest.command(["app", AppWindowTests.fixtures], environment: env, timeout: 10)
    #expect(unreachable.status == 2)
    #expect(unreachable.stderr.contains("cannot open the display :4999"), "\(unreachable.stderr)")
  }

  @Test func aHeadlessRunMapsNoWebKitOrGTK() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-maps")
    let file = dir.file("wait.js")
    try "console.log('ready'); setTimeout(() => {}, 5000);".write(toFile: file, atomically: true, encoding: .utf8)
    var env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    let run = try NBridgeTest.start(["run", file], environment: env)
    defer { run.stop() }
    #expect(run.waitForOutput("ready", timeout: 10))
    // Read with cat: /proc files report no size, and Foundation's one read stops at a page.
    let maps = try ChildProcess.run("cat", ["/proc/\(run.pid)/maps"], environment: [:], timeout: 10).stdout
    #expect(maps.contains("libjavascriptcoregtk-4.1"))
    #expect(!maps.contains("libwebkit2gtk") && !maps.contains("libgtk-3") && !maps.contains("libgdk-3"))
  }

  @Test func aRunMapsSQLiteOnlyOnceItStores() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-maps-sqlite")
    let file = dir.file("store-later.js")
    try """
      console.log('ready');
      setTimeout(async () => {
        await nbridge.storage.set({ key: 'k', value: 'v' });
        console.log('stored', await nbridge.storage.get({ key: 'k' }));
        setTimeout(() => {}, 5000);
      }, 2000);
      """.write(toFile: file, atomically: true, encoding: .utf8)
    var env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    let run = try NBridgeTest.start(["run", file], environment: env)
    defer { run.stop() }
    #expect(run.waitForOutput("ready", timeout: 10))
    let before = try ChildProcess.run("cat", ["/proc/\(run.pid)/maps"], environment: [:], timeout: 10).stdout
    #expect(before.contains("libjavascriptcoregtk-4.1"))
    #expect(!before.contains("libsqlite3"), "SQLite is mapped before the first storage call")
    #expect(run.waitForOutput("stored v", timeout: 10))
    let after = try ChildProcess.run("cat", ["/proc/\(run.pid)/maps"], environment: [:], timeout: 10).stdout
    #expect(after.contains("libsqlite3"))
  }
}
