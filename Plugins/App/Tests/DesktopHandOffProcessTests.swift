import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

/// `openBrowser`, `goSettings` and `share` as a user runs them: real `nbridge run` processes
/// with stand-ins for `xdg-open`, `gnome-control-center` and `xdg-email` on `PATH` that write
/// down the arguments they were given.
@Suite(.serialized) struct DesktopHandOffProcessTests {
  /// A folder of stand-in programs, a file each writes its arguments to (NUL-separated, renamed
  /// into place when complete), and a run's environment with that folder alone on `PATH`.
  struct Desktop {
    let dir: TemporaryDirectory
    var bin: String { dir.file("bin") }

    init() throws {
      dir = try TemporaryDirectory()
      try FileManager.default.createDirectory(atPath: dir.file("bin"), withIntermediateDirectories: true)
    }

    /// Installs `name`, recording its arguments in `<name>.args` and exiting with `status`.
    func standIn(_ name: String, status: Int = 0) throws {
      let record = dir.file(name + ".args")
      let script = try dir.write(
        "bin/" + name,
        "#!/bin/sh\nprintf '%s\\0' \"$@\" > '\(record).part'\n/bin/mv '\(record).part' '\(record)'\nexit \(status)\n")
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
    }

    /// The arguments `name` was given, once it has written them (within `seconds`).
    func arguments(of name: String, within seconds: Double = 10) throws -> [String] {
      let record = dir.file(name + ".args")
      let deadline = Date().addingTimeInterval(seconds)
      while !FileManager.default.fileExists(atPath: record) {
        if Date() > deadline { throw Missing(what: "\(name) was not started within \(seconds) s") }
        usleep(10_000)
      }
      let text = try String(contentsOfFile: record, encoding: .utf8)
      return text.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Runs `source` as an app `com.example.desk` with a desktop (a display name is enough:
    /// the stand-ins do not open it) and only the stand-ins on `PATH`; the JSON it prints.
    func run(_ source: String) throws -> (status: Int32, json: [String: Any], stderr: String) {
      try dir.write("app/nbridge.json", #"{"id": "com.example.desk", "name": "Desk"}"#)
      let script = try dir.write("app/index.js", source)
      let result = try NBridgeTest.command(
        ["run", script],
        environment: [
          "PATH": bin, "DISPLAY": ":79", "WAYLAND_DISPLAY": nil, "NBRIDGE_DATA_DIR": dir.file("data"),
          "XDG_DATA_HOME": dir.file("share"), "XDG_CONFIG_HOME": dir.file("config"),
        ])
      let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      return (result.status, object ?? [:], result.stderr + result.stdout)
    }
  }

  struct Missing: Error, CustomStringConvertible {
    let what: String
    var description: String { what }
  }

  /// Prints what `call` resolved, or `{code, message}` when it rejected.
  static func printing(_ call: String) -> String {
    """
    \(call).then(
      (value) => console.log(JSON.stringify(value)),
      (error) => console.log(JSON.stringify({ code: error.code, message: error.message })));
    """
  }

  @Test func openBrowserHandsAnHTTPSURLToXdgOpen() throws {
    let desktop = try Desktop()
    try desktop.standIn("xdg-open")
    let url = "https://example.com/a?b=1&c=%20d#e"
    let result = try desktop.run(Self.printing("nbridge.app.openBrowser({ url: '\(url)' })"))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.json["completed"] as? Bool == true, "\(result.stderr)")
    #expect(try desktop.arguments(of: "xdg-open") == [url])
  }

  @Test func openBrowserRefusesOtherSchemesAndStartsNothing() throws {
    let desktop = try Desktop()
    try desktop.standIn("xdg-open")
    let result = try desktop.run(Self.printing("nbridge.app.openBrowser({ url: 'tel:+4912345' })"))
    #expect(result.json["code"] as? String == "invalid_parameter", "\(result.stderr)")
    #expect((result.json["message"] as? String)?.contains("\"url\"") == true)
    #expect(!FileManager.default.fileExists(atPath: desktop.dir.file("xdg-open.args")))
  }

  @Test func openBrowserSettlesWhenXdgOpenFails() throws {
    let desktop = try Desktop()
    try desktop.standIn("xdg-open", status: 4)
    let result = try desktop.run(Self.printing("nbridge.app.openBrowser({ url: 'http://example.com/' })"))
    #expect(result.json["completed"] as? Bool == false, "\(result.stderr)")
    #expect(try desktop.arguments(of: "xdg-open") == ["http://example.com/"])
  }

  @Test(arguments: [
    ("normal", ["applications", "com.example.desk"]), ("push", ["notifications"]), ("location", ["location"]),
    ("gps", ["location"]),
  ])
  func goSettingsOpensTheGNOMESettingsPanel(type: String, expected: [String]) throws {
    let desktop = try Desktop()
    try desktop.standIn("gnome-control-center")
    let result = try desktop.run(Self.printing("nbridge.app.goSettings({ type: '\(type)' })"))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.json["completed"] as? Bool == true, "\(result.stderr)")
    #expect(result.json["panel"] as? String == expected[0])
    #expect(try desktop.arguments(of: "gnome-control-center") == expected)
  }

