import CWebKitGTK
import NBridgePlugin

/// What the window does for plugins (`PluginContext.window`): WebKit's website data and
/// snapshots of the page. Each request's `done` rides through C as a retained box, taken back
/// once in its callback.
extension AppWindow: WindowHost {
  func clearWebsiteData(_ done: @escaping @BridgeActor (Result<[String], BridgeError>) -> Void) {
    guard let webContext else { return done(.failure(.unavailable("the window is closed"))) }
    let box = Unmanaged.passRetained(
      Pending { (error: String?, _: Int32, _: Int32) in
        if let error { return done(.failure(.unavailable("WebKit could not clear its caches: \(error)"))) }
        done(.success(["diskCache", "memoryCache", "cookies"]))
      })
    nbw_context_clear_caches(webContext, onCachesCleared, box.toOpaque())
  }

  func snapshot(to path: String, _ done: @escaping @BridgeActor (Result<PageSnapshot, BridgeError>) -> Void) {
    guard let view else { return done(.failure(.unavailable("the window is closed"))) }
    let box = Unmanaged.passRetained(
      Pending { (error: String?, width: Int32, height: Int32) in
        if let error { return done(.failure(.unavailable("WebKit could not take a snapshot: \(error)"))) }
        done(.success(PageSnapshot(width: Int(width), height: Int(height))))
      })
    nbw_view_snapshot(view, path, onPendingSnapshot, box.toOpaque())
  }
}

/// A plugin's request waiting on WebKit: what to do with the outcome (an error message, or a size).
@BridgeActor
private final class Pending {
  let done: @BridgeActor (String?, Int32, Int32) -> Void
  init(_ done: @escaping @BridgeActor (String?, Int32, Int32) -> Void) { self.done = done }
}

/// Runs the pending request behind `data` (retained when it was sent) and releases it.
private func finish(_ data: UnsafeMutableRawPointer?, error: String?, width: Int32 = 0, height: Int32 = 0) {
  nonisolated(unsafe) let data = data
  BridgeActor.assumeIsolated {
    let pending = Unmanaged<Pending>.fromOpaque(data!).takeRetainedValue()
    pending.done(error, width, height)
  }
}

private let onCachesCleared: nbw_done_cb = { error, data in
  finish(data, error: error.map { String(cString: $0) })
}
private let onPendingSnapshot: nbw_snapshot_cb = { width, height, error, data in
  finish(data, error: error.map { String(cString: $0) }, width: width, height: height)
}
