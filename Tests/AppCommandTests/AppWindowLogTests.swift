import CLITestSupport
import Foundation
import NBridgeTesting
import Testing

/// `nbridge.log` in a page of `nbridge app` (a real window under Xvfb), forwarded with `--log-to`.
@Suite(.serialized, .onTestThreads) struct AppWindowLogTests {
  @Test func aPageLogsAndForwardsLikeAHeadlessRun() throws {
    let xvfb = try XvfbServer()
    let dir = try TemporaryDirectory(prefix: "nbridge-app-log")
    var env = NBridgeTest.headless
    env["DISPLAY"] = xvfb.display
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    let script = try dir.write("log.js", "nbridge.log.warning('from the page', 42);\nnbridge.log.debug('hidden');\n")
    let viewer = try LogViewerProcess()
    let r = try NBridgeTest.command(
      [
        "app", AppWindowTests.fixtures, "--script", script, "--exit-after-script", "--log-level", "info", "--log-to",
        ":\(viewer.port)",
      ], environment: env, timeout: 90)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("[WARN] ") && r.stderr.contains("from the page 42\n"), "\(r.stderr)")
    #expect(!r.stdout.contains("hidden") && !r.stderr.contains("hidden"))
    #expect(!r.stderr.contains("not delivered"), "\(r.stderr)")
    viewer.stop()
    let records = viewer.records
    let logged = records.filter { $0["src"] as? String == "log" }
    #expect(logged.map { $0["msg"] as? String } == ["from the page 42"])
    #expect(logged.first?["level"] as? String == "warn")
    #expect(logged.first?["app"] as? String == "dev.nbridge.pagetest")
    // The page's console goes along too.
    #expect(records.contains { $0["src"] as? String == "console" && ($0["msg"] as? String ?? "").contains("page.js loaded") })
  }
}
