import Foundation

/// The real `xdg-desktop-portal` on a test's private session bus, with a stand-in Access dialog
/// (`Portal/stand-in-access.py`) that grants or denies, its own permission store
/// (`xdg-permission-store`, its database in a folder of its own) and, when asked, gnome-keyring's
/// Secret portal backend. `sandboxed(_:appID:)` runs a command as the portal sees a Flatpak app.
/// Everything is started here and stopped by its PID.
public final class DesktopPortal: @unchecked Sendable {
  /// Debian's `xdg-desktop-portal` puts its programs here.
  public static let daemon = "/usr/libexec/xdg-desktop-portal"
  /// The permission store the portal keeps its answers in.
  public static let permissionStore = "/usr/libexec/xdg-permission-store"
  /// The desktop name the portal files here are for (`XDG_CURRENT_DESKTOP`).
  static let desktop = "nbridge-test"

  /// The folder holding the portal files, the helper scripts and the permission store's data.
  public let folder: TemporaryDirectory
  /// The stand-in Access dialog: its stdout has an `asked APP_ID` line per question.
  public let access: ChildProcess
  private let store: ChildProcess
  private let portal: ChildProcess
  private let sandboxScript: String

  /// Starts the portal on `bus`, reaching GeoClue on the system bus at `systemBus` (nil: none);
  /// the Access dialog answers `granted`; with `secret`, the Secret portal is backed by
  /// gnome-keyring's `org.freedesktop.secrets` on `bus` (started by the test).
  public init(bus: SessionBus, systemBus: String? = nil, granted: Bool = true, secret: Bool = false) throws {
    folder = try TemporaryDirectory(prefix: "nbridge-portal")
    let accessScript = try folder.write("stand-in-access.py", Self.text(EmbeddedFiles.stand_in_access_py))
    sandboxScript = try folder.write("sandboxed.sh", Self.text(EmbeddedFiles.sandboxed_sh))
    _ = try folder.write(
      "portals/stand-in-access.portal",
      "[portal]\nDBusName=org.nbridge.test.StandInAccess\nInterfaces=org.freedesktop.impl.portal.Access\nUseIn=\(Self.desktop)\n")
    if secret {
      _ = try folder.write(
        "portals/gnome-keyring.portal",
        "[portal]\nDBusName=org.freedesktop.secrets\nInterfaces=org.freedesktop.impl.portal.Secret\nUseIn=\(Self.desktop)\n")
    }
    // No dialog of the desktop can show, even when the test process has a DISPLAY (an in-process
    // window test sets one): gnome-keyring asks for a locked keyring's password through a
    // prompter the bus starts (D-Bus activation) with the bus's environment. As when the user
    // dismisses the prompt.
    let cleared = try ChildProcess.run(
      "dbus-send",
      [
        "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
        "org.freedesktop.DBus.UpdateActivationEnvironment", "dict:string:string:DISPLAY,,WAYLAND_DISPLAY,",
      ], environment: bus.environment, timeout: 10)
    guard cleared.status == 0 else { throw ChildProcessError.notReady("UpdateActivationEnvironment: \(cleared.stderr)") }
    var environment = bus.environment
    environment["DISPLAY"] = .some(nil)
    environment["WAYLAND_DISPLAY"] = .some(nil)
    environment["XDG_DATA_HOME"] = folder.file("data")
    environment["XDG_CURRENT_DESKTOP"] = Self.desktop
    environment["XDG_DESKTOP_PORTAL_DIR"] = folder.file("portals")
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus ?? "unix:path=\(folder.file("no-system-bus"))"

    access = try ChildProcess(GeoClueSystem.python, [accessScript, granted ? "0" : "1"], environment: environment)
    store = try ChildProcess(Self.permissionStore, ["--replace"], environment: environment)
    // The portal starts once the store owns its name: asked earlier, the bus would start the
    // installed store (D-Bus activation), which keeps its data in the user's own home.
    try Self.wait(for: "org.freedesktop.impl.portal.PermissionStore", on: bus, [store, access])
    portal = try ChildProcess(Self.daemon, ["--replace", "--verbose"], environment: environment)
    do {
      try Self.wait(for: "org.freedesktop.portal.Desktop", on: bus, [portal, store, access])
      guard access.waitForOutput("ready", timeout: 15) else {
        throw ChildProcessError.notReady("stand-in-access.py: \(access.stdout)\(access.stderr)")
      }
    } catch {
      stop()
      throw error
    }
  }

  /// Waits up to 15 s for `name` on `bus` while `children` run; stops them when it does not come.
  private static func wait(for name: String, on bus: SessionBus, _ children: [ChildProcess]) throws {
    let deadline = Date().addingTimeInterval(15)
    while !bus.hasOwner(name) {
      guard children.allSatisfy(\.isRunning), Date() < deadline else {
        for child in children { child.stop() }
        throw ChildProcessError.notReady("\(name): " + children.map(\.stderr).joined(separator: "\n"))
      }
      usleep(20_000)
    }
  }

  deinit { stop() }

  /// The portal's own log (`--verbose`), for a failing test's message.
  public var log: String { portal.stderr }

  /// How to run `command` as the Flatpak app `appID`: the program, its arguments, and the
  /// environment entry the sandbox script reads.
  public func sandboxed(_ command: [String], appID: String) -> (
    program: String, arguments: [String], environment: [String: String?]
  ) {
    ("/bin/sh", [sandboxScript] + command, ["SANDBOX_APP_ID": appID, "SANDBOX_DIR": folder.path])
  }

  private func stop() {
    portal.stop()
    store.stop()
    access.stop()
  }

  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
