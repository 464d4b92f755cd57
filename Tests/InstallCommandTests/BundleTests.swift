import CLITestSupport
import Foundation
import NBridgeTesting
import Synchronization
import Testing

/// `nbridge bundle`: the sample app as a .deb, an .rpm and a portable archive, checked with the
/// distribution's own tools (dpkg-deb, lintian, desktop-file-validate, appstreamcli, rpm, apt-get).
///
/// The sample is bundled once for the tests that only read its packages (`SampleBundle`). The
/// tests run one at a time (a bundle takes both cores of a small machine for a while), on a
/// thread of their own from the start of the run; the other suites run beside them, and a test
/// that installs a package waits for dpkg's lock (`DPkg::Lock::Timeout`) as any apt-get does,
/// since another test process may hold it.
@Suite(.serialized, .onTestThreads(SampleBundle.thread), SampleBundle.removedAtTheEnd) struct BundleTests {
  static let sample = SampleApp.root + "/www"
  static let deb = "nbridge-sample_1.0.0_amd64.deb"
  static let rpm = "nbridge-sample-1.0.0-1.x86_64.rpm"
  static let tar = "nbridge-sample-1.0.0-x86_64.tar.gz"
  /// The same time for every bundle, so two bundles of the same input compare byte for byte; and
  /// xz's fastest level for the .deb (`DPKG_DEB_COMPRESSOR_LEVEL`, dpkg-deb's own setting, which
  /// `-Zxz` keeps): the tests read the packages' contents, not their size, and xz's default level
  /// takes ~17 s of CPU on the debug executable against ~2 s (`bundle.md` gives the sizes users get).
  static let epoch = ["SOURCE_DATE_EPOCH": "1700000000", "DPKG_DEB_COMPRESSOR_LEVEL": "0"]

  /// Bundles `app` into `out` with `arguments` appended; the run's status and output.
  static func bundle(
    _ app: String, out: String, _ arguments: [String] = [], environment: [String: String?] = epoch
  ) throws -> (status: Int32, stdout: String, stderr: String) {
    try NBridgeTest.command(["bundle", app, "--out", out] + arguments, environment: environment, timeout: 300)
  }

  /// Runs a tool to its end.
  static func tool(_ name: String, _ arguments: [String], environment: [String: String?] = [:]) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    try ChildProcess.run(name, arguments, environment: environment, timeout: 300)
  }

  /// apt-get's environment: no questions.
  static let apt: [String: String?] = ["DEBIAN_FRONTEND": "noninteractive"]

  /// The payload's files and symbolic links (no folders) as absolute paths, from `dpkg-deb -c`'s listing.
  static func debFiles(_ listing: String) -> [String] {
    listing.split(separator: "\n").filter { $0.hasPrefix("-") || $0.hasPrefix("l") }.compactMap { line in
      let path = line.split(separator: " -> ").first ?? line
      return path.split(separator: " ", omittingEmptySubsequences: true).last.map { String($0.dropFirst()) }
    }.sorted()
  }

  /// One bundle of the sample checked by each format's tools, and a second one of the same input:
  /// byte-identical.
  @Test func sampleBundleHoldsTheLayoutPassesTheValidatorsAndIsReproducible() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-bundle-again")
    // The second bundle of the same input is made while the first one's packages are checked.
    let again = try NBridgeTest.start(["bundle", Self.sample, "--out", scratch.path], environment: Self.epoch)
    defer { again.stop() }
    let (dir, r) = try SampleBundle.shared.made()
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("wrote \(dir.path)/\(Self.deb)"), "\(r.stdout)")
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(names == [Self.rpm, Self.tar, Self.deb].sorted())

    let listing = try Self.tool("dpkg-deb", ["-c", dir.file(Self.deb)])
    #expect(listing.status == 0, "\(listing.stderr)")
    let files = Self.debFiles(listing.stdout)
    for expected in [
      "/usr/bin/nbridge-sample", "/usr/lib/dev.nbridge.sample/nbridge-sample",
      "/usr/lib/dev.nbridge.sample/app/index.html", "/usr/lib/dev.nbridge.sample/app/nbridge.json",
      "/usr/share/applications/dev.nbridge.sample.desktop",
      "/usr/share/icons/hicolor/scalable/apps/dev.nbridge.sample.svg",
      "/usr/share/metainfo/dev.nbridge.sample.metainfo.xml", "/usr/share/doc/nbridge-sample/copyright",
    ] {
      #expect(files.contains(expected), "\(expected) missing from \(files)")
    }
    #expect(listing.stdout.split(separator: "\n").allSatisfy { $0.contains(" root/root ") })
    // The command is a relative link to the executable, which opens the window (bundle-mode).
    #expect(
      listing.stdout.contains(" ./usr/bin/nbridge-sample -> ../lib/dev.nbridge.sample/nbridge-sample\n"),
      "\(listing.stdout)")
    #expect(files.contains("/usr/lib/dev.nbridge.sample/bundle-mode"), "\(files)")

    let info = try Self.tool("dpkg-deb", ["-f", dir.file(Self.deb), "Depends"])
    #expect(info.stdout.contains("libjavascriptcoregtk-4.1-0"), "\(info.stdout)")
    #expect(info.stdout.contains("libwebkit2gtk-4.1-0"), "a page app needs WebKitGTK: \(info.stdout)")
    #expect(!info.stdout.contains("swift"), "\(info.stdout)")

    let lintian = try Self.tool("lintian", ["--no-tag-display-limit", dir.file(Self.deb)])
    let errors = (lintian.stdout + lintian.stderr).split(separator: "\n").filter { $0.hasPrefix("E:") }
    #expect(errors.isEmpty, "lintian: \(lintian.stdout)")

    let tree = scratch.file("tree")
    #expect(try Self.tool("dpkg-deb", ["-x", dir.file(Self.deb), tree]).status == 0)
    let desktopPath = tree + "/usr/share/applications/dev.nbridge.sample.desktop"
    let desktop = try String(contentsOfFile: desktopPath, encoding: .utf8)
    #expect(desktop.contains("\nExec=nbridge-sample %u\n"), "\(desktop)")
    #expect(desktop.contains("\nIcon=dev.nbridge.sample\n"), "\(desktop)")
    #expect(desktop.contains("\nCategories=Utility;\n"), "\(desktop)")
    #expect(desktop.contains("\nStartupWMClass=Nbridge-sample\n"), "\(desktop)")
    let validated = try Self.tool("desktop-file-validate", [desktopPath])
    #expect(validated.status == 0 && validated.stdout.isEmpty, "\(validated.stdout)\(validated.stderr)")
    let appstream = try Self.tool(
      "appstreamcli", ["validate", "--no-net", tree + "/usr/share/metainfo/dev.nbridge.sample.metainfo.xml"])
    #expect(appstream.status == 0, "\(appstream.stdout)\(appstream.stderr)")

    let rpmList = try Self.tool("rpm", ["-qlp", dir.file(Self.rpm)])
    #expect(rpmList.status == 0, "\(rpmList.stderr)")
    let rpmFiles = rpmList.stdout.split(separator: "\n").map(String.init).filter { path in
      let type = (try? FileManager.default.attributesOfItem(atPath: tree + path))?[.type] as? FileAttributeType
      return type == .typeRegular || type == .typeSymbolicLink
    }.sorted()
    #expect(rpmFiles == files, "rpm: \(rpmList.stdout)")
    let requires = try Self.tool("rpm", ["-qp", "--requires", dir.file(Self.rpm)])
    #expect(requires.stdout.contains("libwebkit2gtk-4.1.so.0()(64bit)"), "\(requires.stdout)")
    #expect(requires.stdout.contains("libjavascriptcoregtk-4.1.so.0()(64bit)"), "\(requires.stdout)")

    #expect(again.wait(timeout: 300) == 0, "\(again.stderr)")
    for name in [Self.deb, Self.rpm, Self.tar] {
      let first = FileManager.default.contents(atPath: dir.file(name))
      #expect(first != nil && first == FileManager.default.contents(atPath: scratch.file(name)), "\(name) differs")
    }
  }

  @Test func portableArchiveRunsTheSampleFromTheFolderItIsUnpackedIn() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-bundle-tar")
    let (bundled, r) = try SampleBundle.shared.made()
    try #require(r.status == 0, "\(r.stderr)")
    let unpacked = dir.file("somewhere else")
    try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
    #expect(try Self.tool("tar", ["-xzf", bundled.file(Self.tar), "-C", unpacked]).status == 0)
    let top = unpacked + "/nbridge-sample-1.0.0"
    var env = try SampleApp.environment(dir)
    env["PATH"] = "/usr/bin:/bin"
    env["LD_LIBRARY_PATH"] = nil
    let run = try Self.tool(
      top + "/bin/nbridge-sample", ["run", top + "/lib/dev.nbridge.sample/app/index.js"], environment: env)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout.contains("app.appInfo: { id: 'dev.nbridge.sample', name: 'nbridge Sample', version: '1.0.0'"),
      "\(run.stdout)")
    let version = try Self.tool(top + "/bin/nbridge-sample", ["--version"], environment: env)
    #expect(version.status == 0 && !version.stdout.isEmpty, "\(version.stderr)")
  }

  /// An app whose manifest names a dev server and its command (`dev`), bundled as a portable
  /// archive: the shipped manifest has no `dev`, and the app launched from the archive opens its
  /// own page, never running the command nor asking the dev server for anything.
  @Test func aBundledAppNeverUsesTheDevSettings() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-bundle-dev")
    try dir.write("site/index.html", "<script>console.log('page at ' + location.origin)</script>")
    let site = try StaticFileServer(directory: dir.file("site"))
    let marker = dir.file("dev-command-ran")
    try dir.write(
      "app/index.html", "<script>console.log('page at ' + location.origin); nbridge.app.exit({ code: 0 });</script>")
    try dir.write(
      "app/nbridge.json",
      """
      {"id": "dev.nbridge.devbundle", "name": "Dev Bundle", "version": "1.0", "description": "A page app with dev settings",
       "permissions": ["app"],
       "dev": {"url": "http://127.0.0.1:\(site.port)/", "command": "touch '\(marker)'"}}
      """)
    let r = try Self.bundle(dir.file("app"), out: dir.file("out"), ["--format", "tar"])
    #expect(r.status == 0, "\(r.stderr)")
    try FileManager.default.createDirectory(atPath: dir.file("unpacked"), withIntermediateDirectories: true)
    #expect(
      try Self.tool("tar", ["-xzf", dir.file("out/devbundle-1.0-x86_64.tar.gz"), "-C", dir.file("unpacked")]).status
        == 0)
    let top = dir.file("unpacked/devbundle-1.0")
    let shipped = try String(contentsOfFile: top + "/lib/dev.nbridge.devbundle/app/nbridge.json", encoding: .utf8)
    #expect(shipped.contains("\"permissions\":[\"app\"]") && !shipped.contains("\"dev\""), "\(shipped)")

    let xvfb = try XvfbServer()
    var env: [String: String?] = NBridgeTest.headless
    env["DISPLAY"] = xvfb.display
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    let run = try Self.tool(top + "/bin/devbundle", [], environment: env)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("page at nbridge://dev.nbridge.devbundle"), "\(run.stdout)")
    #expect(!FileManager.default.fileExists(atPath: marker), "dev.command ran")
    #expect(!site.log.contains("GET"), "the dev server was asked: \(site.log)")
  }

  /// Installs the .deb with apt-get (the tests run as root, as in CI), runs the installed command
  /// with no Swift on PATH or LD_LIBRARY_PATH, then removes it: none of its files stay.
  @Test func installedDebRunsWithoutSwiftAndLeavesNothingWhenRemoved() throws {
    try #require(getuid() == 0, "installing a .deb needs root (the tests run as root, CI too)")
    let dir = try TemporaryDirectory(prefix: "nbridge-bundle-apt")
    let (bundled, r) = try SampleBundle.shared.made()
    try #require(r.status == 0, "\(r.stderr)")
    let files = Self.debFiles(try Self.tool("dpkg-deb", ["-c", bundled.file(Self.deb)]).stdout)
    defer { DebianPackages.purge("nbridge-sample") }
    let installed = try Self.tool(
      "apt-get", ["install", "-y", "-o", "DPkg::Lock::Timeout=120", bundled.file(Self.deb)], environment: Self.apt)
    #expect(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
    #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/nbridge-sample"))

    let ldd = try Self.tool("ldd", ["/usr/lib/dev.nbridge.sample/nbridge-sample"])
    #expect(ldd.status == 0 && !ldd.stdout.contains("libswift") && !ldd.stdout.contains("not found"), "\(ldd.stdout)")
    // The installed executable is stripped (docs/bundle.md): its code is there, no debug information
    // (the debug build it came from has a dozen .debug_ sections); it runs below.
    let sections = try Self.tool("readelf", ["-S", "-W", "/usr/lib/dev.nbridge.sample/nbridge-sample"])
    #expect(
      sections.status == 0 && sections.stdout.contains(" .text ") && !sections.stdout.contains(".debug_"),
      "\(sections.stdout)\(sections.stderr)")
    var env = try SampleApp.environment(dir)
    env["PATH"] = "/usr/bin:/bin"
    env["LD_LIBRARY_PATH"] = nil
    let run = try Self.tool(
      "/usr/bin/nbridge-sample", ["run", "/usr/lib/dev.nbridge.sample/app/index.js"], environment: env)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("app.appInfo: { id: 'dev.nbridge.sample'"), "\(run.stdout)")
    #expect(run.stdout.contains("First launch: stored a glossary of 4 words."), "\(run.stdout)")

    // The launcher with no argument opens the window, whose class is the desktop entry's StartupWMClass.
    let xvfb = try XvfbServer()
    defer { xvfb.stop() }
    env["DISPLAY"] = xvfb.display
    let window = try ChildProcess("/usr/bin/nbridge-sample", [], environment: env)
    defer { window.stop() }
    let id = try X11Windows.window("^nbridge Sample$", display: xvfb.display)
    let wmClass = try Self.tool("xprop", ["-id", id, "WM_CLASS"], environment: ["DISPLAY": xvfb.display])
    #expect(wmClass.stdout.contains(#""nbridge-sample", "Nbridge-sample""#), "\(wmClass.stdout)")
    let desktop = try String(contentsOfFile: "/usr/share/applications/dev.nbridge.sample.desktop", encoding: .utf8)
    #expect(desktop.contains("\nStartupWMClass=Nbridge-sample\n"), "\(desktop)")
    // The window shows the page: a screenshot of the display has the page's text and colours, not
    // one blank fill (a window with nothing drawn is one or two colours). Taken until it does, within 30 s.
    let screenshot = dir.file("window.png")
    var colours = 0
    let deadline = Date().addingTimeInterval(30)
    repeat {
      colours = try Self.screenshotColours(display: xvfb.display, to: screenshot)
    } while colours < 64 && Date() < deadline
    #expect(colours >= 64, "the installed window looks blank: \(colours) colours in \(screenshot)")
    if let keep = ProcessInfo.processInfo.environment["NBRIDGE_KEEP_SCREENSHOT"] {
      try? FileManager.default.removeItem(atPath: keep)
      try? FileManager.default.copyItem(atPath: screenshot, toPath: keep)
    }
    window.stop()

    let removed = try Self.tool(
      "apt-get", ["remove", "-y", "-o", "DPkg::Lock::Timeout=120", "nbridge-sample"], environment: Self.apt)
    #expect(removed.status == 0, "\(removed.stdout)\(removed.stderr)")
    let left = files.filter { FileManager.default.fileExists(atPath: $0) }
    #expect(left.isEmpty, "left behind: \(left)")
    #expect(!FileManager.default.fileExists(atPath: "/usr/lib/dev.nbridge.sample"))
  }

  /// Takes a screenshot of `display` into `path` (PNG) and counts its distinct colours.
  static func screenshotColours(display: String, to path: String) throws -> Int {
    let shot = try tool(
      "sh", ["-c", "xwd -root -silent -display \"$DISPLAY\" | convert xwd:- \"$1\"", "sh", path],
      environment: ["DISPLAY": display])
    guard shot.status == 0 else { throw ScreenshotFailed(message: shot.stderr) }
    let count = try tool("convert", [path, "-format", "%k", "info:"])
    return Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  /// A screenshot that could not be taken: xwd's or convert's complaint.
  struct ScreenshotFailed: Error { var message: String }

  /// An app that asks for background fetch gets, in its package, the systemd user service that
  /// wakes it, pointing at the installed executable and valid under `systemd-analyze verify`.
  /// Installed, its run arms the wake-up with its own timer and a drop-in for what it adds to the
  /// packaged service (its variables), never a second `.service` that would hide the packaged one.
  @Test func installedDebShipsTheFetchServiceAndTheAppWritesNoSecondCopy() throws {
    try #require(getuid() == 0, "installing a .deb needs root (the tests run as root, CI too)")
    let dir = try TemporaryDirectory(prefix: "nbridge-bundle-fetch")
    let id = "dev.nbridge.bundle-fetch-check"
    let unit = "nbridge-fetch-\(id)"
    try dir.write(
      "app/nbridge.json",
      #"{"id": "dev.nbridge.bundle-fetch-check", "name": "Fetch check", "version": "1.0", "description": "Arms its background fetch", "permissions": ["background"], "bundle": {"command": "nbridge-fetch-check"}}"#
    )
    try dir.write(
      "app/index.js",
      """
      try {
        await nbridge.background.setMinimumFetchInterval({ interval: 'minimum' });
        console.log('armed');
      } catch (e) {
        console.log(e.code);
      }

      """)
    let r = try Self.bundle(dir.file("app"), out: dir.file("out"), ["--format", "deb,tar"])
    #expect(r.status == 0, "\(r.stderr)")
    let deb = dir.file("out/nbridge-fetch-check_1.0_amd64.deb")
    let files = Self.debFiles(try Self.tool("dpkg-deb", ["-c", deb]).stdout)
    #expect(files.contains("/usr/lib/systemd/user/\(unit).service"), "\(files)")
    let archive = try Self.tool("tar", ["-tzf", dir.file("out/nbridge-fetch-check-1.0-x86_64.tar.gz")])
    #expect(!archive.stdout.contains("systemd"), "the portable archive has no /usr units: \(archive.stdout)")

    defer { DebianPackages.purge("nbridge-fetch-check") }
    let installed = try Self.tool(
      "apt-get", ["install", "-y", "-o", "DPkg::Lock::Timeout=120", deb], environment: Self.apt)
    try #require(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
    let packaged = try String(contentsOfFile: "/usr/lib/systemd/user/\(unit).service", encoding: .utf8)
    let command = "/usr/lib/\(id)/nbridge-fetch-check run --fetch /usr/lib/\(id)/app/index.js"
    #expect(packaged.contains("\nType=oneshot\nExecStart=\(command)\n"), "\(packaged)")

    var env = try SampleApp.environment(dir)
    env["PATH"] = "/usr/bin:/bin"
    env["LD_LIBRARY_PATH"] = nil
    env["HOME"] = dir.file("home")
    env["XDG_CONFIG_HOME"] = dir.file("home/.config")
    env["NBRIDGE_DATA_DIR"] = nil  // the default data dir: the woken run's command is the packaged one
    env["NBRIDGE_SCHEDULER"] = "systemd"
    let verify = try Self.tool(
      "systemd-analyze", ["--user", "--man=no", "verify", "/usr/lib/systemd/user/\(unit).service"], environment: env)
    #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stdout)\(verify.stderr)")

    // The installed command with no argument runs the script, which arms its wake-up (where no
    // user manager answers, as in a container, setMinimumFetchInterval says unavailable once the
    // units are written).
    let run = try Self.tool("/usr/bin/nbridge-fetch-check", [], environment: env)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "armed\n" || run.stdout == "unavailable\n", "\(run.stdout)\(run.stderr)")
    let user = dir.file("home/.config/systemd/user")
    #expect(FileManager.default.fileExists(atPath: "\(user)/\(unit).timer"))
    #expect(!FileManager.default.fileExists(atPath: "\(user)/\(unit).service"), "a second copy hides the packaged one")
    let dropIn = try String(contentsOfFile: "\(user)/\(unit).service.d/run.conf", encoding: .utf8)
    #expect(
      dropIn.hasPrefix("[Service]\n") && dropIn.contains("\nEnvironment=NBRIDGE_SCHEDULER=systemd\n"), "\(dropIn)")
    #expect(!dropIn.contains("ExecStart"), "the packaged command is the run's own: \(dropIn)")
    let verifyTimer = try Self.tool(
      "systemd-analyze", ["--user", "--man=no", "verify", "\(user)/\(unit).timer"], environment: env)
    #expect(verifyTimer.status == 0 && verifyTimer.stderr.isEmpty, "\(verifyTimer.stdout)\(verifyTimer.stderr)")

    let removed = try Self.tool(
      "apt-get", ["remove", "-y", "-o", "DPkg::Lock::Timeout=120", "nbridge-fetch-check"], environment: Self.apt)
    #expect(removed.status == 0, "\(removed.stdout)\(removed.stderr)")
    let left = files.filter { FileManager.default.fileExists(atPath: $0) }
    #expect(left.isEmpty, "left behind: \(left)")
  }

  /// A headless app with a URL scheme, installed from its .deb as a user would: the postinst's
  /// `update-desktop-database` registers the scheme system-wide, so the desktop's `xdg-open`
  /// (xdg-utils' generic lookup, which needs a display: Xvfb) finds the installed entry with no
  /// `xdg-mime default` and runs `/usr/bin/<command> %u`, which gets the URL intact.
  @Test func installedDebReceivesTheURLFromXdgOpen() throws {
    try #require(getuid() == 0, "installing a .deb needs root (the tests run as root, CI too)")
    let dir = try TemporaryDirectory(prefix: "nbridge-bundle-xdg")
    try dir.write(
      "app/nbridge.json",
      #"{"id": "dev.nbridge.bundle-url-check", "name": "URL check", "version": "1.0", "description": "Prints its launch URL", "urlSchemes": ["nbbundleurl"], "bundle": {"command": "nbridge-url-check"}}"#
    )
    try dir.write(
      "app/index.js", "console.log('launch=' + JSON.stringify(await nbridge.app.getLaunchUrl()));\n")
    let r = try Self.bundle(dir.file("app"), out: dir.file("out"), ["--format", "deb"])
    #expect(r.status == 0, "\(r.stderr)")
    let deb = dir.file("out/nbridge-url-check_1.0_amd64.deb")
    defer { DebianPackages.purge("nbridge-url-check") }
    let installed = try Self.tool(
      "apt-get", ["install", "-y", "-o", "DPkg::Lock::Timeout=120", deb], environment: Self.apt)
    try #require(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
    let cache = try String(contentsOfFile: "/usr/share/applications/mimeinfo.cache", encoding: .utf8)
    #expect(cache.contains("x-scheme-handler/nbbundleurl=dev.nbridge.bundle-url-check.desktop;"), "\(cache)")

    // A user's session: a display, no desktop environment (xdg-utils' generic lookup), their own
    // empty XDG config and data folders, the system's data folders where the package installed.
    let xvfb = try XvfbServer()
    defer { xvfb.stop() }
    var env = try SampleApp.environment(dir)
    env["PATH"] = "/usr/bin:/bin"
    env["LD_LIBRARY_PATH"] = nil
    env["DISPLAY"] = xvfb.display
    env["HOME"] = dir.file("home")
    env["XDG_DATA_HOME"] = dir.file("home/.local/share")
    env["XDG_CONFIG_HOME"] = dir.file("home/.config")
    for name in ["XDG_DATA_DIRS", "XDG_CONFIG_DIRS", "XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "BROWSER"] {
      env[name] = nil
    }
    let query = try Self.tool("xdg-mime", ["query", "default", "x-scheme-handler/nbbundleurl"], environment: env)
    #expect(query.stdout == "dev.nbridge.bundle-url-check.desktop\n", "\(query.stdout)\(query.stderr)")
    // xdg-utils 1.1.3 runs the entry's command in the foreground: its output is the app's.
    let url = "nbbundleurl://host/path?a%20b"
    let opened = try Self.tool("xdg-open", [url], environment: env)
    #expect(opened.status == 0, "\(opened.stderr)")
    #expect(opened.stdout.contains(#"launch={"url":"\#(url)"}"#), "\(opened.stdout)\(opened.stderr)")

    let removed = try Self.tool(
      "apt-get", ["remove", "-y", "-o", "DPkg::Lock::Timeout=120", "nbridge-url-check"], environment: Self.apt)
    #expect(removed.status == 0, "\(removed.stdout)\(removed.stderr)")
    let after = (try? String(contentsOfFile: "/usr/share/applications/mimeinfo.cache", encoding: .utf8)) ?? ""
    #expect(!after.contains("nbbundleurl"), "the postrm unregisters the scheme: \(after)")
  }

  /// A headless app with a URL scheme and a PNG icon: the launcher runs its script, hands a URL in
  /// its scheme over intact as the launch URL and other arguments as `nbridge.args`; the desktop
  /// entry claims the scheme; the icon goes to its size's folder.
  @Test func headlessAppWithURLSchemeGetsTheURLAndItsIconAtItsSize() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-bundle-url")
    try dir.write(
      "notes/nbridge.json",
      #"{"id": "com.example.notes", "name": "Notes", "version": "2.1~rc1", "description": "Notes kept in a file", "urlSchemes": ["notesapp"], "bundle": {"icon": "icon.png", "categories": ["Office"]}}"#
    )
    try dir.write(
      "notes/index.js",
      "const launch = await nbridge.app.getLaunchUrl();\nconsole.log('launch=' + JSON.stringify(launch) + ' args=' + JSON.stringify(nbridge.args));\n"
    )
    try FileManager.default.copyItem(
      atPath: SampleApp.root + "/Tests/InstallCommandTests/Fixtures/icon-48.png", toPath: dir.file("notes/icon.png"))
    let r = try Self.bundle(dir.file("notes"), out: dir.file("out"), ["--format", "tar"])
    #expect(r.status == 0, "\(r.stderr)")
    let unpacked = dir.file("unpacked")
    try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
    #expect(try Self.tool("tar", ["-xzf", dir.file("out/notes-2.1~rc1-x86_64.tar.gz"), "-C", unpacked]).status == 0)
    let top = unpacked + "/notes-2.1~rc1"
    #expect(FileManager.default.fileExists(atPath: top + "/share/icons/hicolor/48x48/apps/com.example.notes.png"))
    let desktopPath = top + "/share/applications/com.example.notes.desktop"
    let desktop = try String(contentsOfFile: desktopPath, encoding: .utf8)
    #expect(
      desktop.contains("\nExec=notes %u\n") && desktop.contains("\nMimeType=x-scheme-handler/notesapp;\n"), "\(desktop)"
    )
    #expect(desktop.contains("\nCategories=Office;\n"), "\(desktop)")
    let validated = try Self.tool("desktop-file-validate", [desktopPath])
    #expect(validated.status == 0 && validated.stdout.isEmpty, "\(validated.stdout)")
    let appstream = try Self.tool(
      "appstreamcli", ["validate", "--no-net", top + "/share/metainfo/com.example.notes.metainfo.xml"])
    #expect(appstream.status == 0, "\(appstream.stdout)")

    var env = try SampleApp.environment(dir)
    env["PATH"] = "/usr/bin:/bin"
    let url = "notesapp://open?id=7&title=a%20b#top"
    let opened = try Self.tool(top + "/bin/notes", [url], environment: env)
    #expect(opened.status == 0, "\(opened.stderr)")
    #expect(opened.stdout.contains(#"launch={"url":"\#(url)"} args=[]"#), "\(opened.stdout)")
    let plain = try Self.tool(top + "/bin/notes", ["hello", "two words"], environment: env)
    #expect(plain.stdout.contains(#"launch=null args=["hello","two words"]"#), "\(plain.stdout)\(plain.stderr)")
  }

  /// `nbridge bundle --self`: nbridge's own .deb installs /usr/bin/nbridge, which (with no Swift
  /// on PATH) makes an app with `init`, runs it and bundles it; removing it leaves nothing.
  @Test func nbridgesOwnDebInitsRunsAndBundlesAnAppWithoutSwift() throws {
    try #require(getuid() == 0, "installing a .deb needs root (the tests run as root, CI too)")
    try #require(!FileManager.default.fileExists(atPath: "/usr/bin/nbridge"), "an nbridge is installed here already")
    let dir = try TemporaryDirectory(prefix: "nbridge-bundle-self")
    let r = try NBridgeTest.command(
      ["bundle", "--self", "--format", "deb", "--out", dir.path], environment: Self.epoch, timeout: 300)
    #expect(r.status == 0, "\(r.stderr)")
    let deb = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.path).first { $0.hasSuffix(".deb") })
    #expect(deb.hasPrefix("nbridge_") && deb.hasSuffix("_amd64.deb"), "\(deb)")
    let files = Self.debFiles(try Self.tool("dpkg-deb", ["-c", dir.file(deb)]).stdout)
    #expect(files.contains("/usr/bin/nbridge"), "\(files)")
    defer { DebianPackages.purge("nbridge") }
    let installed = try Self.tool(
      "apt-get", ["install", "-y", "-o", "DPkg::Lock::Timeout=120", dir.file(deb)], environment: Self.apt)
    #expect(installed.status == 0, "\(installed.stdout)\(installed.stderr)")

    var env = try SampleApp.environment(dir)
    env["PATH"] = "/usr/bin:/bin"
    env["LD_LIBRARY_PATH"] = nil
    env["HOME"] = dir.file("home")
    env["DPKG_DEB_COMPRESSOR_LEVEL"] = Self.epoch["DPKG_DEB_COMPRESSOR_LEVEL"]
    func nbridge(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
      try ChildProcess.run("/usr/bin/nbridge", arguments, environment: env, directory: dir.path, timeout: 300)
    }
    let made = try nbridge(["init", "notes"])
    #expect(made.status == 0, "\(made.stderr)")
    let run = try nbridge(["run", "notes/www/index.js"])
    #expect(run.status == 0 && run.stdout == "Hello from notes (launch #1)\n", "\(run.stdout)\(run.stderr)")
    let bundled = try nbridge(["bundle", "notes/www", "--format", "deb,tar", "--out", "packages"])
    #expect(bundled.status == 0, "\(bundled.stderr)")
    let packages = (try? FileManager.default.contentsOfDirectory(atPath: dir.file("packages")).sorted()) ?? []
    #expect(packages == ["notes-0.1.0-x86_64.tar.gz", "notes_0.1.0_amd64.deb"], "\(packages)")

    let removed = try Self.tool(
      "apt-get", ["remove", "-y", "-o", "DPkg::Lock::Timeout=120", "nbridge"], environment: Self.apt)
    #expect(removed.status == 0, "\(removed.stdout)\(removed.stderr)")
    let left = files.filter { FileManager.default.fileExists(atPath: $0) }
    #expect(left.isEmpty, "left behind: \(left)")
  }
}

