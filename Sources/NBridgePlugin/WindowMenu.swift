/// An entry of a menu the window shows (`WindowHost.setMenuBar`, `WindowHost.popUpMenu`): GTK's
/// menu items, each reported by its `tag` when the user chooses it.
public struct WindowMenuItem: Sendable, Equatable {
  /// What kind of entry it is.
  public enum Kind: Sendable, Equatable {
    /// An item the user chooses.
    case normal
    /// An item with a check mark, checked or not; choosing it toggles the mark.
    case check(Bool)
    /// A line between items.
    case separator
    /// An item that opens these items.
    case submenu([WindowMenuItem])
  }

  /// Whether it is an item, a check item, a separator or a submenu.
  public var kind: Kind
  /// Its text; an underscore marks the next letter as its mnemonic (`_File`), `__` is an underscore.
  public var label: String
  /// Its key in GTK's syntax (`<Control>s`, `<Control><Shift>z`, `F5`), nil for none.
  public var accelerator: String?
  /// Whether the menu bar binds `accelerator` while the window has the focus (false: it is only
  /// shown, for a key the page handles itself, such as Ctrl+C).
  public var bindsAccelerator: Bool
  /// Whether the user may choose it.
  public var enabled: Bool
  /// What the window reports when the user chooses it.
  public var tag: Int

  /// A menu entry.
  public init(
    kind: Kind, label: String = "", accelerator: String? = nil, bindsAccelerator: Bool = true, enabled: Bool = true,
    tag: Int = 0
  ) {
    self.kind = kind
    self.label = label
    self.accelerator = accelerator
    self.bindsAccelerator = bindsAccelerator
    self.enabled = enabled
    self.tag = tag
  }
}

/// What `WindowHost.runPageCommand` does to the main window's page: one of WebKit's editing
/// commands on the page's selection or focused field, or a reload.
public enum PageCommand: String, Sendable, CaseIterable {
  /// Copies the selection to the clipboard.
  case copy
  /// Copies the selection to the clipboard and removes it (in a field).
  case cut
  /// Inserts the clipboard's text (in a field).
  case paste
  /// Selects the whole page, or the focused field's text.
  case selectAll
  /// Undoes the last edit.
  case undo
  /// Redoes the edit undone last.
  case redo
  /// Reloads the page.
  case reload
}
