import Foundation
import NBridgeTesting
import Testing

/// `nbridge.shortcut` where X11 is not there (a Wayland session: `WAYLAND_DISPLAY`, no `DISPLAY`):
/// through the XDG GlobalShortcuts portal, here a stand-in (`global-shortcuts-portal.py`, since no
/// portal backend on Debian bookworm implements the interface) on a private session bus, both
/// started by the test and stopped by their PIDs.
@Suite(.serialized)
struct ShortcutPortalTests {
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/global-shortcuts-portal.py").path

  /// The bus, the portal (unless `portal` is nil) and an app folder whose runs use them.
  final class Desktop {
    let bus: SessionBus
    let folder: TemporaryDirectory
    let portal: ChildProcess?

    /// `portal`: the stand-in's arguments (`[]` grants, `["refuse"]` refuses); nil for no portal.
    init(portal arguments: [String]? = []) throws {
      bus = try SessionBus()
      folder = try TemporaryDirectory(prefix: "nbridge-shortcut-portal")
      try folder.write(
        "app/nbridge.json", #"{"id": "org.example.words", "name": "Words", "permissions": ["shortcut"]}"#)
      if let arguments {
        let child = try ChildProcess(
          "/usr/bin/python3", [ShortcutPortalTests.fixture] + arguments, environment: bus.environment)
        guard child.waitForOutput("ready\n", timeout: 20) else {
          child.stop()
          throw ChildProcessError.notReady("global-shortcuts-portal.py: \(child.stderr)")
        }
        portal = child
      } else {
        portal = nil
      }
    }

    deinit { portal?.stop() }

    /// `nbridge run` of `source` in a Wayland session without XWayland: this bus, no `DISPLAY`
    /// (unless `display` names one).
    func start(_ source: String, display: String? = nil) throws -> ChildProcess {
      let script = try folder.write("app/index.js", source)
      let environment = NBridgeTest.headless.merging(bus.environment) { $1 }.merging([
        "WAYLAND_DISPLAY": "wayland-nbridge-test", "NBRIDGE_DATA_DIR": folder.file("data"),
        "NBRIDGE_SHARED_DIR": folder.file("data"), "DISPLAY": display,
      ]) { $1 }
      return try NBridgeTest.start(["run", script], environment: environment)
    }

    /// The portal's JSON lines with `key` (`session`, `bind`, `closed`), once there are `count` (within 20 s).
    func reports(_ key: String, count: Int = 1) -> [[String: Any]] {
      let deadline = Date().addingTimeInterval(20)
      while true {
        let found = (portal?.stdout ?? "").split(separator: "\n").compactMap { line -> [String: Any]? in
          guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            object[key] != nil
          else { return nil }
          return object
        }
        if found.count >= count || Date() > deadline { return found }
        usleep(10_000)
      }
    }

    /// Presses `id` on the portal's side (its test-only `Activate`): how many sessions it reached.
    func activate(_ id: String) throws -> String {
      try ChildProcess.run(
        "gdbus",
        [
          "call", "--session", "--dest", "org.freedesktop.portal.Desktop", "--object-path",
          "/org/freedesktop/portal/desktop", "--method", "org.nbridge.test.Portal.Activate", id,
        ], environment: bus.environment, timeout: 20
      ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  /// Registers Ctrl+Alt+K, says whether it is held, unregisters at the second press.
  static let app = """
    const accelerator = 'Ctrl+Alt+K';
    let presses = 0;
    nbridge.shortcut.register({ accelerator, retainCallback: async (press) => {
      console.log('pressed ' + press.accelerator);
      if (++presses === 2) console.log('unregistered ' + await nbridge.shortcut.unregister({ accelerator }));
    } }).then(() => console.log('ended'), (e) => console.log(e.code + ': ' + e.message));
    // Asked while the desktop decides, isRegistered answers once it has.
    console.log('held ' + await nbridge.shortcut.isRegistered({ accelerator }));
    """

  @Test func theAcceleratorIsBoundThroughThePortalAndActivatedRunsTheCallback() throws {
    let desktop = try Desktop()
    let app = try desktop.start(Self.app)
    defer { app.stop() }
    #expect(app.waitForOutput("held true\n"), "\(app.stdout)\(app.stderr)")
    let session = try #require(desktop.reports("session").first?["session"] as? String)
    let bind = try #require(desktop.reports("bind").first)
    #expect(bind["bind"] as? String == session)
    let shortcuts = bind["shortcuts"] as? [[Any]]
    #expect(shortcuts?.count == 1 && shortcuts?.first?.first as? String == "Ctrl+Alt+K", "\(bind)")
    #expect(
      shortcuts?.first?.last as? [String: String] == [
        "description": "Words: Ctrl+Alt+K", "preferred_trigger": "CTRL+ALT+k",
      ], "the accelerator in the shortcuts specification's format: \(bind)")

    #expect(try desktop.activate("Ctrl+Alt+K") == "(uint32 1,)")
    #expect(app.waitForOutput("pressed Ctrl+Alt+K\n"), "\(app.stdout)\(app.stderr)")
    #expect(try desktop.activate("Ctrl+Alt+K") == "(uint32 1,)")
    // The second press unregisters: the register call ends, the portal's session is closed, and
    // with nothing pending the run ends by itself.
    #expect(app.wait(timeout: 20) == 0, "\(app.stdout)\(app.stderr)")
    #expect(app.stdout == "held true\npressed Ctrl+Alt+K\npressed Ctrl+Alt+K\nended\nunregistered true\n")
    #expect(desktop.reports("closed").map { $0["closed"] as? String } == [session])
  }

  /// `DISPLAY` set, but no X server answers there (XWayland gone): the portal, not an error.
  @Test func aDisplayThatDoesNotOpenFallsBackToThePortal() throws {
    let desktop = try Desktop()
    let app = try desktop.start(Self.app, display: ":4999")
    defer { app.stop() }
    #expect(app.waitForOutput("held true\n"), "\(app.stdout)\(app.stderr)")
    #expect(try desktop.activate("Ctrl+Alt+K") == "(uint32 1,)")
    #expect(app.waitForOutput("pressed Ctrl+Alt+K\n"), "\(app.stdout)\(app.stderr)")
  }

  @Test func aPortalThatRefusesIsPermissionDeniedAndItsSessionIsClosed() throws {
    let desktop = try Desktop(portal: ["refuse"])
    let app = try desktop.start(
      """
      const accelerator = 'Super+F12';
      nbridge.shortcut.register({ accelerator, retainCallback: () => console.log('pressed') })
        .catch((e) => console.log(e.code + ': ' + e.message));
      console.log('registered ' + await nbridge.shortcut.isRegistered({ accelerator }));
      """)
    defer { app.stop() }
    #expect(app.wait(timeout: 30) == 0, "\(app.stderr)")
    #expect(
      app.stdout
        == "permission_denied: shortcut.register: the desktop refused Super+F12 (GlobalShortcuts portal, BindShortcuts)\n"
        + "registered false\n")
    let session = desktop.reports("session").first?["session"] as? String
    #expect(session != nil)
    #expect(
      (desktop.reports("bind").first?["shortcuts"] as? [[Any]])?.first?.last as? [String: String] == [
        "description": "Words: Super+F12", "preferred_trigger": "LOGO+F12",
      ])
    #expect(desktop.reports("closed").map { $0["closed"] as? String } == [session])
  }

  @Test func noPortalOnTheBusIsUnavailableSayingSo() throws {
    let desktop = try Desktop(portal: nil)
    let app = try desktop.start(
      """
      await nbridge.shortcut.register({ accelerator: 'Ctrl+Alt+K', retainCallback: () => {} })
        .catch((e) => console.log(e.code + ': ' + e.message));
      """)
    defer { app.stop() }
    #expect(app.wait(timeout: 30) == 0, "\(app.stderr)")
    #expect(
      app.stdout
        == "unavailable: shortcut.register: global shortcuts on Wayland need the GlobalShortcuts portal, and none"
        + " answers on the session bus (under XWayland set DISPLAY)\n")
  }
}
