import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// The installed tree of a bundled app, staged under `<root>/usr`: the same files in every
/// format (the portable archive holds `usr`'s contents under a folder of its own).
///
///     usr/bin/<command>                                 a symbolic link to the executable
///     usr/lib/<id>/<command>                            the executable: nbridge with the app's plugins
///     usr/lib/<id>/bundle-mode                          `window` or `script` (BundledLaunch)
///     usr/lib/<id>/app/                                 the app's folder, nbridge.json included (without `dev`)
///     usr/share/applications/<id>.desktop
///     usr/share/icons/hicolor/<size>/apps/<id>.{png,svg}
///     usr/share/metainfo/<id>.metainfo.xml
///     usr/lib/systemd/user/nbridge-fetch-<id>.service  the background fetch's wake-up (BundleApp.fetchEntry)
///     usr/share/doc/<command>/{copyright,changelog.gz}
struct BundleLayout {
  /// The folder holding `usr`.
  let root: String
  /// The app.
  let app: BundleApp

  /// The class `nbridge app` gives its window (GTK takes it from the program's name, the
  /// executable's file name, capitalised as GDK does); the desktop entry's `StartupWMClass`.
  static func windowClass(command: String) -> String {
    command.prefix(1).uppercased() + command.dropFirst()
  }

  /// The files of the tree, relative to `root` (`usr/...`), sorted; folders not included,
  /// symbolic links included.
  var files: [String] = []
  /// The symbolic links among `files`.
  var links: Set<String> = []

  init(root: String, app: BundleApp) {
    self.root = root
    self.app = app
  }

  /// `usr/lib/<id>`.
  var libraryFolder: String { "usr/lib/" + app.id }
  /// The executable's path in the tree (nbridge itself: `usr/bin/nbridge`).
  var executable: String { app.isCLI ? "usr/bin/" + app.command : libraryFolder + "/" + app.command }
  /// The icon's path in the tree, when there is one.
  var iconPath: String? {
    guard let icon = app.icon else { return nil }
    if let size = icon.size { return "usr/share/icons/hicolor/\(size)x\(size)/apps/\(app.id).png" }
    return "usr/share/icons/hicolor/scalable/apps/\(app.id).svg"
  }

  /// Writes the tree: `binary` copied (stripped when `strip` is installed), the app's files, the
  /// generated texts; every mode set (0755/0644) and every time `epoch`.
  mutating func stage(binary: String, tool: BundleTool, epoch: Int) throws(BundleProblem) {
    let date = BundleTexts.date(epoch, "%Y-%m-%d")
    let changelogDate = BundleTexts.date(epoch, "%a, %d %b %Y %H:%M:%S +0000")
    if !app.isCLI {
      try link("usr/bin/" + app.command, to: "../lib/\(app.id)/\(app.command)")
      let mode: BundledLaunch.Mode = app.isPage ? .window : .script
      try write(libraryFolder + "/" + BundledLaunch.markerName, mode.rawValue + "\n")
    }
    try copy(from: binary, to: executable, executable: true)
    if tool.has("strip") {
      let stripped = tool.run(["strip", "--strip-unneeded", "--remove-section=.comment", root + "/" + executable])
      guard stripped.status == 0 else {
        throw BundleProblem("strip failed on \(binary): \(stripped.stderr.split(separator: "\n").first ?? "")")
      }
    }
    if !app.isCLI {
      try copyFolder(from: app.folder, to: libraryFolder + "/app")
      try dropDevSettings(libraryFolder + "/app/nbridge.json")
      let desktop: String
      do { desktop = try DesktopEntry.packagedText(for: app) } catch {
        throw BundleProblem("the desktop entry: \(error)")
      }
      try write("usr/share/applications/\(app.id).desktop", desktop)
      if let icon = app.icon, let iconPath { try copy(from: icon.path, to: iconPath, executable: false) }
      try write("usr/share/metainfo/\(app.id).metainfo.xml", BundleTexts.metainfo(for: app, date: date))
      if let fetchEntry = app.fetchEntry {
        let unit = FetchWakeFolder.systemdUnit(appID: app.id)
        let arguments = ["/" + executable, "run", "--fetch", "/\(libraryFolder)/app/\(fetchEntry)"]
        try write(
          "usr/lib/systemd/user/\(unit).service",
          SystemdFetchUnits.service(appID: app.id, arguments: arguments, environment: []))
      }
    }
    let doc = "usr/share/doc/" + app.command
    try write(doc + "/copyright", BundleTexts.copyright(for: app))
    try write(doc + "/changelog", BundleTexts.changelog(for: app, date: changelogDate))
    let zipped = tool.run(["gzip", "-9n", root + "/" + doc + "/changelog"])
    guard zipped.status == 0 else { throw BundleProblem("gzip is missing or failed: \(zipped.stderr)") }
    files = files.map { $0 == doc + "/changelog" ? $0 + ".gz" : $0 }.sorted()
    try Self.settle(root, epoch: epoch)
  }

  /// The tree's size as dpkg's `Installed-Size` counts it: KiB, each file rounded up.
  var installedKiB: Int {
    files.reduce(0) { total, file in
      var info = stat()
      guard lstat(root + "/" + file, &info) == 0 else { return total }
      return total + (Int(info.st_size) + 1023) / 1024
    } + 1
  }

