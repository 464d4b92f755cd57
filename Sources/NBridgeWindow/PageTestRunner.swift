import CWebKitGTK
import Glibc
import NBridgeAppSetup
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem
import NBridgeTestRunner

/// `nbridge test --page`: runs the same test files as `nbridge test`, each in a window of the app
/// (WebKitGTK, the real plugins, `document` and `window`) with fresh data and shared folders,
/// and prints the same `ok N - name` lines and `N passed, N failed`.
package struct PageTestRunner: Sendable {
  /// The options of `nbridge test` (plugins, time limit, desktop, permissions, extensions).
  package var options: TestRunner
  /// The app's page folder: `{ page: 'index.html' }` names its files.
  package var appFolder: String

  /// A runner with `options`, whose tests' pages are files of `appFolder`.
  package init(_ options: TestRunner, appFolder: String) {
    self.options = options
    self.appFolder = appFolder
  }

  /// Runs the files (the display is open: `DISPLAY` or `WAYLAND_DISPLAY` is set); returns the
  /// exit status: 1 when a test failed or none was found, the signal's status when one stopped it.
  package func run(paths: [String]) -> Int32 {
    let given = paths.isEmpty ? ["Tests/js"] : paths
    let files = TestRunner.discover(given)
    guard !files.isEmpty else {
      WindowApp.writeLine(2, "nbridge test: no *.test.js, *.test.mjs or *.test.ts files under \(given.joined(separator: ", "))")
      return 1
    }
    guard let folder = PageFolder(appFolder) else {
      WindowApp.writeLine(2, "nbridge test: --app \(appFolder) is not a folder")
      return ExitStatus.usage
    }
    if let status = WindowApp.startGTK(command: "nbridge test --page") { return status }
    var passed = 0
    var failed = 0
    // Each file's scratch folder is removed as the file ends, and again once WebKit's helper
    // processes have ended: its network process still writes a page's storage
    // (data/webkit/storage) after the window has gone, and makes the folder again. (A second
    // Ctrl-C, or one between files, ends the process at once: what WebKit made again stays.)
    var scratches: [String] = []
    defer {
      HelperProcesses.stop()
      for scratch in scratches { TemporaryFolder.remove(scratch) }
    }
    for file in files {
      switch runFile(file, firstNumber: passed + failed + 1, folder: folder, scratches: &scratches) {
      case .counted(let p, let f):
        passed += p
        failed += f
      case .stopped(let status):
        return status
      }
    }
    WindowApp.writeLine(1, "\(passed) passed, \(failed) failed")
    return failed == 0 ? 0 : 1
  }

  /// How a file's run ended: its counts, or a signal's exit status (the whole run stops).
  enum Outcome {
    case counted(Int, Int)
    case stopped(Int32)
  }

  /// Runs one file's tests in a window of its own, with a fresh scratch folder, removed as it
  /// ends and added to `scratches`, which the caller removes again once WebKit's helper processes have ended.
  func runFile(_ file: String, firstNumber: Int, folder: PageFolder, scratches: inout [String]) -> Outcome {
    let name = file.split(separator: "/").last.map(String.init) ?? file
    guard let scratch = TemporaryFolder.make() else {
      WindowApp.writeLine(1, "not ok \(firstNumber) - \(name): cannot make a temporary folder")
      return .counted(0, 1)
    }
    scratches.append(scratch)
    defer { TemporaryFolder.remove(scratch) }
    if let reason = Self.headlessOnlyReason(file) {
      WindowApp.writeLine(1, "ok \(firstNumber) - \(name) # SKIP \(reason)")
      return .counted(1, 0)
    }
    var configuration: RuntimeConfiguration
    do throws(AppSetup.Problem) { configuration = try options.configuration(for: file, scratch: scratch) } catch {
      WindowApp.writeLine(1, "not ok \(firstNumber) - \(file): \(error.description)")
      return .counted(0, 1)
    }
    guard let (files, relativePath) = Self.servedFolder(of: file) else {
      WindowApp.writeLine(1, "not ok \(firstNumber) - \(file): cannot open its folder")
      return .counted(0, 1)
    }
    var windowOptions = WindowOptions(page: folder.root + "/index.html", title: "nbridge test: " + name)
    windowOptions.remembersState = false
    // As `nbridge app` says which page runs: plugins read relative paths (a tray icon) from its folder.
    configuration.environment["NBRIDGE_RUN_PAGE"] = windowOptions.page
    let host = configuration.manifest.id.lowercased()
    let counts = Counts()
    let timeout = options.testTimeout
    let status = Runtime.runPage(configuration, entry: file) { runtime in
      let window = AppWindow(runtime: runtime, options: windowOptions, folder: folder, host: host, entryPath: "/")
      window.allowsLocation = configuration.allows(permission: AppWindow.locationPermission)
      window.tests = PageTestSession(
        file: file, files: files, relativePath: relativePath, firstNumber: firstNumber, timeoutMs: timeout
      ) { [unowned window] passed, failed in
        counts.value = (passed, failed)
        if let handle = window.window { nbw_window_destroy(handle) }
      }
      window.tests?.importMap = Self.importMap(configuration.manifest)
      window.open(dataDirectory: configuration.dataDirectory)
      WindowApp.windows.append(window)
      return nil
    }
    if let value = counts.value { return .counted(value.0, value.1) }
    if [ExitStatus.interrupted, ExitStatus.terminated, ExitStatus.hungUp].contains(status) { return .stopped(status) }
    WindowApp.writeLine(1, "not ok \(firstNumber) - \(name): the app ended before its tests did (exit status \(status))")
    return .counted(0, 1)
  }

  /// The reason a file gives for running headless only: a `// @headless-only: reason` line
  /// among its leading comments (for a file a page cannot even import); nil when it has none.
  static func headlessOnlyReason(_ file: String) -> String? {
    guard let bytes = PageFolder.contents(of: file) else { return nil }
    for line in String(decoding: bytes.prefix(4096), as: UTF8.self).split(separator: "\n") {
      let text = line.drop { $0 == " " || $0 == "\t" }
      guard text.hasPrefix("//") || text.hasPrefix("#!") else { break }
      let comment = text.dropFirst(2).drop { $0 == " " }
      guard comment.hasPrefix("@headless-only") else { continue }
      let reason = comment.dropFirst("@headless-only".count).drop { $0 == ":" || $0 == " " }
      return reason.isEmpty ? "headless only" : String(reason)
    }
    return nil
  }

  /// The manifest's import map as a page's `<script type="importmap">` gives it; nil without one.
  static func importMap(_ manifest: AppManifest) -> JSONValue? {
    func object(_ specifiers: [String: String]) -> JSONValue {
      var map = JSONObject()
      for (key, value) in specifiers.sorted(by: { $0.key < $1.key }) { map[key] = .string(value) }
      return .object(map)
    }
    var map = JSONObject()
    if let imports = manifest.imports { map["imports"] = object(imports) }
    if let scopes = manifest.scopes {
      var byScope = JSONObject()
      for (scope, specifiers) in scopes.sorted(by: { $0.key < $1.key }) { byScope[scope] = object(specifiers) }
      map["scopes"] = .object(byScope)
    }
    return map.isEmpty ? nil : .object(map)
  }

  /// The folder a test file's imports are served from (the working folder when the file lies
  /// under it, as a headless run reads the project's files; else the file's own folder), and the
  /// file's path inside it.
  static func servedFolder(of file: String) -> (PageFolder, String)? {
    guard let real = realPath(file) else { return nil }
    if let cwd = realPath("."), cwd != "/", real.hasPrefix(cwd + "/"), let folder = PageFolder(cwd) {
      return (folder, String(real.dropFirst(cwd.count + 1)))
    }
    let slash = real.lastIndex(of: "/") ?? real.startIndex
    guard let folder = PageFolder(String(real[..<slash])) else { return nil }
    return (folder, String(real[real.index(after: slash)...]))
  }
}

/// A file's counts, set on the loop thread while `runPage` runs and read after it returned.
private final class Counts: @unchecked Sendable {
  var value: (Int, Int)?
}
