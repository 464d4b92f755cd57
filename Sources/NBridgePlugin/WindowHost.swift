/// What the app's window (`nbridge app`) does for plugins: the page-only parts of a service
/// (WebKit's website data, a snapshot of the page, popup web windows). A plugin reaches it through
/// `PluginContext.window`, which is nil in a headless run (`nbridge run`, `nbridge test`).
///
/// The asynchronous methods answer once, on the loop thread, through their `done` closure.
@BridgeActor
public protocol WindowHost: AnyObject {
  /// Clears WebKit's disk and memory caches and the cookies of the app's website data manager
  /// (`webkit_website_data_manager_clear`); `done` gets the kinds cleared (`diskCache`,
  /// `memoryCache`, `cookies`) or why not.
  func clearWebsiteData(_ done: @escaping @BridgeActor (Result<[String], BridgeError>) -> Void)

  /// Writes a PNG of the page's visible region to `path` (WebKit's snapshot); `done` gets its
  /// size in pixels or why not.
  func snapshot(to path: String, _ done: @escaping @BridgeActor (Result<PageSnapshot, BridgeError>) -> Void)

  /// Opens a second window over the app's showing `url` (an `http(s)` URL or one of the app's
  /// own origin), with a title bar: `title`, back and forward buttons when `navigation`, close.
  /// A page of the app's origin there gets `nbridge`, any other origin none. Returns the window's
  /// id; `closed` gets that id once, when the window closes (by the user or `closeWindow`).
  func openWindow(
    url: String, title: String?, navigation: Bool, closed: @escaping @BridgeActor (String) -> Void
  ) throws(BridgeError) -> String

  /// Closes the window `openWindow` opened as `id` (its `closed` runs); `not_found` when no
  /// such window is open.
  func closeWindow(id: String) throws(BridgeError)

  /// The app's open windows: the main one (`main`) first, then the others (`createWindow`'s
  /// and `openWindow`'s), each with its page's URL and its title.
  func windowList() -> [WindowSummary]

  /// Where window `id` is and what state it is in; `not_found` when no such window is open.
  func windowState(id: String) throws(BridgeError) -> WindowState

  /// Asks the window manager to change window `id`; `not_found` when no such window is open.
  /// Returns at once: the window moves when the window manager has done it.
  func changeWindow(id: String, _ change: WindowChange) throws(BridgeError)

  /// Opens another window of the app, a peer of the main one, showing `url` (a path of the app's
  /// own, a URL of its origin or an `http(s)` URL, with the same origin rule as `openWindow`);
  /// returns its id.
  func createWindow(url: String, title: String?, width: Int?, height: Int?) throws(BridgeError) -> String

  /// Receives the windows' events (nil: none). While `holdsClose` is true, a window the user asks
  /// to close stays open and `.closeRequested` is reported instead: close it with `closeWindow`.
  func observeWindows(holdsClose: Bool, _ observer: (@BridgeActor (WindowEvent) -> Void)?)

  /// Calls `done` once the main page has run every event and script sent to it before now (its
  /// listeners' calls made in the meantime have been answered).
  func afterPageScripts(_ done: @escaping @BridgeActor () -> Void)

  /// Shows GTK's file chooser over the app's window; `done` gets the paths chosen once, nil when
  /// the user cancelled (Escape, Cancel, or closing it).
  func chooseFiles(_ request: FileDialogRequest, _ done: @escaping @BridgeActor ([String]?) -> Void)

  /// Shows a message dialog over the app's window; `done` gets the index of the button pressed
  /// once, nil when it was closed without one (Escape).
  func showMessage(_ request: MessageDialogRequest, _ done: @escaping @BridgeActor (Int?) -> Void)

  /// Shows `items` as a menu bar above the main window's page, replacing the one shown before
  /// (nil or empty: none), with their accelerators bound while the window has the focus;
  /// `activated` gets an item's tag, and its check mark for a check item, each time the user
  /// chooses it (by click, mnemonic or accelerator).
  func setMenuBar(_ items: [WindowMenuItem]?, _ activated: @escaping @BridgeActor (Int, Bool?) -> Void)
    throws(BridgeError)

