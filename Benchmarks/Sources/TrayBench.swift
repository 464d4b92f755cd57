import CGio
import Foundation
import Glibc

/// The tray icon's click (issue 36): a D-Bus `Activate` on a running app's StatusNotifierItem to
/// its JS `click` listener, in rounds paired with the same call to a bare GDBus server answering
/// from its own main loop (`DBusFloorServer`, the floor), by the same client on the same private
/// session bus; and a `Peer.Ping` to nbridge's connection (answered on GDBus's worker thread,
/// so below the floor). The tray tests' stand-in watcher, `nbridge run`.
struct TrayBench {
  let nbridge: String
  let directory: String

  struct Result {
    var clickMs: Double?
    var floorMs: Double?
    var roundTripMs: Double?
  }

  /// The stand-in StatusNotifierWatcher the tray tests run (needs python3-dbus).
  static let watcher = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Plugins/Tray/Tests/Fixtures/sni-watcher.py").path

  func run(rounds: Int) -> Result {
    let busOut = "\(directory)/bus.address"
    let bus = Spawned(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"], stdout: busOut)
    defer { stop(bus.pid) }
    guard let address = waitForLine(in: busOut, containing: "unix:") else { return Result() }
    let environment = [
      "DBUS_SESSION_BUS_ADDRESS": address, "DISPLAY": "", "WAYLAND_DISPLAY": "", "NBRIDGE_NEW_INSTANCE": "1",
      "NBRIDGE_DATA_DIR": "\(directory)/data", "NBRIDGE_SHARED_DIR": "\(directory)/shared",
    ]
    let watcherOut = "\(directory)/watcher.out"
    let watcher = Spawned(["/usr/bin/python3", Self.watcher], set: environment, stdout: watcherOut)
    defer { stop(watcher.pid) }
    guard waitForLine(in: watcherOut, containing: "ready") != nil else { return Result() }

    let app = "\(directory)/app"
    try? FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
    try? #"{"id": "dev.nbridge.bench.tray", "permissions": ["tray"]}"#
      .write(toFile: "\(app)/nbridge.json", atomically: true, encoding: .utf8)
    try? """
    let clicks = 0;
    nbridge.tray.addListener('click', () => console.log('CLICK ' + ++clicks));
    await nbridge.tray.create({ icon: 'mail-unread', tooltip: 'bench' });
    console.log('READY');
    """.write(toFile: "\(app)/index.js", atomically: true, encoding: .utf8)
    guard let running = LineChild([nbridge, "run", "\(app)/index.js"], environment: environment) else {
      return Result()
    }
    defer { running.stop() }
    guard running.waitFor("READY"), let line = waitForLine(in: watcherOut, containing: "\"registered\": \""),
      let name = line.components(separatedBy: "\"registered\": \"").last?.split(separator: "\"").first.map(String.init)
    else { return Result() }

    var error: UnsafeMutablePointer<GError>?
    let flags = GDBusConnectionFlags(
      rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
        | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
    guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
      return Result()
    }
    defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
    let floor = LineChild(
      [Self.executable, "--dbus-floor-server", address], environment: ["DBUS_SESSION_BUS_ADDRESS": address])
    defer { floor?.stop() }
    guard let floor, let floorName = floor.waitForLine(startingWith: "READY ") else { return Result() }

    func call(_ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: OpaquePointer?)
      -> Bool
    {
      let reply = g_dbus_connection_call_sync(
        connection, destination, path, interface, method, arguments, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, nil)
      guard let reply else { return false }
      g_variant_unref(reply)
      return true
    }
    func point() -> OpaquePointer? {
      var members: [OpaquePointer?] = [g_variant_new_int32(10), g_variant_new_int32(20)]
      return members.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }
    }

    var result = Result()
    var clicks: [Double] = []
    var floors: [Double] = []
    // Paired rounds, each call after 250 ms of quiet: a click on the icon, then the same call to
    // the floor. Clicks are then 500 ms apart (two within 400 ms are also a double click, more work).
    for round in 1...(rounds + 2) {
      usleep(250_000)
      var start = Clock.nanos()
      guard call(name, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "Activate", point()),
        running.waitFor("CLICK \(round)")
      else { return result }
      if round > 2 { clicks.append(Double(Clock.nanos() - start) / 1e6) }
      usleep(250_000)
      start = Clock.nanos()
      guard call(floorName, DBusFloorServer.path, DBusFloorServer.interface, "Activate", point()),
        floor.waitFor("CALL \(round)")
      else { return result }
      if round > 2 { floors.append(Double(Clock.nanos() - start) / 1e6) }
    }
    result.clickMs = median(clicks)
    result.floorMs = median(floors)
    var pings: [Double] = []
    for round in 0..<(rounds * 20 + 20) {
      let start = Clock.nanos()
      guard call(name, "/", "org.freedesktop.DBus.Peer", "Ping", nil) else { return result }
      if round >= 20 { pings.append(Double(Clock.nanos() - start) / 1e6) }
    }
    result.roundTripMs = median(pings)
    return result
  }

  /// This executable, which is also the floor server.
  static var executable: String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return n > 0
      ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
  }

  private func waitForLine(in path: String, containing text: String) -> String? {
    let deadline = Clock.nanos() + 10_000_000_000
    while Clock.nanos() < deadline {
      if let content = try? String(contentsOfFile: path, encoding: .utf8),
        let line = content.split(separator: "\n").first(where: { $0.contains(text) })
      {
        return String(line)
      }
      usleep(10_000)
    }
    return nil
  }

  private func stop(_ pid: pid_t) {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
  }
}
