import ArgumentParser
import NBridgeRuntime

extension NBridgeCommand {
  /// `nbridge run FILE [-- ARGS...]`.
  struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run a script until no work is left.",
      discussion: "Arguments after -- are the script's nbridge.args.")

    @Argument(help: "The entry script, such as www/index.js.")
    var file: String

    @OptionGroup var app: AppOptions

    @Option(help: "Stop the script after this many seconds, even in an endless loop (exit 124).")
    var timeout: Double?

    @Argument(parsing: .postTerminator, help: "Arguments for the script (after --).")
    var scriptArguments: [String] = []

    var request: RunRequest {
      var request = RunRequest(file: file, app: app, arguments: scriptArguments)
      request.timeout = timeout
      return request
    }

    func validate() throws { try request.validate() }

    func run() throws {
      let request = request
      request.run(try request.configuration())
    }
  }
}
