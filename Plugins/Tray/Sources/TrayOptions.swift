import NBridgePlugin

/// `create({icon, tooltip?, title?, menu?})`: the icon's first appearance, checked by `TrayPlugin`.
struct CreateOptions: Decodable, Sendable {
  var icon: String
  var tooltip: String?
  var title: String?
  /// Read as any JSON value and checked by `TrayMenu(parsing:)`, which names the item at fault.
  var menu: JSONValue?
}

/// `setIcon({icon})`.
struct IconOptions: Decodable, Sendable {
  var icon: String
}

/// `setTooltip({tooltip})`.
struct TooltipOptions: Decodable, Sendable {
  var tooltip: String
}

/// `setMenu({menu})`: an empty array takes the menu away.
struct MenuOptions: Decodable, Sendable {
  var menu: JSONValue
}

/// The longest tooltip and title, in bytes of UTF-8.
enum TrayLimits {
  static let tooltip = 4096
  static let title = 1024
}

/// The declared shapes of the `tray` service, for `nbridge plugins` and `nbridge types`.
enum TrayShapes {
  /// A menu item; `submenu` refers back to the interface by name.
  static let item = Shape.named(
    "TrayMenuItem",
    .fields([
      "id?": .string, "label?": .string, "type?": .oneOf([.literal("normal"), .literal("separator")]),
      "enabled?": .boolean, "checked?": .boolean, "submenu?": .array(.named("TrayMenuItem", .any)),
    ]))
  static let create = Shape.fields([
    "icon": .string, "tooltip?": .string, "title?": .string, "menu?": .array(item),
  ])
  static let icon = Shape.fields(["icon": .string])
  static let tooltip = Shape.fields(["tooltip": .string])
  static let menu = Shape.fields(["menu": .array(item)])
  static let click = Shape.named(
    "TrayClickEvent",
    .fields(["x": .integer, "y": .integer, "button": .oneOf([.literal("left"), .literal("middle")])]))
  static let menuItem = Shape.named("TrayMenuItemEvent", .fields(["id": .string]))
}
