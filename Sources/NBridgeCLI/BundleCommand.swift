import ArgumentParser
import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

extension NBridgeCommand {
  /// `nbridge bundle [APP] [--format deb,rpm,tar] [--out DIR]`: the app as packages that install
  /// and run on a machine without Swift.
  struct Bundle: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Package the app as a .deb, an .rpm and a portable .tar.gz that run without Swift.",
      discussion: """
        APP is a folder with nbridge.json (id, name, version, description; bundle.command, \
        bundle.icon, bundle.categories, ...) and index.html (a window app) or index.js (headless). \
        The executable is this program (its plugins included), installed as /usr/lib/<id>/<command> \
        with /usr/bin/<command> a link to it (with no command it opens the app). Times come from \
        SOURCE_DATE_EPOCH (default: the newest file of APP), so the same input gives the same bytes.
        """)

    @Argument(help: "The app's folder (default: www/).")
    var app: String?

    @Flag(name: .customLong("self"), help: "Package this nbridge itself as /usr/bin/nbridge (no app).")
    var cli = false

    @Option(help: ArgumentHelp("Comma-separated formats: deb, rpm, tar (default: all).", valueName: "list"))
    var format: String = "deb,rpm,tar"

    @Option(help: ArgumentHelp("The folder the packages go to (default: the current one).", valueName: "dir"))
    var out: String = "."

    func run() throws {
      do {
        for file in try bundle() { print("wrote \(file.path) (\(file.size))") }
      } catch {
        writeStderr("nbridge bundle: \(error.description)\n")
        throw ExitCode(ExitStatus.usage)
      }
    }

    /// Writes the packages into a work folder inside `--out`, then renames them into it: a
    /// failure leaves nothing there.
    func bundle() throws(BundleProblem) -> [(path: String, size: String)] {
      let formats = try BundleFormat.list(format).get()
      if cli && self.app != nil { throw BundleProblem("--self packages nbridge itself: give no APP") }
      let app = cli ? BundleApp(cliVersion: NBridgeVersion.current) : try BundleApp(folder: self.app ?? "www/")
      guard let binary = Spawn.currentExecutable else { throw BundleProblem("cannot find this program's path") }
      var environment = Spawn.currentEnvironment
      environment["LC_ALL"] = "C"
      environment["TZ"] = "UTC"
      let epoch: Int
      if let given = environment["SOURCE_DATE_EPOCH"] {
        guard let value = Int(given), value >= 0 else {
          throw BundleProblem("SOURCE_DATE_EPOCH must be a number of seconds, got \"\(given)\"")
        }
        epoch = value
      } else if cli {
        var info = stat()
        stat(binary, &info)
        epoch = Int(info.st_mtim.tv_sec)
      } else {
        epoch = Self.newestTime(in: app.folder)
      }
      environment["SOURCE_DATE_EPOCH"] = String(epoch)
      let probe = BundleTool(scratch: "/tmp", environment: environment)
      for format in formats {
        for (name, package) in format.tools where !probe.has(name) {
          throw BundleProblem(
            "\(name) is missing (install the \(package) package), needed for --format \(format.rawValue)")
        }
      }
      let dependencies = try BundleDependencies(executable: binary, app: app)
      let outFolder = absolutePath(out)
      do { try POSIX.makeDirectories(outFolder) } catch { throw BundleProblem("--out \(out): \(error)") }
      var template = Array((outFolder + "/.nbridge-bundle-XXXXXX").utf8CString)
      guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
        throw BundleProblem("--out \(out): cannot make a folder there: \(String(cString: strerror(errno)))")
      }
      let work = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      // NBRIDGE_BUNDLE_KEEP=1 keeps the work folder (the staged tree, the spec) to look into.
      defer { if environment["NBRIDGE_BUNDLE_KEEP"] != "1" { Self.remove(work) } }
      let tool = BundleTool(scratch: work, environment: environment)
      var layout = BundleLayout(root: work + "/root", app: app)
      try layout.stage(binary: binary, tool: tool, epoch: epoch)
      let writer = BundleWriter(layout: layout, work: work, tool: tool, dependencies: dependencies)
      var names: [String] = []
      // The archive and the rpm before the .deb, whose DEBIAN folder goes into the tree.
      for format in BundleFormat.allCases where formats.contains(format) {
        switch format {
        case .tar: names.append(try writer.tar())
        case .rpm: names.append(try writer.rpm())
        case .deb: names.append(try writer.deb())
        }
      }
      var written: [(String, String)] = []
      for name in names {
        let target = (out.hasSuffix("/") ? out : out + "/") + name
        do { try POSIX.rename(work + "/" + name, outFolder + "/" + name) } catch { throw BundleProblem("\(error)") }
        var info = stat()
        stat(outFolder + "/" + name, &info)
        written.append((target.hasPrefix("./") ? String(target.dropFirst(2)) : target, Self.size(Int(info.st_size))))
      }
      return written
    }

    /// The newest modification time of the files under `folder`, in seconds.
    static func newestTime(in folder: String) -> Int {
      var newest = 0
      for name in Directory.names(folder) ?? [] where !name.hasPrefix(".") {
        var info = stat()
        guard stat(folder + "/" + name, &info) == 0 else { continue }
        if info.st_mode & S_IFMT == S_IFDIR {
          newest = max(newest, newestTime(in: folder + "/" + name))
        } else {
          newest = max(newest, Int(info.st_mtim.tv_sec))
        }
      }
      return newest
    }

    /// Removes `path` and everything under it.
    static func remove(_ path: String) {
      var info = stat()
      guard lstat(path, &info) == 0 else { return }
      if info.st_mode & S_IFMT == S_IFDIR {
        for name in Directory.names(path) ?? [] { remove(path + "/" + name) }
        rmdir(path)
      } else {
        unlink(path)
      }
    }

    /// `3.1 MiB`, `20 KiB`.
    static func size(_ bytes: Int) -> String {
      if bytes >= 1 << 20 { return "\(bytes * 10 / (1 << 20) / 10).\(bytes * 10 / (1 << 20) % 10) MiB" }
      return "\((bytes + 1023) / 1024) KiB"
    }
  }
}
