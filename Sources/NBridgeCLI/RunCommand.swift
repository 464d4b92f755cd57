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

    @Flag(
      help: "Run for a background fetch: start in background, deliver one fetch, end when it is done and no task is open.")
    var fetch = false

    @Flag(help: "Run the script again when a file under its folder changes (storage is kept; a change that does not parse is reported and the running script left alone).")
    var watch = false

    @Argument(parsing: .postTerminator, help: "Arguments for the script (after --).")
    var scriptArguments: [String] = []

    var request: RunRequest {
      var request = RunRequest(file: file, app: app, arguments: scriptArguments)
      request.timeout = timeout
      if fetch { request.fetch = "schedule" }
      return request
    }

    func validate() throws {
      try request.validate()
      if watch && fetch { throw ValidationError("--watch and --fetch do not go together") }
    }

    func run() throws {
      let request = request
      let configuration = try request.configuration()
      if watch {
        throw ExitCode(RunWatch.run(file: file, childArguments: RunWatch.childArguments(Array(CommandLine.arguments.dropFirst()))))
      }
      if fetch {
        // A run of the app that is already going takes the fetch (it skips it while active).
        switch FetchHandOff.send(reason: "schedule", toApp: configuration.manifest.id, timeout: 5) {
        case .notRunning: break
        case .answered(let reply):
          let delivered = reply["delivered"] == .bool(true)
          print("\(configuration.manifest.id) is running: fetch \(delivered ? "handed over" : "skipped (the app is active, or a fetch is pending)")")
          return
        case .failed(let why):
          writeStderr("nbridge: \(why)\n")
          throw ExitCode(1)
        }
      }
      request.run(configuration)
    }
  }
}
