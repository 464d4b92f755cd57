import NBridgeDBus
import NBridgePlugin

#if canImport(Glibc)
  import Glibc
#endif

/// The app's one tray icon: a StatusNotifierItem and its dbusmenu on a connection of its own to
/// the session bus, registered with the desktop's `org.kde.StatusNotifierWatcher`, and again each
/// time a watcher comes back (a panel restarted).
@BridgeActor
final class TrayService {
  static let watcher = "org.kde.StatusNotifierWatcher"
  static let watcherPath = "/StatusNotifierWatcher"
  /// How long a call to the bus or the watcher may wait.
  static let callTimeout: Int32 = 3000
  /// How long a click keeps an app in background awake.
  static let wakeSeconds = 5.0
  /// Two clicks closer than this are also a double click.
  static let doubleClickInterval: Duration = .milliseconds(400)

  /// A shown icon: its connection, the bus name it goes by, the two served objects, and the run's hold.
  private struct Shown {
    let connection: DBusConnection
    let busName: String
    let item: StatusNotifierItem
    let menu: DBusMenuServer
    let hold: KeepAlive
  }

  private let context: PluginContext
  private var shown: Shown?
  private var creating: Task<Void, Error>?
  private var lastClick: LoopInstant?
  private var serial = 0

  init(context: PluginContext) {
    self.context = context
  }

  /// The appearance of the icon shown now, if any.
  var appearance: TrayAppearance? { shown?.item.appearance }

  /// Shows the icon (or, when one is shown, changes it to `appearance`). `unavailable` when the
  /// session bus or a StatusNotifierWatcher is missing: no desktop tray would show it.
  func create(_ appearance: TrayAppearance) async throws {
    if let creating { try? await creating.value }
    if let shown { return update(shown, appearance) }
    let task = Task { try await show(appearance) }
    creating = task
    defer { creating = nil }
    try await task.value
  }

  /// Changes the shown icon with `change`; `not_found` when there is none.
  func modify(_ change: (inout TrayAppearance) -> Void) async throws {
    if let creating { try? await creating.value }
    guard let shown else { throw BridgeError.notFound("no tray icon is shown: call tray.create first") }
    var appearance = shown.item.appearance
    change(&appearance)
    update(shown, appearance)
  }

  /// Takes the icon off the desktop (none shown is fine) and lets the run end.
  func remove() async {
    if let creating { try? await creating.value }
    guard let shown else { return }
    self.shown = nil
    shown.connection.disconnect()
    shown.hold.release()
  }

  private func update(_ shown: Shown, _ appearance: TrayAppearance) {
    let menuChanged = appearance.menu != shown.item.appearance.menu
    shown.item.update(appearance)
    if menuChanged { shown.menu.replace(with: appearance.menu) }
  }

  private func show(_ appearance: TrayAppearance) async throws {
    guard !context.headless else {
      throw BridgeError.unavailable(
        "nbridge test runs without the desktop (pass --desktop): no tray to show an icon in")
    }
    guard let address = context.environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty,
      let mainContext = context.glibMainContext
    else {
      throw BridgeError.unavailable("no session bus (DBUS_SESSION_BUS_ADDRESS is not set): no tray to show an icon in")
    }
    let connection: DBusConnection
    do {
      connection = try await DBusConnection.connect(
        address: address, mainContext: mainContext, timeout: UInt32(Self.callTimeout))
    } catch {
      throw BridgeError.unavailable("cannot reach the session bus: \(error)")
    }
    do {
      guard try await hasOwner(Self.watcher, on: connection) else {
        connection.disconnect()
        throw BridgeError.unavailable(
          "no StatusNotifierWatcher on the session bus: this desktop shows no tray icons (GNOME needs the"
            + " AppIndicator extension)")
      }
      serial += 1
      let busName = "org.kde.StatusNotifierItem-\(getpid())-\(serial)"
      let reply = try await connection.call(
        "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
        method: "RequestName", arguments: .tuple([.string(busName), .uint32(4)]), timeout: Self.callTimeout)
      guard reply.members.first?.uint32 == 1 else { throw DBusError("the bus did not give this app \(busName)") }
      let item = try StatusNotifierItem(connection: connection, appID: context.manifest.id, appearance: appearance) {
        [weak self] click in self?.clicked(click)
      }
      let menu = try DBusMenuServer(connection: connection, menu: appearance.menu) { [weak self] id in
        self?.wake("tray menu item \(id)")
        self?.context.emit("menuItem", ["id": id])
      }
      connection.subscribe(
        interface: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", arg0: Self.watcher
      ) { [weak self, weak connection] signal, arguments in
        let members = arguments.members
        guard signal == "NameOwnerChanged", members.count == 3, members[2].string?.isEmpty == false,
          let self, let connection
        else { return }
        Task { await self.register(busName, on: connection) }
      }
      shown = Shown(
        connection: connection, busName: busName, item: item, menu: menu,
        hold: context.keepAlive("a tray icon is shown"))
      _ = try await connection.call(
        Self.watcher, path: Self.watcherPath, interface: Self.watcher, method: "RegisterStatusNotifierItem",
        arguments: .tuple([.string(busName)]), timeout: Self.callTimeout)
    } catch let error as DBusError {
      shown?.hold.release()
      shown = nil
      connection.disconnect()
      throw BridgeError.unavailable("the StatusNotifierWatcher did not take the icon: \(error)")
    }
  }

  /// Registers the icon with a watcher that (re)appeared.
  private func register(_ busName: String, on connection: DBusConnection) async {
    guard shown?.busName == busName else { return }
    do {
      _ = try await connection.call(
        Self.watcher, path: Self.watcherPath, interface: Self.watcher, method: "RegisterStatusNotifierItem",
        arguments: .tuple([.string(busName)]), timeout: Self.callTimeout)
    } catch {
      context.warn("the StatusNotifierWatcher that appeared did not take the tray icon: \(error)")
    }
  }

  private func hasOwner(_ name: String, on connection: DBusConnection) async throws(DBusError) -> Bool {
    let owned = try await connection.call(
      "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", method: "NameHasOwner",
      arguments: .tuple([.string(name)]), timeout: Self.callTimeout)
    return owned.members.first?.bool == true
  }

  /// A click on the icon or its menu is the user reaching for the app: an app in background
  /// (its window hidden in the tray) is kept awake for `wakeSeconds`, so its listeners run and
  /// what they ask (show the window, a notification) is answered, instead of waiting, suspended,
  /// for a window the user cannot reach.
  private func wake(_ reason: String) {
    let hold = context.lifecycle.holdAwake(reason)
    _ = context.setTimer(after: Self.wakeSeconds) { hold.release() }
  }

  private func clicked(_ click: TrayClick) {
    wake("tray click")
    context.emit("click", click)
    let now = context.now
    if let lastClick, now - lastClick <= Self.doubleClickInterval {
      self.lastClick = nil
      context.emit("doubleClick", click)
    } else {
      lastClick = now
    }
  }
}
