import NBridgePlugin

/// `nbridge.menu`: the app window's menu bar and context menus (`nbridge app`), GTK's menus
/// whose items report `menuItem` or do a standard job by role. A headless run has no window:
/// valid menus answer `unavailable` (bad ones still `invalid_parameter`).
@BridgeActor
public final class MenuPlugin: Plugin {
  /// The service name, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "menu")
  /// `setApplicationMenu` and `popup`; the `menuItem` event.
  public nonisolated static let definition = PluginDefinition<MenuPlugin>(
    declaration,
    summary: "The app window's menu bar and context menus (nbridge app); menuItem reports the item chosen.",
    actions: [
      Action(
        "setApplicationMenu", options: .fields(["items": .oneOf([.array(MenuShapes.item), .null])]),
        summary:
          "Shows items as the window's menu bar, accelerators bound while it has the focus; null or [] removes it."
      ) { (plugin, options: ApplicationMenuOptions, _) in
        let menu = try options.items.map { value throws(BridgeError) in try ParsedMenu(parsing: value) }
        try plugin.host().setMenuBar(menu?.items) { [weak plugin] tag, checked in
          plugin?.chosen(menu?.entries[tag], checked: checked)
        }
        return JSONValue.null
      },
      Action(
        "popup", options: .fields(["items": .array(MenuShapes.item), "x?": .integer, "y?": .integer]),
        summary: "Pops items up as a context menu at (x, y) in the page, or at the pointer without them."
      ) { (plugin, options: PopupOptions, _) in
        let menu = try ParsedMenu(parsing: options.items)
        try plugin.host().popUpMenu(menu.items, at: options.point) { [weak plugin] tag, checked in
          plugin?.chosen(menu.entries[tag], checked: checked)
        }
        return JSONValue.null
      },
    ],
    events: [
      EventSpec(
        "menuItem", payload: MenuShapes.menuItem,
        summary: "The user chose an item with an id (of the menu bar, by click, mnemonic or key, or of a context menu)."
      )
    ])

  let context: PluginContext

  /// A plugin for the run `context` describes.
  public init(context: PluginContext) throws {
    self.context = context
  }

  /// Takes the menu bar away.
  public func stop() async {
    try? context.window?.setMenuBar(nil) { _, _ in }
  }

  /// The window, or `unavailable`.
  func host() throws(BridgeError) -> any WindowHost {
    guard let window = context.window else {
      throw .unavailable("this run has no window for a menu (nbridge app has one; nbridge run and nbridge test do not)")
    }
    return window
  }

  /// The user chose `entry`: its role's job, then `menuItem` when it has an id.
  func chosen(_ entry: ParsedMenu.Entry?, checked: Bool?) {
    guard let entry else { return }
    if let id = entry.id { context.emit("menuItem", MenuItemEvent(id: id, checked: checked)) }
    switch entry.role {
    case nil: break
    case .quit: context.exit(code: 0)
    case .copy: try? host().runPageCommand(.copy)
    case .cut: try? host().runPageCommand(.cut)
    case .paste: try? host().runPageCommand(.paste)
    case .selectAll: try? host().runPageCommand(.selectAll)
    case .undo: try? host().runPageCommand(.undo)
    case .redo: try? host().runPageCommand(.redo)
    case .reload: try? host().runPageCommand(.reload)
    }
  }
}

/// `setApplicationMenu`'s `{items}`: read as any JSON value and checked by `ParsedMenu`, which
/// names the item at fault; null removes the bar.
struct ApplicationMenuOptions: Decodable, Sendable {
  var items: JSONValue?
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    let items = try fields.decodeIfPresent(JSONValue.self, forKey: .items)
    self.items = items == .null || items == .array([]) ? nil : items
    guard fields.contains(.items) else {
      throw BridgeError.invalidParameter("items", "is required (null removes the bar)")
    }
  }
  private enum Field: String, CodingKey { case items }
}

/// `popup`'s `{items, x?, y?}`: both coordinates or neither.
struct PopupOptions: Decodable, Sendable {
  var items: JSONValue
  var point: (x: Int, y: Int)?
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    items = try fields.decode(JSONValue.self, forKey: .items)
    let x = try fields.decodeIfPresent(Int.self, forKey: .x)
    let y = try fields.decodeIfPresent(Int.self, forKey: .y)
    for (name, value) in [("x", x), ("y", y)] {
      if let value, !(-16384...16384).contains(value) {
        throw BridgeError.invalidParameter(name, "must be a whole number of pixels from -16384 to 16384 (got \(value))")
      }
    }
    switch (x, y) {
    case (let x?, let y?): point = (x, y)
    case (nil, nil): point = nil
    case (nil, _): throw BridgeError.invalidParameter("x", "must be given with y (or neither, for the pointer)")
    case (_, nil): throw BridgeError.invalidParameter("y", "must be given with x (or neither, for the pointer)")
    }
  }
  private enum Field: String, CodingKey { case items, x, y }
}

/// `menuItem`'s payload.
struct MenuItemEvent: Encodable {
  let id: String
  let checked: Bool?
}

/// The declared shapes of the `menu` service, for `nbridge plugins` and `nbridge types`.
enum MenuShapes {
  /// A menu item; `submenu` refers back to the interface by name.
  static let item = Shape.named(
    "MenuItem",
    .fields([
      "id?": .string, "label?": .string, "accelerator?": .string, "enabled?": .boolean, "checked?": .boolean,
      "type?": .oneOf([.literal("normal"), .literal("separator")]),
      "role?": .oneOf(MenuRole.allCases.map { .literal($0.rawValue) }),
      "submenu?": .array(.named("MenuItem", .any)),
    ]))
  static let menuItem = Shape.named("MenuItemEvent", .fields(["id": .string, "checked?": .boolean]))
}
