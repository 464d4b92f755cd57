import CWebKitGTK
import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// The app's window: a WebKitGTK view showing the page under nbridge's URI scheme, its
/// `nbridge` messages answered by the runtime. Lives on the loop thread; WebKitGTK's signals
/// arrive there too, dispatched from the GLib main context the loop iterates.
@BridgeActor
final class AppWindow: PageHost {
  static let scheme = "nbridge"

  let runtime: Runtime
  let options: WindowOptions
  let folder: PageFolder
  let origin: String
  let entryPath: String
  /// A secret only the app's own top frame knows: page messages without it do no work.
  let token = RandomID.hex(byteCount: 16)
  /// The manifest's `remote` origins, each with a token of its own (`AppWindow+Remote.swift`).
  var remotePages: [RemotePage] = []
  /// `--dev-url`: the dev server's origin and the token its pages' script holds.
  var devPage: (origin: String, token: String)?
  /// `--dev-url`: the next probe of the dev server, and the wait while it does not answer
  /// (`AppWindow+DevServer.swift`).
  var devProbe: Int?
  var devWait: DevServerWait?
  var window: UnsafeMutableRawPointer?
  var view: UnsafeMutableRawPointer?
  /// The WebKitWebContext, with the app's website data manager.
  var webContext: UnsafeMutableRawPointer?
  var hold: Int?
  var loads = 0
  var crashes = 0
  /// While `present()` waits for the window manager's focus (at most `presentWait` seconds): the
  /// timer, and the last "shown but not focused" report held back meanwhile.
  var presenting: (timer: Int, heldBack: Int32?)?
  static let presentWait: Duration = .seconds(1)
  /// The popup windows opened (`app.openWindow`), open or closed.
  var popups: [PopupWindow] = []
  /// `--watch`: the app folder's watcher, the debounce timer, and the files changed meanwhile.
  var watcher: FolderWatcher?
  var watchTimer: Int?
  var changed: [String] = []
  /// Whether the manifest grants `location` (`navigator.geolocation` asks it too).
  var allowsLocation = false
  /// The app's data dir (the saved window placement).
  var dataDirectory = ""
  /// The `window` service's observer of the windows' events, and whether it holds close requests.
  var windowObserver: (@BridgeActor (WindowEvent) -> Void)?
  var holdsClose = false
  /// The main window's placement as last seen, and the timer that saves it a moment after it changed.
  var placement: WindowPlacement?
  var placementSave: Int?
  /// The `location.watch` feeding `navigator.geolocation` while WebKit asks for positions.
  var geolocationWatch: HostCall?
  /// `nbridge test --page`: the test file this window runs (`PageTestSession`).
  var tests: PageTestSession?

  init(runtime: Runtime, options: WindowOptions, folder: PageFolder, host: String, entryPath: String) {
    self.runtime = runtime
    self.options = options
    self.folder = folder
    self.origin = "\(Self.scheme)://\(host)"
    self.entryPath = entryPath
  }

