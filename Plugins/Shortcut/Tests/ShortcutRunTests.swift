import Foundation
import NBridgeTesting
import Testing

/// `nbridge.shortcut` in a real `nbridge run` under Xvfb with openbox: a key pressed (by xdotool)
/// while another window has the focus reaches the app; a second app asking for the same key
/// gets a coded error.
@Suite(.serialized)
struct ShortcutRunTests {
  /// An app folder per app id, run on `display`.
  struct App {
    let folder: TemporaryDirectory
    let script: String
    let display: String?

    init(_ source: String, id: String = "org.example.words", display: String?) throws {
      folder = try TemporaryDirectory(prefix: "nbridge-shortcut")
      try folder.write(
        "app/nbridge.json", #"{"id": "\#(id)", "name": "Words", "permissions": ["app", "shortcut"]}"#)
      script = try folder.write("app/index.js", source)
      self.display = display
    }

    var environment: [String: String?] {
      NBridgeTest.headless.merging([
        "DISPLAY": display, "NBRIDGE_DATA_DIR": folder.file("data"), "NBRIDGE_SHARED_DIR": folder.file("data"),
      ]) { $1 }
    }

    func start() throws -> ChildProcess { try NBridgeTest.start(["run", script], environment: environment) }
    func run() throws -> (status: Int32, stdout: String, stderr: String) {
      try NBridgeTest.command(["run", script], environment: environment, timeout: 30)
    }
  }

  static let listener = """
    const accelerator = nbridge.args[0] ?? 'Ctrl+Alt+K';
    nbridge.shortcut.register({ accelerator, retainCallback: (press) => {
      console.log('pressed ' + press.accelerator);
      if (press.accelerator === 'Ctrl+Alt+Q') nbridge.shortcut.unregister({ accelerator });
    } }).then(() => console.log('ended'), (e) => console.log(e.code + ': ' + e.message));
    nbridge.shortcut.isRegistered({ accelerator }).then((held) => console.log('registered ' + held));
    """

  @Test func aKeyPressedWhileAnotherWindowHasTheFocusRunsTheCallback() throws {
    let x = try XvfbServer()
    defer { x.stop() }
    // Ready once openbox owns the screen: before that, the other window's activation may be lost.
    let wm = try OpenboxWindowManager(display: x.display)
    defer { wm.stop() }
    let other = try ChildProcess("xmessage", ["-name", "other", "other window"], environment: ["DISPLAY": x.display])
    defer { other.stop() }
    func xdotool(_ arguments: [String]) throws -> String {
      try ChildProcess.run("xdotool", arguments, environment: ["DISPLAY": x.display], timeout: 20).stdout
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    var window = ""
    let deadline = Date().addingTimeInterval(20)
    while window.isEmpty && Date() < deadline {
      window = try xdotool(["search", "--name", "^other$"]).split(separator: "\n").first.map(String.init) ?? ""
      if window.isEmpty { usleep(50_000) }
    }
    _ = try xdotool(["windowactivate", "--sync", window])

    let app = try App(Self.listener, display: x.display)
    let child = try app.start()
    defer { child.stop() }
    #expect(child.waitForOutput("registered true\n"), "\(child.stdout)\(child.stderr)")
    #expect(try xdotool(["getactivewindow"]) == window, "the other window keeps the focus")
    _ = try xdotool(["key", "ctrl+alt+k"])
    #expect(child.waitForOutput("pressed Ctrl+Alt+K\n"), "\(child.stdout)\(child.stderr)")
    _ = try xdotool(["key", "ctrl+k"])  // not the accelerator
    _ = try xdotool(["key", "ctrl+alt+k"])
    let deadline2 = Date().addingTimeInterval(10)
    while child.stdout.components(separatedBy: "pressed").count < 3 && Date() < deadline2 { usleep(20_000) }
    #expect(child.stdout == "registered true\npressed Ctrl+Alt+K\npressed Ctrl+Alt+K\n")

    // A second app asking for the same key: a coded error, and it goes on running.
    let second = try App(Self.listener, id: "org.example.other", display: x.display)
    let taken = try second.run()
    #expect(taken.status == 0, "\(taken.stderr)")
    #expect(
      taken.stdout
        == "unavailable: shortcut.register: Ctrl+Alt+K is taken: another program holds it as a global shortcut\n"
        + "registered false\n")
  }

