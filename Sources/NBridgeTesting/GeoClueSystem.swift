import Foundation

/// A private system bus with the real GeoClue2 on it, reading positions from an NMEA socket the
/// test serves (`GeoClue/nmea-server.py`) and answered by a stand-in location agent
/// (`GeoClue/geoclue-agent.py`). Everything is started here and stopped by its PID.
public final class GeoClueSystem: @unchecked Sendable {
  /// Debian's `geoclue-2.0` puts the daemon here.
  public static let daemon = "/usr/libexec/geoclue"
  /// Debian's Python, which has `python3-dbus` and `python3-gi` (a Python of the user's may not).
  public static let python = "/usr/bin/python3"

  /// The folder holding the bus configuration, the helper scripts, the socket and the position file.
  public let folder: TemporaryDirectory
  /// The `DBUS_SYSTEM_BUS_ADDRESS` value.
  public let address: String
  private let bus: ChildProcess
  private var nmea: ChildProcess?
  /// The GeoClue daemon, when started.
  public private(set) var geoclue: ChildProcess?
  /// The stand-in location agent, when started.
  public private(set) var agent: ChildProcess?

  /// Starts the bus; with `geoclue`, GeoClue and the NMEA server serving `position` ("lat,lon", or
  /// "" for no fix); with `agentLevel`, the agent answering that MaxAccuracyLevel.
  public init(geoclue startGeoClue: Bool = true, position: String = "", agentLevel: Int? = 8) throws {
    folder = try TemporaryDirectory(prefix: "nbridge-geoclue")
    let configuration = try folder.write("system-bus.conf", Self.text(EmbeddedFiles.system_bus_conf))
    let nmeaServer = try folder.write("nmea-server.py", Self.text(EmbeddedFiles.nmea_server_py))
    let agentScript = try folder.write("geoclue-agent.py", Self.text(EmbeddedFiles.geoclue_agent_py))
    bus = try ChildProcess(
      "dbus-daemon", ["--config-file=\(configuration)", "--nofork", "--nopidfile", "--print-address=1"])
    let deadline = Date().addingTimeInterval(10)
    while !bus.stdout.contains("\n") {
      guard bus.isRunning, Date() < deadline else { throw ChildProcessError.notReady("dbus-daemon: \(bus.stderr)") }
      usleep(10_000)
    }
    address = bus.stdout.split(separator: "\n").first.map(String.init) ?? ""
    guard startGeoClue else { return }

    try move(to: position)
    let socket = folder.file("nmea.sock")
    let nmea = try ChildProcess(Self.python, [nmeaServer, socket, folder.file("position")])
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
        Self.python, [agentScript, String(agentLevel)], environment: environment)
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
  public var environment: [String: String?] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }

  /// Serves `position` ("latitude,longitude") from now on.
  public func move(to position: String) throws {
    try position.write(toFile: folder.file("position"), atomically: true, encoding: .utf8)
  }

  /// Whether `name` has an owner on this bus.
  public func hasOwner(_ name: String) -> Bool {
    dbusSend("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:\(name)")?
      .contains("true") ?? false
  }

  /// GeoClue's `Manager.InUse`: whether any client of it is started.
  public var inUse: Bool? {
    dbusSend(
      "org.freedesktop.GeoClue2", "/org/freedesktop/GeoClue2/Manager", "org.freedesktop.DBus.Properties.Get",
      "string:org.freedesktop.GeoClue2.Manager", "string:InUse"
    ).map { $0.contains("true") }
  }

  /// Waits up to `timeout` seconds for `inUse` to be `value`.
  public func waitForInUse(_ value: Bool, timeout: Double = 15) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if inUse == value { return true }
      usleep(50_000)
    }
    return inUse == value
  }

  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  private func dbusSend(_ destination: String, _ path: String, _ method: String, _ arguments: String...) -> String? {
    let result = try? ChildProcess.run(
      "dbus-send",
      ["--bus=\(address)", "--print-reply=literal", "--dest=\(destination)", path, method] + arguments,
      timeout: 10)
    return result?.status == 0 ? result?.stdout : nil
  }
}
