import ArgumentParser
import Glibc
import NBridgePlugin
import NBridgeRuntime

extension NBridgeCommand {
  /// `nbridge simulate ...`: drive a running app's lifecycle from outside.
  struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Drive a running app's lifecycle: deliver a background fetch.",
      subcommands: [Fetch.self])
  }
}

extension NBridgeCommand.Simulate {
  /// `nbridge simulate fetch APP [--launch]`, Xcode's "Simulate Background Fetch".
  struct Fetch: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Deliver one background fetch (reason 'simulated') and print how it ended.",
      discussion: "Prints `fetch 7: newData in 120 ms`. APP is the app's id, its entry script or its folder.")

    @Argument(help: "The app: its id, its entry script or its folder.")
    var app: String

    @Flag(help: "Start the app in background for the fetch when it is not running.")
    var launch = false

    @OptionGroup var options: AppOptions

    func run() throws {
      // The app's own time limit bounds the fetch; this bounds a run that never answers at all.
      switch FetchHandOff.send(reason: "simulated", toApp: FetchHandOff.appID(app), timeout: 86_400 + 60) {
      case .answered(let reply):
        print(reply["line"]?.stringValue ?? "fetch: \(JSONValue.object(reply).jsonText)")
        return
      case .failed(let why):
        writeStderr("nbridge: \(why)\n")
        throw ExitCode(1)
      case .notRunning:
        break
      }
      guard launch else {
        writeStderr("nbridge: \(app) is not running (add --launch to start it for the fetch)\n")
        throw ExitCode(1)
      }
      guard let entry = SimulateTarget.entry(app) else { throw ValidationError("cannot find the entry script of \(app)") }
      var request = RunRequest(file: entry, app: options, arguments: [])
      request.fetch = "simulated"
      request.run(try request.configuration())
    }
  }
}

/// What `simulate` names: an entry script, or a folder holding `index.js`.
enum SimulateTarget {
  /// The entry script `app` names, or nil.
  static func entry(_ app: String) -> String? {
    var info = stat()
    guard stat(app, &info) == 0 else { return nil }
    if info.st_mode & S_IFMT == S_IFDIR {
      let index = app.hasSuffix("/") ? app + "index.js" : app + "/index.js"
      return fileIsReadable(index) ? index : nil
    }
    return app
  }
}
