import ArgumentParser
import Glibc
import NBridgePlugin
import NBridgeRuntime

extension NBridgeCommand {
  /// `nbridge simulate background|foreground APP`: moves a running app's state through its
  /// control socket, as the desktop would.
  struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Move a running app to background or foreground through its control socket.",
      discussion: """
        APP is the app's id, its entry script or its folder. The app must be running \
        (nbridge run or nbridge app); otherwise the command exits 1. Prints the state the app \
        answers, such as 'background (suspended)'.
        """)

    @Argument(help: ArgumentHelp("What to simulate: background or foreground.", valueName: "event"))
    var event: String

    @Argument(help: "The app: its id, entry script or folder.")
    var app: String

    func validate() throws {
      guard ["background", "foreground"].contains(event) else {
        throw ValidationError("EVENT must be background or foreground (got '\(event)')")
      }
    }

    func run() throws {
      let id: String
      do { id = try SimulateTarget.appID(app) } catch {
        writeLine(2, "nbridge simulate: \(error)")
        throw ExitCode(2)
      }
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
}
