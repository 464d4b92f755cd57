import CWebKitGTK
import NBridgePlugin
import NBridgeRuntime

/// A popup web window (`app.openWindow`): a second WebKit view over the app's window, in the
/// app's web context, with a header bar (title, back/forward, close). Its content manager has the
/// main window's user script (injected only into frames of the app's origin, carrying the page
/// token) and `nbridge`/`WKBridge` handlers that refuse messages without the token, so the same
/// origin rule applies. Lives on the loop thread; `AppWindow` keeps it.
@BridgeActor
final class PopupWindow: PageHost {
  let id: String
  unowned let app: AppWindow
  let onClosed: @BridgeActor (String) -> Void
  var window: UnsafeMutableRawPointer?
  var view: UnsafeMutableRawPointer?

  init(id: String, app: AppWindow, closed: @escaping @BridgeActor (String) -> Void) {
    self.id = id
    self.app = app
    self.onClosed = closed
  }

  /// Creates the view and its popup window (a header bar, over the app's) and loads `url`.
  func open(url: String, title: String, navigation: Bool) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    let view = makeView()
    window = nbw_popup_new(
      app.window, view, title, Int32(app.options.width), Int32(app.options.height), navigation ? 1 : 0,
      onPopupDestroy, me)
    nbw_window_watch_place(window, onPopupPlace, me)
    nbw_view_load(view, url)
  }

  /// Creates the view in a window of its own (`window.create`: a peer of the main window, framed
  /// by the window manager) and loads `url`.
  func open(url: String, title: String, width: Int, height: Int) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    let view = makeView()
    window = nbw_window_new(title, Int32(width), Int32(height), 1, onPopupDestroy, me)
    nbw_window_watch_place(window, onPopupPlace, me)
    nbw_window_show(window, view)
    nbw_view_load(view, url)
  }

  /// The view, with the main window's page script and handlers that check its token.
  private func makeView() -> UnsafeMutableRawPointer? {
    let me = Unmanaged.passUnretained(self).toOpaque()
    let manager = nbw_content_manager_new()
    nbw_content_manager_add_script(manager, app.runtime.pageScript(token: app.token), app.origin + "/*")
    _ = nbw_content_manager_add_reply_handler(manager, "nbridge", onPopupMessage, me)
    _ = nbw_content_manager_add_handler(manager, "WKBridge", onPopupWKBridgeMessage, me)
    let view = nbw_view_new(
      app.webContext, manager, onPopupLoad, onPopupTerminated, onPopupDialog, onPopupPolicy, onPopupClose, me)
    self.view = view
    return view
  }

  /// Destroys the window; `closed()` follows from its "destroy" signal.
  func close() {
    if let window { nbw_window_destroy(window) }
  }

  func closed() {
    window = nil
    view = nil
    onClosed(id)
    app.windowObserver?(.closed(id: id))
  }

  func evaluateInPage(_ script: String) {
    guard let view else { return }
    var script = script
    script.withUTF8 {
      nbw_view_evaluate(view, UnsafeRawPointer($0.baseAddress)?.assumingMemoryBound(to: CChar.self), $0.count)
    }
  }

  func message(_ text: String, reply: UnsafeMutableRawPointer?) {
    guard let reply else { return }
    guard text.hasPrefix(app.token) else {
      app.runtime.report(2, "nbridge app: ignored a call from window \(id), whose page is not of the app's origin")
      return nbw_reply(reply, "0permission_denied\nnbridge: this frame is not the app's own page")
    }
    app.runtime.pageMessage(text.dropFirst(app.token.count), from: self) { answer in nbw_reply(reply, answer) }
  }

  func wkBridgeMessage(_ text: String) {
    guard text.hasPrefix(app.token) else {
      return app.runtime.report(
        2, "nbridge app: ignored a WKBridge message from window \(id), whose page is not of the app's origin")
    }
    app.runtime.wkBridgeMessage(String(text.dropFirst(app.token.count)), from: self)
  }

  /// Web pages and the app's own load here; a new window loads in this one; other schemes
  /// (`mailto:`, ...) go to the desktop.
  func allows(decision: Int32, uri: String) -> Bool {
    let scheme = uri.prefix { $0 != ":" }.lowercased()
    let here = ["http", "https", "about", "data", "blob"].contains(scheme) || uri.hasPrefix(app.origin + "/")
    if here && decision == 1 {
      nbw_view_load(view, uri)
      return false
    }
    if here { return true }
    app.openOutside(uri)
    return false
  }

  func webProcessTerminated(reason: Int32) {
    guard reason != 2 else { return }
    app.runtime.report(
      2, "nbridge app: the web process of window \(id) \(reason == 1 ? "ran out of memory" : "crashed")")
  }
}

// MARK: - C callbacks (on the loop thread, from GLib's main context)

/// A C pointer carried into the loop's isolation (the callbacks run on the loop thread).
private struct Handle: @unchecked Sendable {
  let pointer: UnsafeMutableRawPointer?
  init(_ pointer: UnsafeMutableRawPointer?) { self.pointer = pointer }
}

/// Runs `body` with the popup behind `data`, on the loop thread the callback came on.
private func withPopup<T: Sendable>(_ data: UnsafeMutableRawPointer?, _ body: @BridgeActor (PopupWindow) -> T) -> T {
  let handle = Handle(data)
  return BridgeActor.assumeIsolated { body(Unmanaged<PopupWindow>.fromOpaque(handle.pointer!).takeUnretainedValue()) }
}

private func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }

private let onPopupMessage: nbw_message_cb = { message, reply, data in
  let reply = Handle(reply)
  let message = text(message) ?? ""
  withPopup(data) { $0.message(message, reply: reply.pointer) }
}
private let onPopupWKBridgeMessage: nbw_message_cb = { message, _, data in
  let message = text(message) ?? ""
  withPopup(data) { $0.wkBridgeMessage(message) }
}
private let onPopupLoad: nbw_load_cb = { _, _ in }
private let onPopupTerminated: nbw_terminated_cb = { reason, data in
  withPopup(data) { $0.webProcessTerminated(reason: reason) }
}
private let onPopupDialog: nbw_dialog_cb = { type, message, dialog, data in
  let dialog = Handle(dialog)
  let message = text(message) ?? ""
  return withPopup(data) { $0.app.dialog(type: type, message: message, handle: dialog.pointer) ? 1 : 0 }
}
private let onPopupPolicy: nbw_policy_cb = { decision, _, _, uri, data in
  let uri = text(uri) ?? ""
  return withPopup(data) { $0.allows(decision: decision, uri: uri) ? 1 : 0 }
}
private let onPopupClose: nbw_signal_cb = { data in
  withPopup(data) { $0.close() }
}
private let onPopupPlace: nbw_window_event_cb = { kind, a, b, data in
  withPopup(data) { $0.app.windowEvent(id: $0.id, kind: kind, a: a, b: b) ? 1 : 0 }
}
private let onPopupDestroy: nbw_signal_cb = { data in
  withPopup(data) { $0.closed() }
}
