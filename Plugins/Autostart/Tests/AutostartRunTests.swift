import Foundation
import NBridgeTesting
import Testing

/// `nbridge.autostart` in a real `nbridge run`: the XDG autostart entry it writes, validates and removes.
@Suite struct AutostartRunTests {
  static let toggle = """
    (async () => {
      console.log('before', await nbridge.autostart.isEnabled());
      await nbridge.autostart.enable();
      console.log('enabled', await nbridge.autostart.isEnabled());
      if (nbridge.args[0] === 'disable') {
        await nbridge.autostart.disable();
        await nbridge.autostart.disable();
        console.log('disabled', await nbridge.autostart.isEnabled());
      }
    })();
    """

  @Test func enableWritesAValidEntryThatStartsTheAppInBackground() throws {
    let app = try AutostartApp(Self.toggle)
    let result = try app.run()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "before false\nenabled true\n")
    #expect(app.exec == "\(NBridgeTest.executable) run --background --data-dir \(app.folder.file("data")) \(app.script)")
    let text = try String(contentsOfFile: app.entryPath, encoding: .utf8)
    #expect(text.contains("\nName=Words & Meanings\n"))
    #expect(text.contains("\nType=Application\n"))
    #expect(text.contains("\nX-GNOME-Autostart-enabled=true\n"))
    #expect(text.contains("\nNoDisplay=true\n"))
    let validation = try app.validate()
    #expect(validation.status == 0 && validation.output.isEmpty, "\(validation.output)")
    // A second run sees it enabled.
    #expect(try app.run().stdout == "before true\nenabled true\n")
  }

  @Test func disableRemovesTheEntryAndAgainIsHarmless() throws {
    let app = try AutostartApp(Self.toggle)
    let result = try NBridgeTest.command(["run", app.script, "--", "disable"], environment: app.environment, timeout: 30)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "before false\nenabled true\ndisabled false\n")
    #expect(!FileManager.default.fileExists(atPath: app.entryPath))
  }

  @Test func theEntrysCommandStartsTheAppInBackground() throws {
    let app = try AutostartApp(
      """
      (async () => {
        if (nbridge.args[0] === 'enable') return nbridge.autostart.enable();
        console.log('state', (await nbridge.app.getState()).state);
      })();
      """)
    let result = try NBridgeTest.command(["run", app.script, "--", "enable"], environment: app.environment, timeout: 30)
    #expect(result.status == 0, "\(result.stderr)")
    let exec = try #require(app.exec)
    let arguments = exec.split(separator: " ").map(String.init)
    let started = try ChildProcess.run(arguments[0], Array(arguments.dropFirst()), environment: app.environment, timeout: 30)
    #expect(started.status == 0, "\(started.stderr)")
    #expect(started.stdout == "state background\n")
  }

  @Test func aPathWithSpacesAndQuotesIsQuotedAndValidates() throws {
    let app = try AutostartApp(Self.toggle, subfolder: #"my "apps" $x\y 100%"#)
    let result = try app.run()
    #expect(result.status == 0, "\(result.stderr)")
    let exec = try #require(app.exec)
    let folder = app.folder.file(#"my "apps" $x\y 100%"#)
    #expect(exec.hasSuffix(#" "\#(folder.replacingOccurrences(of: "\\", with: "\\\\\\\\").replacingOccurrences(of: "\"", with: "\\\\\"").replacingOccurrences(of: "$", with: "\\\\$").replacingOccurrences(of: "%", with: "%%"))/index.js""#), "\(exec)")
    let validation = try app.validate()
    #expect(validation.status == 0 && validation.output.isEmpty, "\(validation.output)")
  }

  @Test func withoutThePermissionEveryActionIsDenied() throws {
    let app = try AutostartApp(
      """
      (async () => {
        for (const action of ['enable', 'disable', 'isEnabled']) {
          await nbridge.autostart[action]().then(() => console.log(action, 'ok'), (e) => console.log(action, e.code));
        }
      })();
      """, permissions: #"["app"]"#)
    let result = try app.run()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "enable permission_denied\ndisable permission_denied\nisEnabled permission_denied\n")
    #expect(!FileManager.default.fileExists(atPath: app.entryPath))
  }

  @Test func anEntryTheAppDidNotWriteIsNeitherReportedNorRemoved() throws {
    let app = try AutostartApp(
      """
      (async () => {
        console.log(await nbridge.autostart.isEnabled());
        await nbridge.autostart.disable();
      })();
      """)
    try FileManager.default.createDirectory(atPath: app.config + "/autostart", withIntermediateDirectories: true)
    let foreign = "[Desktop Entry]\nType=Application\nName=Mine\nExec=true\n"
    try foreign.write(toFile: app.entryPath, atomically: true, encoding: .utf8)
    let result = try app.run()
    #expect(result.stdout == "false\n", "\(result.stderr)")
    #expect(try String(contentsOfFile: app.entryPath, encoding: .utf8) == foreign)
  }

  @Test func underNbridgeTestEnableIsUnavailableAndIsEnabledAnswers() throws {
    let app = try AutostartApp("")
    let test = try app.folder.write(
      "app/autostart.test.js",
      """
      test('autostart', async () => {
        assert.equal(await nbridge.autostart.isEnabled(), false);
        const error = await nbridge.autostart.enable().catch((e) => e);
        assert.equal(error.code, 'unavailable');
      });
      """)
    let result = try NBridgeTest.command(["test", test], environment: app.environment, timeout: 30)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }
}
