import CLITestSupport
import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

/// URL hand-off to a window app (`nbridge app`) under Xvfb: `nbridge open` launches the window
/// for its URL, hands later URLs to the same window, and brings that window to the front (unless
/// `--background`). Every XDG folder is a temporary one.
@Suite(.serialized, .onTestThreads) struct URLWindowTests {
  let dir: TemporaryDirectory
  /// A short folder for XDG_RUNTIME_DIR: a socket path must fit in 107 bytes.
  let runtimeDir: TemporaryDirectory
  var env: [String: String?]
  let id = "dev.nbridge.url-window"
  let title = "URL Window"

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-urlwin")
    runtimeDir = try TemporaryDirectory(prefix: "r")
    env = NBridgeTest.headless
    for name in ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"] { env[name] = dir.file(name.lowercased()) }
    env["XDG_RUNTIME_DIR"] = runtimeDir.path
    env["XDG_DATA_DIRS"] = dir.file("system-data")
    env["XDG_CONFIG_DIRS"] = dir.file("system-config")
    env["NBRIDGE_DATA_DIR"] = nil
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    try dir.write(
      "app/nbridge.json",
      #"{"id": "\#(id)", "name": "\#(title)", "urlSchemes": ["dbuwin"], "window": {"title": "\#(title)", "width": 320, "height": 240}}"#)
    // The page prints what it got; the listener comes after an `await`.
    try dir.write(
      "app/index.html",
      """
      <!doctype html>
      <html>
        <head>
          <meta charset="utf-8" />
          <title>\(title)</title>
          <script>
            nbridge.app.addListener('stateChange', ({ state }) => console.log('state ' + state));
            (async () => {
              console.log('launch ' + JSON.stringify(await nbridge.app.getLaunchUrl()));
              await new Promise((resolve) => setTimeout(resolve, 300));
              nbridge.app.addListener('appUrlOpen', (event) => console.log('url ' + JSON.stringify(event)));
              console.log('listening');
            })();
          </script>
        </head>
        <body><p>URL window</p></body>
      </html>
      """)
  }

  var log: String { dir.file("xdg_state_home") + "/nbridge/\(id).log" }

  func nbridge(_ arguments: [String], display: String) throws -> (status: Int32, stdout: String, stderr: String) {
    var environment = env
    environment["DISPLAY"] = display
    return try NBridgeTest.command(arguments, environment: environment)
  }

  /// The page's console lines in `text`, without their `index.html:N: ` prefix.
  static func pageLines(_ text: String) -> [String] {
    WindowLifecycleTests.lines(text)
  }

  /// Waits until `read()` holds a page line equal to `line`; returns the page lines.
  func waitForPageLine(_ line: String, in read: () -> String, timeout: Double = 60) -> [String] {
    let deadline = Date().addingTimeInterval(timeout)
    var lines: [String] = []
    while Date() < deadline {
      lines = Self.pageLines(read())
      if lines.contains(line) { break }
      usleep(50_000)
    }
    return lines
  }

  func readLog() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

  /// The app's instance as `nbridge ps` lists it: its pid.
  func instancePID(display: String) throws -> Int32? {
    let ps = try nbridge(["ps", "--json"], display: display)
    let rows = try JSONValue(parsing: ps.stdout).arrayValue ?? []
    return rows.first { $0["app"]?.stringValue == id }?["pid"]?.numberValue.map { Int32($0) }
  }

  /// Stops, by its pid, the instance `nbridge open` launched, and waits for its socket to go.
  func stopLaunchedApp(display: String) {
    guard let pid = try? instancePID(display: display), pid > 0 else { return }
    kill(pid, SIGTERM)
    let socket = runtimeDir.path + "/nbridge/\(id).sock"
    let deadline = Date().addingTimeInterval(20)
    while FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(50_000) }
    if FileManager.default.fileExists(atPath: socket) { kill(pid, SIGKILL) }
  }

  @Test func aURLLaunchesTheWindowAndLaterURLsReachTheSamePage() throws {
    let xvfb = try XvfbServer()
    defer { xvfb.stop() }
    let display = xvfb.display
    defer { stopLaunchedApp(display: display) }
    var r = try nbridge(["install", dir.file("app")], display: display)
    #expect(r.status == 0, "\(r.stderr)")

    let first = "dbuwin://localhost/data?a%20b&c=%2F"
    r = try nbridge(["open", first], display: display)
    #expect(r.status == 0, "\(r.stderr)")
    let launched = #"url {"url":"\#(first)","launch":true}"#
    var lines = waitForPageLine(launched, in: readLog)
    #expect(Array(lines.filter { !$0.hasPrefix("state ") }.prefix(3)) == [#"launch {"url":"\#(first)"}"#, "listening", launched], "\(readLog())")

    // A window process: `nbridge app` for the page, with a window of the manifest's title.
    let pid = try #require(try instancePID(display: display))
    let command = try String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8).split(separator: "\0")
    #expect(command.count > 1 && command[1] == "app", "\(command)")
    #expect(command.last.map(String.init) == dir.file("app/index.html"))
    let window = try X11Windows.window("^\(title)$", display: display)
    #expect(!window.isEmpty)

    // The running window gets the next URL.
    let second = "dbuwin://localhost/data#again"
    r = try nbridge(["open", second], display: display)
    #expect(r.status == 0, "\(r.stderr)")
    let handed = #"url {"url":"\#(second)","launch":false}"#
    lines = waitForPageLine(handed, in: readLog)
    #expect(lines.filter { $0.hasPrefix("url ") } == [launched, handed], "\(readLog())")
    #expect(try instancePID(display: display) == pid, "the same instance")
  }
}

