import ArgumentParser
import Glibc
import NBridgePlugin
import NBridgeRuntime

extension NBridgeCommand {
  /// `nbridge simulate background|foreground|fetch APP`: moves a running app's state through its
  /// control socket, as the desktop would, or delivers it one background fetch (Xcode's
  /// "Simulate Background Fetch").
  struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Move a running app to background or foreground, or deliver it a background fetch.",
      discussion: """
        APP is the app's id, its entry script or its folder. The app must be running \
        (nbridge run or nbridge app); otherwise the command exits 1 (fetch --launch starts it in \
        background for the fetch). background/foreground print the state the app answers, such \
        as 'background (suspended)'; fetch prints `fetch 7: newData in 120 ms`.
        """)

    @Argument(help: ArgumentHelp("What to simulate: background, foreground or fetch.", valueName: "event"))
    var event: String

    @Argument(help: "The app: its id, entry script or folder.")
    var app: String

    @Flag(help: "fetch: start the app in background for the fetch when it is not running.")
    var launch = false

    @OptionGroup var options: AppOptions

    func validate() throws {
      guard ["background", "foreground", "fetch"].contains(event) else {
        throw ValidationError("EVENT must be background, foreground or fetch (got '\(event)')")
      }
      if launch && event != "fetch" { throw ValidationError("--launch goes with fetch only") }
    }

    func run() throws {
      let id: String
      do { id = try SimulateTarget.appID(app) } catch {
        writeLine(2, "nbridge simulate: \(error)")
        throw ExitCode(2)
      }
      if event == "fetch" { return try fetch(id: id) }
      let reply: ControlClient.Reply
      do {
        reply = try ControlClient.send(["op": "state", "set": .string(event)], toApp: id, timeout: 5)
      } catch .notRunning {
        writeLine(2, "nbridge simulate: \(id) is not running")
        throw ExitCode(1)
      } catch {
        writeLine(2, "nbridge simulate: \(id): \(error)")
        throw ExitCode(1)
      }
      guard reply.ok, let state = reply.fields["state"]?.stringValue else {
        writeLine(2, "nbridge simulate: \(id): \(reply.fields["message"]?.stringValue ?? "the app refused")")
        throw ExitCode(1)
      }
      writeLine(1, state + (reply.fields["suspended"] == .bool(true) ? " (suspended)" : ""))
    }

    /// One fetch with reason 'simulated': to the running app, else (`--launch`) to a run started for it.
    private func fetch(id: String) throws {
      // The app's own time limit bounds the fetch; this bounds a run that never answers at all.
      switch FetchHandOff.send(reason: "simulated", toApp: id, timeout: 86_400 + 60) {
      case .answered(let reply):
        writeLine(1, reply["line"]?.stringValue ?? "fetch: \(JSONValue.object(reply).jsonText)")
        return
      case .failed(let why):
        writeLine(2, "nbridge: \(why)")
        throw ExitCode(1)
      case .notRunning:
        break
      }
      guard launch else {
        writeLine(2, "nbridge: \(app) is not running (add --launch to start it for the fetch)")
        throw ExitCode(1)
      }
      guard let entry = SimulateTarget.entry(app) else { throw ValidationError("cannot find the entry script of \(app)") }
      var request = RunRequest(file: entry, app: options, arguments: [])
      request.fetch = "simulated"
      request.run(try request.configuration())
    }

    private func writeLine(_ fd: Int32, _ text: String) {
      let line = text + "\n"
      _ = line.withCString { write(fd, $0, strlen($0)) }
    }
  }
}

/// Which app a CLI argument names: an existing file is an entry script, an existing folder
/// holds one (its `nbridge.json`), anything else is an app id.
enum SimulateTarget {
  static func appID(_ argument: String) throws(AppSetup.Problem) -> String {
    var info = stat()
    guard stat(argument, &info) == 0 else { return argument }
    let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
    let entry = isFolder ? (argument.hasSuffix("/") ? argument : argument + "/") + "index.js" : argument
    return try AppSetup.manifest(forEntry: entry).id
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
}
