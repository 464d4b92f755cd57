import Foundation
import NBridgeTesting
import Testing

/// The desktop session moves the state: a stand-in `org.freedesktop.login1` (Python, on a private
/// bus the run reaches through `NBRIDGE_LOGIND_BUS`) flips `LockedHint`, `Active` and `IdleHint`.
@Suite(.serialized) struct SessionLifecycleTests {
  /// login1's Manager.GetSessionByPID and one Session's properties (saying when they are read),
  /// plus `Set` for the test.
  static let standIn = #"""
    import sys, dbus, dbus.service, dbus.mainloop.glib
    from gi.repository import GLib
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(sys.argv[1])
    SESSION = '/org/freedesktop/login1/session/_31'
    class Manager(dbus.service.Object):
        @dbus.service.method('org.freedesktop.login1.Manager', in_signature='u', out_signature='o')
        def GetSessionByPID(self, pid):
            return dbus.ObjectPath(SESSION)
    class Session(dbus.service.Object):
        def __init__(self, conn, path):
            super().__init__(conn, path)
            self.props = {'Active': True, 'LockedHint': False, 'IdleHint': False}
        @dbus.service.method('org.freedesktop.DBus.Properties', in_signature='s', out_signature='a{sv}')
        def GetAll(self, interface):
            print('GetAll', flush=True)
            return {k: dbus.Boolean(v) for k, v in self.props.items()}
        @dbus.service.method('dev.nbridge.test', in_signature='sb')
        def Set(self, name, value):
            self.props[name] = bool(value)
            self.PropertiesChanged('org.freedesktop.login1.Session', {name: dbus.Boolean(value)}, [])
        @dbus.service.signal('org.freedesktop.DBus.Properties', signature='sa{sv}as')
        def PropertiesChanged(self, interface, changed, invalidated):
            pass
    name = dbus.service.BusName('org.freedesktop.login1', bus)
    Manager(bus, '/org/freedesktop/login1')
    Session(bus, SESSION)
    print('ready', flush=True)
    GLib.MainLoop().run()
    """#

  static let script = """
    nbridge.app.addListener('stateChange', (s) => console.log('state ' + s.state));
    nbridge.app.addListener('pause', () => console.log('pause'));
    nbridge.app.addListener('resume', () => console.log('resume'));
    setInterval(() => {}, 1000);
    nbridge.app.getState().then((s) => console.log('ready ' + s.state));
    """

  static func set(_ name: String, _ value: Bool, bus: SessionBus) throws {
    let r = try ChildProcess.run(
      "dbus-send",
      [
        "--bus=\(bus.address)", "--print-reply", "--dest=org.freedesktop.login1",
        "/org/freedesktop/login1/session/_31", "dev.nbridge.test.Set", "string:\(name)", "boolean:\(value)",
      ], timeout: 10)
    #expect(r.status == 0, "\(r.stderr)")
  }

  /// Starts the stand-in on a private bus; the caller keeps both.
  static func standInLogin1(_ dir: TemporaryDirectory) throws -> (SessionBus, ChildProcess) {
    let bus = try SessionBus()
    let file = try dir.write("login1.py", standIn)
    let login1 = try ChildProcess("/usr/bin/python3", [file, bus.address])
    guard login1.waitForOutput("ready") else { throw ChildProcessError.notReady("login1 stand-in: \(login1.stderr)") }
    return (bus, login1)
  }

  @Test func lockingIdlingAndLeavingTheSessionMoveTheState() throws {
    let dir = try TemporaryDirectory()
    let (bus, login1) = try Self.standInLogin1(dir)
    defer {
      login1.stop()
      bus.stop()
    }
    let script = try dir.write("app/index.js", Self.script)
    let app = try NBridgeTest.start(
      ["run", script], environment: ["NBRIDGE_DATA_DIR": dir.file("data"), "NBRIDGE_LOGIND_BUS": bus.address])
    defer { app.stop() }
    #expect(app.waitForOutput("ready active"))
    // The app reads the session's hints after subscribing to their changes: once it has, a
    // change reaches it.
    #expect(login1.waitForOutput("GetAll"), "\(app.stderr)")
    try Self.set("LockedHint", true, bus: bus)
    #expect(app.waitForOutput("ready active\nstate background\npause\n"), "\(app.stdout)\(app.stderr)")
    try Self.set("LockedHint", false, bus: bus)
    #expect(app.waitForOutput("pause\nresume\nstate active\n"), "\(app.stdout)")
    try Self.set("IdleHint", true, bus: bus)
    #expect(app.waitForOutput("state active\nstate inactive\n"), "\(app.stdout)")
    try Self.set("IdleHint", false, bus: bus)
    // Each change waited for before the next: two sent together may reach the app in one read,
    // which goes from inactive to background without the active state between them.
    #expect(app.waitForOutput("state inactive\nstate active\n"), "\(app.stdout)")
    try Self.set("Active", false, bus: bus)
    #expect(app.waitForOutput("state inactive\nstate active\nstate background\npause\n"), "\(app.stdout)")
  }

  @Test func aLockedSessionAtStartSuspendsUnlessOptedOutOrUnderTest() throws {
    let dir = try TemporaryDirectory()
    let (bus, login1) = try Self.standInLogin1(dir)
    defer {
      login1.stop()
      bus.stop()
    }
    try Self.set("LockedHint", true, bus: bus)
    // The session is read asynchronously after the start, so the timer is set when the pause
    // comes (a timer set at the start could run first on a loaded machine); another keeps the
    // run going until then.
    let script = try dir.write(
      "app/index.js",
      """
      const keep = setTimeout(() => {}, 60000);
      nbridge.app.addListener('pause', () => {
        console.log('pause');
        setTimeout(() => nbridge.app.getState().then((s) => { console.log(s.state); clearTimeout(keep); }), 500);
        console.error('due ' + (Date.now() + 500));
      });
      """)
    // Not following the session: no pause, and the state is active.
    let unfollowed = try dir.write(
      "app/later.js",
      """
      nbridge.app.addListener('pause', () => console.log('pause'));
      setTimeout(() => nbridge.app.getState().then((s) => console.log(s.state)), 500);
      """)
    let runtimeDir = dir.file("xdg")
    try FileManager.default.createDirectory(atPath: runtimeDir, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtimeDir)
    let env: [String: String?] = [
      "NBRIDGE_DATA_DIR": dir.file("data"), "NBRIDGE_LOGIND_BUS": bus.address, "XDG_RUNTIME_DIR": runtimeDir,
    ]

    // Following the session: locked at start, the app is suspended and its timer waits for the unlock.
    let following = try NBridgeTest.start(["run", script], environment: env)
    defer { following.stop() }
    #expect(following.waitForOutput("pause\n"), "\(following.stderr)")
    // Past the timer's due time, two `nbridge ps` answers (the control socket is served on the
    // app's loop) are two turns of its loop, in which a timer that was not held would have run.
    #expect(waitUntil(timeout: 10) { following.stderr.contains("due ") }, "\(following.stderr)")
    let due = try #require(
      following.stderr.split(separator: "\n").first { $0.hasPrefix("due ") }.flatMap { Double($0.dropFirst(4)) })
    while Date().timeIntervalSince1970 * 1000 <= due { usleep(10_000) }
    for _ in 0..<2 {
      let listed = try NBridgeTest.command(["ps"], environment: env).stdout
      #expect(listed.contains(" background"), "\(listed)")
    }
    #expect(following.stdout == "pause\n")
    try Self.set("LockedHint", false, bus: bus)
    #expect(following.wait(timeout: 20) == 0)
    #expect(following.stdout == "pause\nactive\n")

    try Self.set("LockedHint", true, bus: bus)
    try dir.write("app/nbridge.json", #"{"id": "com.example.nosession", "lifecycle": {"followSession": false}}"#)
    let opted = try NBridgeTest.command(["run", unfollowed], environment: env, timeout: 20)
    #expect(opted.stdout == "active\n", "\(opted.stderr)")

    let test = try dir.write(
      "t/state.test.js",
      """
      test('state', async () => {
        await new Promise((r) => setTimeout(r, 500));
        assert.equal((await nbridge.app.getState()).state, 'active');
      });
      """)
    let tested = try NBridgeTest.command(["test", test], environment: env, timeout: 20)
    #expect(tested.status == 0, "\(tested.stdout)")
  }
}
