import CWebKitGTK
import NBridgePlugin

/// The `window` service's part of the window (`WindowHost`): the app's windows by id (`main`,
/// and the ids of `createWindow`'s and `openWindow`'s), their place and state, changes asked of
/// the window manager, and their events.
extension AppWindow {
  static let mainID = "main"

  /// The GTK window `id` names, while it is open.
  func gtkWindow(_ id: String) -> UnsafeMutableRawPointer? {
    if id == Self.mainID { return window }
    return popups.first { $0.id == id }?.window
  }

  func openWindow(_ id: String) throws(BridgeError) -> UnsafeMutableRawPointer {
    guard let handle = gtkWindow(id) else { throw .notFound("no open window with id \"\(id)\"") }
    return handle
  }

  func windowList() -> [WindowSummary] {
    var list: [WindowSummary] = []
    if let window { list.append(summary(Self.mainID, window: window, view: view)) }
    for popup in popups {
      if let handle = popup.window { list.append(summary(popup.id, window: handle, view: popup.view)) }
    }
    return list
  }

  private func summary(_ id: String, window: UnsafeMutableRawPointer, view: UnsafeMutableRawPointer?) -> WindowSummary {
    WindowSummary(
      id: id, url: view.flatMap { nbw_view_uri($0) }.map { String(cString: $0) } ?? "",
      title: nbw_window_title(window).map { String(cString: $0) } ?? "")
  }

  func windowState(id: String) throws(BridgeError) -> WindowState {
    let handle = try openWindow(id)
    var place: [Int32] = [0, 0, 0, 0]
    nbw_window_place(handle, &place)
    let flags = Int(nbw_window_flags(handle))
    return WindowState(
      x: Int(place[0]), y: Int(place[1]), width: Int(place[2]), height: Int(place[3]),
      maximized: flags & NBW_FLAG_MAXIMIZED != 0, fullscreen: flags & NBW_FLAG_FULLSCREEN != 0,
      focused: flags & NBW_FLAG_FOCUSED != 0, visible: flags & NBW_FLAG_VISIBLE != 0)
  }

  func changeWindow(id: String, _ change: WindowChange) throws(BridgeError) {
    let handle = try openWindow(id)
    func apply(_ what: Int, _ a: Int = 0, _ b: Int = 0) {
      nbw_window_change(handle, Int32(what), Int32(a), Int32(b), nil)
    }
    switch change {
    case .title(let title): nbw_window_change(handle, Int32(NBW_CHANGE_TITLE), 0, 0, title)
    case .size(let width, let height): apply(NBW_CHANGE_SIZE, width, height)
    case .minSize(let width, let height): apply(NBW_CHANGE_MIN_SIZE, width, height)
    case .center: apply(NBW_CHANGE_CENTER)
    case .position(let x, let y): apply(NBW_CHANGE_POSITION, x, y)
    case .minimize: apply(NBW_CHANGE_MINIMIZE)
    case .maximize: apply(NBW_CHANGE_MAXIMIZE)
    case .unmaximize: apply(NBW_CHANGE_UNMAXIMIZE)
    case .fullscreen(let on): apply(NBW_CHANGE_FULLSCREEN, on ? 1 : 0)
    case .alwaysOnTop(let on): apply(NBW_CHANGE_ALWAYS_ON_TOP, on ? 1 : 0)
    case .show: apply(NBW_CHANGE_SHOW)
    case .hide: apply(NBW_CHANGE_HIDE)
    }
  }

  func createWindow(url: String, title: String?, width: Int?, height: Int?) throws(BridgeError) -> String {
    guard window != nil, webContext != nil else { throw .unavailable("the app's window is closed") }
    let scheme = url.prefix { $0 != ":" }
    let isURL = url.contains(":") && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    let resolved: String
    if isURL {
      resolved = url
    } else {
      guard !url.hasPrefix("//"), !url.contains("\\") else {
        throw .invalidParameter("url", "must be a path of the app (settings.html) or a URL, got \"\(url)\"")
      }
      resolved = origin + (url.hasPrefix("/") ? url : "/" + url)
    }
    let lowered = resolved.prefix { $0 != ":" }.lowercased()
    guard lowered == "http" || lowered == "https" || resolved.hasPrefix(origin + "/") else {
      throw .invalidParameter(
        "url", "must be a path of the app, a URL of its origin (\(origin)/...) or an http(s) URL, got \"\(url)\"")
    }
    let popup = PopupWindow(id: "window-\(popups.count + 1)", app: self) { _ in }
    popups.append(popup)
    popup.open(
      url: resolved, title: title ?? options.title, width: width ?? options.width, height: height ?? options.height)
    return popup.id
  }

