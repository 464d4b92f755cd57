import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

/// URL hand-off between apps: `nbridge install`, `nbridge open`, the desktop's `xdg-open`, and
/// what the script sees (`appUrlOpen`, `getLaunchUrl`). Every XDG folder is a temporary one.
@Suite(.onTestThreads) struct URLHandoffTests {
  let dir: TemporaryDirectory
  /// A short folder for XDG_RUNTIME_DIR: a socket path must fit in 107 bytes.
  let runtimeDir: TemporaryDirectory
  var env: [String: String?]
  let id = "dev.nbridge.url-test"

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-url")
    runtimeDir = try TemporaryDirectory(prefix: "r")
    env = NBridgeTest.headless
    for name in ["XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"] {
      env[name] = dir.file(name.lowercased())
    }
    env["XDG_RUNTIME_DIR"] = runtimeDir.path
    env["XDG_DATA_DIRS"] = dir.file("system-data")  // no system-wide handler answers for test schemes
    env["XDG_CONFIG_DIRS"] = dir.file("system-config")
    env["NBRIDGE_DATA_DIR"] = nil
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
  }

  var dataHome: String { dir.file("xdg_data_home") }
  var log: String { dir.file("xdg_state_home") + "/nbridge/\(id).log" }

  /// An app that prints each `appUrlOpen` as a JSON line (with its pid) and exits after `count` of them.
  func writeReceiver(count: Int = 1, folder: String = "receiver") throws -> String {
    try dir.write("\(folder)/nbridge.json", #"{"id": "\#(id)", "name": "URL test", "urlSchemes": ["dbuurl"]}"#)
    return try dir.write(
      "\(folder)/index.js",
      """
      const launch = await nbridge.app.getLaunchUrl();
      console.log('launch ' + JSON.stringify(launch));
      await new Promise((resolve) => setTimeout(resolve, 300)); // the listener comes after an await
      let seen = 0;
      nbridge.app.addListener('appUrlOpen', (event) => {
        console.log('url ' + JSON.stringify(event));
        if (++seen === \(count)) nbridge.app.exit();
      });
      console.log('listening');
      """)
  }

  func nbridge(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try NBridgeTest.command(arguments, environment: env)
  }

  func install(_ folder: String = "receiver") throws {
    let r = try nbridge(["install", dir.file(folder)])
    #expect(r.status == 0, "\(r.stderr)")
  }

  /// Waits until `path`'s text has `count` lines starting with `prefix`.
  func waitForLines(_ path: String, prefix: String, count: Int, timeout: Double = 30) -> [String] {
    let deadline = Date().addingTimeInterval(timeout)
    var lines: [String] = []
    while Date() < deadline {
      lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
      if lines.filter({ $0.hasPrefix(prefix) }).count >= count { break }
      usleep(20_000)
    }
    return lines
  }

  /// Waits for the app launched by `nbridge open` to end (its socket is gone).
  func waitForNoInstance(id: String? = nil, timeout: Double = 30) -> Bool {
    let socket = runtimeDir.path + "/nbridge/\(id ?? self.id).sock"
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if !FileManager.default.fileExists(atPath: socket) { return true }
      usleep(20_000)
    }
    return false
  }

  func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

  /// Stops, by their PIDs, the apps `nbridge open` launched that still run (a failed test must not leave them).
  func stopLaunchedApps() {
    guard let ps = try? nbridge(["ps", "--json"]), let rows = try? JSONValue(parsing: ps.stdout).arrayValue else { return }
    for row in rows {
      guard let pid = row["pid"]?.numberValue, pid > 0, let app = row["app"]?.stringValue else { continue }
      kill(pid_t(pid), SIGTERM)
      _ = waitForNoInstance(id: app, timeout: 10)
    }
  }

  @Test func installWritesTheExactDesktopEntryAndTheDefaultHandler() throws {
    _ = try writeReceiver()
    try install()
    let nbridgePath = URL(fileURLWithPath: NBridgeTest.executable).resolvingSymlinksInPath().path
    let desktop = dataHome + "/applications/\(id).desktop"
    #expect(
      read(desktop) == """
        [Desktop Entry]
        Type=Application
        Version=1.0
        Name=URL test
        Comment=nbridge app \(id)
        Exec=\(nbridgePath) open --app=\(id) %u
        MimeType=x-scheme-handler/dbuurl;
        NoDisplay=true
        Terminal=false

        """)
    let query = try ChildProcess.run("xdg-mime", ["query", "default", "x-scheme-handler/dbuurl"], environment: env)
    #expect(query.stdout == "\(id).desktop\n")
    let record = dataHome + "/nbridge/installed/\(id).json"
    let mimeapps = dir.file("xdg_config_home") + "/mimeapps.list"
    let before = [read(record), read(desktop), read(mimeapps)]
    #expect(before.allSatisfy { $0 != nil })
    try install()
    #expect([read(record), read(desktop), read(mimeapps)] == before, "a reinstall writes the same files")

    let r = try nbridge(["uninstall", id])
    #expect(r.status == 0)
    #expect(read(record) == nil && read(desktop) == nil)
    #expect(read(mimeapps) == nil, "the file install made, emptied, is gone")
    let after = try ChildProcess.run("xdg-mime", ["query", "default", "x-scheme-handler/dbuurl"], environment: env)
    #expect(after.stdout == "")
    #expect(try nbridge(["uninstall", id]).status == 1, "nothing left to uninstall")
  }

  @Test func installThenUninstallGivesTheUsersMimeappsListBackAsItWas() throws {
    _ = try writeReceiver()
    let mimeapps = dir.file("xdg_config_home") + "/mimeapps.list"
    let originals = [
      "# mine\n[Added Associations]\ntext/plain=gedit.desktop;\n",
      "[Default Applications]\ntext/html=firefox.desktop\n\n[Added Associations]\nx-scheme-handler/dbuurl=other.desktop;\(id).desktop;\n",
    ]
    for original in originals {
      try dir.write("xdg_config_home/mimeapps.list", original)
      try install()
      #expect(read(mimeapps)?.contains("x-scheme-handler/dbuurl=\(id).desktop") == true)
      #expect(try nbridge(["uninstall", id]).status == 0)
      let expected = original.replacingOccurrences(of: "other.desktop;\(id).desktop;", with: "other.desktop;")
      #expect(read(mimeapps) == expected)
    }
  }

  @Test func reservedOrMalformedSchemesAreUsageErrorsNamingTheEntry() throws {
    let script = try dir.write("bad/index.js", "")
    for (schemes, problem) in [(#"["dbuurl", "https"]"#, "urlSchemes[1] \"https\""), (#"["Dbu"]"#, "urlSchemes[0] must be a lowercase")] {
      try dir.write("bad/nbridge.json", #"{"id": "dev.bad", "urlSchemes": \#(schemes)}"#)
      let r = try nbridge(["run", script])
      #expect(r.status == 2)
      #expect(r.stderr.contains(problem), "\(r.stderr)")
    }
  }

  @Test func aRunningAppGetsTheURLVerbatim() throws {
    defer { stopLaunchedApps() }
    let entry = try writeReceiver(count: 2)
    try install()
    let app = try NBridgeTest.start(["run", entry], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("listening", timeout: 20))
    for url in ["dbuurl://localhost/data?a%20b", "dbuurl://localhost/data#2"] {
      let r = try nbridge(["open", url])
      #expect(r.status == 0, "\(r.stderr)")
    }
    #expect(app.wait(timeout: 20) == 0)
    #expect(
      app.stdout == """
        launch null
        listening
        url {"url":"dbuurl://localhost/data?a%20b","launch":false}
        url {"url":"dbuurl://localhost/data#2","launch":false}

        """)
  }

  @Test func aColdStartKeepsTheLaunchURLForALateListenerAndOnlyForThatRun() throws {
    defer { stopLaunchedApps() }
    let entry = try writeReceiver()
    try install()
    let url = "dbuurl://localhost/data?a%20b&c=%2F"
    let r = try nbridge(["open", url])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = waitForLines(log, prefix: "url ", count: 1)
    #expect(waitForNoInstance())
    #expect(
      lines == [
        "launch {\"url\":\"dbuurl://localhost/data?a%20b&c=%2F\"}", "listening",
        "url {\"url\":\"dbuurl://localhost/data?a%20b&c=%2F\",\"launch\":true}",
      ])
    // The next run was not launched by a URL.
    let next = try NBridgeTest.start(["run", entry], environment: env)
    defer { next.stop() }
    #expect(next.waitForOutput("listening", timeout: 20))
    #expect(next.stdout == "launch null\nlistening\n")
  }

  @Test func twoColdOpensAtOnceStartOneInstanceThatGetsBoth() throws {
    defer { stopLaunchedApps() }
    try dir.write("receiver/nbridge.json", #"{"id": "\#(id)", "urlSchemes": ["dbuurl"]}"#)
    try dir.write(
      "receiver/index.js",
      """
      let seen = 0;
      nbridge.app.addListener('appUrlOpen', ({ url, launch }) => {
        console.log(`url ${url} ${launch}`);
        if (++seen === 2) setTimeout(() => nbridge.app.exit(), 300);
      });
      """)
    try install()
    let first = try NBridgeTest.start(["open", "dbuurl://race/a"], environment: env)
    let second = try NBridgeTest.start(["open", "dbuurl://race/b"], environment: env)
    #expect(first.wait(timeout: 60) == 0, "\(first.stderr)")
    #expect(second.wait(timeout: 60) == 0, "\(second.stderr)")
    #expect(waitForNoInstance())
    let lines = (read(log) ?? "").split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(lines)")
    #expect(Set(lines.map { $0.split(separator: " ")[1] }) == ["dbuurl://race/a", "dbuurl://race/b"])
    #expect(lines.map { $0.split(separator: " ")[2] } == ["true", "false"], "the launch URL first, then the other")
  }

  @Test func anUnclaimedSchemeWithNoHandlerExitsOne() throws {
    let r = try nbridge(["open", "nbridgetestnothing://x"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("nbridge open: no app claims nbridgetestnothing: URLs"), "\(r.stderr)")
    #expect(try nbridge(["open", "--check", "nbridgetestnothing://x"]).status == 1)
    #expect(try nbridge(["open", "no scheme here"]).status == 2)
  }

  @Test func theDesktopsXdgOpenReachesTheApp() throws {
    defer { stopLaunchedApps() }
    _ = try writeReceiver(count: 2)
    try install()
    let xvfb = try XvfbServer()
    defer { xvfb.stop() }
    var desktop = env
    desktop["DISPLAY"] = xvfb.display
    desktop["XDG_CURRENT_DESKTOP"] = nil
    desktop["DESKTOP_SESSION"] = nil
    for url in ["dbuurl://localhost/data?from=xdg-open", "dbuurl://localhost/data?again"] {
      let r = try ChildProcess.run("xdg-open", [url], environment: desktop, timeout: 60)
      #expect(r.status == 0, "\(r.stderr)")
    }
    let lines = waitForLines(log, prefix: "url ", count: 2)
    #expect(waitForNoInstance())
    #expect(lines.filter { $0.hasPrefix("url ") } == [
      "url {\"url\":\"dbuurl://localhost/data?from=xdg-open\",\"launch\":true}",
      "url {\"url\":\"dbuurl://localhost/data?again\",\"launch\":false}",
    ])
  }

  @Test func theSeedPairHandsTextThroughANamedPasteboard() throws {
    defer { stopLaunchedApps() }
    let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples/url-handoff").path
    let receiverID = "kr.pe.davidbae.dbuurl.receiver"
    var r = try nbridge(["install", examples + "/receiver"])
    #expect(r.status == 0, "\(r.stderr)")
    defer { _ = try? nbridge(["uninstall", receiverID]) }
    let senderData = dir.file("sender-data")
    r = try nbridge(["run", "--data-dir", senderData, examples + "/sender/index.js", "--", "text from seed 002"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "sent \"text from seed 002\"\n", "\(r.stderr)")
    let receiverLog = dir.file("xdg_state_home") + "/nbridge/\(receiverID).log"
    let lines = waitForLines(receiverLog, prefix: "received", count: 1)
    #expect(lines == ["receiver ready", "received \"text from seed 002\" (it launched the receiver)"])
    // Two data dirs: the sender's own, the receiver's default one under XDG_DATA_HOME.
    #expect(FileManager.default.fileExists(atPath: senderData + "/app.json"))
    // (The receiver counts its launch on a thread of its own: the file may land just after its first line.)
    #expect(waitUntil(timeout: 10) {
      FileManager.default.fileExists(atPath: dataHome + "/nbridge/apps/\(receiverID)/app.json")
    })
    // The receiver read once and cleared; it is still running and gets the next hand-off too.
    r = try nbridge(["run", "--data-dir", senderData, examples + "/sender/index.js", "--", "second"])
    #expect(r.status == 0)
    _ = waitForLines(receiverLog, prefix: "received", count: 2)
    #expect(read(receiverLog)?.hasSuffix("received \"second\"\n") == true)
    let ps = try nbridge(["ps", "--json"])
    let rows = try JSONValue(parsing: ps.stdout)
    let pid = try #require(rows[0]?["pid"]?.numberValue)
    #expect(rows[0]?["app"] == .string(receiverID))
    kill(pid_t(pid), SIGTERM)
    #expect(waitForNoInstance(id: receiverID))
    let check = try dir.write("check.js", "console.log(await nbridge.pasteboard.getString({ name: 'kr.pe.davidbae.dbuurl.pasteboard_001' }))")
    #expect(try nbridge(["run", check]).stdout == "null\n", "the receiver cleared the pasteboard")
  }

  @Test func aStoppedBackgroundAppIsWokenAndMadeActiveBeforeItsURL() throws {
    defer { stopLaunchedApps() }
    try dir.write("receiver/nbridge.json", #"{"id": "\#(id)", "urlSchemes": ["dbuurl"]}"#)
    let entry = try dir.write(
      "receiver/index.js",
      """
      nbridge.app.addListener('pause', () => console.log('pause'));
      nbridge.app.addListener('resume', () => console.log('resume'));
      nbridge.app.addListener('stateChange', ({ state }) => console.log('stateChange ' + state));
      nbridge.app.addListener('appUrlOpen', ({ url }) => {
        console.log('url ' + url);
        nbridge.app.exit();
      });
      console.log('listening');
      """)
    try install()
    let app = try NBridgeTest.start(["run", entry], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("listening", timeout: 20))
    app.signal(SIGTSTP)  // Ctrl-Z: background, then stopped once suspended
    #expect(app.waitForOutput("pause", timeout: 20))
    let deadline = Date().addingTimeInterval(20)
    func state() -> Character? {
      guard let stat = try? String(contentsOfFile: "/proc/\(app.pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      return stat[stat.index(after: close)...].dropFirst().first
    }
    while state() != "T" && Date() < deadline { usleep(20_000) }
    #expect(state() == "T", "the suspended app stopped")
    let r = try nbridge(["open", "dbuurl://localhost/data?woken"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(app.wait(timeout: 20) == 0)
    #expect(
      app.stdout.split(separator: "\n") == [
        "listening", "stateChange background", "pause", "resume", "stateChange active", "url dbuurl://localhost/data?woken",
      ])
  }

  @Test func openInBackgroundLeavesTheAppInBackgroundUntilItIsBroughtForward() throws {
    defer { stopLaunchedApps() }
    try dir.write("receiver/nbridge.json", #"{"id": "\#(id)", "urlSchemes": ["dbuurl"]}"#)
    let entry = try dir.write(
      "receiver/index.js",
      """
      nbridge.app.addListener('resume', () => console.log('resume'));
      nbridge.app.addListener('appUrlOpen', async ({ url }) => {
        console.log('url ' + url + ' ' + (await nbridge.app.getState()).state);
        nbridge.app.exit();
      });
      console.log('listening');
      """)
    try install()
    let app = try NBridgeTest.start(["run", entry], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("listening", timeout: 20))
    #expect(try nbridge(["simulate", "background", id]).status == 0)
    let r = try nbridge(["open", "--background", "dbuurl://localhost/quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    // `--background` hands the URL over without bringing the app forward: it stays in background
    // (suspended, so its listener waits) until something makes it active. `open` returned once the
    // app took the URL; `ps` then asks the app's loop, which would have run the listener first.
    let ps = try nbridge(["ps", "--json"])
    let row = try JSONValue(parsing: ps.stdout).arrayValue?.first { $0["app"]?.stringValue == id }
    #expect(row?["state"]?.stringValue == "background", "\(ps.stdout)")
    #expect(!app.stdout.contains("url "))
    #expect(try nbridge(["simulate", "foreground", id]).status == 0)
    #expect(app.wait(timeout: 20) == 0)
    #expect(app.stdout.split(separator: "\n") == ["listening", "resume", "url dbuurl://localhost/quiet active"])
  }
}
