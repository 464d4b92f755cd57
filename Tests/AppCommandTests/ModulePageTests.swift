import Foundation
import NBridgeTesting
import Testing

/// One module graph, two runners: `nbridge run` and a page's `<script type="module">` in
/// `nbridge app` (the web view's own loader) give the same result.
@Suite(.onTestThreads) struct ModulePageTests {
  @Test func theSameGraphRunsHeadlessAndInAPage() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-module-page")
    _ = try dir.write("nbridge.json", #"{"id": "dev.nbridge.tests.modulepage"}"#)
    _ = try dir.write("counter.mjs", "export let count = 40;\nexport function bump() { count += 1; }\n")
    _ = try dir.write("data.json", #"{"label": "answer"}"#)
    _ = try dir.write(
      "main.mjs",
      """
      import { count, bump } from './counter.mjs';
      import data from './data.json' with { type: 'json' };
      const later = await import('./counter.mjs');
      bump();
      later.bump();
      const result = `${data.label} ${count} ${import.meta.url.endsWith('/main.mjs')}`;
      console.log(result);
      globalThis.moduleResult = result;

      """)
    _ = try dir.write("index.html", "<!doctype html><script type=\"module\" src=\"./main.mjs\"></script>\n")
    _ = try dir.write(
      "check.js",
      """
      return await new Promise((resolve) => {
        const poll = setInterval(() => {
          if (window.moduleResult) { clearInterval(poll); resolve({ result: window.moduleResult }); }
        }, 10);
      });
      """)
    var env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env["XDG_CACHE_HOME"] = dir.file("cache")

    let headless = try NBridgeTest.command(["run", dir.file("main.mjs")], environment: env)
    #expect(headless.status == 0, "\(headless.stderr)")
    #expect(headless.stdout == "answer 42 true\n")

    let xvfb = try XvfbServer()
    env["DISPLAY"] = xvfb.display
    let page = try NBridgeTest.command(
      ["app", dir.path, "--script", dir.file("check.js"), "--exit-after-script"], environment: env, timeout: 60)
    #expect(page.status == 0, "\(page.stderr)")
    #expect(page.stdout.contains(#"{"result":"answer 42 true"}"#), "\(page.stdout)")
  }
}
