import NBridgePlugin
import NBridgeSystem

/// The shared libraries a bundled app needs from the distribution, as package dependencies:
/// what the executable links (`DT_NEEDED`) and what the runtime opens with `dlopen` for the
/// features the app may use; each resolved as `dpkg-shlibdeps` does, through the installed
/// library's package and its `shlibs` file.
struct BundleDependencies {
  /// The sonames the executable links.
  var linked: [String]
  /// The sonames the runtime opens on first use that this app may need.
  var opened: [String]

  /// Libraries nbridge opens with `dlopen` (CWebKitGTK/WebKitGTK.c, CSoup/Soup.c,
  /// CSQLite/SQLiteLoader.c, Pasteboard/CX11/XlibLoader.c), with the service that needs
  /// each: nil for every app (`fetch`), `"window"` for a page app.
  static let openedLibraries: [(soname: String, needs: String?)] = [
    ("libsoup-3.0.so.0", nil), ("libwebkit2gtk-4.1.so.0", "window"), ("libsqlite3.so.0", "storage"),
    ("libX11.so.6", "pasteboard"), ("libXfixes.so.3", "pasteboard"),
  ]

  /// The libraries `executable` links plus those `app`'s features open.
  init(executable: String, app: BundleApp) throws(BundleProblem) {
    guard let sonames = ELFNeeded.sonames(of: executable) else {
      throw BundleProblem("\(executable) is not a 64-bit ELF executable nbridge bundle can read")
    }
    if let swift = sonames.first(where: { $0.hasPrefix("libswift") || $0.hasPrefix("libFoundation") }) {
      throw BundleProblem(
        "\(executable) links the Swift runtime as a shared library (\(swift)), which a machine without Swift lacks: bundle with an nbridge linked with -static-stdlib (swift build -c release)"
      )
    }
    linked = sonames
    let permissions = app.manifest.permissions
    opened = Self.openedLibraries.filter { library in
      guard let needs = library.needs else { return true }
      if needs == "window" { return app.isPage }
      return permissions?.contains(needs) ?? true
    }.map(\.soname)
  }

  /// Every soname, linked first.
  var all: [String] { linked + opened.filter { !linked.contains($0) } }

  /// The `.deb`'s `Depends`: each library's package with the version its `shlibs` file asks for.
  func debianDepends(tool: BundleTool) throws(BundleProblem) -> String {
    guard tool.has("dpkg-query") else { throw BundleProblem("dpkg-query is missing (package dpkg)") }
    let cache = tool.run(["ldconfig", "-p"]).stdout
    var paths: [(soname: String, path: String)] = []
    for soname in all {
      guard let path = Self.libraryPath(soname, in: cache) else {
        throw BundleProblem(
          "\(soname) is not installed here (ldconfig -p): install its package to compute the dependency")
      }
      paths.append((soname, path))
    }
    let owners = Self.owners(of: paths.flatMap { Self.candidates($0.path) }, tool: tool)
    var depends: [String] = []
    for (soname, path) in paths {
      guard let package = Self.candidates(path).lazy.compactMap({ owners[$0] }).first else {
        throw BundleProblem(
          "\(path) belongs to no installed package (dpkg -S): cannot compute the dependency for \(soname)")
      }
      let dependency = Self.shlibsDependency(soname: soname, package: package, tool: tool) ?? package.name
      if !depends.contains(dependency) { depends.append(dependency) }
    }
    return depends.joined(separator: ", ")
  }

  /// The rpm `Requires` of the libraries the runtime opens (rpmbuild finds the linked ones itself).
  var rpmRequires: [String] { opened.filter { !linked.contains($0) }.map { $0 + "()(64bit)" } }

  /// The path `ldconfig -p` gives for `soname` on this machine's architecture.
  static func libraryPath(_ soname: String, in cache: String) -> String? {
    for line in cache.split(separator: "\n") {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      guard trimmed.hasPrefix(soname + " "), let arrow = trimmed.firstRange(of: " => ") else { continue }
      let flags = trimmed[trimmed.index(trimmed.startIndex, offsetBy: soname.count)..<arrow.lowerBound]
      #if arch(x86_64)
        guard flags.contains("x86-64") else { continue }
      #elseif arch(arm64)
        guard flags.contains("AArch64") else { continue }
      #endif
      return String(trimmed[arrow.upperBound...])
    }
    return nil
  }

  /// An installed package: its name and architecture qualifier (`libfoo0`, `:amd64`).
  struct Package {
    var name: String
    var qualified: String
  }

  /// Where dpkg may have recorded `path`: as it is, then with or without `/usr` (a merged /usr
  /// installs a library under one and ldconfig may name the other).
  static func candidates(_ path: String) -> [String] {
    [path, path.hasPrefix("/usr/") ? String(path.dropFirst(4)) : "/usr" + path]
  }

  /// The packages that installed `paths`, by path, from one `dpkg -S` (each call reads every
  /// package's file list); a path no package installed is left out.
  static func owners(of paths: [String], tool: BundleTool) -> [String: Package] {
    var owners: [String: Package] = [:]
    // dpkg -S exits 1 when a path has no package but still prints the others: its status says nothing here.
    for line in tool.run(["dpkg-query", "-S"] + paths).stdout.split(separator: "\n") {
      // `package[:arch][, package...]: path`; a diversion's line ("diversion by ...") names no owner.
      guard !line.hasPrefix("diversion "), let colon = line.firstRange(of: ": ") else { continue }
      let qualified = String(line[..<colon.lowerBound].split(separator: ",").first ?? "")
      let name = String(qualified.split(separator: ":").first ?? "")
      let path = String(line[colon.upperBound...])
      if !name.isEmpty && owners[path] == nil { owners[path] = Package(name: name, qualified: qualified) }
    }
    return owners
  }

  /// The dependency `package`'s `shlibs` file gives for `soname` (`libfoo.so.1` is `libfoo 1`).
  static func shlibsDependency(soname: String, package: Package, tool: BundleTool) -> String? {
    guard let range = soname.firstRange(of: ".so.") else { return nil }
    let library = soname[..<range.lowerBound]
    let version = soname[range.upperBound...]
    let info = tool.run(["dpkg-query", "--control-path", package.qualified, "shlibs"]).stdout
    guard let path = info.split(separator: "\n").first, let text = POSIX.readText(String(path)) else { return nil }
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 2)
      if fields.count == 3, fields[0] == library, fields[1] == version { return String(fields[2]) }
    }
    return nil
  }
}
