import NBridgePlugin

/// A menu item's key, parsed from text such as `Ctrl+S`, `Ctrl+Shift+Z` or `F5`, in GTK's
/// accelerator syntax (`<Control><Shift>z`).
struct MenuAccelerator: Hashable, Sendable {
  /// GTK's text for it: the modifiers in a fixed order, then the key's name.
  let gtk: String

  /// Modifier names, each with GTK's.
  private static let modifiers: [String: String] = [
    "ctrl": "<Control>", "control": "<Control>", "cmdorctrl": "<Control>", "commandorcontrol": "<Control>",
    "alt": "<Alt>", "option": "<Alt>", "shift": "<Shift>", "super": "<Super>", "meta": "<Super>", "win": "<Super>",
  ]
  private static let modifierOrder = ["<Control>", "<Alt>", "<Shift>", "<Super>"]
  /// Keys by the names an app may write them with, each with its GDK key name.
  private static let namedKeys: [String: String] = [
    "space": "space", "tab": "Tab", "enter": "Return", "return": "Return", "escape": "Escape", "esc": "Escape",
    "backspace": "BackSpace", "delete": "Delete", "insert": "Insert", "home": "Home", "end": "End",
    "pageup": "Page_Up", "pagedown": "Page_Down", "up": "Up", "down": "Down", "left": "Left", "right": "Right",
    "plus": "plus", "minus": "minus", "=": "equal", "-": "minus", ",": "comma", ".": "period", "/": "slash",
    ";": "semicolon", "'": "apostrophe", "[": "bracketleft", "]": "bracketright", "\\": "backslash", "`": "grave",
  ]

  /// The accelerator `text` names; `invalid_parameter` naming `field` when it is not modifiers
  /// and one key joined by `+`, or is a key without Ctrl, Alt or Super (other than F1-F24),
  /// which would take the key from the page's text fields.
  init(parsing text: String, field: String) throws(BridgeError) {
    let parts = text.split(separator: "+", omittingEmptySubsequences: false).map { $0.filter { $0 != " " } }
    guard text.utf8.count <= 100, let key = parts.last, !parts.contains(where: \.isEmpty) else {
      throw BridgeError.invalidParameter(field, "must be modifiers and a key joined by '+', such as 'Ctrl+S'")
    }
    var found: Set<String> = []
    for part in parts.dropLast() {
      guard let modifier = Self.modifiers[part.lowercased()] else {
        throw BridgeError.invalidParameter(
          field, "has \"\(part)\" where a modifier goes (Ctrl, Alt, Shift, Super) in \"\(text)\"")
      }
      guard found.insert(modifier).inserted else {
        throw BridgeError.invalidParameter(field, "names a modifier twice in \"\(text)\"")
      }
    }
    let lower = key.lowercased()
    let name: String
    var functionKey = false
    if let named = Self.namedKeys[lower] {
      name = named
    } else if key.count == 1, let scalar = key.unicodeScalars.first, scalar.isASCII,
      scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    {
      name = lower
    } else if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...24).contains(number) {
      name = "F\(number)"
      functionKey = true
    } else {
      throw BridgeError.invalidParameter(
        field, "has \"\(key)\" where the key goes (a letter, a digit, F1-F24, Delete, an arrow...) in \"\(text)\"")
    }
    guard functionKey || found.contains("<Control>") || found.contains("<Alt>") || found.contains("<Super>") else {
      throw BridgeError.invalidParameter(
        field, "\"\(text)\" needs Ctrl, Alt or Super (only F1-F24 go alone): the page's fields need the plain key")
    }
    gtk = Self.modifierOrder.filter(found.contains).joined() + name
  }

  /// An accelerator already in GTK's syntax (a role's default).
  init(gtk: String) { self.gtk = gtk }
}
