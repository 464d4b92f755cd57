import NBridgePlugin

/// A tray icon's menu, checked and numbered: each item gets the integer id `com.canonical.dbusmenu`
/// knows it by (1, 2, ... in reading order; 0 is the root), and keeps the app's string id.
struct TrayMenu: Equatable, Sendable {
  /// The most items a menu may hold, submenus included.
  static let maxItems = 1000
  /// The deepest nesting: the menu itself is level 1.
  static let maxDepth = 8
  /// The longest label or id, in bytes of UTF-8.
  static let maxText = 1024

  /// One entry of the menu.
  struct Item: Equatable, Sendable {
    /// Its dbusmenu id.
    var number: Int32
    /// The app's id, sent back in `menuItem`; nil for a separator or a submenu's parent.
    var id: String?
    var label = ""
    var enabled = true
    /// Whether it is a separator line.
    var separator = false
    /// Its check mark: nil for an item without one.
    var checked: Bool?
    /// The dbusmenu ids of its submenu's items.
    var children: [Int32] = []
  }

  /// Every item by dbusmenu id; index 0 is the root, whose `children` are the top-level items.
  private(set) var items: [Item] = [Item(number: 0)]

  /// An empty menu (the icon has none).
  init() {}

  /// The menu `value` describes (`[{id, label, enabled?, checked?, submenu?} | {type: 'separator'}]`);
  /// `invalid_parameter` naming the offending field (`menu[2].submenu[0].label`).
  init(parsing value: JSONValue, field: String = "menu") throws(BridgeError) {
    guard case .array(let list) = value else { throw BridgeError.invalidParameter(field, "must be an array of items") }
    var ids: Set<String> = []
    items[0].children = try add(list, field: field, depth: 1, ids: &ids)
  }

  /// Whether the menu has no items.
  var isEmpty: Bool { items.count == 1 }

  private mutating func add(_ list: [JSONValue], field: String, depth: Int, ids: inout Set<String>) throws(BridgeError)
    -> [Int32]
  {
    guard depth <= Self.maxDepth else {
      throw BridgeError.invalidParameter(field, "nests submenus deeper than \(Self.maxDepth) levels")
    }
    guard items.count - 1 + list.count <= Self.maxItems else {
      throw BridgeError.invalidParameter(field, "makes the menu longer than \(Self.maxItems) items in all")
    }
    var numbers: [Int32] = []
    for (index, element) in list.enumerated() {
      let path = "\(field)[\(index)]"
      guard case .object(let object) = element else {
        throw BridgeError.invalidParameter(path, "must be an object ({id, label} or {type: 'separator'})")
      }
      guard items.count <= Self.maxItems else {
        throw BridgeError.invalidParameter(path, "makes the menu longer than \(Self.maxItems) items in all")
      }
      var item = Item(number: Int32(items.count))
      if let type = object["type"] {
        guard type == .string("separator") || type == .string("normal") else {
          throw BridgeError.invalidParameter(path + ".type", "must be 'separator' or 'normal'")
        }
        item.separator = type == .string("separator")
      }
      if !item.separator {
        item.label = try OptionField.text(object["label"], field: path + ".label", required: true, maxBytes: Self.maxText) ?? ""
        item.id = try OptionField.text(object["id"], field: path + ".id", required: object["submenu"] == nil, maxBytes: Self.maxText)
        if let id = item.id, !ids.insert(id).inserted {
          throw BridgeError.invalidParameter(path + ".id", "repeats the id \"\(id)\" of an earlier item")
        }
        item.enabled = try OptionField.flag(object["enabled"], field: path + ".enabled") ?? true
        item.checked = try OptionField.flag(object["checked"], field: path + ".checked")
      }
      items.append(item)
      if let submenu = object["submenu"], !item.separator {
        guard case .array(let children) = submenu else {
          throw BridgeError.invalidParameter(path + ".submenu", "must be an array of items")
        }
        let childNumbers = try add(children, field: path + ".submenu", depth: depth + 1, ids: &ids)
        items[Int(item.number)].children = childNumbers
      }
      numbers.append(item.number)
    }
    return numbers
  }

  /// The item with dbusmenu id `number`, if there is one.
  func item(_ number: Int32) -> Item? { items.indices.contains(Int(number)) ? items[Int(number)] : nil }
}
