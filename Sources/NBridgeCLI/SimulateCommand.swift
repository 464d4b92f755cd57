import ArgumentParser
import Glibc
import NBridgeAppSetup
import NBridgeControl
import NBridgePlugin
import NBridgeRuntime

extension NBridgeCommand {
  /// `nbridge simulate background|foreground|fetch APP`: drives a running app's lifecycle from
  /// outside, through its control socket, as the desktop (or Xcode's debug menu) would.
  struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Drive a running app's lifecycle: move it to background or foreground, or deliver a fetch.",
      discussion: "APP is the app's id, its entry script or its folder.",
      subcommands: [Background.self, Foreground.self, Fetch.self])
  }
}

extension NBridgeCommand.Simulate {
  /// `nbridge simulate background APP`.
  struct Background: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Move a running app to background (it suspends once no task is open).",
      discussion: "Prints the state the app answers, such as 'background (suspended)'. Not running: exit 1.")

    @Argument(help: "The app: its id, entry script or folder.")
    var app: String

    func run() throws { try SimulateTarget.move(app, to: "background") }
  }

  /// `nbridge simulate foreground APP`.
  struct Foreground: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Bring a running app back to the foreground (active).",
      discussion: "Prints the state the app answers. Not running: exit 1.")

    @Argument(help: "The app: its id, entry script or folder.")
    var app: String

    func run() throws { try SimulateTarget.move(app, to: "foreground") }
  }

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
      let id = try SimulateTarget.appID(app)
      switch FetchHandOff.send(reason: "simulated", toApp: id, timeout: 86_400 + 60) {
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

/// Which app a CLI argument names: an existing file is an entry script, an existing folder
/// holds one (its `nbridge.json`), anything else is an app id.
enum SimulateTarget {
  /// The app id `argument` names.
  static func appID(_ argument: String) throws -> String {
    var info = stat()
    guard stat(argument, &info) == 0 else { return try checkedAppID(argument, what: "APP") }
    let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
    let entry = isFolder ? (argument.hasSuffix("/") ? argument : argument + "/") + "index.js" : argument
    do { return try AppSetup.manifest(forEntry: entry).id } catch { throw ValidationError(error.description) }
  }

  /// The entry script `app` names (a file, or a folder's `index.js`), or nil.
  static func entry(_ app: String) -> String? {
    var info = stat()
    guard stat(app, &info) == 0 else { return nil }
    if info.st_mode & S_IFMT == S_IFDIR {
      let index = app.hasSuffix("/") ? app + "index.js" : app + "/index.js"
      return fileIsReadable(index) ? index : nil
    }
    return app
  }

  /// Sends the `state` op moving `app` to `event` and prints the state it answers.
  static func move(_ app: String, to event: String) throws {
    let id: String
    do { id = try appID(app) } catch {
      writeStderr("nbridge simulate: \(error)\n")
      throw ExitCode(2)
    }
    let reply: ControlClient.Reply
    do {
      reply = try ControlClient.send(["op": "state", "set": .string(event)], toApp: id, timeout: 5)
    } catch .notRunning {
      writeStderr("nbridge simulate: \(id) is not running\n")
      throw ExitCode(1)
    } catch {
      writeStderr("nbridge simulate: \(id): \(error)\n")
      throw ExitCode(1)
    }
    guard reply.ok, let state = reply.fields["state"]?.stringValue else {
      writeStderr("nbridge simulate: \(id): \(reply.fields["message"]?.stringValue ?? "the app refused")\n")
      throw ExitCode(1)
    }
    print(state + (reply.fields["suspended"] == .bool(true) ? " (suspended)" : ""))
  }
}