extension URLWindowTests {
  @Test func aURLBringsTheRunningWindowToTheFrontUnlessInBackground() throws {
    let xvfb = try XvfbServer()
    defer { xvfb.stop() }
    let display = xvfb.display
    let wm = try ChildProcess("openbox", [], environment: ["DISPLAY": display])
    defer { wm.stop() }
    let r = try nbridge(["install", dir.file("app")], display: display)
    #expect(r.status == 0, "\(r.stderr)")
    var environment = env
    environment["DISPLAY"] = display
    let app = try NBridgeTest.start(["app", dir.file("app")], environment: environment)
    defer { app.stop() }
    #expect(app.waitForOutput("listening", timeout: 60), "\(app.stderr)")
    let window = try X11Windows.window("^\(title)$", display: display)
    func activeWindow() throws -> String { try X11Windows.xdotool(["getactivewindow"], display: display) }
    func waitForActive(_ wanted: String) throws -> Bool {
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        if try activeWindow() == wanted { return true }
        usleep(50_000)
      }
      return false
    }
    func state() throws -> String? {
      let ps = try nbridge(["ps", "--json"], display: display)
      return try JSONValue(parsing: ps.stdout).arrayValue?.first { $0["app"]?.stringValue == id }?["state"]?.stringValue
    }
    // A later URL, handed over in background, through the same window: once its line is in, what
    // the window did for the URLs before it (a raise, a state line) has been done and printed.
    var pings = 0
    func ping() throws -> String {
      pings += 1
      let url = "dbuwin://localhost/ping\(pings)"
      _ = try nbridge(["open", "--background", url], display: display)
      let line = #"url {"url":"\#(url)","launch":false}"#
      _ = waitForPageLine(line, in: { app.stdout })
      return line
    }

    // Another window in front: the app is shown but not focused.
    let other = try ChildProcess("xmessage", ["-name", "other", "other window"], environment: ["DISPLAY": display])
    defer { other.stop() }
    let otherWindow = try X11Windows.window("^other$", display: display)
    _ = try X11Windows.xdotool(["windowactivate", otherWindow], display: display)
    #expect(try waitForActive(otherWindow))
    _ = waitForPageLine("state inactive", in: { app.stdout })
    #expect(try state() == "inactive")

    // `--background`: the page gets the URL, the other window stays in front.
    var mark = Self.pageLines(app.stdout).count
    var opened = try nbridge(["open", "--background", "dbuwin://localhost/quiet"], display: display)
    #expect(opened.status == 0, "\(opened.stderr)")
    let quiet = #"url {"url":"dbuwin://localhost/quiet","launch":false}"#
    _ = waitForPageLine(quiet, in: { app.stdout })
    var pinged = try ping()
    #expect(Array(Self.pageLines(app.stdout).dropFirst(mark)) == [quiet, pinged])
    #expect(try activeWindow() == otherWindow)
    #expect(try state() == "inactive")

    // A plain open: the window comes to the front, the app is active before its listener runs.
    mark = Self.pageLines(app.stdout).count
    opened = try nbridge(["open", "dbuwin://localhost/front"], display: display)
    #expect(opened.status == 0, "\(opened.stderr)")
    let front = #"url {"url":"dbuwin://localhost/front","launch":false}"#
    _ = waitForPageLine(front, in: { app.stdout })
    #expect(try waitForActive(window), "the app's window is the active one")
    pinged = try ping()  // a state line that came late (a flicker through inactive) is in before it
    #expect(Array(Self.pageLines(app.stdout).dropFirst(mark)) == ["state active", front, pinged])
    #expect(try state() == "active")

    // Minimized (background, suspended): the URL restores the window and focuses it.
    _ = try X11Windows.xdotool(["windowminimize", window], display: display)
    _ = waitForPageLine("state background", in: { app.stdout })
    #expect(try state() == "background")
    mark = Self.pageLines(app.stdout).count
    opened = try nbridge(["open", "dbuwin://localhost/restore"], display: display)
    #expect(opened.status == 0, "\(opened.stderr)")
    let restore = #"url {"url":"dbuwin://localhost/restore","launch":false}"#
    _ = waitForPageLine(restore, in: { app.stdout })
    #expect(try waitForActive(window), "the minimized window is restored in front")
    pinged = try ping()
    #expect(Array(Self.pageLines(app.stdout).dropFirst(mark)) == ["state active", restore, pinged])
  }
}
