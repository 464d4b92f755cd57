import Foundation
import NBridgeTesting
import Testing

@testable import NBridgeCLI

/// `nbridge install`/`uninstall`/`open --app` against hostile input: a manifest whose name would
/// add lines to the desktop entry, app ids that are paths, a flood of URL schemes, and an install
/// that fails half-way. Issue 31, findings 1, 12 and 17. Every XDG folder is a temporary one.
@Suite(.onTestThreads) struct InstallHardeningTests {
  let dir: TemporaryDirectory
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-install")
    env = NBridgeTest.headless
    for name in ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"] {
      env[name] = dir.file(name.lowercased())
    }
    env["HOME"] = dir.path
    env["NBRIDGE_DATA_DIR"] = nil
  }

  var installed: String { dir.file("xdg_data_home/nbridge/installed") }
  var applications: String { dir.file("xdg_data_home/applications") }
  var mimeApps: String { dir.file("xdg_config_home/mimeapps.list") }

  func nbridge(_ arguments: [String], timeout: Double = 30) throws -> (status: Int32, stdout: String, stderr: String) {
    try ChildProcess.run(NBridgeTest.executable, arguments, environment: env, directory: dir.path, timeout: timeout)
  }

  /// Files in `folder` (none when it is missing).
  func names(_ folder: String) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] }

  func writeApp(manifest: String) throws -> String {
    try dir.write("app/nbridge.json", manifest)
    try dir.write("app/index.js", "console.log('hi');\n")
    return dir.file("app")
  }

  /// The manifest of the issue: `\r\n` is one Swift `Character`, so the old writer wrote it raw and
  /// the name added `Exec=` and `MimeType=` lines. It is refused before anything is written.
  @Test func theHostileNameOfIssue31IsRefusedAndNothingIsWritten() throws {
    let name = "Evil\\r\\nExec=/usr/bin/touch \(dir.path)/pwned x\\r\\nMimeType=x-scheme-handler/https;\\r\\n[X-Junk]"
    let app = try writeApp(
      manifest: #"{"id": "dev.test.evil", "permissions": [], "name": "\#(name)", "urlSchemes": ["rte"]}"#)
    let r = try nbridge(["install", app])
    #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains(#"field "name""#), "\(r.stderr)")
    #expect(r.stderr.contains("U+000D"), "\(r.stderr)")
    #expect(names(applications).isEmpty)
    #expect(names(installed).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: mimeApps))
  }

  @Test func theWriterEscapesEveryControlCharacterOnScalars() {
    #expect(
      DesktopEntry.escaped("a\rb\nc\r\nd\te\\f;g\u{0}h\u{1B}i\u{2028}j")
        == "a\\rb\\nc\\r\\nd\\te\\\\f;g\u{FFFD}h\u{FFFD}i\u{FFFD}j")
    #expect(DesktopEntry.escaped(" lead") == "\\slead")
  }

  /// Defence in depth: a name that reaches the writer anyway (an old record, an embedder) stays
  /// on its `Name=` line.
  @Test func aHostileNameStaysOnItsLine() throws {
    let app = InstalledApp(
      id: "dev.test.evil",
      name: "Evil\r\nExec=/usr/bin/touch /tmp/pwned\r\nMimeType=x-scheme-handler/https;\r\n[X-Junk]\u{0}",
      entry: "/x/index.js", window: false, urlSchemes: ["rte"], dataDirectory: nil)
    let text = try DesktopEntry.text(for: app, nbridge: "/usr/local/bin/nbridge")
    #expect(
      text.split(separator: "\n", omittingEmptySubsequences: false) == [
        "[Desktop Entry]", "Type=Application", "Version=1.0",
        "Name=Evil\\r\\nExec=/usr/bin/touch /tmp/pwned\\r\\nMimeType=x-scheme-handler/https;\\r\\n[X-Junk]\u{FFFD}",
        "Comment=nbridge app dev.test.evil", "Exec=/usr/local/bin/nbridge open --app=dev.test.evil %u",
        "MimeType=x-scheme-handler/rte;", "NoDisplay=true", "Terminal=false", "",
      ])
    #expect(!text.unicodeScalars.contains("\r"))
  }

  @Test func theWriterRefusesWhatWouldBreakExecOrMimeType() {
    func entry(id: String = "dev.test.ok", schemes: [String] = ["rte"], nbridge: String = "/usr/bin/nbridge") -> String?
    {
      let app = InstalledApp(
        id: id, name: "n", entry: "/x/index.js", window: false, urlSchemes: schemes, dataDirectory: nil)
      return try? DesktopEntry.text(for: app, nbridge: nbridge)
    }
    #expect(entry() != nil)
    for path in [
      "/opt/nb\r\n/nbridge", "/opt/n b", "/opt/n%b", "/opt/n;b", "/opt/n\u{85}b", "/opt/n\u{200E}b", "/opt/n=b",
      "/opt/n\\b",
    ] {
      #expect(entry(nbridge: path) == nil, "\(path.debugDescription)")
    }
    #expect(entry(id: "../../x") == nil)
    #expect(entry(id: "x %f") == nil)
    #expect(entry(schemes: ["rte;\nExec=x"]) == nil)
    #expect(entry(schemes: ["rte;text/html"]) == nil)
  }

  /// The issue's `uninstall ../../../../../../tmp/victim` removed files outside nbridge's folders.
  @Test func uninstallOpenAndSimulateRefuseAnIDThatIsAPath() throws {
    try FileManager.default.createDirectory(atPath: installed, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
    // What `installed/../../../victim` and `applications/../../victim` name.
    let victimRecord = try dir.write(
      "victim.json", #"{"id": "../../../victim", "entry": "\#(dir.file("app/index.js"))", "urlSchemes": []}"#)
    let victimEntry = try dir.write("victim.desktop", "keep\n")
    _ = try writeApp(manifest: #"{"id": "dev.test.app"}"#)
    for arguments in [
      ["uninstall", "../../../victim"], ["uninstall", "..%2F..%2Fvictim"], ["uninstall", ".hidden"],
      ["open", "--app", "../../../victim", "x-test://y"], ["simulate", "background", "../../../victim"],
      ["simulate", "fetch", "a..b"],
    ] {
      let r = try nbridge(arguments)
      #expect(r.status == 2, "\(arguments): \(r.stdout)\(r.stderr)")
      #expect(!r.stdout.contains("uninstalled"))
    }
    let r = try nbridge(["uninstall", "../../victim"])
    #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
    #expect(FileManager.default.fileExists(atPath: victimRecord))
    #expect(FileManager.default.fileExists(atPath: victimEntry))
    #expect(!FileManager.default.fileExists(atPath: dir.file("xdg_state_home/nbridge")), "open launched nothing")
  }

  /// 10,000 schemes ran past 60 s (every scheme a scan of `mimeapps.list`): the list is capped.
  @Test func tooManySchemesAreAUsageErrorAndNothingIsWritten() throws {
    let schemes = (0..<10_000).map { "\"s\($0)\"" }.joined(separator: ",")
    let app = try writeApp(manifest: #"{"id": "dev.test.many", "urlSchemes": [\#(schemes)]}"#)
    let started = Date()
    let r = try nbridge(["install", app], timeout: 20)
    #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains(#"field "urlSchemes" lists 10000 schemes; an app may claim at most 64"#), "\(r.stderr)")
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(names(installed).isEmpty && names(applications).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: mimeApps))

    let allowed = (0..<64).map { "\"s\($0)\"" }.joined(separator: ",")
    _ = try writeApp(manifest: #"{"id": "dev.test.many", "urlSchemes": [\#(allowed)]}"#)
    let ok = try nbridge(["install", app])
    #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
    #expect(
      try String(contentsOfFile: mimeApps, encoding: .utf8).contains("x-scheme-handler/s63=dev.test.many.desktop"))
  }

  /// The desktop entry cannot be written (its folder is a file): the record written before it used
  /// to stay, a half-finished install. Now nothing is left, temporaries included.
  @Test func anInstallThatFailsHalfWayLeavesNothing() throws {
    let app = try writeApp(manifest: #"{"id": "dev.test.half", "urlSchemes": ["halftest"]}"#)
    try dir.write("xdg_data_home/applications", "not a folder\n")
    let r = try nbridge(["install", app])
    #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
    #expect(names(installed).isEmpty, "\(names(installed))")
    #expect(!FileManager.default.fileExists(atPath: mimeApps))
    #expect(try String(contentsOfFile: applications, encoding: .utf8) == "not a folder\n")
  }
}