/// The sample bundled once in every format, for the tests that only read its packages: made by the
/// first test that asks (the others wait for it), removed when `BundleTests` ends.
final class SampleBundle: Sendable {
  /// The one bundle of a test run.
  static let shared = SampleBundle()

  /// The thread BundleTests' tests run on, one after another, from the start of the run.
  static let thread = TestThreads(count: 1)

  /// The folder with the packages and the bundle command's outcome, or why it could not be
  /// made, once tried: a bundle that timed out is not tried again by every test that reads it.
  private let bundle = Mutex<Result<(folder: TemporaryDirectory, outcome: NBridgeTest.Outcome), any Error>?>(nil)

  /// The folder holding the sample's .deb, .rpm and .tar.gz and what `nbridge bundle` said,
  /// bundling it on the first call.
  func made() throws -> (folder: TemporaryDirectory, outcome: NBridgeTest.Outcome) {
    try bundle.withLock { bundle in
      if let bundle { return try bundle.get() }
      let made = Result { () throws -> (folder: TemporaryDirectory, outcome: NBridgeTest.Outcome) in
        let folder = try TemporaryDirectory(prefix: "nbridge-bundle")
        return (folder, try BundleTests.bundle(BundleTests.sample, out: folder.path))
      }
      bundle = made
      return try made.get()
    }
  }

  /// A suite trait that removes the bundle once the suite's tests have ended.
  static var removedAtTheEnd: RemovedAtTheEnd { RemovedAtTheEnd() }

  /// Removes the shared bundle when the suite it marks ends.
  struct RemovedAtTheEnd: SuiteTrait, TestScoping {
    /// Runs the suite, then drops the bundle (its folder goes with it).
    func provideScope(
      for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
      defer { SampleBundle.shared.bundle.withLock { $0 = nil } }
      try await function()
    }
  }
}
