import NBridgeDBus
import NBridgePlugin

/// The tray icon's menu as `com.canonical.dbusmenu` (version 3) serves it: the desktop reads the
/// layout with `GetLayout` and reports a click with `Event(id, "clicked", ...)`.
@BridgeActor
final class DBusMenuServer {
  static let path = "/MenuBar"
  static let interface = "com.canonical.dbusmenu"
  static let xml = """
    <node><interface name="com.canonical.dbusmenu">
    <property name="Version" type="u" access="read"/>
    <property name="TextDirection" type="s" access="read"/>
    <property name="Status" type="s" access="read"/>
    <property name="IconThemePath" type="as" access="read"/>
    <method name="GetLayout"><arg type="i" direction="in"/><arg type="i" direction="in"/><arg type="as" direction="in"/>
    <arg type="u" direction="out"/><arg type="(ia{sv}av)" direction="out"/></method>
    <method name="GetGroupProperties"><arg type="ai" direction="in"/><arg type="as" direction="in"/>
    <arg type="a(ia{sv})" direction="out"/></method>
    <method name="GetProperty"><arg type="i" direction="in"/><arg type="s" direction="in"/>
    <arg type="v" direction="out"/></method>
    <method name="Event"><arg type="i" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="in"/>
    <arg type="u" direction="in"/></method>
    <method name="EventGroup"><arg type="a(isvu)" direction="in"/><arg type="ai" direction="out"/></method>
    <method name="AboutToShow"><arg type="i" direction="in"/><arg type="b" direction="out"/></method>
    <method name="AboutToShowGroup"><arg type="ai" direction="in"/><arg type="ai" direction="out"/>
    <arg type="ai" direction="out"/></method>
    <signal name="ItemsPropertiesUpdated"><arg type="a(ia{sv})"/><arg type="a(ias)"/></signal>
    <signal name="LayoutUpdated"><arg type="u"/><arg type="i"/></signal>
    <signal name="ItemActivationRequested"><arg type="i"/><arg type="u"/></signal>
    </interface></node>
    """

  private let connection: DBusConnection
  private let clicked: @BridgeActor (String) -> Void
  private var menu: TrayMenu
  private var revision: UInt32 = 1

  /// Serves `menu` on `connection`; `clicked` gets the app's id of each item the user picks.
  init(connection: DBusConnection, menu: TrayMenu, clicked: @escaping @BridgeActor (String) -> Void)
    throws(DBusError)
  {
    self.connection = connection
    self.menu = menu
    self.clicked = clicked
    _ = try connection.export(
      path: Self.path, interfaceXML: Self.xml,
      methods: { [weak self] method, arguments throws(DBusMethodError) in
        guard let self else {
          throw DBusMethodError("the menu is gone", name: "org.freedesktop.DBus.Error.UnknownObject")
        }
        return try self.answer(method, arguments)
      },
      properties: { property in
        switch property {
        case "Version": .uint32(3)
        case "TextDirection": .string("ltr")
        case "Status": .string("normal")
        case "IconThemePath": .strings([])
        default: nil
        }
      })
  }

  /// Shows `menu` from now on and tells the desktop its layout changed.
  func replace(with menu: TrayMenu) {
    self.menu = menu
    revision &+= 1
    try? connection.emitSignal(
      path: Self.path, interface: Self.interface, name: "LayoutUpdated", arguments: [.uint32(revision), .int32(0)])
  }

  private func answer(_ method: String, _ arguments: [DBusValue]) throws(DBusMethodError) -> [DBusValue] {
    switch method {
    case "GetLayout":
      let parent = arguments.first?.int32 ?? 0
      let depth = arguments.count > 1 ? arguments[1].int32 ?? -1 : -1
      let names = arguments.count > 2 ? arguments[2].strings ?? [] : []
      guard menu.item(parent) != nil else { throw DBusMethodError("no menu item has the id \(parent)") }
      return [.uint32(revision), layout(parent, depth: depth, names: names)]
    case "GetGroupProperties":
      let numbers = arguments.first?.elements?.compactMap(\.int32) ?? []
      let names = arguments.count > 1 ? arguments[1].strings ?? [] : []
      let found = numbers.filter { menu.item($0) != nil }
      return [.array("(ia{sv})", found.map { .tuple([.int32($0), .dictionary(properties($0, names: names))]) })]
    case "GetProperty":
      guard let number = arguments.first?.int32, arguments.count > 1, let name = arguments[1].string,
        let value = properties(number, names: [name])[name]
      else { throw DBusMethodError("no such menu item or property") }
      return [.variant(value)]
    case "Event":
      guard let number = arguments.first?.int32, arguments.count > 1, let event = arguments[1].string else {
        throw DBusMethodError("Event takes (id, eventId, data, timestamp)")
      }
      guard menu.item(number) != nil else { throw DBusMethodError("no menu item has the id \(number)") }
      handle(number, event)
      return []
    case "EventGroup":
      var unknown: [DBusValue] = []
      for event in arguments.first?.elements ?? [] {
        let members = event.members
        guard let number = members.first?.int32, members.count > 1, let name = members[1].string,
          menu.item(number) != nil
        else {
          unknown.append(.int32(members.first?.int32 ?? -1))
          continue
        }
        handle(number, name)
      }
      return [.array("i", unknown)]
    case "AboutToShow":
      return [.bool(false)]
    case "AboutToShowGroup":
      let numbers = arguments.first?.elements?.compactMap(\.int32) ?? []
      return [.array("i", []), .array("i", numbers.filter { menu.item($0) == nil }.map { .int32($0) })]
    default:
      throw DBusMethodError("no method \(method)", name: "org.freedesktop.DBus.Error.UnknownMethod")
    }
  }

  private func handle(_ number: Int32, _ event: String) {
    guard event == "clicked", let item = menu.item(number), item.enabled, !item.separator, let id = item.id else {
      return
    }
    // After the reply: a listener that removes the icon closes the connection the reply goes out on.
    Task { [clicked] in clicked(id) }
  }

  private func layout(_ number: Int32, depth: Int32, names: [String]) -> DBusValue {
    let children: [DBusValue] =
      depth == 0 ? [] : (menu.item(number)?.children ?? []).map { .variant(layout($0, depth: depth - 1, names: names)) }
    return .tuple([.int32(number), .dictionary(properties(number, names: names)), .array("v", children)])
  }

  /// The dbusmenu properties of an item that differ from their defaults (all of them when `names` is empty).
  private func properties(_ number: Int32, names: [String]) -> [String: DBusValue] {
    guard let item = menu.item(number) else { return [:] }
    var all: [String: DBusValue] = [:]
    if number != 0 {
      if item.separator {
        all["type"] = .string("separator")
      } else {
        // dbusmenu reads `_` as the mnemonic's mark: doubled, it shows as typed.
        all["label"] = .string(item.label.replacingUnderscores())
        if !item.enabled { all["enabled"] = .bool(false) }
        if let checked = item.checked {
          all["toggle-type"] = .string("checkmark")
          all["toggle-state"] = .int32(checked ? 1 : 0)
        }
      }
    }
    if !item.children.isEmpty { all["children-display"] = .string("submenu") }
    return names.isEmpty ? all : all.filter { names.contains($0.key) }
  }
}

extension String {
  /// The label with each `_` doubled, so dbusmenu shows it rather than underlining the next letter.
  fileprivate func replacingUnderscores() -> String {
    var out = ""
    for character in self {
      if character == "_" { out += "__" } else { out.append(character) }
    }
    return out
  }
}
