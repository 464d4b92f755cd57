import ArgumentParser
import Glibc
import NBridgeAppSetup
import NBridgeControl
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem
import NBridgeWindow

extension NBridgeCommand {
  /// `nbridge app [PATH]`: the app's page in a WebKitGTK window.
  struct App: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Open the app's page in a window (WebKitGTK), served with the same plugins.",
      discussion: """
        PATH is an .html file or a folder holding index.html. Arguments after -- are nbridge.args. \
        Needs a display; 'nbridge run FILE' runs the app's JavaScript headless.
        """)

    @Argument(help: "The page: an .html file, or a folder with index.html.")
    var path: String = "www/"

    @OptionGroup var app: AppOptions

    @Option(help: "Write a PNG of the page once it has loaded (after --script), then exit.")
    var screenshot: String?

    @Option(help: "Evaluate this file in the page after load, as the body of an async function.")
    var script: String?

    @Flag(help: "Exit once --script has settled.")
    var exitAfterScript = false

    @Option(help: ArgumentHelp("Load the page from a bundler's dev server (http:// on a loopback host), its origin given the bridge.", valueName: "url"))
    var devURL: String?

    @Flag(help: "Development: start the manifest's dev.command and load its dev.url (as --dev-url).")
    var dev = false

    @Flag(help: "Reload the page when a file under its folder changes (a script that does not parse is shown over the page instead).")
    var watch = false

    @Flag(help: "Open WebKit's Web Inspector with the window. Every development flag (--dev, --dev-url, --watch, --inspect) puts \"Inspect Element\" in the page's context menu.")
    var inspect = false

    @Option(
      name: .customLong("inspect-server"),
      help: ArgumentHelp(
        "Serve WebKit's remote inspector on HOST:PORT, a loopback address (also spelled --inspect=HOST:PORT): open http://HOST:PORT in a browser.",
        valueName: "host:port"))
    var inspectServer: String?

    @Argument(parsing: .postTerminator, help: "Arguments for the page (after --).")
    var pageArguments: [String] = []

    /// The page's HTML file.
    var page: String {
      var info = stat()
      guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return path }
      return (path.hasSuffix("/") ? path : path + "/") + "index.html"
    }

    var request: RunRequest { RunRequest(file: page, app: app, arguments: pageArguments) }

    func validate() throws {
      try request.validate()
      if let script, !fileIsReadable(script) { throw ValidationError("cannot read --script \(script): no such file") }
      if exitAfterScript && script == nil { throw ValidationError("--exit-after-script needs --script FILE") }
      if let devURL, let problem = DevServerURL.problem(devURL) { throw ValidationError("--dev-url \(problem)") }
      if let inspectServer, let problem = InspectArgument.problem(inspectServer) { throw ValidationError(problem) }
    }

    func run() throws {
      var configuration = try request.configuration()
      switch configuration.claimControlSocket(
        url: request.url, background: request.background, launchArguments: request.launchHandOff)
      {
      case .run: break
      case .handedOff: throw ExitCode(0)
      case .failed: throw ExitCode(1)
      }
      let manifest = configuration.manifest
      var options = WindowOptions(page: absolutePath(page), title: manifest.window?.title ?? manifest.name)
      options.width = manifest.window?.width ?? options.width
      options.height = manifest.window?.height ?? options.height
      options.resizable = manifest.window?.resizable ?? options.resizable
      options.minWidth = manifest.window?.minWidth
      options.minHeight = manifest.window?.minHeight
      options.decorations = manifest.window?.decorations ?? options.decorations
      options.remembersState = manifest.window?.rememberState ?? options.remembersState
      options.allowNavigation = manifest.allowNavigation ?? []
      options.remote = manifest.remote ?? []
      options.screenshot = screenshot.map { absolutePath($0) }
      options.script = script.map { absolutePath($0) }
      options.exitAfterScript = exitAfterScript
      options.inspect = inspect
      options.watch = watch
      options.inspectElement = inspect || inspectServer != nil || watch || dev || devURL != nil
      var server: DevServer?
      if dev || devURL != nil {
        let settings = configuration.manifest.dev
        guard let url = devURL ?? settings?.url else {
          writeStderr("nbridge app: --dev needs --dev-url URL or the manifest's dev.url\n")
          throw ExitCode(ExitStatus.usage)
        }
        options.devURL = url
        if dev, let command = settings?.command {
          // From the project's folder: the one above the page's folder, where package.json is.
          let pageFolder = String(options.page[..<(options.page.lastIndex(of: "/") ?? options.page.endIndex)])
          let project = String(pageFolder[..<(pageFolder.lastIndex(of: "/") ?? pageFolder.endIndex)])
          do throws(SystemError) {
            server = try DevServer.start(command, in: project.isEmpty ? "/" : project)
          } catch {
            writeStderr("nbridge app: cannot start dev.command: \(error)\n")
            throw ExitCode(1)
          }
        }
        if !DevServer.waitUntilReachable(url, seconds: 60) {
          writeStderr("nbridge app: nothing answers at \(url) after 60 s\n")
          server?.stop()
          throw ExitCode(1)
        }
      }
      // WebKit's UI process reads it when it starts its inspector server (WebKitGTK 2.50: an HTTP
      // page listing the targets, each opening the inspector over a WebSocket).
      if let inspectServer { setenv("WEBKIT_INSPECTOR_HTTP_SERVER", inspectServer, 1) }
      let status = WindowApp.run(configuration, options: options)
      server?.stop()
      ControlExtension.listener(in: configuration.extensions)?.close()  // when the window never opened
      fflush(nil)
      _exit(status)
    }
  }
}