  /// Creates the window and loads the page.
  func open(dataDirectory: String) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    let context = nbw_context_new(dataDirectory + "/webkit", dataDirectory + "/webkit/cache")
    webContext = context
    nbw_context_register_scheme(context, Self.scheme, onSchemeRequest, me)
    let manager = nbw_content_manager_new()
    nbw_content_manager_add_script(manager, runtime.pageScript(token: token, testHooks: tests != nil), origin + "/*")
    addRemotePages(context: context, manager: manager)
    addDevServerPage(manager: manager)
    _ = nbw_content_manager_add_reply_handler(manager, "nbridge", onNBridgeMessage, me)
    _ = nbw_content_manager_add_handler(manager, "WKBridge", onWKBridgeMessage, me)
    if tests != nil { _ = nbw_content_manager_add_handler(manager, "nbridgeTest", onTestMessage, me) }
    view = nbw_view_new(context, manager, onLoadChanged, onTerminated, onDialog, onPolicy, onClose, me)
    answerGeolocation(context: context, view: view)
    window = nbw_window_new(
      options.title, Int32(options.width), Int32(options.height), options.resizable ? 1 : 0, onDestroy, me)
    self.dataDirectory = dataDirectory
    prepareWindow()
    nbw_window_watch_state(window, onWindowState, me)
    nbw_window_watch_place(window, onMainPlace, me)
    nbw_window_show(window, view)
    hold = runtime.holdRun(reason: "window")
    runtime.lifecycle.presentHandler = { [weak self] in self?.present() }
    runtime.page = self
    if let tests {
      tests.window = self
      tests.load(true)
    } else {
      nbw_view_load(view, options.devURL ?? origin + entryPath)
    }
    if options.watch { watchFolder() }
    if options.devURL != nil {
      nbw_view_watch_load_failed(view, onLoadFailed, me)
      followDevServer()
    }
    if options.inspectElement || options.inspect { nbw_view_set_developer_extras(view, 1) }
    if options.inspect { nbw_view_show_inspector(view) }
  }

  // MARK: PageHost

  func evaluateInPage(_ script: String) {
    guard let view else { return }
    var script = script
    script.withUTF8 { nbw_view_evaluate(view, UnsafeRawPointer($0.baseAddress)?.assumingMemoryBound(to: CChar.self), $0.count) }
  }

  // MARK: Events

  func loadChanged(_ event: Int32) {
    if event == 2 {  // committed: a new document
      runtime.pageReplaced()
      return
    }
    guard event == 3 else { return }  // finished
    if let tests { return tests.loaded() }
    loads += 1
    guard loads == 1 else { return }
    if let script = options.script {
      runScript(script)
    } else if let screenshot = options.screenshot {
      takeScreenshot(screenshot)
    }
  }

  /// WebKit's error for an async script whose Promise was collected unsettled.
  static let unreachableScript = "Completion handler for function call is no longer reachable"

  func runScript(_ path: String) {
    guard let source = PageFolder.contents(of: path) else {
      runtime.report(2, "nbridge app: cannot read --script \(path): \(String(cString: strerror(errno)))")
      return runtime.exitPage(ExitStatus.usage)
    }
    let me = Unmanaged.passUnretained(self).toOpaque()
    // Named inside the app's origin, so errors thrown from it are not muted to "Script error.".
    let name = origin + "/--script/" + (path.split(separator: "/").last.map(String.init) ?? "script.js")
    nbw_view_call_async(view, String(decoding: source, as: UTF8.self), name, onScriptResult, me)
  }

  func scriptSettled(json: String?, error: String?) {
    // WebKit gives up on a script whose Promise the collector found nothing can settle (`await new
    // Promise(() => {})`, a script that means to keep the window open): it never ends, so the app
    // goes on as for any script still waiting.
    if error == Self.unreachableScript { return }
    if let error {
      runtime.report(2, "nbridge app: --script failed: \(error)")
      return runtime.exitPage(ExitStatus.uncaught)
    }
    if let json { runtime.report(1, json) }
    if let screenshot = options.screenshot {
      takeScreenshot(screenshot)
    } else if options.exitAfterScript {
      runtime.exitPage(ExitStatus.success)
    }
  }

  func takeScreenshot(_ path: String) {
    nbw_view_snapshot(view, path, onSnapshot, Unmanaged.passUnretained(self).toOpaque())
  }

  func snapshotWritten(width: Int32, height: Int32, error: String?) {
    if let error {
      runtime.report(2, "nbridge app: --screenshot \(options.screenshot ?? ""): \(error)")
      return runtime.exitPage(ExitStatus.uncaught)
    }
    runtime.report(2, "nbridge app: wrote \(options.screenshot ?? "") (\(width)x\(height))")
    runtime.exitPage(ExitStatus.success)
  }

  /// alert/confirm/prompt: GTK's dialogs, or under automation (and in `nbridge test --page`) a
  /// line on stdout and an answer at once.
  func dialog(type: Int32, message: String, handle: UnsafeMutableRawPointer?) -> Bool {
    guard options.automated || tests != nil else { return false }
    let names = ["alert", "confirm", "prompt", "beforeunload"]
    runtime.report(1, "\(names[Int(min(max(type, 0), 3))]): \(message)")
    nbw_dialog_answer(handle, type == 3 ? 1 : 0, nil)
    return true
  }

  /// The window moved the app's state: focused → active, shown but not focused → inactive,
  /// minimized or hidden → background.
  func windowStateChanged(_ code: Int32) {
    guard window != nil else { return }
    // A window being brought forward is shown (restored, raised) before it is focused: that
    // moment is not a move to inactive. Held back until the focus comes or the wait ends.
    if let wait = presenting {
      if code == 1 { return presenting = (wait.timer, code) }
      runtime.cancelTimer(wait.timer)  // focused, or minimized meanwhile: the wait is over
      presenting = nil
    }
    let state: AppState = code == 0 ? .active : code == 1 ? .inactive : .background
    if state != runtime.lifecycle.state { runtime.lifecycle.move(to: state) }
  }

  /// Shows the window in front of the others and focuses it (a URL handed to the running app).
  func present() {
    guard let window else { return }
    if let wait = presenting { runtime.cancelTimer(wait.timer) }
    let timer = runtime.addTimer(after: Self.presentWait, repeating: nil) { [weak self] in
      // The window manager did not focus it (focus-stealing prevention): the state says so.
      guard let self else { return }
      let heldBack = self.presenting?.heldBack
      self.presenting = nil
      if let heldBack { self.windowStateChanged(heldBack) }
    }
    presenting = (timer, nil)
    nbw_window_present(window)
  }

  func closed() {
    savePlacement()
    runtime.lifecycle.presentHandler = nil
    window = nil
    view = nil
    runtime.page = nil
    if let hold { runtime.releaseRun(hold) }
    hold = nil
    runtime.exitPage(ExitStatus.success)
  }

  func webProcessTerminated(reason: Int32) {
    guard reason != 2 else { return }  // ended through the API: not a crash
    if let tests { return tests.crashed() }
    crashes += 1
    let what = reason == 1 ? "ran out of memory" : "crashed"
    if loads == 0 && crashes == 1 {
      return WebViewFallback.relaunch(because: "the web process \(what) at start", runtime: runtime)
    }
    guard crashes == 1 else {
      runtime.report(2, "nbridge app: the web process \(what) again; giving up")
      return runtime.exitPage(ExitStatus.uncaught)
    }
    runtime.report(2, "nbridge app: the web process \(what); reloading the page")
    nbw_view_reload(view)
  }

  func message(_ text: String, reply: UnsafeMutableRawPointer?) {
    guard let reply else { return }
    guard let (body, permissions) = sender(of: text) else {
      return nbw_reply(reply, "0permission_denied\nnbridge: this frame is not the app's own page")
    }
    runtime.pageMessage(body, permissions: permissions) { answer in nbw_reply(reply, answer) }
  }

  func wkBridgeMessage(_ text: String) {
    guard let (body, permissions) = sender(of: text) else {
      runtime.report(2, "nbridge app: ignored a WKBridge message from a frame that is not the app's own page")
      return
    }
    runtime.wkBridgeMessage(String(body), permissions: permissions)
  }
}

