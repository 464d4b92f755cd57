import ArgumentParser
import Glibc
import NBridgeAppSetup
import NBridgeControl
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

extension NBridgeCommand {
  /// `nbridge open URL`: hands a URL to the installed app that claims its scheme, else to the desktop.
  struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Open a URL: an installed app's scheme goes to that app (running or not), anything else to xdg-open.",
      discussion: """
        Exits 0 once the URL was accepted: a running app took it over its control socket, or an \
        app launched for it (nbridge run --url, its output in $XDG_STATE_HOME/nbridge/<id>.log) \
        did, or xdg-open succeeded. Exits 1 with a message when nothing takes it.
        """)

    @Argument(help: "The URL, such as dbuurl://localhost/data.")
    var url: String

    @Option(help: ArgumentHelp("Give the URL to this installed app, whatever its scheme (desktop entries use this).", valueName: "id"))
    var app: String?

    @Flag(help: "Hand the URL over without making the app active.")
    var background = false

    @Flag(help: "Only say who would get the URL (exit 0), or that nothing would (exit 1).")
    var check = false

    @Flag(help: "Only installed nbridge apps: never hand the URL to xdg-open (headless runs).")
    var appsOnly = false

    func validate() throws {
      if AppSetup.scheme(of: url) == nil { throw ValidationError("\"\(url)\" is not a URL (it has no scheme)") }
      if let app { _ = try checkedAppID(app, what: "--app") }
    }

    func run() throws {
      let scheme = AppSetup.scheme(of: url)!
      let target: InstalledApp?
      if let app {
        guard let installed = InstalledApp.load(app) else { return fail("\(app) is not installed (nbridge install DIR)") }
        target = installed
      } else {
        target = InstalledApp.claiming(scheme)
      }
      if check {
        if let target { return print("app \(target.id)") }
        guard !appsOnly, let handler = URLDesktop.defaultHandler(scheme: scheme) else {
          return fail("nothing handles \(scheme): URLs")
        }
        return print("desktop \(handler)")
      }
      if let target { return try deliver(to: target) }
      if appsOnly { return fail("no installed app claims \(scheme): URLs") }
      let environment = ProcessEnvironment.current
      guard Spawn.locate("xdg-open", path: environment["PATH"] ?? "/usr/bin:/bin") != nil else {
        return fail("no app claims \(scheme): URLs, and xdg-open is not installed")
      }
      let status = Spawn.run(["xdg-open", url], environment: environment) ?? 127
      if status != 0 { return fail("no app claims \(scheme): URLs (xdg-open exited with status \(status))") }
    }

    /// Over the app's socket when it runs, else by launching it.
    private func deliver(to app: InstalledApp) throws {
      do {
        let reply = try ControlClient.send(
          ["op": "url", "url": .string(url), "background": .bool(background)], toApp: app.id, timeout: 10, waking: true)
        if reply.ok { return }
        if reply.fields["message"]?.stringValue != "the app is exiting" {
          return fail("\(app.id) refused the URL: \(reply.fields["message"]?.stringValue ?? "?")")
        }
      } catch .failed(let why) {
        return fail("cannot reach \(app.id): \(why)")
      } catch {
        // Not running (or ending): launch it.
      }
      try launch(app)
    }

    /// Starts `nbridge run --url URL ENTRY` (or `app`) detached, its output in the app's log, and
    /// waits for it to say the URL was accepted: it owns the socket, or handed the URL to the
    /// instance that won the race.
    private func launch(_ app: InstalledApp) throws {
      guard let nbridge = Spawn.currentExecutable else { return fail("cannot find this program's path") }
      var pair: [Int32] = [-1, -1]
      guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
        return fail("cannot create a socket pair")
      }
      defer { close(pair[0]) }
      var environment = ProcessEnvironment.current
      environment[RuntimeConfiguration.launchNotifyVariable] = "3"
      environment["NBRIDGE_DATA_DIR"] = nil  // the sender's data dir is not the app's
      var arguments = [nbridge, app.window ? "app" : "run", "--url", url]
      if background { arguments.append("--background") }
      if let dataDirectory = app.dataDirectory { arguments += ["--data-dir", dataDirectory] }
      arguments.append(app.entry)
      let log = XDGPaths.log(forApp: app.id)
      let pid: pid_t
      do {
        try POSIX.makeDirectories(String(log[..<log.lastIndex(of: "/")!]))
        pid = try Spawn.start(arguments, environment: environment, output: .append(log), newSession: true, passing: pair[1])
      } catch {
        close(pair[1])
        return fail("cannot launch \(app.id): \(error)")
      }
      close(pair[1])
      var limit = timeval(tv_sec: 60, tv_usec: 0)
      setsockopt(pair[0], SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
      var byte: UInt8 = 0
      let n = withUnsafeMutableBytes(of: &byte) { UnixSocket.receive(pair[0], into: $0) }
      if n == nil || n == 0 {
        var status: Int32 = 0
        let ended = waitpid(pid, &status, WNOHANG) == pid
        return fail("\(app.id) \(ended ? "exited" : "did not answer") before taking the URL; see \(log)")
      }
    }

    private func fail(_ message: String) {
      writeStderr("nbridge open: \(message)\n")
      Glibc.exit(1)
    }
  }
}
