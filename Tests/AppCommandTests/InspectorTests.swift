import CLITestSupport
import Foundation
import NBridgeTesting
import Testing

/// `nbridge app --inspect`: WebKit's Web Inspector in the app's window; `--inspect=HOST:PORT`:
/// WebKit's remote inspector, whose HTTP page lists the app's page as a target.
@Suite(.serialized, .onTestThreads) struct InspectorTests {
  let scratch: TemporaryDirectory
  let page: String
  var env: [String: String?]

  init() throws {
    scratch = try TemporaryDirectory(prefix: "nbridge-inspect")
    page = scratch.file("www")
    try scratch.write("www/index.html", "<!doctype html><title>Inspected</title><body style='background:#fff'><h1>hi</h1></body>")
    // A window that fits XvfbServer's 640x480 screen.
    try scratch.write(
      "www/nbridge.json",
      "{\"id\": \"dev.nbridge.inspected\", \"permissions\": [\"app\"], \"window\": {\"width\": 600, \"height\": 440}}")
    env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = scratch.file("data")
    env["NBRIDGE_SHARED_DIR"] = scratch.file("shared")
  }

  /// The names of the display's visible windows.
  func windowNames(display: String) throws -> [String] {
    let r = try ChildProcess.run("xdotool", ["search", "--onlyvisible", "--name", ".", "getwindowname", "%@"], environment: ["DISPLAY": display])
    return r.stdout.split(separator: "\n").map(String.init)
  }

  /// WebKit docks the inspector in a window with room for it; in this 600x440 one it opens its
  /// own "Web Inspector" window, which xdotool sees.
  @Test func inspectOpensWebKitsWebInspector() throws {
    let xvfb = try XvfbServer()
    var env = self.env
    env["DISPLAY"] = xvfb.display
    for inspect in [false, true] {
      let app = try ChildProcess(NBridgeTest.executable, ["app"] + (inspect ? ["--inspect"] : []) + [page], environment: env)
      defer { app.stop() }
      var names: [String] = []
      let shown = try waitUntil(timeout: 30) {
        names = try windowNames(display: xvfb.display)
        return names.contains("dev.nbridge.inspected") && (!inspect || names.contains("Web Inspector"))
      }
      #expect(shown, "inspect \(inspect): windows \(names); \(app.stderr)")
      #expect(names.contains("Web Inspector") == inspect, "inspect \(inspect): windows \(names)")
      #expect(app.isRunning, "\(app.stderr)")
    }
  }

  /// The size of the popup window (the context menu) whose top-left corner is at (`x`, `y`) or
  /// one pixel off; nil while there is none.
  func popup(at x: Int, _ y: Int, display: String) throws -> (width: Int, height: Int)? {
    let tree = try ChildProcess.run("xwininfo", ["-root", "-tree"], environment: ["DISPLAY": display]).stdout
    let window = #/0x[0-9a-f]+ .* (\d+)x(\d+)\+(\d+)\+(\d+) /#
    for line in tree.split(separator: "\n") {
      guard let m = try window.firstMatch(in: line), let left = Int(m.output.3), let top = Int(m.output.4),
        abs(left - x) <= 1, abs(top - y) <= 1, let width = Int(m.output.1), let height = Int(m.output.2)
      else { continue }
      return (width, height)
    }
    return nil
  }

  /// Right-click on the page, then the context menu's last item (Up, Return): with a development
  /// flag it is "Inspect Element", and WebKit's inspector opens; in a plain `nbridge app` it is
  /// "Reload" (the page loads again) and nothing opens; the development menu is the taller.
  @Test func inspectElementIsInTheContextMenuInDevelopmentOnly() throws {
    try scratch.write("www/index.html", "<!doctype html><body style='background:#fff'><h1>hi</h1><script>console.log('page loaded')</script></body>")
    let xvfb = try XvfbServer()
    var env = self.env
    env["DISPLAY"] = xvfb.display
    var heights: [String: Int] = [:]
    for mode in ["plain", "watch"] {
      let app = try ChildProcess(NBridgeTest.executable, ["app"] + (mode == "watch" ? ["--watch"] : []) + [page], environment: env)
      defer { app.stop() }
      #expect(app.waitForOutput("page loaded", timeout: 30), "\(mode): \(app.stderr)")
      _ = try ChildProcess.run("xdotool", ["mousemove", "100", "100", "click", "3"], environment: ["DISPLAY": xvfb.display])
      var menu: (width: Int, height: Int)?
      let opened = try waitUntil(timeout: 10) {
        menu = try popup(at: 100, 100, display: xvfb.display)
        return menu != nil
      }
      try #require(opened, "\(mode): no context menu at (100, 100)")
      heights[mode] = menu?.height
      _ = try ChildProcess.run("xdotool", ["key", "Up", "Return"], environment: ["DISPLAY": xvfb.display])
      if mode == "watch" {
        let inspector = try waitUntil(timeout: 20) { try windowNames(display: xvfb.display).contains("Web Inspector") }
        #expect(inspector, "--watch: \"Inspect Element\" opened no inspector")
      } else {
        let reloaded = waitUntil(timeout: 20) { app.stdout.components(separatedBy: "page loaded").count == 3 }
        #expect(reloaded, "plain: the menu's last item did not reload the page: \(app.stdout)")
        #expect(!(try windowNames(display: xvfb.display)).contains("Web Inspector"))
      }
    }
    // Back, Forward, Stop, Reload; with developer extras a separator and "Inspect Element" below.
    #expect((heights["watch"] ?? 0) > (heights["plain"] ?? .max), "menu heights \(heights)")
  }

  /// The body of `GET /` at 127.0.0.1:`port`, nil when nothing answers.
  func fetchIndex(port: UInt16) -> String? {
    guard let client = try? RawClient(to: "127.0.0.1", port: port) else { return nil }
    client.send("GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = recv(client.fd, &buffer, buffer.count, 0)
      guard count > 0 else { break }
      bytes += buffer[0..<count]
    }
    return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
  }

  @Test func inspectWithAnAddressServesTheTargetList() throws {
    let xvfb = try XvfbServer()
    var env = self.env
    env["DISPLAY"] = xvfb.display
    let port = try LogViewerProcess.freePort()
    let app = try ChildProcess(NBridgeTest.executable, ["app", "--inspect=127.0.0.1:\(port)", page], environment: env)
    defer { app.stop() }
    var index: String?
    let listed = waitUntil(timeout: 30) {
      index = fetchIndex(port: port)
      return index?.contains("nbridge://dev.nbridge.inspected/index.html") == true && index?.contains("Inspected") == true
    }
    #expect(listed, "\(index ?? "no answer"); \(app.stderr)")
    #expect(index?.contains("Inspectable targets") == true)
  }

  @Test func anInspectorAddressMustBeLoopback() throws {
    let refused = try NBridgeTest.command(["app", "--inspect=0.0.0.0:9222", page], environment: env)
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("--inspect=HOST:PORT takes a loopback host"), "\(refused.stderr)")
    let noPort = try NBridgeTest.command(["app", "--inspect=localhost", page], environment: env)
    #expect(noPort.status == 2)
    #expect(noPort.stderr.contains("needs a host and a port"), "\(noPort.stderr)")
  }
}
