import Foundation
import NBridgeTesting
import Testing

/// `nbridge init`: the app it makes runs and passes its tests; a folder in use is left alone.
@Suite(.onTestThreads) struct InitCommandTests {
  @Test func anAppScaffoldRunsAndPassesItsOwnTests() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-init")
    let app = scratch.file("My Notes")
    let environment: [String: String?] = NBridgeTest.headless.merging([
      "NBRIDGE_DATA_DIR": scratch.file("data"), "NBRIDGE_SHARED_DIR": scratch.file("shared"),
    ]) { $1 }
    let made = try NBridgeTest.command(["init", app])
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stdout.contains("cd '\(app)' && nbridge test"))
    #expect(made.stdout.contains("cd '\(app)' && nbridge app --watch www/"))
    for file in [
      "www/index.html", "www/page.js", "www/index.js", "www/greeting.js", "www/nbridge.json", "Tests/js/greeting.test.js",
      "README.md",
    ] {
      #expect(FileManager.default.fileExists(atPath: app + "/" + file), "\(file)")
    }
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: app + "/www/nbridge.json")))
    #expect((manifest as? [String: Any])?["id"] as? String == "com.example.my-notes")
    #expect((manifest as? [String: Any])?["name"] as? String == "My Notes")

    let run = try NBridgeTest.command(["run", app + "/www/index.js"], environment: environment)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "Hello from My Notes (launch #1)\n")
    // As `nbridge init` says: `cd APP && nbridge test`; the tests import the app's files from www/.
    let tests = try ChildProcess.run(NBridgeTest.executable, ["test"], environment: environment, directory: app)
    #expect(tests.status == 0, "\(tests.stdout)\(tests.stderr)")
    #expect(tests.stdout.hasSuffix("3 passed, 0 failed\n"))
  }

  /// The default app's page, opened in a window as `nbridge init` says: it greets with the app's
  /// name from `nbridge.app.appInfo()`, and its button counts in `storage`.
  @Test func theDefaultAppsPageCallsPluginsInAWindow() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-init")
    let app = scratch.file("clicker")
    #expect(try NBridgeTest.command(["init", app]).status == 0)
    let xvfb = try XvfbServer()
    var environment: [String: String?] = NBridgeTest.headless
    environment["DISPLAY"] = xvfb.display
    environment["NBRIDGE_DATA_DIR"] = scratch.file("data")
    environment["NBRIDGE_SHARED_DIR"] = scratch.file("shared")
    let click = try scratch.write(
      "click.js",
      """
      const clicks = document.getElementById('clicks');
      const until = async (done) => { for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 50)); };
      await until(() => clicks.textContent !== '');
      document.getElementById('count').click();
      await until(() => clicks.textContent.startsWith('clicked 1 '));
      return { greeting: document.getElementById('greeting').textContent, clicks: clicks.textContent };
      """)
    let r = try NBridgeTest.command(
      ["app", app + "/www/", "--script", click, "--exit-after-script"], environment: environment, timeout: 60)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("{\"clicks\":\"clicked 1 times (kept in storage)\",\"greeting\":\"Hello from clicker (launch #1)\"}"), "\(r.stdout)")
  }

  @Test func theHeadlessTemplateMakesNoPage() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-init")
    let made = try NBridgeTest.command(["init", "--template", "headless", scratch.file("h")])
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stdout.contains("nbridge run www/index.js"))
    #expect(!FileManager.default.fileExists(atPath: scratch.file("h/www/index.html")))
    let tests = try ChildProcess.run(NBridgeTest.executable, ["test"], environment: NBridgeTest.headless, directory: scratch.file("h"))
    #expect(tests.stdout.hasSuffix("3 passed, 0 failed\n"), "\(tests.stdout)")
  }

  /// Vite's files (npm is not run: its registry is out of reach here) and a manifest whose `dev`
  /// the runtime accepts; a `dev.url` on another host is refused.
  @Test func theViteTemplateNamesItsDevServerInTheManifest() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-init")
    let app = scratch.file("v")
    let made = try NBridgeTest.command(["init", "--template", "vite", app])
    #expect(made.status == 0, "\(made.stderr)")
    let package = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: app + "/package.json"))) as? [String: Any]
    #expect((package?["scripts"] as? [String: String])?["dev"] == "vite")
    #expect((package?["devDependencies"] as? [String: String])?["vite"] != nil)
    let config = try String(contentsOfFile: app + "/vite.config.js", encoding: .utf8)
    #expect(config.contains("port: 5173") && config.contains("root: 'www'"))
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: app + "/www/nbridge.json"))) as? [String: Any]
    #expect(manifest?["dev"] as? [String: String] == ["url": "http://127.0.0.1:5173", "command": "npm run dev"])
    var environment: [String: String?] = NBridgeTest.headless
    environment["NBRIDGE_DATA_DIR"] = scratch.file("data")
    let run = try NBridgeTest.command(["run", app + "/www/index.js"], environment: environment)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "Hello from v (launch #1)\n")

    let text = try String(contentsOfFile: app + "/www/nbridge.json", encoding: .utf8)
    try text.replacingOccurrences(of: "http://127.0.0.1:5173", with: "http://example.com:5173")
      .write(toFile: app + "/www/nbridge.json", atomically: true, encoding: .utf8)
    let refused = try NBridgeTest.command(["run", app + "/www/index.js"], environment: environment)
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("field \"dev.url\" must be on a loopback host"), "\(refused.stderr)")
  }

  @Test func aFolderThatIsNotEmptyIsRefusedWithNothingWritten() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-init")
    let folder = scratch.file("busy")
    try scratch.write("busy/notes.txt", "mine\n")
    for arguments in [["init", folder], ["init", "--plugin", "Greeter", folder]] {
      let refused = try NBridgeTest.command(arguments)
      #expect(refused.status == 2)
      #expect(refused.stderr.contains("is not empty"))
      #expect(refused.stderr.contains("--force"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["notes.txt"])
    }
    let forced = try NBridgeTest.command(["init", "--force", folder])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder + "/www/index.js"))
    #expect(try String(contentsOfFile: folder + "/notes.txt", encoding: .utf8) == "mine\n")
  }

  @Test func aPluginPackageNamesNBridgeByVersionOrByPath() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-init")
    let version = try NBridgeTest.command(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)

    let byVersion = try NBridgeTest.command(["init", "--plugin", "photoTools", scratch.file("photos")])
    #expect(byVersion.status == 0, "\(byVersion.stderr)")
    let package = try String(contentsOfFile: scratch.file("photos/Package.swift"), encoding: .utf8)
    #expect(package.contains(".package(url: \"https://github.com/nbridge/nbridge\", from: \"\(version)\")"))
    #expect(package.contains(".product(name: \"NBridgeCLI\", package: \"nbridge\")"))
    let plugin = try String(contentsOfFile: scratch.file("photos/Sources/PhotoToolsPlugin/PhotoToolsPlugin.swift"), encoding: .utf8)
    #expect(plugin.contains("public final class PhotoToolsPlugin: Plugin"))
    #expect(plugin.contains("service: \"photoTools\""))
    let main = try String(contentsOfFile: scratch.file("photos/Sources/phototools/main.swift"), encoding: .utf8)
    #expect(main.contains("NBridgeCommand.main(plugins: Builtins.plugins + [PhotoToolsPlugin.self])"))
    let manifest = try String(contentsOfFile: scratch.file("photos/www/nbridge.json"), encoding: .utf8)
    #expect(manifest.contains("\"permissions\": [\"app\", \"storage\", \"photoTools\"]"))

    try FileManager.default.createDirectory(atPath: scratch.file("checkout/nbridge"), withIntermediateDirectories: true)
    let byPath = try ChildProcess.run(
      NBridgeTest.executable, ["init", "--plugin", "Greeter", "--nbridge", "checkout/nbridge", "greeter"],
      directory: scratch.path)
    #expect(byPath.status == 0, "\(byPath.stderr)")
    let local = try String(contentsOfFile: scratch.file("greeter/Package.swift"), encoding: .utf8)
    #expect(local.contains(".package(path: \"\(scratch.file("checkout/nbridge"))\")"))
  }

  @Test func aPluginNameMustBeASwiftTypeName() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-init")
    let refused = try NBridgeTest.command(["init", "--plugin", "my-plugin", scratch.file("x")])
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("--plugin must be a Swift type name"))
    #expect(!FileManager.default.fileExists(atPath: scratch.file("x")))
  }
}
