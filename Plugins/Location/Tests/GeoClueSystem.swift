import Foundation
import NBridgeTesting

/// A private system bus with the real GeoClue2 on it, reading positions from an NMEA socket the
/// test serves (`nmea-server.py`) and answered by a stand-in location agent (`geoclue-agent.py`).
/// Everything is started here and stopped by its PID.
final class GeoClueSystem: @unchecked Sendable {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    .path
  /// Debian's `geoclue-2.0` puts the daemon here.
  static let daemon = "/usr/libexec/geoclue"
  /// Debian's Python, which has `python3-dbus` and `python3-gi` (a Python of the user's may not).
  static let python = "/usr/bin/python3"

  let folder: TemporaryDirectory
  /// The `DBUS_SYSTEM_BUS_ADDRESS` value.
  let address: String
  private let bus: ChildProcess
  private var nmea: ChildProcess?
  private(set) var geoclue: ChildProcess?
  private(set) var agent: ChildProcess?

  /// Starts the bus; with `geoclue`, GeoClue and the NMEA server serving `position` ("lat,lon", or
  /// "" for no fix); with `agentLevel`, the agent answering that MaxAccuracyLevel.
  init(geoclue startGeoClue: Bool = true, position: String = "", agentLevel: Int? = 8) throws {
    folder = try TemporaryDirectory(prefix: "nbridge-geoclue")
    bus = try ChildProcess(
      "dbus-daemon",
      ["--config-file=\(Self.fixtures)/system-bus.conf", "--nofork", "--nopidfile", "--print-address=1"])
    let deadline = Date().addingTimeInterval(10)
    while !bus.stdout.contains("\n") {
      guard bus.isRunning, Date() < deadline else { throw ChildProcessError.notReady("dbus-daemon: \(bus.stderr)") }
      usleep(10_000)
    }
    address = bus.stdout.split(separator: "\n").first.map(String.init) ?? ""
    guard startGeoClue else { return }

    try move(to: position)
    let socket = folder.file("nmea.sock")
    let nmea = try ChildProcess(Self.python, ["\(Self.fixtures)/nmea-server.py", socket, folder.file("position")])
    self.nmea = nmea
    guard nmea.waitForOutput("listening") else { throw ChildProcessError.notReady("nmea-server.py: \(nmea.stderr)") }

    let geoclue = try ChildProcess(Self.daemon, ["--timeout=0", "--nmea-socket=\(socket)"], environment: environment)
    self.geoclue = geoclue
    let owned = Date().addingTimeInterval(15)
    while !hasOwner("org.freedesktop.GeoClue2") {
      guard geoclue.isRunning, Date() < owned else { throw ChildProcessError.notReady("geoclue: \(geoclue.stderr)") }
      usleep(20_000)
    }
    if let agentLevel {
      let agent = try ChildProcess(
        Self.python, ["\(Self.fixtures)/geoclue-agent.py", String(agentLevel)], environment: environment)
      self.agent = agent
      guard agent.waitForOutput("registered", timeout: 15) else {
        throw ChildProcessError.notReady("geoclue-agent.py: \(agent.stdout)\(agent.stderr)")
      }
    }
  }

  deinit {
    agent?.stop()
    geoclue?.stop()
    nmea?.stop()
    bus.stop()
  }

  /// What a client of this bus needs in its environment.
  var environment: [String: String?] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }

  /// Serves `position` ("latitude,longitude") from now on.
  func move(to position: String) throws {
    try position.write(toFile: folder.file("position"), atomically: true, encoding: .utf8)
  }

  /// Whether `name` has an owner on this bus.
  func hasOwner(_ name: String) -> Bool {
    dbusSend("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:\(name)")?
      .contains("true") ?? false
  }

  /// GeoClue's `Manager.InUse`: whether any client of it is started.
  var inUse: Bool? {
    dbusSend(
      "org.freedesktop.GeoClue2", "/org/freedesktop/GeoClue2/Manager", "org.freedesktop.DBus.Properties.Get",
      "string:org.freedesktop.GeoClue2.Manager", "string:InUse"
    ).map { $0.contains("true") }
  }

  /// Waits up to `timeout` seconds for `inUse` to be `value`.
  func waitForInUse(_ value: Bool, timeout: Double = 15) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if inUse == value { return true }
      usleep(50_000)
    }
    return inUse == value
  }

  private func dbusSend(_ destination: String, _ path: String, _ method: String, _ arguments: String...) -> String? {
    let result = try? ChildProcess.run(
      "dbus-send",
      ["--bus=\(address)", "--print-reply=literal", "--dest=\(destination)", path, method] + arguments,
      timeout: 10)
    return result?.status == 0 ? result?.stdout : nil
  }
}

/// An app folder with a manifest and one script, and its own data and shared dirs.
struct LocationApp {
  let folder: TemporaryDirectory
  let script: String

  init(_ source: String, permissions: String = #"["location"]"#) throws {
    folder = try TemporaryDirectory(prefix: "nbridge-location")
    try folder.write(
      "app/nbridge.json",
      #"{"id": "org.example.maps", "name": "Maps", "version": "1.0", "build": "1", "permissions": \#(permissions)}"#)
    script = try folder.write("app/index.js", source)
    try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: folder.file("shared"), withIntermediateDirectories: true)
  }

  func environment(_ extra: [String: String?]) -> [String: String?] {
    NBridgeBinary.headless.merging([
      "NBRIDGE_DATA_DIR": folder.file("data"), "NBRIDGE_SHARED_DIR": folder.file("shared"), "NBRIDGE_LOCATION": nil,
    ]) { $1 }.merging(extra) { $1 }
  }

  /// `nbridge run` to completion.
  func run(_ extra: [String: String?], timeout: Double = 60) throws -> (status: Int32, stdout: String, stderr: String) {
    try NBridgeBinary.run(["run", script], environment: environment(extra), timeout: timeout)
  }

  /// `nbridge run` in the background.
  func start(_ extra: [String: String?]) throws -> ChildProcess {
    try NBridgeBinary.start(["run", script], environment: environment(extra))
  }
}
