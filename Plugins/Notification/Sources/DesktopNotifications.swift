import NBridgeDBus
import NBridgePlugin

/// Delivery to the desktop's notification server (`org.freedesktop.Notifications` on the
/// session bus), after the Desktop Notifications Specification 1.2.
///
/// The server sends `ActionInvoked` and `NotificationClosed` only to the connection that
/// showed the notification, so the ids it hands out are mapped back to the app's here.
@BridgeActor
final class DesktopNotifications: NotificationPresenter {
  static let busName = "org.freedesktop.Notifications"
  static let objectPath = "/org/freedesktop/Notifications"
  static let interface = "org.freedesktop.Notifications"
  /// How long a call may wait for the server: past it, delivery falls back to stderr.
  static let callTimeout: Int32 = 3000

  private let connection: DBusConnection
  private let appName: String
  private let desktopEntry: String
  private let escapesMarkup: Bool
  private let events: PresenterEvents
  private var serverIDs: [String: UInt32] = [:]
  private var appIDs: [UInt32: String] = [:]

  private init(
    connection: DBusConnection, appName: String, desktopEntry: String, escapesMarkup: Bool, events: PresenterEvents
  ) {
    self.connection = connection
    self.appName = appName
    self.desktopEntry = desktopEntry
    self.escapesMarkup = escapesMarkup
    self.events = events
  }

  /// Connects to the session bus at `address`; nil when no notification server owns the name.
  static func connect(
    address: String, mainContext: OpaquePointer?, appName: String, desktopEntry: String, events: PresenterEvents
  ) async throws(DBusError) -> DesktopNotifications? {
    let bus = try await DBusConnection.connect(address: address, mainContext: mainContext, timeout: UInt32(callTimeout))
    let owned = try await bus.call(
      "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", method: "NameHasOwner",
      arguments: .tuple([.string(busName)]), timeout: callTimeout)
    guard owned.members.first?.bool == true else { return nil }
    let capabilities = try await bus.call(
      busName, path: objectPath, interface: interface, method: "GetCapabilities", timeout: callTimeout)
    let presenter = DesktopNotifications(
      connection: bus, appName: appName, desktopEntry: desktopEntry,
      escapesMarkup: capabilities.members.first?.strings?.contains("body-markup") ?? false, events: events)
    bus.subscribe(interface: interface, path: objectPath) { [weak presenter] signal, arguments in
      presenter?.handle(signal: signal, arguments: arguments.members)
    }
    return presenter
  }

  func present(_ notification: StoredNotification) async throws {
    var actions = ["default", "Open"]
    for button in notification.actions { actions += [button.id, button.title] }
    let hints: [String: DBusValue] = ["urgency": .byte(1), "desktop-entry": .string(desktopEntry)]
    let reply = try await connection.call(
      Self.busName, path: Self.objectPath, interface: Self.interface, method: "Notify",
      arguments: .tuple([
        .string(appName), .uint32(serverIDs[notification.id] ?? 0), .string(""), .string(notification.title),
        .string(escapesMarkup ? escapeMarkup(notification.body) : notification.body), .strings(actions),
        .dictionary(hints), .int32(-1),
      ]), timeout: Self.callTimeout)
    guard let serverID = reply.members.first?.uint32 else {
      throw DBusError("Notify answered \(reply) instead of an id")
    }
    if let previous = serverIDs[notification.id] { appIDs[previous] = nil }
    serverIDs[notification.id] = serverID
    appIDs[serverID] = notification.id
  }

  func dismiss(id: String) async -> Bool {
    guard let serverID = serverIDs[id] else { return false }
    _ = try? await connection.call(
      Self.busName, path: Self.objectPath, interface: Self.interface, method: "CloseNotification",
      arguments: .tuple([.uint32(serverID)]), timeout: Self.callTimeout)
    return true
  }

  private func handle(signal: String, arguments: [DBusValue]) {
    guard let serverID = arguments.first?.uint32, let id = appIDs[serverID] else { return }
    switch signal {
    case "ActionInvoked":
      guard arguments.count > 1, let actionID = arguments[1].string else { return }
      events.action(ActionEvent(id: id, actionId: actionID))
    case "NotificationClosed":
      appIDs[serverID] = nil
      serverIDs[id] = nil
      events.closed(ClosedEvent(id: id, reason: closeReason(code: arguments.count > 1 ? arguments[1].uint32 ?? 4 : 4)))
    default:
      break
    }
  }
}

/// Body text as the markup subset servers parse: `&`, `<` and `>` escaped so they show as typed.
func escapeMarkup(_ text: String) -> String {
  var out = ""
  out.reserveCapacity(text.utf8.count)
  for character in text {
    switch character {
    case "&": out += "&amp;"
    case "<": out += "&lt;"
    case ">": out += "&gt;"
    default: out.append(character)
    }
  }
  return out
}
