import Glibc
import NBridgeRuntime
import NBridgeSystem

/// The package formats `nbridge bundle` writes, each from the staged tree into the work folder.
enum BundleFormat: String, CaseIterable {
  case deb, rpm, tar

  /// The programs the format needs, with the Debian package that has each.
  var tools: [(name: String, package: String)] {
    switch self {
    case .deb: [("dpkg-deb", "dpkg"), ("dpkg-query", "dpkg"), ("md5sum", "coreutils")]
    case .rpm: [("rpmbuild", "rpm")]
    case .tar: [("tar", "tar"), ("gzip", "gzip")]
    }
  }

  /// Parses `--format`'s comma-separated list, in the order given, each once.
  static func list(_ text: String) -> Result<[BundleFormat], BundleProblem> {
    var formats: [BundleFormat] = []
    for name in text.split(separator: ",", omittingEmptySubsequences: false).map({ String($0).trimmingSpaces }) {
      guard let format = BundleFormat(rawValue: name) else {
        return .failure(BundleProblem("--format: unknown format \"\(name)\" (deb, rpm, tar)"))
      }
      if !formats.contains(format) { formats.append(format) }
    }
    return .success(formats)
  }
}

/// Writing one package from a staged layout.
struct BundleWriter {
  /// The staged tree.
  let layout: BundleLayout
  /// The work folder (inside `--out`).
  let work: String
  /// The tools' runner.
  let tool: BundleTool
  /// What the app needs from the distribution.
  let dependencies: BundleDependencies

  var app: BundleApp { layout.app }

  /// The machine's architecture as `uname -m` gives it (`x86_64`).
  static var machine: String {
    var names = utsname()
    uname(&names)
    return withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  }

  /// `<top>.tar.gz`: the tree's `usr` as `<command>-<version>/` (without its systemd units),
  /// runs from wherever it is unpacked.
  func tar() throws(BundleProblem) -> String {
    let top = "\(app.command)-\(app.manifest.version)"
    let name = "\(top)-\(Self.machine).tar"
    try check(
      tool.run([
        "tar", "--sort=name", "--format=gnu", "--owner=0", "--group=0", "--numeric-owner",
        "--mtime=@\(tool.environment["SOURCE_DATE_EPOCH"] ?? "0")", "--transform=s,^usr,\(top),",
        // The systemd units name /usr paths: an app run from the archive writes its own at run time.
        "--exclude=usr/lib/systemd", "-C", layout.root,
        "-cf", work + "/" + name, "usr",
      ]), "tar")
    // gzip's own default level: -9 takes three times the CPU (3.7 s against 1.2 s on a 31 MB
    // executable) for an archive 0.8% smaller. -n leaves the name and time out (reproducible).
    try check(tool.run(["gzip", "-6n", work + "/" + name]), "gzip")
    return name + ".gz"
  }

  /// `<command>_<version>_<arch>.deb` through `dpkg-deb`, owned by root, with `md5sums`.
  func deb() throws(BundleProblem) -> String {
    let architecture = String(tool.run(["dpkg", "--print-architecture"]).stdout.split(separator: "\n").first ?? "")
    let depends = try dependencies.debianDepends(tool: tool)
    let control = layout.root + "/DEBIAN"
    do { try POSIX.makeDirectories(control) } catch { throw BundleProblem("cannot make \(control): \(error)") }
    let sums = tool.run(["md5sum", "--"] + layout.files.filter { !layout.links.contains($0) }, in: layout.root)
    try check(sums, "md5sum")
    let texts = [
      (
        "control",
        BundleTexts.control(for: app, architecture: architecture, depends: depends, installedKiB: layout.installedKiB),
        false
      ),
      ("md5sums", sums.stdout, false),
      ("postinst", BundleTexts.maintainerScript(for: app, after: "installation"), true),
      ("postrm", BundleTexts.maintainerScript(for: app, after: "removal"), true),
    ]
    for (name, text, executable) in texts {
      do {
        try POSIX.writeAtomically(
          control + "/" + name, Array(text.utf8), mode: executable ? 0o755 : 0o644, syncs: false)
      } catch {
        throw BundleProblem("cannot write \(control)/\(name): \(error)")
      }
    }
    try BundleLayout.settle(control, epoch: Int(tool.environment["SOURCE_DATE_EPOCH"] ?? "0") ?? 0)
    let name = "\(app.command)_\(app.manifest.version)_\(architecture).deb"
    try check(
      tool.run(["dpkg-deb", "--root-owner-group", "-Zxz", "--build", layout.root, work + "/" + name]), "dpkg-deb")
    return name
  }

  /// `<command>-<version>-<build>.<arch>.rpm` through `rpmbuild`: the same files, reproducible
  /// (build time and file times from `SOURCE_DATE_EPOCH`, no build-id links, nothing stripped again).
  func rpm() throws(BundleProblem) -> String {
    let top = work + "/rpm"
    for folder in ["", "/out", "/build", "/buildroot"] {
      do { try POSIX.makeDirectories(top + folder) } catch {
        throw BundleProblem("cannot make \(top)\(folder): \(error)")
      }
    }
    let owned = (app.isCLI ? [] : ["/" + layout.libraryFolder]) + ["/usr/share/doc/" + app.command]
    let files = owned + layout.files.map { "/" + $0 }.filter { file in !owned.contains { file.hasPrefix($0 + "/") } }
    let spec = BundleTexts.spec(for: app, tree: layout.root, files: files, requires: dependencies.rpmRequires)
    do { try POSIX.writeAtomically(top + "/app.spec", Array(spec.utf8), mode: 0o644, syncs: false) } catch {
      throw BundleProblem("cannot write \(top)/app.spec: \(error)")
    }
    let defines = [
      "_topdir \(top)", "_rpmdir \(top)/out", "_builddir \(top)/build", "_buildhost nbridge-bundle",
      "use_source_date_epoch_as_buildtime 1", "clamp_mtime_to_source_date_epoch 1", "_build_id_links none",
      "debug_package %{nil}", "__os_install_post %{nil}",
      "_build_name_fmt %%{NAME}-%%{VERSION}-%%{RELEASE}.%%{ARCH}.rpm",
      "_binary_payload w6.gzdio",
    ]
    try check(
      tool.run(
        ["rpmbuild", "-bb", "--quiet", "--buildroot", top + "/buildroot"] + defines.flatMap { ["--define", $0] } + [
          top + "/app.spec"
        ]),
      "rpmbuild")
    guard let name = Directory.names(top + "/out")?.first(where: { $0.hasSuffix(".rpm") }) else {
      throw BundleProblem("rpmbuild wrote no package in \(top)/out")
    }
    do { try POSIX.rename(top + "/out/" + name, work + "/" + name) } catch { throw BundleProblem("\(error)") }
    return name
  }

  /// Throws the tool's first line of complaint when it failed.
  func check(_ result: BundleTool.Result, _ name: String) throws(BundleProblem) {
    guard result.status != 0 else { return }
    let lines = (result.stderr + result.stdout).split(separator: "\n")
    let said = lines.first { $0.contains("error") } ?? lines.first ?? "exit status \(result.status)"
    throw BundleProblem("\(name) failed: \(said)")
  }
}