  /// Writes `text` at `path` in the tree.
  mutating func write(_ path: String, _ text: String, executable: Bool = false) throws(BundleProblem) {
    try makeParent(of: path)
    do {
      try POSIX.writeAtomically(root + "/" + path, Array(text.utf8), mode: executable ? 0o755 : 0o644, syncs: false)
    } catch {
      throw BundleProblem("cannot write \(root)/\(path): \(error)")
    }
    files.append(path)
  }

  /// Rewrites the manifest at `path` in the tree without its `dev` (the author's dev server and
  /// its command: an installed app has neither); one without `dev` stays as written.
  func dropDevSettings(_ path: String) throws(BundleProblem) {
    guard let text = POSIX.readText(root + "/" + path), case .object(var manifest)? = try? JSONValue(parsing: text),
      manifest["dev"] != nil
    else { return }
    manifest["dev"] = nil
    do {
      let text = JSONValue.object(manifest).jsonText + "\n"
      try POSIX.writeAtomically(root + "/" + path, Array(text.utf8), mode: 0o644, syncs: false)
    } catch {
      throw BundleProblem("cannot write \(root)/\(path): \(error)")
    }
  }

  /// Makes `path` in the tree a symbolic link to `target` (relative, so it holds wherever the
  /// tree is unpacked).
  mutating func link(_ path: String, to target: String) throws(BundleProblem) {
    try makeParent(of: path)
    guard symlink(target, root + "/" + path) == 0 else {
      throw BundleProblem("cannot link \(root)/\(path): \(String(cString: strerror(errno)))")
    }
    files.append(path)
    links.insert(path)
  }

  /// Copies the file `source` to `path` in the tree.
  mutating func copy(from source: String, to path: String, executable: Bool) throws(BundleProblem) {
    try makeParent(of: path)
    let input: Int32
    do { input = try POSIX.open(source, O_RDONLY) } catch {
      throw BundleProblem("cannot read \(source): \(error.reason)")
    }
    defer { close(input) }
    let output: Int32
    do {
      output = try POSIX.open(root + "/" + path, O_WRONLY | O_CREAT | O_TRUNC, mode: executable ? 0o755 : 0o644)
    } catch {
      throw BundleProblem("cannot write \(root)/\(path): \(error.reason)")
    }
    defer { close(output) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
    defer { buffer.deallocate() }
    while true {
      let count: Int
      do { count = try POSIX.read(input, into: buffer, what: source) } catch {
        throw BundleProblem("cannot read \(source): \(error.reason)")
      }
      if count == 0 { break }
      let bytes = UnsafeRawBufferPointer(rebasing: buffer[..<count])
      do { try POSIX.writeAll(output, bytes, what: root + "/" + path) } catch {
        throw BundleProblem("cannot write \(root)/\(path): \(error)")
      }
    }
    files.append(path)
  }

  /// Copies the folder `source` into `path`: regular files and folders, hidden ones (`.git`) left out.
  mutating func copyFolder(from source: String, to path: String) throws(BundleProblem) {
    guard let names = Directory.names(source) else { throw BundleProblem("cannot read the folder \(source)") }
    for name in names.sorted() where !name.hasPrefix(".") {
      var info = stat()
      guard stat(source + "/" + name, &info) == 0 else { continue }
      switch info.st_mode & S_IFMT {
      case S_IFDIR: try copyFolder(from: source + "/" + name, to: path + "/" + name)
      case S_IFREG: try copy(from: source + "/" + name, to: path + "/" + name, executable: info.st_mode & 0o111 != 0)
      default: continue
      }
    }
  }

  /// Makes the folders above `path` in the tree.
  func makeParent(of path: String) throws(BundleProblem) {
    guard let slash = path.lastIndex(of: "/") else { return }
    do { try POSIX.makeDirectories(root + "/" + path[..<slash]) } catch {
      throw BundleProblem("cannot make \(root)/\(path[..<slash]): \(error)")
    }
  }

  /// Sets modes (folders 0755, files 0755 or 0644 by their execute bit) and times (`epoch`)
  /// under `path`, whatever the umask and the clock were.
  static func settle(_ path: String, epoch: Int) throws(BundleProblem) {
    var info = stat()
    guard lstat(path, &info) == 0 else { throw BundleProblem("cannot read \(path)") }
    if info.st_mode & S_IFMT == S_IFDIR {
      for name in Directory.names(path) ?? [] { try settle(path + "/" + name, epoch: epoch) }
      chmod(path, 0o755)
    } else if info.st_mode & S_IFMT == S_IFLNK {
      // A link has no mode of its own (chmod would change its target's).
    } else {
      chmod(path, info.st_mode & 0o100 != 0 ? 0o755 : 0o644)
    }
    var times = [timespec(tv_sec: epoch, tv_nsec: 0), timespec(tv_sec: epoch, tv_nsec: 0)]
    guard utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
      throw BundleProblem("cannot set the time of \(path): \(String(cString: strerror(errno)))")
    }
  }
}
