import ArgumentParser
import NBridgePlugin
import NBridgeRuntime

extension NBridgeCommand {
  /// `nbridge test [PATH...]`.
  struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run every *.test.js, *.test.mjs and *.test.ts under the paths (default: Tests/js).")

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

    func validate() throws {
      if !(testTimeout > 0) { throw ValidationError("--test-timeout must be a positive number of milliseconds") }
    }

    func run() throws {
      var runner = TestRunner(plugins: PluginRegistry(NBridgeCommand.plugins))
      runner.testTimeout = testTimeout
      runner.extensions = NBridgeCommand.extensions()
      runner.desktop = desktop
      runner.allow = (allow ?? "").split(separator: ",").map(String.init)
      runner.deny = (deny ?? "").split(separator: ",").map(String.init)
      throw ExitCode(runner.run(paths: paths))
    }
  }
}
