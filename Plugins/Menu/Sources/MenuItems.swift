import NBridgePlugin

/// A standard menu item: what it does, its default label and key.
enum MenuRole: String, CaseIterable, Sendable {
  case copy, cut, paste, selectAll, undo, redo, reload, quit

  /// Its label when the item gives none (with its mnemonic).
  var label: String {
    switch self {
    case .copy: "_Copy"
    case .cut: "Cu_t"
    case .paste: "_Paste"
    case .selectAll: "Select _All"
    case .undo: "_Undo"
    case .redo: "_Redo"
    case .reload: "_Reload"
    case .quit: "_Quit"
    }
  }

  /// Its key when the item gives none, and whether the menu bar binds it: the editing keys are
  /// only shown, since the page handles them itself (and a page's own keydown listener still sees them).
  var accelerator: (key: String, binds: Bool) {
    switch self {
    case .copy: ("<Control>c", false)
    case .cut: ("<Control>x", false)
    case .paste: ("<Control>v", false)
    case .selectAll: ("<Control>a", false)
    case .undo: ("<Control>z", false)
    case .redo: ("<Control><Shift>z", false)
    case .reload: ("<Control>r", true)
    case .quit: ("<Control>q", true)
    }
  }
}

/// A menu checked and numbered from the JSON an app passes: the window's items, and what each
/// chosen item (by its tag) means.
struct ParsedMenu: Sendable {
  /// The most items a menu may hold, submenus included.
  static let maxItems = 1000
  /// The deepest nesting: the menu itself is level 1.
  static let maxDepth = 8
  /// The longest label or id, in bytes of UTF-8.
  static let maxText = 1024
  /// The fields an item may have.
  static let fields: Set<String> = ["id", "label", "accelerator", "enabled", "checked", "type", "role", "submenu"]

  /// What a chosen item does: report its id (when it has one) and perform its role (when it has one).
  struct Entry: Sendable {
    var id: String?
    var role: MenuRole?
  }

  /// The items as the window shows them.
  private(set) var items: [WindowMenuItem] = []
  /// Each reportable item, by tag.
  private(set) var entries: [Entry] = []
  private var count = 0
  private var ids: Set<String> = []
  private var accelerators: [String: String] = [:]

  /// The menu `value` describes (`[{id, label, accelerator?, enabled?, checked?, role?, submenu?}
  /// | {type: 'separator'}]`); `invalid_parameter` naming the offending field (`items[2].submenu[0].label`).
  init(parsing value: JSONValue, field: String = "items") throws(BridgeError) {
    guard case .array(let list) = value else { throw BridgeError.invalidParameter(field, "must be an array of items") }
    items = try add(list, field: field, depth: 1)
  }

  private mutating func add(_ list: [JSONValue], field: String, depth: Int) throws(BridgeError) -> [WindowMenuItem] {
    guard depth <= Self.maxDepth else {
      throw BridgeError.invalidParameter(field, "nests submenus deeper than \(Self.maxDepth) levels")
    }
    guard count + list.count <= Self.maxItems else {
      throw BridgeError.invalidParameter(field, "makes the menu longer than \(Self.maxItems) items in all")
    }
    count += list.count
    var items: [WindowMenuItem] = []
    for (index, element) in list.enumerated() {
      items.append(try item(element, field: "\(field)[\(index)]", depth: depth))
    }
    return items
  }

  private mutating func item(_ element: JSONValue, field path: String, depth: Int) throws(BridgeError)
    -> WindowMenuItem
  {
    guard case .object(let object) = element else {
      throw BridgeError.invalidParameter(path, "must be an object ({id, label}, {role} or {type: 'separator'})")
    }
    if let unknown = object.keys.sorted().first(where: { !Self.fields.contains($0) }) {
      throw BridgeError.invalidParameter(
        path + "." + unknown, "is not a menu item's field (\(Self.fields.sorted().joined(separator: ", ")))")
    }
    if let type = object["type"], type != .null {
      guard type == .string("separator") || type == .string("normal") else {
        throw BridgeError.invalidParameter(path + ".type", "must be 'separator' or 'normal'")
      }
      if type == .string("separator") { return WindowMenuItem(kind: .separator) }
    }
    var role: MenuRole?
    if let value = object["role"], value != .null {
      guard case .string(let name) = value, let known = MenuRole(rawValue: name) else {
        throw BridgeError.invalidParameter(
          path + ".role", "must be one of \(MenuRole.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))")
      }
      role = known
    }
    let submenu = object["submenu"].flatMap { $0 == .null ? nil : $0 }
    if role != nil, submenu != nil {
      throw BridgeError.invalidParameter(path + ".submenu", "cannot go with a role: a role's item does one thing")
    }
    let label = try OptionField.text(object["label"], field: path + ".label", required: role == nil, maxBytes: Self.maxText) ?? role?.label ?? ""
    let id = try OptionField.text(object["id"], field: path + ".id", required: role == nil && submenu == nil, maxBytes: Self.maxText)
    if let id, !ids.insert(id).inserted {
      throw BridgeError.invalidParameter(path + ".id", "repeats the id \"\(id)\" of an earlier item")
    }
    let enabled = try OptionField.flag(object["enabled"], field: path + ".enabled") ?? true
    let checked = try OptionField.flag(object["checked"], field: path + ".checked")
    var accelerator = role.map { (key: $0.accelerator.key, binds: $0.accelerator.binds) }
    if let value = object["accelerator"], value != .null {
      guard case .string(let text) = value else {
        throw BridgeError.invalidParameter(path + ".accelerator", "must be a string such as 'Ctrl+S'")
      }
      accelerator = (try MenuAccelerator(parsing: text, field: path + ".accelerator").gtk, true)
    }
    if let accelerator, accelerator.binds {
      if let earlier = accelerators.updateValue(path, forKey: accelerator.key) {
        throw BridgeError.invalidParameter(path + ".accelerator", "is the key of \(earlier) already")
      }
    }
    var item = WindowMenuItem(
      kind: .normal, label: label, accelerator: accelerator?.key, bindsAccelerator: accelerator?.binds ?? true,
      enabled: enabled)
    if let submenu {
      guard case .array(let children) = submenu else {
        throw BridgeError.invalidParameter(path + ".submenu", "must be an array of items")
      }
      if checked != nil {
        throw BridgeError.invalidParameter(path + ".checked", "cannot go with a submenu")
      }
      item.kind = .submenu(try add(children, field: path + ".submenu", depth: depth + 1))
      return item
    }
    if let checked { item.kind = .check(checked) }
    item.tag = entries.count
    entries.append(Entry(id: id, role: role))
    return item
  }
}
