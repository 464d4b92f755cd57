import Glibc
import NBridgeSystem

/// The files `nbridge init` writes: an app, or a plugin package around one.
struct Scaffold {
  /// The folder the files go into (absolute).
  var root: String
  /// Each file's path inside `root` and its text, in the order written.
  var files: [(path: String, text: String)]
  /// What to do next, as `init` prints it after `DIR`.
  var steps: [String]

  /// An app of `template`: a page with its headless entry beside it, a headless app, or a page
  /// that Vite serves while developing.
  static func app(in root: String, template: AppTemplate) -> Scaffold {
    let names = AppNames(folder: root)
    switch template {
    case .headless: return headless(in: root, names: names)
    case .page:
      return Scaffold(
        root: root,
        files: [
          ("www/index.html", PageTemplates.html(names)),
          ("www/page.js", PageTemplates.page),
          ("www/index.js", PageTemplates.index),
          ("www/greeting.js", PageTemplates.greeting),
          ("www/nbridge.json", AppTemplates.manifest(names, permissions: ["app", "storage"])),
          ("Tests/js/greeting.test.js", PageTemplates.test),
          ("README.md", PageTemplates.readme(names)),
          (".gitignore", AppTemplates.gitignore),
        ],
        steps: ["nbridge app --watch www/", "nbridge test"])
    case .vite:
      return Scaffold(
        root: root,
        files: [
          ("package.json", ViteTemplates.package(names)),
          ("vite.config.js", ViteTemplates.config),
          ("www/index.html", PageTemplates.html(names)),
          ("www/page.js", PageTemplates.page),
          ("www/index.js", PageTemplates.index),
          ("www/greeting.js", PageTemplates.greeting),
          ("www/nbridge.json", ViteTemplates.manifest(names)),
          ("Tests/js/greeting.test.js", PageTemplates.test),
          ("README.md", ViteTemplates.readme(names)),
          (".gitignore", ViteTemplates.gitignore),
        ],
        steps: ["npm install", "nbridge app --dev www/"])
    }
  }

  /// A headless app: `www/index.js`, `www/greeting.js`, `www/nbridge.json`, a JS test and a README.
  static func headless(in root: String, names: AppNames) -> Scaffold {
    Scaffold(
      root: root,
      files: [
        ("www/index.js", AppTemplates.index),
        ("www/greeting.js", AppTemplates.greeting),
        ("www/nbridge.json", AppTemplates.manifest(names, permissions: ["app", "storage"])),
        ("Tests/js/greeting.test.js", AppTemplates.test),
        ("README.md", AppTemplates.readme(names)),
        (".gitignore", AppTemplates.gitignore),
      ],
      steps: ["nbridge run www/index.js", "nbridge test"])
  }

  /// A Swift package with a plugin, its one-line CLI, a Swift test and a JS test, around an app.
  static func plugin(_ plugin: PluginNames, in root: String, nbridge: NBridgeDependency) -> Scaffold {
    let names = AppNames(folder: root)
    return Scaffold(
      root: root,
      files: [
        ("Package.swift", PluginTemplates.package(plugin, nbridge: nbridge)),
        ("Sources/\(plugin.target)/\(plugin.target).swift", PluginTemplates.plugin(plugin)),
        ("Sources/\(plugin.executable)/main.swift", PluginTemplates.main(plugin)),
        ("Tests/\(plugin.target)Tests/\(plugin.target)Tests.swift", PluginTemplates.swiftTest(plugin)),
        ("Tests/js/\(plugin.service).test.js", PluginTemplates.jsTest(plugin)),
        ("www/index.js", PluginTemplates.index(plugin)),
        ("www/nbridge.json", AppTemplates.manifest(names, permissions: ["app", "storage", plugin.service])),
        ("Makefile", PluginTemplates.makefile(plugin)),
        ("README.md", PluginTemplates.readme(plugin, names, nbridge: nbridge)),
        (".gitignore", AppTemplates.gitignore + "/.build/\n/.swiftpm/\nPackage.resolved\n"),
      ],
      steps: ["make test", "make run"])
  }

  /// Writes every file, making folders as needed (files already there are replaced).
  func write() throws(InitError) {
    for (path, text) in files {
      let target = root + "/" + path
      try makeFolders(upTo: target)
      do {
        let fd = try POSIX.open(target, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        defer { close(fd) }
        try POSIX.writeAll(fd, Array(text.utf8), what: target)
      } catch {
        throw InitError("cannot write \(target): \(error.reason)")
      }
    }
  }

  /// The lines `init` prints once the files are written.
  func nextSteps(for directory: String) -> String {
    var directory = directory
    while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
    var text = "Made \(directory)\(directory.hasSuffix("/") ? "" : "/") (\(files.count) files):\n"
    for file in files { text += "  \(file.path)\n" }
    text += "Next:\n"
    let safe = directory.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+~".contains($0)) }
    let folder = safe ? directory : "'" + directory.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    for step in steps { text += "  cd \(folder) && \(step)\n" }
    return text
  }

  /// `mkdir -p` of the folders above `file`, readable by everyone (0755, less the umask).
  private func makeFolders(upTo file: String) throws(InitError) {
    var folder = ""
    for part in file.split(separator: "/").dropLast() {
      folder += "/" + part
      if mkdir(folder, 0o755) != 0 && errno != EEXIST {
        throw InitError("cannot create \(folder): \(String(cString: strerror(errno)))")
      }
    }
  }
}

/// Why `nbridge init` could not write its files.
struct InitError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
