import CLITestSupport
import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

/// Single instance for a window app under Xvfb with openbox: a second `nbridge app` hands its
/// arguments to the running window, which comes to the front, and exits 0.
@Suite(.serialized, .onTestThreads) struct SingleInstanceWindowTests {
  @Test func aSecondNbridgeAppRaisesTheRunningWindowAndHandsItsArguments() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-singlewin")
    let runtimeDir = try TemporaryDirectory(prefix: "r")
    let title = "Single Window"
    try dir.write(
      "app/nbridge.json",
      #"{"id": "dev.nbridge.single-window", "name": "\#(title)", "window": {"title": "\#(title)", "width": 320, "height": 240}}"#)
    try dir.write(
      "app/index.html",
      """
      <!doctype html>
      <html>
        <head>
          <meta charset="utf-8" />
          <title>\(title)</title>
          <script>
            console.log('args ' + JSON.stringify(nbridge.args));
            nbridge.app.addListener('appLaunch', ({ args }) => console.log('launch ' + JSON.stringify(args)));
            console.log('listening');
          </script>
        </head>
        <body><p>Single window</p></body>
      </html>
      """)
    let xvfb = try XvfbServer()
    defer { xvfb.stop() }
    let display = xvfb.display
    let wm = try ChildProcess("openbox", [], environment: ["DISPLAY": display])
    defer { wm.stop() }
    var env = NBridgeTest.headless
    env["DISPLAY"] = display
    env["XDG_RUNTIME_DIR"] = runtimeDir.path
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env.updateValue(nil, forKey: "NBRIDGE_NEW_INSTANCE")  // the test helper's default is a new instance each

    let app = try NBridgeTest.start(["app", dir.file("app"), "--", "first"], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("listening", timeout: 60), "\(app.stderr)")
    let window = try X11Windows.window("^\(title)$", display: display)
    let other = try ChildProcess("xmessage", ["-name", "other", "other window"], environment: ["DISPLAY": display])
    defer { other.stop() }
    let otherWindow = try X11Windows.window("^other$", display: display)
    _ = try X11Windows.xdotool(["windowactivate", otherWindow], display: display)
    func waitForActive(_ wanted: String) throws -> Bool {
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        if try X11Windows.xdotool(["getactivewindow"], display: display) == wanted { return true }
        usleep(50_000)
      }
      return false
    }
    #expect(try waitForActive(otherWindow))

    let second = try ChildProcess.run(
      NBridgeTest.executable, ["app", dir.file("app"), "--", "second", "two words"], environment: env, timeout: 20)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(app.waitForOutput(#"launch ["second","two words"]"#, timeout: 20), "\(app.stdout)")
    #expect(try waitForActive(window), "the running window came to the front")
    #expect(
      try X11Windows.xdotool(["search", "--name", "^\(title)$"], display: display)
        .split(separator: "\n").count == 1, "one window")
  }
}
