import NBridgeDBus
import NBridgePlugin

/// Positions from the Location portal (`org.freedesktop.portal.Location` on the session bus),
/// the way into GeoClue from inside a Flatpak sandbox: `CreateSession`, `Start` (the portal may
/// ask the user; its `Response` says how that went), then `LocationUpdated` signals until the
/// session is closed. A finer accuracy than the running session's takes a new session.
@BridgeActor
final class LocationPortalSource: PositionSource {
  static let busName = "org.freedesktop.portal.Desktop"
  static let objectPath = "/org/freedesktop/portal/desktop"
  static let interface = "org.freedesktop.portal.Location"

  let name = "portal"
  private let address: String?
  private let mainContext: OpaquePointer?
  private let clock: @BridgeActor () -> Double
  private var bus: DBusConnection?
  private var session: String?
  private var sink: PositionSink?
  private var subscriptions: [UInt32] = []
  private var tokens = 0
  private var pendingResponse: CheckedContinuation<UInt32, Never>?

  /// A source on the session bus at `address` (nil: there is none); `clock` gives Unix milliseconds.
  init(address: String?, mainContext: OpaquePointer?, clock: @escaping @BridgeActor () -> Double) {
    self.address = address
    self.mainContext = mainContext
    self.clock = clock
  }

  func start(accuracy: Accuracy, sink: PositionSink) async throws {
    let bus = try await connected()
    tokens += 1
    let token = "nbridge_location\(tokens)"
    let created: DBusValue
    do {
      created = try await bus.call(
        Self.busName, path: Self.objectPath, interface: Self.interface, method: "CreateSession",
        arguments: .tuple([
          .dictionary([
            "session_handle_token": .string(token), "accuracy": .uint32(accuracy.portalLevel),
            "distance-threshold": .uint32(0), "time-threshold": .uint32(0),
          ])
        ]), timeout: 10_000, autoStart: true)
    } catch {
      throw Self.bridgeError(error)
    }
    guard let session = created.members.first?.string else {
      throw BridgeError.unavailable("the Location portal answered CreateSession with \(created)")
    }
    self.session = session
    self.sink = sink
    // The session is the signal's first argument, an object path: a match rule's `arg0` matches
    // strings only (the D-Bus specification; GDBus likewise), so the session is compared here.
    subscriptions.append(
      bus.subscribe(interface: Self.interface, path: Self.objectPath) { [weak self] signal, arguments in
        guard let self, signal == "LocationUpdated", arguments.members.first?.string == session,
          let map = arguments.members.last?.dictionary, let position = Position(dbus: map, now: self.clock())
        else { return }
        self.sink?.position(position)
      })
    // The request's path is known before the call (the portal's documented pattern), so the
    // Response cannot come before the subscription.
    let sender = bus.uniqueName.dropFirst().replacingDots()
    let request = "\(Self.objectPath)/request/\(sender)/\(token)"
    subscriptions.append(
      bus.subscribe(interface: "org.freedesktop.portal.Request", path: request) { [weak self] signal, arguments in
        guard signal == "Response", let code = arguments.members.first?.uint32 else { return }
        self?.answer(code)
      })
    let response: UInt32 = await withCheckedContinuation { continuation in
      pendingResponse = continuation
      Task {
        do {
          _ = try await bus.call(
            Self.busName, path: Self.objectPath, interface: Self.interface, method: "Start",
            arguments: .tuple([.objectPath(session), .string(""), .dictionary(["handle_token": .string(token)])]),
            timeout: 10_000)
        } catch {
          answer(2)
        }
      }
    }
    switch response {
    case 0: return
    case 1:
      await stop()
      throw BridgeError(.permissionDenied, "the user refused location access in the Location portal")
    default:
      await stop()
      throw BridgeError(.permissionDenied, "the Location portal refused location access (location services off?)")
    }
  }

  /// A session keeps the accuracy it was created with, so a finer level takes a new session
  /// (`available()`'s coarse probe followed by `current()` would otherwise never get a fix).
  func refine(to accuracy: Accuracy) async {
    guard let sink, session != nil else { return }
    await stop()
    do {
      try await start(accuracy: accuracy, sink: sink)
    } catch {
      sink.failure(error as? BridgeError ?? .unavailable("\(error)"))
    }
  }

  func stop() async {
    answer(2)
    sink = nil
    for id in subscriptions { bus?.unsubscribe(id) }
    subscriptions = []
    guard let bus, let session else { return }
    self.session = nil
    _ = try? await bus.call(
      Self.busName, path: session, interface: "org.freedesktop.portal.Session", method: "Close", timeout: 10_000)
  }

  func close() async {
    await stop()
    bus?.close()
    bus = nil
  }

  private func answer(_ code: UInt32) {
    pendingResponse?.resume(returning: code)
    pendingResponse = nil
  }

  private func connected() async throws -> DBusConnection {
    if let bus { return bus }
    guard let address, !address.isEmpty else {
      throw BridgeError.unavailable(
        "the Location portal runs on the session bus, and this run has none (DBUS_SESSION_BUS_ADDRESS is unset)")
    }
    do {
      let bus = try await DBusConnection.connect(address: address, mainContext: mainContext, timeout: 5_000)
      self.bus = bus
      return bus
    } catch {
      throw BridgeError.unavailable("cannot reach the D-Bus session bus at \(address): \(error)")
    }
  }

  static func bridgeError(_ error: DBusError) -> BridgeError {
    switch error.name {
    case "org.freedesktop.DBus.Error.AccessDenied":
      return BridgeError(.permissionDenied, "the Location portal refused: \(error.remoteMessage)")
    case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.UnknownMethod",
      "org.freedesktop.DBus.Error.UnknownInterface", "org.freedesktop.DBus.Error.UnknownObject":
      return .unavailable("the Location portal (\(interface)) is not running on the session bus")
    default:
      return .unavailable("the Location portal failed: \(error.remoteMessage)")
    }
  }
}

extension Substring {
  /// `1.42` as the portal writes a sender in a request path: `1_42`.
  fileprivate func replacingDots() -> String { String(map { $0 == "." ? "_" : $0 }) }
}
