import Foundation
import NBridgeTesting
import Testing

/// `nbridge app --watch` and `nbridge run --watch`: a changed file reloads the page (restarts the
/// script) with storage kept; a script that does not parse is shown over the page (reported on
/// stderr), and what runs keeps running until it is fixed.
@Suite(.serialized, .onTestThreads) struct WatchTests {
  static func page(version: Int, broken: Bool = false) -> String {
    """
    const n = ((await nbridge.storage.get({ key: 'loads' })) ?? 0) + 1;
    await nbridge.storage.set({ key: 'loads', value: n });
    document.getElementById('v').textContent = 'version \(version) loads ' + n;
    console.log('version \(version) loads ' + n);
    \(broken ? "const broken = {;\n" : "")
    """
  }

  /// The mean red and green (0 ... 1) of the screen's `geometry`; nil without a screenshot.
  static func colour(_ geometry: String, display: String, scratch: TemporaryDirectory) throws -> (red: Double, green: Double)? {
    let file = scratch.file("screen-\(UUID().uuidString).png")
    let shot = try ChildProcess.run(
      "sh", ["-c", "xwd -root -silent | convert xwd:- -crop \(geometry) +repage '\(file)'"], environment: ["DISPLAY": display])
    guard shot.status == 0 else { return nil }
    let mean = try ChildProcess.run("convert", [file, "-format", "%[fx:mean.r] %[fx:mean.g]", "info:"])
    let parts = mean.stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    return parts.count == 2 ? (parts[0], parts[1]) : nil
  }

  @Test func aChangeReloadsThePageAndABrokenScriptIsShownUntilFixed() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-watch")
    try scratch.write("www/index.html", "<!doctype html><title>watched</title><body><p id='v'>?</p><script type='module' src='page.js'></script></body>")
    try scratch.write("www/nbridge.json", "{\"id\": \"dev.nbridge.watched\", \"permissions\": [\"app\", \"storage\"], \"window\": {\"width\": 600, \"height\": 440}}")
    let script = try scratch.write("www/page.js", Self.page(version: 1))
    let xvfb = try XvfbServer()
    var env: [String: String?] = NBridgeTest.headless
    env["DISPLAY"] = xvfb.display
    env["NBRIDGE_DATA_DIR"] = scratch.file("data")
    env["NBRIDGE_SHARED_DIR"] = scratch.file("shared")
    let app = try ChildProcess(NBridgeTest.executable, ["app", "--watch", scratch.file("www")], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("version 1 loads 1", timeout: 30), "\(app.stdout)\(app.stderr)")

    // An edit: the page loads again, and what it stored survived.
    // (How soon is `make bench`'s `reload` section: a timed test would fail on a loaded machine.)
    try Self.page(version: 2).write(toFile: script, atomically: true, encoding: .utf8)
    #expect(app.waitForOutput("version 2 loads 2", timeout: 20), "\(app.stdout)\(app.stderr)")
    #expect(app.stderr.contains("nbridge app: --watch: page.js changed; reloading"))

    // A syntax error: reported, shown over the page (dark red), and the page is not reloaded.
    try Self.page(version: 3, broken: true).write(toFile: script, atomically: true, encoding: .utf8)
    let reported = waitUntil(timeout: 20) { app.stderr.contains("SyntaxError: Unexpected token ';'") }
    #expect(reported, "\(app.stderr)")
    #expect(app.stderr.contains("page.js:5); the page keeps running until it is fixed"), "\(app.stderr)")
    var seen: (red: Double, green: Double)?
    let overlay = try waitUntil(timeout: 10) {
      seen = try Self.colour("500x300+50+100", display: xvfb.display, scratch: scratch)
      return (seen?.red ?? 0) > 0.4 && (seen?.green ?? 1) < 0.15
    }
    #expect(overlay, "the overlay's colour: \(String(describing: seen))")
    #expect(!app.stdout.contains("version 3"), "the broken version never ran")
    #expect(app.isRunning)

    // Fixed: it reloads, and the count goes on.
    try Self.page(version: 4).write(toFile: script, atomically: true, encoding: .utf8)
    #expect(app.waitForOutput("version 4 loads 3", timeout: 20), "\(app.stdout)\(app.stderr)")
  }

  static func script(version: Int, broken: Bool = false) -> String {
    """
    const n = ((await nbridge.storage.get({ key: 'runs' })) ?? 0) + 1;
    await nbridge.storage.set({ key: 'runs', value: n });
    console.log('version \(version) run ' + n);
    setInterval(() => {}, 1000);
    \(broken ? "let broken = {;\n" : "")
    """
  }

  /// The processes whose command line names `text`.
  static func processes(naming text: String) -> [String] {
    let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return ids.filter { $0.allSatisfy(\.isNumber) }.filter { id in
      guard let data = FileManager.default.contents(atPath: "/proc/\(id)/cmdline") else { return false }
      return String(decoding: data, as: UTF8.self).contains(text)
    }
  }

  @Test func aHeadlessScriptRestartsOnAChangeAndKeepsRunningThroughABrokenOne() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-runwatch")
    let file = try scratch.write("app/main.js", Self.script(version: 1))
    var env: [String: String?] = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = scratch.file("data")
    env["NBRIDGE_SHARED_DIR"] = scratch.file("shared")
    let watch = try ChildProcess(NBridgeTest.executable, ["run", "--watch", file], environment: env)
    #expect(watch.waitForOutput("version 1 run 1", timeout: 20), "\(watch.stdout)\(watch.stderr)")

    try Self.script(version: 2).write(toFile: file, atomically: true, encoding: .utf8)
    #expect(watch.waitForOutput("version 2 run 2", timeout: 20), "\(watch.stdout)\(watch.stderr)")
    #expect(watch.stderr.contains("nbridge run --watch: main.js changed; restarting"))

    try Self.script(version: 3, broken: true).write(toFile: file, atomically: true, encoding: .utf8)
    let reported = waitUntil(timeout: 20) { watch.stderr.contains("(\(file):5); the running version keeps running until it is fixed") }
    #expect(reported, "\(watch.stderr)")
    #expect(watch.stderr.contains("SyntaxError: Unexpected token ';'"))
    #expect(Self.processes(naming: file).count == 2, "the watcher and the version 2 script still run")

    try Self.script(version: 4).write(toFile: file, atomically: true, encoding: .utf8)
    #expect(watch.waitForOutput("version 4 run 3", timeout: 20), "\(watch.stdout)\(watch.stderr)")
    #expect(!watch.stdout.contains("version 3"))

    watch.signal(SIGTERM)
    #expect(watch.wait(timeout: 10) == 143)
    #expect(Self.processes(naming: file).isEmpty, "the script stopped with the watcher")
  }
}
