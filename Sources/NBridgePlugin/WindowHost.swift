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
