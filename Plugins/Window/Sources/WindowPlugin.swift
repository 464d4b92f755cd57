import NBridgePlugin

/// `nbridge.window`: the app's windows in `nbridge app`: title, size, place and state, more
/// windows of the app, and their events. A headless run has no window: every action answers
/// `unavailable`.
@BridgeActor
public final class WindowPlugin: Plugin {
  /// The service name, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "window")
  /// The setters, `getState`, `create`, `close`, `list` and `keepOpen`; the windows' events.
  public nonisolated static let definition = PluginDefinition<WindowPlugin>(
    declaration,
    summary: "The app's windows (nbridge app): title, size, place and state, more windows, and their events.",
    actions: setterActions + windowActions,
    events: events)

  /// How long a close request waits for the page's answer when the page does not answer (hung).
  static let closeAnswerLimit: Duration = .seconds(2)

  let context: PluginContext
  /// Close requests the page is deciding on, by window id.
  var pendingCloses: [String: PendingClose] = [:]

  /// Follows the windows' events when the run has a window.
  public init(context: PluginContext) throws {
    self.context = context
    observe()
  }

  /// Close requests are held while `closeRequested` has a listener.
  public func listenersChanged(event: String, count: Int) {
    if event == "closeRequested" { observe() }
  }

  /// Stops following the windows.
  public func stop() async {
    context.window?.observeWindows(holdsClose: false, nil)
  }

  private func observe() {
    let holds = context.listenerCount("closeRequested") > 0
    context.window?.observeWindows(holdsClose: holds) { [weak self] event in self?.windowEvent(event) }
  }

  /// The window, or `unavailable`.
  func host() throws(BridgeError) -> any WindowHost {
    guard let window = context.window else {
      throw .unavailable("this run has no window (nbridge app has one; nbridge run and nbridge test do not)")
    }
    return window
  }

  private func windowEvent(_ event: WindowEvent) {
    switch event {
    case .resized(let id, let width, let height):
      context.emit("resized", WindowSize(id: id, width: width, height: height))
    case .moved(let id, let x, let y): context.emit("moved", WindowPosition(id: id, x: x, y: y))
    case .focus(let id): context.emit("focus", WindowID(id: id))
    case .blur(let id): context.emit("blur", WindowID(id: id))
    case .closed(let id): context.emit("closed", WindowID(id: id))
    case .closeRequested(let id): closeRequested(id)
    }
  }
}
