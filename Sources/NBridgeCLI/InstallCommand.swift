import ArgumentParser
import Glibc
import NBridgeAppSetup
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

extension NBridgeCommand {
  /// `nbridge install PATH`: registers an app with the desktop for its URL schemes.
  struct Install: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Register an app with the desktop: its URL schemes open it (nbridge open, xdg-open).",
      discussion: """
        PATH is the app's folder (index.html makes it a window app, else index.js), its entry \
        script, or its page. Writes $XDG_DATA_HOME/nbridge/installed/<id>.json, \
        $XDG_DATA_HOME/applications/<id>.desktop and the default handlers in \
        $XDG_CONFIG_HOME/mimeapps.list. Running it again rewrites the same files.
        """)

    @Argument(help: "The app's folder, entry script or page.")
    var path: String

    @Option(help: "The data folder the app gets when a URL launches it (default: its own under XDG_DATA_HOME).")
    var dataDir: String?

    func run() throws {
      let (entry, window) = try Self.entry(of: path)
      let manifest: AppManifest
      do {
        manifest = try AppSetup.manifest(forEntry: entry)
        try AppSetup.checkPermissions(
          manifest, known: RuntimeConfiguration.knownPermissions(PluginRegistry(NBridgeCommand.plugins)),
          path: AppSetup.manifestPath(forEntry: entry))
      } catch {
        throw ValidationError(error.description)
      }
      guard let nbridge = Spawn.currentExecutable else { throw ValidationError("cannot find this program's path") }
      let app = InstalledApp(
        id: manifest.id, name: manifest.name, entry: entry, window: window, urlSchemes: manifest.urlSchemes ?? [],
        dataDirectory: dataDir.map { absolutePath($0) })
      let desktopText: String
      do { desktopText = try DesktopEntry.text(for: app, nbridge: nbridge) } catch { throw ValidationError(error.description) }
      let previous = InstalledApp.load(app.id)
      var list = MimeAppsList.read()
      let before = list.lines
      for scheme in previous?.urlSchemes ?? [] where !app.urlSchemes.contains(scheme) {
        list.removeDefault("x-scheme-handler/" + scheme, ifItIs: app.id + ".desktop")
      }
      for scheme in app.urlSchemes {
        list.set("x-scheme-handler/" + scheme, to: app.id + ".desktop", in: MimeAppsList.defaults)
      }
      // All or nothing: the record, the desktop entry and the default handlers land together.
      var files = StagedFiles()
      files.write(InstalledApp.recordPath(app.id), Array((app.json.prettyJSON + "\n").utf8))
      files.write(DesktopEntry.path(app.id), Array(desktopText.utf8))
      if list.lines != before { list.stage(in: &files) }
      do {
        try files.commit()
      } catch {
        print("nbridge install: \(error)")
        throw ExitCode(1)
      }
      DesktopEntry.updateDatabase()
      let schemes = app.urlSchemes.isEmpty ? "no URL schemes" : app.urlSchemes.map { $0 + ":" }.joined(separator: " ")
      print("installed \(app.id) (\(schemes)) as \(DesktopEntry.path(app.id))")
    }

    /// The absolute entry for PATH, and whether it is a page.
    static func entry(of path: String) throws -> (String, Bool) {
      let absolute = absolutePath(path)
      var info = stat()
      guard stat(absolute, &info) == 0 else { throw ValidationError("cannot find \(path)") }
      if info.st_mode & S_IFMT == S_IFDIR {
        if fileIsReadable(absolute + "/index.html") { return (absolute + "/index.html", true) }
        if fileIsReadable(absolute + "/index.js") { return (absolute + "/index.js", false) }
        throw ValidationError("\(path) holds neither index.html nor index.js")
      }
      guard fileIsReadable(absolute) else { throw ValidationError("cannot read \(path)") }
      return (absolute, absolute.hasSuffix(".html") || absolute.hasSuffix(".htm"))
    }
  }

  /// `nbridge uninstall APP`: undoes `nbridge install`.
  struct Uninstall: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Remove an installed app: its record, desktop entry, default handlers and fetch timer.")

    @Argument(help: "The app id, or its folder or entry.")
    var app: String

    func run() throws {
      let id: String
      if app.contains("/") {
        // A folder or an entry; never an id (an id names a file, so it holds no '/').
        let (entry, _) = try Install.entry(of: app)
        do { id = try AppSetup.manifest(forEntry: entry).id } catch { throw ValidationError(error.description) }
      } else {
        id = try checkedAppID(app, what: "APP")
      }
      var removed = FetchWakeUp.remove(appID: id)
      for path in [InstalledApp.recordPath(id), DesktopEntry.path(id)] where (try? POSIX.unlink(path)) == true {
        removed = true
      }
      var list = MimeAppsList.read()
      let before = list.lines
      list.remove(desktopID: id + ".desktop")
      if list.lines != before {
        removed = true
        do { try list.write() } catch {
          print("nbridge uninstall: \(error)")
          throw ExitCode(1)
        }
      }
      guard removed else {
        writeStderr("nbridge uninstall: \(id) is not installed\n")
        throw ExitCode(1)
      }
      DesktopEntry.updateDatabase()
      print("uninstalled \(id)")
    }
  }
}