  @Test func unregisterReleasesTheKeyAndEndsTheRegistration() throws {
    let x = try XvfbServer()
    defer { x.stop() }
    let app = try App(Self.listener, display: x.display)
    let child = try NBridgeTest.start(["run", app.script, "--", "Ctrl+Alt+Q"], environment: app.environment)
    defer { child.stop() }
    #expect(child.waitForOutput("registered true\n"), "\(child.stderr)")
    _ = try ChildProcess.run("xdotool", ["key", "ctrl+alt+q"], environment: ["DISPLAY": x.display], timeout: 20)
    #expect(child.wait(timeout: 20) == 0, "the registration was all that kept the run alive: \(child.stderr)")
    #expect(child.stdout == "registered true\npressed Ctrl+Alt+Q\nended\n")
    // Released: another app may have it now.
    let second = try App(Self.listener, id: "org.example.other", display: x.display)
    let again = try NBridgeTest.start(["run", second.script, "--", "Ctrl+Alt+Q"], environment: second.environment)
    defer { again.stop() }
    #expect(again.waitForOutput("registered true\n"), "\(again.stdout)\(again.stderr)")
  }

  @Test func badAcceleratorsAreInvalidParameterNamingTheField() throws {
    let app = try App(
      """
      const attempts = ['', 'K', 'Ctrl+', 'Hyper+K', 'Ctrl+Ctrl+K', 'Ctrl+Alt+Ü', 'Ctrl+F25', 'Shift+A', 42];
      (async () => {
        for (const accelerator of attempts) {
          await nbridge.shortcut.register({ accelerator, retainCallback: () => {} })
            .catch((e) => console.log(e.code + ': ' + e.message));
        }
        await nbridge.shortcut.register({ accelerator: 'Ctrl+Alt+K' }).catch((e) => console.log(e.code + ': ' + e.message));
        await nbridge.shortcut.register({ accelerator: 'F9', retainCallback: () => {} })
          .catch((e) => console.log(e.code + ': ' + e.message));
        console.log(await nbridge.shortcut.unregister({ accelerator: 'ctrl + alt + k' }));
      })();
      """, display: nil)
    let result = try app.run()
    #expect(result.status == 0, "\(result.stderr)")
    let modifiers = "must be modifiers and a key joined by '+', such as 'Ctrl+Alt+K'"
    #expect(
      result.stdout.split(separator: "\n").map(String.init) == [
        #"invalid_parameter: shortcut.register: "accelerator" \#(modifiers)"#,
        #"invalid_parameter: shortcut.register: "accelerator" "K" needs Ctrl, Alt or Super: a global shortcut on a plain key would take it from every program"#,
        #"invalid_parameter: shortcut.register: "accelerator" \#(modifiers)"#,
        #"invalid_parameter: shortcut.register: "accelerator" has "Hyper" where a modifier goes (Ctrl, Alt, Shift, Super) in "Hyper+K""#,
        #"invalid_parameter: shortcut.register: "accelerator" names Ctrl twice in "Ctrl+Ctrl+K""#,
        #"invalid_parameter: shortcut.register: "accelerator" has "Ü" where the key goes (a letter, a digit, F1-F24, Space, Enter, an arrow...) in "Ctrl+Alt+Ü""#,
        #"invalid_parameter: shortcut.register: "accelerator" has "F25" where the key goes (a letter, a digit, F1-F24, Space, Enter, an arrow...) in "Ctrl+F25""#,
        #"invalid_parameter: shortcut.register: "accelerator" "Shift+A" needs Ctrl, Alt or Super: a global shortcut on a plain key would take it from every program"#,
        #"invalid_parameter: shortcut.register: "accelerator" must be a string (got number)"#,
        #"invalid_parameter: shortcut.register: "retainCallback" must be a function: register calls it on each press"#,
        "unavailable: shortcut.register: no display (DISPLAY is not set) and no GlobalShortcuts portal on the session bus: no global shortcuts",
        "false",
      ])
  }
}
