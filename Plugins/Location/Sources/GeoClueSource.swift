import NBridgeDBus
import NBridgePlugin

/// Positions from GeoClue2 on the system bus (`org.freedesktop.GeoClue2`).
///
/// One client per run (`Manager.GetClient`, its `DesktopId` the app id), started for a session
/// and stopped after it; each `LocationUpdated` signal names a `Location` object whose
/// properties are the fix. GeoClue asks the user's location agent whether the app may have
/// positions: a refusal is `permission_denied`, and a GeoClue that is not installed or not
/// reachable is `unavailable` naming what is missing.
@BridgeActor
final class GeoClueSource: PositionSource {
  static let busName = "org.freedesktop.GeoClue2"
  static let managerPath = "/org/freedesktop/GeoClue2/Manager"
  static let managerInterface = "org.freedesktop.GeoClue2.Manager"
  static let clientInterface = "org.freedesktop.GeoClue2.Client"
  static let locationInterface = "org.freedesktop.GeoClue2.Location"
  static let propertiesInterface = "org.freedesktop.DBus.Properties"
  /// Debian's, Fedora's and Arch's system bus socket, when `DBUS_SYSTEM_BUS_ADDRESS` is unset.
  static let defaultAddress = "unix:path=/run/dbus/system_bus_socket"

  let name = "geoclue"
  private let address: String
  private let desktopID: String
  private let mainContext: OpaquePointer?
  private let clock: @BridgeActor () -> Double
  private var bus: DBusConnection?
  private var clientPath: String?
  private var sink: PositionSink?
  private var updates: UInt32?

  /// A source for the app `desktopID` on the bus at `address`; `clock` gives Unix milliseconds.
  init(
    address: String, desktopID: String, mainContext: OpaquePointer?, clock: @escaping @BridgeActor () -> Double
  ) {
    self.address = address
    self.desktopID = desktopID
    self.mainContext = mainContext
    self.clock = clock
  }

  func start(accuracy: Accuracy, sink: PositionSink) async throws {
    let (bus, client) = try await connectedClient()
    try await setProperty("RequestedAccuracyLevel", .uint32(accuracy.geoClueLevel), bus: bus, client: client)
    self.sink = sink
    updates = bus.subscribe(interface: Self.clientInterface, path: client) { [weak self] signal, arguments in
      guard signal == "LocationUpdated", let path = arguments.members.last?.string else { return }
      self?.read(location: path)
    }
    do {
      // GeoClue answers Start once the agent has (it may ask the user): a minute is plenty.
      _ = try await bus.call(
        Self.busName, path: client, interface: Self.clientInterface, method: "Start", timeout: 60_000)
    } catch {
      endSession(bus)
      throw Self.bridgeError(error, doing: "Start")
    }
  }

  /// GeoClue 2.6 picks a client's sources at `Start`, so a finer level takes a restart.
  func refine(to accuracy: Accuracy) async {
    guard let bus, let clientPath, let sink else { return }
    do {
      _ = try await bus.call(
        Self.busName, path: clientPath, interface: Self.clientInterface, method: "Stop", timeout: 10_000)
      try await setProperty("RequestedAccuracyLevel", .uint32(accuracy.geoClueLevel), bus: bus, client: clientPath)
      _ = try await bus.call(
        Self.busName, path: clientPath, interface: Self.clientInterface, method: "Start", timeout: 60_000)
    } catch {
      endSession(bus)
      let failure = error as? BridgeError ?? (error as? DBusError).map { Self.bridgeError($0, doing: "Start") }
      sink.failure(failure ?? .unavailable("\(error)"))
    }
  }

  func stop() async {
    guard let bus, let clientPath else { return }
    endSession(bus)
    _ = try? await bus.call(
      Self.busName, path: clientPath, interface: Self.clientInterface, method: "Stop", timeout: 10_000)
  }

  func close() async {
    await stop()
    bus?.close()
    bus = nil
    clientPath = nil
  }

  private func endSession(_ bus: DBusConnection) {
    sink = nil
    if let updates { bus.unsubscribe(updates) }
    updates = nil
  }

  /// The connection and this run's client, made on first use.
  private func connectedClient() async throws -> (DBusConnection, String) {
    if let bus, let clientPath { return (bus, clientPath) }
    let bus: DBusConnection
    if let connected = self.bus {
      bus = connected
    } else {
      do {
        bus = try await DBusConnection.connect(address: address, mainContext: mainContext, timeout: 5_000)
      } catch {
        throw BridgeError.unavailable("cannot reach the D-Bus system bus at \(address), where GeoClue2 runs: \(error)")
      }
      self.bus = bus
      bus.subscribe(interface: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", arg0: Self.busName) {
        [weak self] signal, arguments in
        guard signal == "NameOwnerChanged", arguments.members.last?.string == "" else { return }
        self?.geoClueLeft()
      }
    }
    let reply: DBusValue
    do {
      // GeoClue holds GetClient until a location agent for the user is registered.
      reply = try await bus.call(
        Self.busName, path: Self.managerPath, interface: Self.managerInterface, method: "GetClient",
        timeout: 10_000, autoStart: true)
    } catch {
      if error.timedOut {
        throw BridgeError.unavailable(
          "GeoClue2 did not hand out a client within 10 s: it waits for a location agent of this user"
            + " (GNOME Shell's, or another desktop's), and none is running")
      }
      throw Self.bridgeError(error, doing: "GetClient")
    }
    guard let path = reply.members.first?.string else {
      throw BridgeError.unavailable("GeoClue2 answered GetClient with \(reply)")
    }
    try await setProperty("DesktopId", .string(desktopID), bus: bus, client: path)
    clientPath = path
    return (bus, path)
  }

  private func setProperty(_ property: String, _ value: DBusValue, bus: DBusConnection, client: String) async throws {
    do {
      _ = try await bus.call(
        Self.busName, path: client, interface: Self.propertiesInterface, method: "Set",
        arguments: .tuple([.string(Self.clientInterface), .string(property), .variant(value)]), timeout: 10_000)
    } catch {
      throw Self.bridgeError(error, doing: "setting \(property)")
    }
  }

  /// Reads the `Location` object at `path` and hands the fix on.
  private func read(location path: String) {
    guard let bus else { return }
    Task {
      let reply = try? await bus.call(
        Self.busName, path: path, interface: Self.propertiesInterface, method: "GetAll",
        arguments: .tuple([.string(Self.locationInterface)]), timeout: 10_000)
      guard let sink, let map = reply?.members.first?.dictionary,
        let position = Position(dbus: map, now: clock())
      else { return }
      sink.position(position)
    }
  }

  /// GeoClue left the bus (it exits when idle, or it crashed): a running session has ended.
  private func geoClueLeft() {
    clientPath = nil
    guard let sink, let bus else { return }
    endSession(bus)
    sink.failure(.unavailable("GeoClue2 left the system bus"))
  }

  /// `permission_denied` when GeoClue or its agent refused, else `unavailable` naming what is missing.
  static func bridgeError(_ error: DBusError, doing step: String) -> BridgeError {
    switch error.name {
    case "org.freedesktop.DBus.Error.AccessDenied":
      return BridgeError(.permissionDenied, "GeoClue2 refused: \(error.remoteMessage)")
    case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
      return .unavailable(
        "GeoClue2 (\(busName)) is not running on the system bus and cannot be started there (is geoclue-2.0 installed?)"
      )
    default:
      return .unavailable("GeoClue2 failed at \(step): \(error.remoteMessage)")
    }
  }
}
