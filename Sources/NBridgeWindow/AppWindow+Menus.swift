import CWebKitGTK
import NBridgePlugin

/// The `menu` service's part of the window: a menu bar above the main window's page, context
/// menus over it, and WebKit's editing commands. A menu's `activated` rides through C as a
/// retained box, released when GTK destroys the menu.
extension AppWindow {
  func setMenuBar(_ items: [WindowMenuItem]?, _ activated: @escaping @BridgeActor (Int, Bool?) -> Void)
    throws(BridgeError)
  {
    guard let window else { throw .unavailable("the window is closed") }
    guard let items, !items.isEmpty else { return nbw_window_set_menu_bar(window, nil) }
    let bar = Self.menu(items, bar: true, activated)
    nbw_window_set_menu_bar(window, bar)
  }

  func popUpMenu(
    _ items: [WindowMenuItem], at point: (x: Int, y: Int)?, _ activated: @escaping @BridgeActor (Int, Bool?) -> Void
  ) throws(BridgeError) {
    guard let view else { throw .unavailable("the window is closed") }
    let menu = Self.menu(items, bar: false, activated)
    switch nbw_menu_popup(menu, view, Int32(point?.x ?? 0), Int32(point?.y ?? 0), point == nil ? 1 : 0) {
    case 1: return
    case 0: throw .unavailable("the window is not shown (hidden or minimized): a context menu needs it on screen")
    default: throw .unavailable("another program holds the pointer or keyboard: the context menu could not be shown")
    }
  }

  func runPageCommand(_ command: PageCommand) throws(BridgeError) {
    guard let view else { throw .unavailable("the window is closed") }
    switch command {
    case .reload: nbw_view_reload(view)
    case .copy: nbw_view_editing_command(view, "Copy")
    case .cut: nbw_view_editing_command(view, "Cut")
    case .paste: nbw_view_editing_command(view, "Paste")
    case .selectAll: nbw_view_editing_command(view, "SelectAll")
    case .undo: nbw_view_editing_command(view, "Undo")
    case .redo: nbw_view_editing_command(view, "Redo")
    }
  }

  /// A GTK menu tree (a bar, or a popup menu) of `items`.
  private static func menu(
    _ items: [WindowMenuItem], bar: Bool, _ activated: @escaping @BridgeActor (Int, Bool?) -> Void
  ) -> UnsafeMutableRawPointer? {
    let box = Unmanaged.passRetained(MenuListener(activated)).toOpaque()
    let root = nbw_menu_new(bar ? 1 : 0, onMenuItem, onMenuReleased, box)
    add(items, to: root, root: root, binds: bar)
    return root
  }

  private static func add(
    _ items: [WindowMenuItem], to menu: UnsafeMutableRawPointer?, root: UnsafeMutableRawPointer?, binds: Bool
  ) {
    for item in items {
      var kind = NBW_MENU_NORMAL
      var checked = false
      switch item.kind {
      case .normal: break
      case .submenu: kind = NBW_MENU_SUBMENU
      case .check(let on): (kind, checked) = (NBW_MENU_CHECK, on)
      case .separator: kind = NBW_MENU_SEPARATOR
      }
      let added = nbw_menu_add(
        root, menu, Int32(kind), item.label, item.accelerator, binds && item.bindsAccelerator ? 1 : 0,
        item.enabled ? 1 : 0, checked ? 1 : 0, Int32(item.tag))
      if case .submenu(let children) = item.kind {
        add(children, to: nbw_menu_submenu(added), root: root, binds: binds)
      }
    }
  }
}

/// What a menu's choices go to.
@BridgeActor
private final class MenuListener {
  let activated: @BridgeActor (Int, Bool?) -> Void
  init(_ activated: @escaping @BridgeActor (Int, Bool?) -> Void) { self.activated = activated }
}

private let onMenuItem: nbw_menu_cb = { tag, checked, data in
  nonisolated(unsafe) let data = data
  BridgeActor.assumeIsolated {
    Unmanaged<MenuListener>.fromOpaque(data!).takeUnretainedValue().activated(
      Int(tag), checked < 0 ? nil : checked != 0)
  }
}

private let onMenuReleased: nbw_signal_cb = { data in
  nonisolated(unsafe) let data = data
  BridgeActor.assumeIsolated { Unmanaged<MenuListener>.fromOpaque(data!).release() }
}
