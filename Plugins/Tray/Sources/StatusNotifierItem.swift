import NBridgeDBus
import NBridgePlugin

/// What a tray icon shows: its image, tooltip, title and menu.
struct TrayAppearance: Equatable, Sendable {
  var icon: TrayIcon
  var tooltip = ""
  var title: String
  var menu = TrayMenu()
}

/// What the desktop did with the icon: a click (`Activate`, or `SecondaryActivate` for the middle
/// button) at a point of the screen.
struct TrayClick: Encodable, Equatable, Sendable {
  /// Where, in screen coordinates, as the desktop reports it.
  var x: Int32
  var y: Int32
  /// `left` (`Activate`) or `middle` (`SecondaryActivate`).
  var button: String
}

/// The icon as `org.kde.StatusNotifierItem` serves it at `/StatusNotifierItem`: the desktop's
/// tray (the watcher's hosts) reads its properties and calls `Activate` on a click.
@BridgeActor
final class StatusNotifierItem {
  static let path = "/StatusNotifierItem"
  static let interface = "org.kde.StatusNotifierItem"
  static let xml = """
    <node><interface name="org.kde.StatusNotifierItem">
    <property name="Category" type="s" access="read"/>
    <property name="Id" type="s" access="read"/>
    <property name="Title" type="s" access="read"/>
    <property name="Status" type="s" access="read"/>
    <property name="WindowId" type="i" access="read"/>
    <property name="IconThemePath" type="s" access="read"/>
    <property name="Menu" type="o" access="read"/>
    <property name="ItemIsMenu" type="b" access="read"/>
    <property name="IconName" type="s" access="read"/>
    <property name="IconPixmap" type="a(iiay)" access="read"/>
    <property name="OverlayIconName" type="s" access="read"/>
    <property name="OverlayIconPixmap" type="a(iiay)" access="read"/>
    <property name="AttentionIconName" type="s" access="read"/>
    <property name="AttentionIconPixmap" type="a(iiay)" access="read"/>
    <property name="AttentionMovieName" type="s" access="read"/>
    <property name="ToolTip" type="(sa(iiay)ss)" access="read"/>
    <method name="ContextMenu"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
    <method name="Activate"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
    <method name="SecondaryActivate"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
    <method name="Scroll"><arg type="i" direction="in"/><arg type="s" direction="in"/></method>
    <signal name="NewTitle"/>
    <signal name="NewIcon"/>
    <signal name="NewAttentionIcon"/>
    <signal name="NewOverlayIcon"/>
    <signal name="NewToolTip"/>
    <signal name="NewStatus"><arg type="s"/></signal>
    </interface></node>
    """

  private let connection: DBusConnection
  private let appID: String
  private(set) var appearance: TrayAppearance
  private let activated: @BridgeActor (TrayClick) -> Void

  /// Serves the item on `connection`; `activated` gets each click the desktop reports.
  init(
    connection: DBusConnection, appID: String, appearance: TrayAppearance,
    activated: @escaping @BridgeActor (TrayClick) -> Void
  ) throws(DBusError) {
    self.connection = connection
    self.appID = appID
    self.appearance = appearance
    self.activated = activated
    _ = try connection.export(
      path: Self.path, interfaceXML: Self.xml,
      methods: { [weak self] method, arguments throws(DBusMethodError) in
        guard let self else {
          throw DBusMethodError("the icon is gone", name: "org.freedesktop.DBus.Error.UnknownObject")
        }
        let x = arguments.first?.int32 ?? 0
        let y = arguments.count > 1 ? arguments[1].int32 ?? 0 : 0
        switch method {
        // After the reply: a listener that removes the icon closes the connection the reply goes out on.
        case "Activate": Task { self.activated(TrayClick(x: x, y: y, button: "left")) }
        case "SecondaryActivate": Task { self.activated(TrayClick(x: x, y: y, button: "middle")) }
        default: break  // ContextMenu and Scroll: the menu is served over dbusmenu; scrolling means nothing here.
        }
        return []
      },
      properties: { [weak self] property in self?.property(property) })
  }

  /// Shows `appearance` from now on, telling the desktop what changed.
  func update(_ appearance: TrayAppearance) {
    let old = self.appearance
    self.appearance = appearance
    if old.icon != appearance.icon { signal("NewIcon") }
    if old.tooltip != appearance.tooltip { signal("NewToolTip") }
    if old.title != appearance.title { signal("NewTitle") }
  }

  private func signal(_ name: String) {
    try? connection.emitSignal(path: Self.path, interface: Self.interface, name: name, arguments: [])
  }

  private func property(_ name: String) -> DBusValue? {
    let noPixmap = DBusValue.array("(iiay)", [])
    switch name {
    case "Category": return .string("ApplicationStatus")
    case "Id": return .string(appID)
    case "Title": return .string(appearance.title)
    case "Status": return .string("Active")
    case "WindowId": return .int32(0)
    case "IconThemePath", "OverlayIconName", "AttentionIconName", "AttentionMovieName": return .string("")
    case "Menu": return .objectPath(DBusMenuServer.path)
    case "ItemIsMenu": return .bool(false)
    case "IconName":
      if case .named(let name) = appearance.icon { return .string(name) }
      return .string("")
    case "IconPixmap":
      guard case .pixmap(let width, let height, let argb) = appearance.icon else { return noPixmap }
      return .array("(iiay)", [.tuple([.int32(width), .int32(height), .bytes(argb)])])
    case "OverlayIconPixmap", "AttentionIconPixmap": return noPixmap
    case "ToolTip": return .tuple([.string(""), noPixmap, .string(appearance.tooltip), .string("")])
    default: return nil
    }
  }
}