  func observeWindows(holdsClose: Bool, _ observer: (@BridgeActor (WindowEvent) -> Void)?) {
    windowObserver = observer
    self.holdsClose = holdsClose && observer != nil
  }

  func afterPageScripts(_ done: @escaping @BridgeActor () -> Void) {
    guard let view else { return done() }
    nbw_view_after_scripts(view, onPageSettled, Unmanaged.passRetained(Settled(done)).toOpaque())
  }

  /// A report of `nbw_window_watch_place` about window `id`; true when a close request is held.
  func windowEvent(id: String, kind: Int32, a: Int32, b: Int32) -> Bool {
    if id == Self.mainID { notePlacement(kind: Int(kind), a: Int(a), b: Int(b)) }
    let event: WindowEvent
    switch Int(kind) {
    case NBW_WINDOW_RESIZED: event = .resized(id: id, width: Int(a), height: Int(b))
    case NBW_WINDOW_MOVED: event = .moved(id: id, x: Int(a), y: Int(b))
    case NBW_WINDOW_FOCUS: event = .focus(id: id)
    case NBW_WINDOW_BLUR: event = .blur(id: id)
    case NBW_WINDOW_CLOSE_REQUESTED:
      guard holdsClose, let windowObserver else { return false }
      windowObserver(.closeRequested(id: id))
      return true
    default: return false
    }
    windowObserver?(event)
    return false
  }

  // MARK: The main window's placement

  /// Applies the manifest's decorations and minimum size, and the placement saved at the last
  /// launch (unless the manifest turns that off), before the window is shown.
  func prepareWindow() {
    guard let window else { return }
    if !options.decorations { nbw_window_change(window, Int32(NBW_CHANGE_DECORATED), 0, 0, nil) }
    if options.minWidth != nil || options.minHeight != nil {
      nbw_window_change(
        window, Int32(NBW_CHANGE_MIN_SIZE), Int32(options.minWidth ?? 1), Int32(options.minHeight ?? 1), nil)
    }
    guard options.remembersState, let saved = WindowPlacement.load(from: dataDirectory) else { return }
    placement = saved
    nbw_window_change(window, Int32(NBW_CHANGE_SIZE), Int32(saved.width), Int32(saved.height), nil)
    if nbw_point_on_screen(window, Int32(saved.x), Int32(saved.y)) != 0 {
      nbw_window_change(window, Int32(NBW_CHANGE_POSITION), Int32(saved.x), Int32(saved.y), nil)
    }
    if saved.maximized { nbw_window_change(window, Int32(NBW_CHANGE_MAXIMIZE), 0, 0, nil) }
    if saved.fullscreen { nbw_window_change(window, Int32(NBW_CHANGE_FULLSCREEN), 1, 0, nil) }
  }

  /// Follows the main window's place: size and position only while it is neither maximized nor
  /// full screen (they are what it returns to); saved half a second after the last change.
  private func notePlacement(kind: Int, a: Int, b: Int) {
    guard options.remembersState, let window else { return }
    var place: [Int32] = [0, 0, 0, 0]
    nbw_window_place(window, &place)
    let flags = Int(nbw_window_flags(window))
    var next =
      placement ?? WindowPlacement(x: Int(place[0]), y: Int(place[1]), width: Int(place[2]), height: Int(place[3]))
    next.maximized = flags & NBW_FLAG_MAXIMIZED != 0
    next.fullscreen = flags & NBW_FLAG_FULLSCREEN != 0
    if !next.maximized && !next.fullscreen {
      if kind == NBW_WINDOW_RESIZED { (next.width, next.height) = (a, b) }
      if kind == NBW_WINDOW_MOVED { (next.x, next.y) = (a, b) }
    }
    guard next != placement else { return }
    placement = next
    if let placementSave { runtime.cancelTimer(placementSave) }
    placementSave = runtime.addTimer(after: .milliseconds(500), repeating: nil) { [weak self] in
      self?.placementSave = nil
      self?.savePlacement()
    }
  }

  /// Writes the main window's placement now (when it closes, and after it changed).
  func savePlacement() {
    if let placementSave { runtime.cancelTimer(placementSave) }
    placementSave = nil
    guard options.remembersState, let placement else { return }
    do {
      try placement.save(in: dataDirectory)
    } catch {
      runtime.report(2, "nbridge app: cannot save the window's place in \(dataDirectory): \(error)")
    }
  }
}

/// What `afterPageScripts` runs once the page answered.
@BridgeActor
private final class Settled {
  let done: @BridgeActor () -> Void
  init(_ done: @escaping @BridgeActor () -> Void) { self.done = done }
}

private let onPageSettled: nbw_signal_cb = { data in
  nonisolated(unsafe) let data = data
  BridgeActor.assumeIsolated { Unmanaged<Settled>.fromOpaque(data!).takeRetainedValue().done() }
}
