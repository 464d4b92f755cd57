import CWebKitGTK
import NBridgePlugin

/// Popup web windows for plugins (`app.openWindow` / `closeWindow`; `closeWindow` closes the
/// main window too, as `main`). Each is kept for the
/// process's life (its C callbacks hold an unretained pointer); it is open while it has a window.
extension AppWindow {
  func openWindow(
    url: String, title: String?, navigation: Bool, closed: @escaping @BridgeActor (String) -> Void
  ) throws(BridgeError) -> String {
    guard window != nil, webContext != nil else { throw .unavailable("the app's window is closed") }
    let scheme = url.prefix { $0 != ":" }.lowercased()
    guard scheme == "http" || scheme == "https" || url.hasPrefix(origin + "/") else {
      throw .invalidParameter(
        "url", "must be an http(s) URL or one of the app's origin (\(origin)/...), got \"\(url)\"")
    }
    let popup = PopupWindow(id: "window-\(popups.count + 1)", app: self, closed: closed)
    popups.append(popup)
    popup.open(url: url, title: title ?? url, navigation: navigation)
    return popup.id
  }

  func closeWindow(id: String) throws(BridgeError) {
    if id == Self.mainID, let window { return nbw_window_destroy(window) }
    guard let popup = popups.first(where: { $0.id == id && $0.window != nil }) else {
      throw .notFound("no open window with id \"\(id)\"")
    }
    popup.close()
  }
}
