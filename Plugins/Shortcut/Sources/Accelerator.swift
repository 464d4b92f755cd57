import NBridgePlugin

/// A key with modifiers, parsed from text such as `Ctrl+Alt+K` or `Super+F12`.
struct Accelerator: Hashable, Sendable {
  /// A modifier key, with its X11 mask bit.
  enum Modifier: String, CaseIterable, Sendable {
    case ctrl = "Ctrl"
    case alt = "Alt"
    case shift = "Shift"
    case superKey = "Super"

    /// `ShiftMask`, `ControlMask`, `Mod1Mask`, `Mod4Mask`.
    var x11Mask: UInt32 {
      switch self {
      case .shift: 1 << 0
      case .ctrl: 1 << 2
      case .alt: 1 << 3
      case .superKey: 1 << 6
      }
    }
  }

  /// The modifiers, in the order `Ctrl`, `Alt`, `Shift`, `Super`.
  var modifiers: [Modifier]
  /// The X keysym name of the key (`k`, `F12`, `space`).
  var keysym: String
  /// The key as written back (`K`, `F12`, `Space`).
  var key: String

  /// The accelerator written the one way it is reported back: `Ctrl+Alt+K`.
  var text: String { (modifiers.map(\.rawValue) + [key]).joined(separator: "+") }
  /// The modifier mask X11 sends with the key.
  var x11Mask: UInt32 { modifiers.reduce(0) { $0 | $1.x11Mask } }

  /// Names a key has besides its keysym, and how it is written back.
  private static let namedKeys: [String: (keysym: String, key: String)] = [
    "space": ("space", "Space"), "tab": ("Tab", "Tab"), "enter": ("Return", "Enter"), "return": ("Return", "Enter"),
    "escape": ("Escape", "Escape"), "esc": ("Escape", "Escape"), "backspace": ("BackSpace", "Backspace"),
    "delete": ("Delete", "Delete"), "insert": ("Insert", "Insert"), "home": ("Home", "Home"), "end": ("End", "End"),
    "pageup": ("Prior", "PageUp"), "pagedown": ("Next", "PageDown"), "up": ("Up", "Up"), "down": ("Down", "Down"),
    "left": ("Left", "Left"), "right": ("Right", "Right"), "print": ("Print", "Print"),
  ]
  private static let modifierNames: [String: Modifier] = [
    "ctrl": .ctrl, "control": .ctrl, "cmdorctrl": .ctrl, "commandorcontrol": .ctrl, "alt": .alt, "option": .alt,
    "shift": .shift, "super": .superKey, "meta": .superKey, "win": .superKey,
  ]

  /// Parses `text`; `invalid_parameter` naming `field` when it is not modifiers and one key, or
  /// is a plain key without Ctrl, Alt or Super (a grab of it would take the key from every program).
  init(parsing text: String, field: String = "accelerator") throws(BridgeError) {
    let parts = text.split(separator: "+", omittingEmptySubsequences: false).map {
      String($0).trimmingCharacters(in: " ")
    }
    guard text.utf8.count <= 100, let last = parts.last, !last.isEmpty, !parts.contains(where: \.isEmpty) else {
      throw BridgeError.invalidParameter(field, "must be modifiers and a key joined by '+', such as 'Ctrl+Alt+K'")
    }
    var found: Set<Modifier> = []
    for part in parts.dropLast() {
      guard let modifier = Self.modifierNames[part.lowercased()] else {
        throw BridgeError.invalidParameter(
          field, "has \"\(part)\" where a modifier goes (Ctrl, Alt, Shift, Super) in \"\(text)\"")
      }
      guard found.insert(modifier).inserted else {
        throw BridgeError.invalidParameter(field, "names \(modifier.rawValue) twice in \"\(text)\"")
      }
    }
    modifiers = Modifier.allCases.filter(found.contains)
    let lower = last.lowercased()
    if let named = Self.namedKeys[lower] {
      (keysym, key) = named
    } else if last.count == 1, let scalar = last.unicodeScalars.first, scalar.isASCII,
      scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    {
      keysym = lower
      key = last.uppercased()
    } else if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...24).contains(number) {
      keysym = "F\(number)"
      key = keysym
    } else {
      throw BridgeError.invalidParameter(
        field,
        "has \"\(last)\" where the key goes (a letter, a digit, F1-F24, Space, Enter, an arrow...) in \"\(text)\"")
    }
    let isFunctionKey = keysym.hasPrefix("F") && keysym.count > 1 && keysym.dropFirst().allSatisfy(\.isNumber)
    guard isFunctionKey || found.contains(.ctrl) || found.contains(.alt) || found.contains(.superKey) else {
      throw BridgeError.invalidParameter(
        field, "\"\(text)\" needs Ctrl, Alt or Super: a global shortcut on a plain key would take it from every program"
      )
    }
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: String) -> String {
    var s = Substring(self)
    while let c = s.first, set.contains(c) { s = s.dropFirst() }
    while let c = s.last, set.contains(c) { s = s.dropLast() }
    return String(s)
  }
}