  /// Pops `items` up as a context menu over the main window's page, its corner at `point` (the
  /// page's coordinates, CSS pixels) or, when nil, at the pointer; `activated` as for `setMenuBar`.
  func popUpMenu(
    _ items: [WindowMenuItem], at point: (x: Int, y: Int)?, _ activated: @escaping @BridgeActor (Int, Bool?) -> Void
  ) throws(BridgeError)

  /// Runs `command` on the main window's page (WebKit's editing commands, or a reload).
  func runPageCommand(_ command: PageCommand) throws(BridgeError)
}

/// An open window of the app (`WindowHost.windowList`).
public struct WindowSummary: Sendable, Equatable, Codable {
  /// `main`, or the id `createWindow`/`openWindow` gave it.
  public var id: String
  /// The URL its page shows (empty before the first load).
  public var url: String
  /// The window's title.
  public var title: String

  /// A window's summary.
  public init(id: String, url: String, title: String) {
    self.id = id
    self.url = url
    self.title = title
  }
}

/// Where a window is and its state (`WindowHost.windowState`): the frame's top-left corner on the
/// screen and the size of its content (without the window manager's frame), in pixels.
public struct WindowState: Sendable, Equatable, Codable {
  /// The frame's left edge.
  public var x: Int
  /// The frame's top edge.
  public var y: Int
  /// The content's width.
  public var width: Int
  /// The content's height.
  public var height: Int
  /// Whether it is maximized.
  public var maximized: Bool
  /// Whether it is full screen.
  public var fullscreen: Bool
  /// Whether it has the keyboard focus.
  public var focused: Bool
  /// Whether it is shown (neither hidden nor minimized).
  public var visible: Bool

  /// A window's state.
  public init(
    x: Int, y: Int, width: Int, height: Int, maximized: Bool, fullscreen: Bool, focused: Bool, visible: Bool
  ) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
    self.maximized = maximized
    self.fullscreen = fullscreen
    self.focused = focused
    self.visible = visible
  }
}

/// What `WindowHost.changeWindow` asks of the window manager.
public enum WindowChange: Sendable, Equatable {
  /// Sets the title.
  case title(String)
  /// Resizes the content to `width` x `height`.
  case size(width: Int, height: Int)
  /// The user cannot make the content smaller than `width` x `height`.
  case minSize(width: Int, height: Int)
  /// Moves the window to the middle of its monitor's work area.
  case center
  /// Moves the frame's top-left corner to (`x`, `y`).
  case position(x: Int, y: Int)
  /// Minimizes (iconifies) the window.
  case minimize
  /// Maximizes the window.
  case maximize
  /// Leaves the maximized state.
  case unmaximize
  /// Enters (true) or leaves full screen.
  case fullscreen(Bool)
  /// Keeps it above other windows (true) or not.
  case alwaysOnTop(Bool)
  /// Shows it (after `hide`, or minimized).
  case show
  /// Hides it (unmapped; `show` brings it back).
  case hide
}

/// What happened to one of the app's windows (`WindowHost.observeWindows`); `id` names it.
public enum WindowEvent: Sendable, Equatable {
  /// Its content now measures `width` x `height`.
  case resized(id: String, width: Int, height: Int)
  /// Its frame's top-left corner is now at (`x`, `y`).
  case moved(id: String, x: Int, y: Int)
  /// It got the keyboard focus.
  case focus(id: String)
  /// It lost the keyboard focus.
  case blur(id: String)
  /// The user asked to close it; it stays open (the observer holds close requests).
  case closeRequested(id: String)
  /// The window closed.
  case closed(id: String)
}

/// A PNG written by `WindowHost.snapshot`: its size in pixels.
public struct PageSnapshot: Sendable, Equatable {
  /// The width in pixels.
  public var width: Int
  /// The height in pixels.
  public var height: Int

  /// A snapshot's size.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
}