// MARK: - C callbacks (on the loop thread, from GLib's main context)

/// A C pointer carried into the loop's isolation (the callbacks run on the loop thread).
private struct Handle: @unchecked Sendable {
  let pointer: UnsafeMutableRawPointer?
  init(_ pointer: UnsafeMutableRawPointer?) { self.pointer = pointer }
}

/// Runs `body` with the window behind `data`, on the loop thread the callback came on.
private func withWindow<T: Sendable>(_ data: UnsafeMutableRawPointer?, _ body: @BridgeActor (AppWindow) -> T) -> T {
  let handle = Handle(data)
  return BridgeActor.assumeIsolated { body(Unmanaged<AppWindow>.fromOpaque(handle.pointer!).takeUnretainedValue()) }
}

private func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }

private let onSchemeRequest: nbw_scheme_cb = { request, uri, path, data in
  let request = Handle(request), uri = text(uri) ?? "", path = text(path) ?? "/"
  withWindow(data) { $0.serve(request.pointer, uri: uri, path: path) }
}
private let onNBridgeMessage: nbw_message_cb = { message, reply, data in
  let reply = Handle(reply), message = text(message) ?? ""
  withWindow(data) { $0.message(message, reply: reply.pointer) }
}
private let onWKBridgeMessage: nbw_message_cb = { message, _, data in
  let message = text(message) ?? ""
  withWindow(data) { $0.wkBridgeMessage(message) }
}
private let onTestMessage: nbw_message_cb = { message, _, data in
  let message = text(message) ?? ""
  withWindow(data) { $0.tests?.message(message) }
}
private let onLoadChanged: nbw_load_cb = { event, data in
  withWindow(data) { $0.loadChanged(event) }
}
private let onLoadFailed: nbw_load_failed_cb = { uri, _, data in
  let uri = text(uri) ?? ""
  return withWindow(data) { $0.loadFailed(uri: uri) ? 1 : 0 }
}
private let onTerminated: nbw_terminated_cb = { reason, data in
  withWindow(data) { $0.webProcessTerminated(reason: reason) }
}
private let onDialog: nbw_dialog_cb = { type, message, dialog, data in
  let dialog = Handle(dialog), message = text(message) ?? ""
  return withWindow(data) { $0.dialog(type: type, message: message, handle: dialog.pointer) ? 1 : 0 }
}
private let onPolicy: nbw_policy_cb = { decision, navigation, gesture, uri, data in
  let uri = text(uri) ?? ""
  return withWindow(data) {
    $0.allows(decision: decision, navigation: navigation, userGesture: gesture != 0, uri: uri) ? 1 : 0
  }
}
private let onClose: nbw_signal_cb = { data in
  withWindow(data) { window in
    if let handle = window.window { nbw_window_destroy(handle) }
  }
}
private let onWindowState: nbw_state_cb = { state, data in
  withWindow(data) { $0.windowStateChanged(state) }
}
private let onMainPlace: nbw_window_event_cb = { kind, a, b, data in
  withWindow(data) { $0.windowEvent(id: AppWindow.mainID, kind: kind, a: a, b: b) ? 1 : 0 }
}
private let onDestroy: nbw_signal_cb = { data in
  withWindow(data) { $0.closed() }
}
private let onScriptResult: nbw_result_cb = { json, error, data in
  let json = text(json), error = text(error)
  withWindow(data) { $0.scriptSettled(json: json, error: error) }
}
private let onSnapshot: nbw_snapshot_cb = { width, height, error, data in
  let error = text(error)
  withWindow(data) { $0.snapshotWritten(width: width, height: height, error: error) }
}