  @Test func goSettingsWithoutGNOMESettingsIsUnavailable() throws {
    let desktop = try Desktop()
    let result = try desktop.run(Self.printing("nbridge.app.goSettings()"))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.json["code"] as? String == "unavailable", "\(result.stderr)")
    #expect((result.json["message"] as? String)?.contains("gnome-control-center is not installed") == true)
  }

  @Test func shareHandsTitleTextAndURLToXdgEmail() throws {
    let desktop = try Desktop()
    try desktop.standIn("xdg-email")
    let result = try desktop.run(
      Self.printing("nbridge.app.share({ title: 'Look', text: 'A \"quoted\" line', url: 'https://example.com/x' })"))
    #expect(result.json["completed"] as? Bool == true, "\(result.stderr)")
    #expect(result.json["method"] as? String == "email")
    #expect(
      try desktop.arguments(of: "xdg-email")
        == ["--subject", "Look", "--body", "A \"quoted\" line\nhttps://example.com/x"])
  }

  @Test func shareReportsAComposerThatFailed() throws {
    let desktop = try Desktop()
    try desktop.standIn("xdg-email", status: 3)
    let result = try desktop.run(Self.printing("nbridge.app.share({ text: 'only text' })"))
    #expect(result.json["completed"] as? Bool == false, "\(result.stderr)")
    #expect(try desktop.arguments(of: "xdg-email") == ["--body", "only text"])
  }

  @Test func shareWithoutXdgEmailIsUnavailable() throws {
    let desktop = try Desktop()
    let result = try desktop.run(Self.printing("nbridge.app.share({ text: 'x' })"))
    #expect(result.json["code"] as? String == "unavailable", "\(result.stderr)")
    #expect((result.json["message"] as? String)?.contains("xdg-email is not installed") == true)
  }

  @Test func deviceInfoReadsModelAndManufacturerFromTheDMIFolder() throws {
    let desktop = try Desktop()
    try desktop.dir.write("dmi/product_name", "XPS 13 9310\n")
    try desktop.dir.write("dmi/sys_vendor", "Dell Inc.\n")
    let script = "nbridge.app.deviceInfo().then((d) => console.log(JSON.stringify(d)));"
    try desktop.dir.write("dmi-app/index.js", script)
    let run = { (dmi: String) in
      try NBridgeTest.command(
        ["run", desktop.dir.file("dmi-app/index.js")],
        environment: ["NBRIDGE_DMI_DIR": dmi, "NBRIDGE_DATA_DIR": desktop.dir.file("data")])
    }
    let known =
      try JSONSerialization.jsonObject(with: Data(try run(desktop.dir.file("dmi")).stdout.utf8)) as? [String: Any]
    #expect(known?["model"] as? String == "XPS 13 9310")
    #expect(known?["manufacturer"] as? String == "Dell Inc.")
    #expect(known?["platform"] as? String == "linux")
    let none =
      try JSONSerialization.jsonObject(with: Data(try run(desktop.dir.file("nothing")).stdout.utf8)) as? [String: Any]
    #expect(none?["model"] is NSNull)
    #expect(none?["manufacturer"] is NSNull)
    #expect(none?["deviceId"] as? String == known?["deviceId"] as? String)
  }

  @Test func clearCacheRemovesTheEntrysCompiledModules() throws {
    let desktop = try Desktop()
    try desktop.dir.write("mod/lib.mjs", "export const n = 41;")
    let entry = try desktop.dir.write(
      "mod/main.mjs",
      """
      import { n } from './lib.mjs';
      if (nbridge.args.includes('clear')) {
        console.log(JSON.stringify(await nbridge.app.clearCache()));
      } else {
        console.log(n + 1);
      }
      """)
    let cache = desktop.dir.file("modules")
    let environment: [String: String?] = ["NBRIDGE_MODULE_CACHE": cache, "NBRIDGE_DATA_DIR": desktop.dir.file("data")]
    let first = try NBridgeTest.command(["run", entry], environment: environment)
    #expect(first.stdout == "42\n", "\(first.stderr)")
    let files = { (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? [] }
    #expect(files().count == 1, "the first run kept its compiled modules")
    let clearing = try NBridgeTest.command(["run", entry, "--", "clear"], environment: environment)
    #expect(clearing.stdout == #"{"cleared":["moduleCache"]}"# + "\n", "\(clearing.stderr)")
    #expect(files().isEmpty, "the cache file is gone after the run: \(files())")
    let off = try NBridgeTest.command(
      ["run", entry, "--", "clear"], environment: environment.merging(["NBRIDGE_MODULE_CACHE": "off"]) { $1 })
    #expect(off.stdout == #"{"cleared":[]}"# + "\n", "\(off.stderr)")
  }
}
