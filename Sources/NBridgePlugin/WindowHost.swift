/// What the app's window (`nbridge app`) does for plugins: the page-only parts of a service
/// (WebKit's website data, a snapshot of the page). A plugin reaches it through
/// `PluginContext.window`, which is nil in a headless run (`nbridge run`, `nbridge test`).
///
/// Each method answers once, on the loop thread, through its `done` closure.
@BridgeActor
public protocol WindowHost: AnyObject {
  /// Clears WebKit's disk and memory caches and the cookies of the app's website data manager
  /// (`webkit_website_data_manager_clear`); `done` gets the kinds cleared (`diskCache`,
  /// `memoryCache`, `cookies`) or why not.
  func clearWebsiteData(_ done: @escaping @BridgeActor (Result<[String], BridgeError>) -> Void)

  /// Writes a PNG of the page's visible region to `path` (WebKit's snapshot); `done` gets its
  /// size in pixels or why not.
  func snapshot(to path: String, _ done: @escaping @BridgeActor (Result<PageSnapshot, BridgeError>) -> Void)
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
