import ArgumentParser
import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem
import NBridgeTestRunner
import NBridgeWindow

extension NBridgeCommand {
  /// `nbridge test [PATH...]`.
  struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run every *.test.js, *.test.mjs and *.test.ts under the paths (default: Tests/js).",
      discussion: """
        Each file runs headless (JavaScriptCore), or with --page inside a window of the app (WebKitGTK, \
        the real plugins, document and window; an Xvfb of its own when DISPLAY and WAYLAND_DISPLAY are \
        not set). test(name, { page: 'index.html' }, fn) runs a test in that page of the app's folder \
        (--app), { page: true } in a blank page of the app, { page: false, reason } headless only; a \
        test a run cannot place is skipped: 'ok N - name # SKIP why'. Exit status: 0 when every test \
        passed, 1 when one failed or none was found. See docs/testing.md.
        """)

    @Argument(help: "Test files or folders.")
    var paths: [String] = []

    @Option(help: "Milliseconds a test may take before it fails.")
    var testTimeout: Double = 5000

    @Flag(help: "Use the real clipboard and notification server instead of headless backends.")
    var desktop = false

    @Option(help: ArgumentHelp("Comma-separated services to allow.", valueName: "list"))
    var allow: String?

    @Option(help: ArgumentHelp("Comma-separated services to deny.", valueName: "list"))
    var deny: String?

    @Flag(help: "Run the tests inside a window of the app (WebKitGTK), starting an Xvfb when there is no display.")
    var page = false

    @Option(help: ArgumentHelp("With --page: the app's page folder, where { page: 'index.html' } is found (default: www/, else .).", valueName: "dir"))
    var app: String?

    func validate() throws {
      if !(testTimeout > 0) { throw ValidationError("--test-timeout must be a positive number of milliseconds") }
      if app != nil && !page { throw ValidationError("--app needs --page") }
      if let app, !isFolder(app) { throw ValidationError("--app \(app) is not a folder") }
    }

    func run() throws {
      var runner = TestRunner(plugins: PluginRegistry(NBridgeCommand.plugins))
      runner.testTimeout = testTimeout
      runner.extensions = NBridgeCommand.extensions()
      runner.desktop = desktop
      runner.allow = (allow ?? "").split(separator: ",").map(String.init)
      runner.deny = (deny ?? "").split(separator: ",").map(String.init)
      throw ExitCode(page ? runInPage(runner) : runner.run(paths: paths))
    }

    /// `--page`: the files in windows of the app, on the display there is or on an Xvfb of ours.
    func runInPage(_ options: TestRunner) -> Int32 {
      let runner = PageTestRunner(options, appFolder: app ?? (isFolder("www") ? "www" : "."))
      guard ProcessEnvironment.value("DISPLAY") == nil && ProcessEnvironment.value("WAYLAND_DISPLAY") == nil else {
        return runner.run(paths: paths)
      }
      let server: VirtualDisplay
      do throws(SystemError) { server = try VirtualDisplay.start() } catch {
        writeStderr("nbridge test --page: no display, and cannot \(error) (install xvfb, or set DISPLAY)\n")
        return ExitStatus.usage
      }
      setenv("DISPLAY", server.display, 1)
      let status = runner.run(paths: paths)
      server.stop()
      return status
    }
  }
}
