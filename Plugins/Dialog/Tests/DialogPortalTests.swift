import Foundation
import NBridgeTesting
import Testing

/// `nbridge.dialog`'s file choosers through the real XDG desktop portal: `xdg-desktop-portal`
/// (1.16) and its GTK backend `xdg-desktop-portal-gtk` (1.14) on a private session bus, under
/// Xvfb and openbox, each started and stopped by PID. The dialog is the backend's window, not
/// the app's.
@Suite(.serialized) struct DialogPortalTests {
  /// A session bus that activates nothing (no service folders): every service on it is one the
  /// test started.
  static let busConfig = """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>unix:tmpdir=/tmp</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/>
        <allow eavesdrop="true"/>
        <allow own="*"/>
      </policy>
    </busconfig>
    """

  @Test func thePortalsFileChooserGivesThePathTypedAndEscapeGivesNull() throws {
    let desktop = try DialogDesktop()
    try Self.busConfig.write(toFile: desktop.dir.file("bus.conf"), atomically: true, encoding: .utf8)
    let bus = try ChildProcess(
      "dbus-daemon", ["--config-file=" + desktop.dir.file("bus.conf"), "--nofork", "--nopidfile", "--print-address=1"])
    defer { bus.stop() }
    #expect(bus.waitForOutput("unix:", timeout: 10), "\(bus.stderr)")
    let address = bus.stdout.split(separator: "\n").first.map(String.init) ?? ""
    let runtime = desktop.dir.file("runtime")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    chmod(runtime, 0o700)
    let portalEnv: [String: String?] = [
      "DISPLAY": desktop.display, "DBUS_SESSION_BUS_ADDRESS": address, "XDG_CURRENT_DESKTOP": "gnome",
      "XDG_RUNTIME_DIR": runtime,
    ]
    let backend = try ChildProcess("/usr/libexec/xdg-desktop-portal-gtk", [], environment: portalEnv)
    defer { backend.stop() }
    let portal = try ChildProcess("/usr/libexec/xdg-desktop-portal", [], environment: portalEnv)
    defer { portal.stop() }
    func owned(_ name: String) -> Bool {
      let r = try? ChildProcess.run(
        "dbus-send",
        [
          "--bus=" + address, "--print-reply=literal", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
          "org.freedesktop.DBus.NameHasOwner", "string:\(name)",
        ], environment: [:], timeout: 10)
      return r?.stdout.contains("true") ?? false
    }
    let deadline = Date().addingTimeInterval(20)
    while !(owned("org.freedesktop.portal.Desktop") && owned("org.freedesktop.impl.portal.desktop.gtk")),
      Date() < deadline
    {
      usleep(50_000)
    }
    try #require(owned("org.freedesktop.portal.Desktop"), "xdg-desktop-portal: \(portal.stderr)")

    let folder = desktop.dir.file("files")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let glossary = folder + "/a glossary.txt"
    try "term: meaning\n".write(toFile: glossary, atomically: true, encoding: .utf8)
    desktop.env["DBUS_SESSION_BUS_ADDRESS"] = address
    let app = try desktop.start(
      script: """
        const show = (name, value) => console.log(name + ' ' + JSON.stringify(value));
        show('opened', await nbridge.dialog.open({ title: 'Portal open', filters: [{ name: 'Text', extensions: ['txt'] }] }));
        show('cancelled', await nbridge.dialog.save({ title: 'Portal save', defaultPath: '\(folder)/export.txt' }));
        """)
    defer { app.stop() }
    // The dialog is the portal backend's window.
    let dialog = try desktop.activeWindow("Portal open")
    let owner = try desktop.tool("xdotool", ["getwindowpid", dialog]).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(owner == String(backend.pid), "the dialog's process \(owner), the backend's \(backend.pid)")
    try desktop.typePath(glossary, into: dialog)
    try desktop.accept(dialog)
    #expect(app.waitForOutput("opened \"\(glossary)\"", timeout: 30), "\(app.stdout)\n\(app.stderr)")

    _ = try desktop.activeWindow("Portal save")
    try desktop.type(nil, then: ["Escape"])
    #expect(app.waitForOutput("cancelled null", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    #expect(app.wait(timeout: 30) == 0, "\(app.stdout)\n\(app.stderr)")
  }
}
