import CLITestSupport
import Foundation
import NBridgeTesting
import Testing

/// `nbridge app --dev-url URL` and `--dev`: a dev server's page (python's http.server here, as a
/// bundler's would serve it) gets the bridge as the app's own page; a frame of another origin in
/// it gets nothing; the manifest's `dev.command` is started first and gone once the app ends.
@Suite(.serialized, .onTestThreads) struct DevServerTests {
  let scratch: TemporaryDirectory
  var env: [String: String?]
  let xvfb: XvfbServer

  init() throws {
    scratch = try TemporaryDirectory(prefix: "nbridge-devserver")
    xvfb = try XvfbServer()
    env = NBridgeTest.headless
    env["DISPLAY"] = xvfb.display
    env["NBRIDGE_DATA_DIR"] = scratch.file("data")
    env["NBRIDGE_SHARED_DIR"] = scratch.file("shared")
    try scratch.write("app/www/index.html", "<p>the folder's page, not loaded with --dev</p>")
    try scratch.write(
      "probe.js",
      """
      for (let i = 0; i < 200 && !window.result; i++) await new Promise((r) => setTimeout(r, 50));
      return { ...window.result, origin: location.origin };
      """)
  }

  func manifest(dev: String = "") throws {
    try scratch.write(
      "app/www/nbridge.json",
      "{\"id\": \"dev.nbridge.devserver\", \"permissions\": [\"app\", \"storage\"]\(dev.isEmpty ? "" : ", \"dev\": \(dev)")}")
  }

  /// python's http.server for `folder` on a free loopback port, and its port.
  func server(_ folder: String) throws -> (ChildProcess, UInt16) {
    let port = try LogViewerProcess.freePort()
    let child = try ChildProcess("python3", ["-m", "http.server", "\(port)", "--bind", "127.0.0.1", "--directory", folder])
    #expect(waitUntil(timeout: 20) { (try? RawClient(to: "127.0.0.1", port: port)) != nil })
    return (child, port)
  }

  @Test func theDevServersPageGetsTheBridgeAndAForeignFrameDoesNot() throws {
    try manifest()
    try scratch.write("frame/frame.html", "<script>parent.postMessage(typeof window.nbridge, '*')</script>")
    let (frameServer, framePort) = try server(scratch.file("frame"))
    defer { frameServer.stop() }
    try scratch.write(
      "site/index.html",
      """
      <!doctype html><body><iframe src="http://localhost:\(framePort)/frame.html"></iframe><script>
      const frame = new Promise((resolve) => addEventListener('message', (e) => resolve(e.data)));
      nbridge.storage.set({ key: 'from', value: 'dev server' })
        .then(() => nbridge.storage.get({ key: 'from' }))
        .then(async (stored) => { window.result = { stored, frame: await frame }; });
      </script></body>
      """)
    let (site, port) = try server(scratch.file("site"))
    defer { site.stop() }
    let r = try NBridgeTest.command(
      ["app", "--dev-url", "http://127.0.0.1:\(port)/", scratch.file("app/www"), "--script", scratch.file("probe.js"),
       "--exit-after-script"], environment: env, timeout: 60)
    #expect(r.status == 0, "\(r.stderr)")
    let result = ScriptOutput.json(r.stdout)
    #expect(result["origin"] as? String == "http://127.0.0.1:\(port)", "\(r.stdout)")
    #expect(result["stored"] as? String == "dev server", "the dev server's page stored through the bridge")
    #expect(result["frame"] as? String == "undefined", "a frame of another origin has no nbridge")
  }

  @Test func theManifestsDevCommandIsStartedAndStopped() throws {
    let port = try LogViewerProcess.freePort()
    let folder = scratch.file("app/dist-\(port)")
    try scratch.write("app/dist-\(port)/index.html", "<script>nbridge.app.appInfo().then((i) => { window.result = { id: i.id }; })</script>")
    try manifest(dev: "{\"url\": \"http://127.0.0.1:\(port)\", \"command\": \"exec python3 -m http.server \(port) --bind 127.0.0.1 --directory dist-\(port)\"}")
    let r = try NBridgeTest.command(
      ["app", "--dev", scratch.file("app/www"), "--script", scratch.file("probe.js"), "--exit-after-script"],
      environment: env, timeout: 90)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(ScriptOutput.json(r.stdout)["id"] as? String == "dev.nbridge.devserver", "\(r.stdout)")
    #expect(WatchTests.processes(naming: "dist-\(port)").isEmpty, "the dev command ended with the app")
    #expect(FileManager.default.fileExists(atPath: folder))
  }

  /// The dev server's page, `version` of it: it logs its version, and what the window shows
  /// over it while it waits for the server; with `reloadWhileWaiting`, it reloads itself then
  /// (as a user pressing F5 would), a load that fails.
  static func restartedPage(version: Int) -> String {
    """
    <!doctype html><title>version \(version)</title><body style="background:#fff"><p>version \(version)</p><script>
    console.log('dev page version \(version)');
    new MutationObserver(() => {
      const bar = document.getElementById('nbridge-dev-waiting');
      if (!bar) return;
      console.log('shown: ' + bar.textContent);
      if (location.search === '?reload-while-waiting') location.reload();
    }).observe(document.documentElement, { childList: true });
    </script></body>
    """
  }

  @Test(arguments: [false, true]) func thePageReloadsWhenTheDevServerComesBack(reloadWhileWaiting: Bool) throws {
    try manifest()
    try scratch.write("app/www/nbridge.json", "{\"id\": \"dev.nbridge.devserver\", \"permissions\": [\"app\"], \"window\": {\"width\": 600, \"height\": 440}}")
    for version in [1, 2] { try scratch.write("site\(version)/index.html", Self.restartedPage(version: version)) }
    let first = try StaticFileServer(directory: scratch.file("site1"))
    let url = "http://127.0.0.1:\(first.port)/\(reloadWhileWaiting ? "?reload-while-waiting" : "")"
    let app = try ChildProcess(NBridgeTest.executable, ["app", "--dev-url", url, scratch.file("app/www")], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("dev page version 1", timeout: 30), "\(app.stdout)\(app.stderr)")

    first.stop()
    let waiting = "Waiting for the dev server at \(url)\u{2026} The page reloads once it answers."
    #expect(app.waitForOutput("shown: \(waiting)", timeout: 10), "\(app.stdout)\(app.stderr)")
    #expect(app.stderr.contains("nbridge app: waiting for the dev server at \(url) (it does not answer)"), "\(app.stderr)")
    if reloadWhileWaiting {
      // The reload failed: the window shows the waiting page (dark grey) instead of WebKit's error page.
      var seen: (red: Double, green: Double)?
      let shown = try waitUntil(timeout: 10) {
        seen = try WatchTests.colour("500x300+50+100", display: xvfb.display, scratch: scratch)
        return abs((seen?.red ?? 0) - 0.2) < 0.05 && abs((seen?.green ?? 0) - 0.2) < 0.05
      }
      #expect(shown, "the window's colour: \(String(describing: seen))")
    }

    let second = try StaticFileServer(directory: scratch.file("site2"), port: first.port)
    defer { second.stop() }
    #expect(app.waitForOutput("dev page version 2", timeout: 10), "\(app.stdout)\(app.stderr)")
    #expect(app.stderr.contains("nbridge app: the dev server at \(url) answers again; reloading"), "\(app.stderr)")
    #expect(app.isRunning)
  }

  /// A plain `nbridge app` (neither --dev nor --dev-url) loads the folder's page: the manifest's
  /// `dev.command` does not run and nothing is asked of `dev.url`.
  @Test func aPlainAppNeverUsesTheManifestsDevSettings() throws {
    try scratch.write("site/index.html", "<script>window.result = { page: 'dev server' }</script>")
    let site = try StaticFileServer(directory: scratch.file("site"))
    let marker = scratch.file("dev-command-ran")
    try manifest(dev: "{\"url\": \"http://127.0.0.1:\(site.port)/\", \"command\": \"touch '\(marker)'\"}")
    try scratch.write("app/www/index.html", "<script>window.result = { page: 'folder' }</script>")
    let r = try NBridgeTest.command(
      ["app", scratch.file("app/www"), "--script", scratch.file("probe.js"), "--exit-after-script"], environment: env,
      timeout: 60)
    #expect(r.status == 0, "\(r.stderr)")
    let result = ScriptOutput.json(r.stdout)
    #expect(result["page"] as? String == "folder", "\(r.stdout)")
    #expect(result["origin"] as? String == "nbridge://dev.nbridge.devserver", "\(r.stdout)")
    #expect(!FileManager.default.fileExists(atPath: marker), "dev.command ran")
    #expect(!site.log.contains("GET"), "the dev server was asked: \(site.log)")
  }

  @Test func aDevURLOnAnotherHostIsRefused() throws {
    try manifest()
    let r = try NBridgeTest.command(["app", "--dev-url", "http://192.0.2.1:5173", scratch.file("app/www")], environment: env)
    #expect(r.status == 2)
    #expect(r.stderr.contains("--dev-url must be on a loopback host"), "\(r.stderr)")
  }
}
