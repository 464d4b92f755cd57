import NBridgePlugin

/// The window's actions: the setters (each on `id`, the main window by default) and the rest.
extension WindowPlugin {
  nonisolated static let idField: KeyValuePairs<String, Shape> = ["id?": .string]
  nonisolated static let stateShape = Shape.named(
    "WindowState",
    .fields([
      "x": .integer, "y": .integer, "width": .integer, "height": .integer, "maximized": .boolean,
      "fullscreen": .boolean, "focused": .boolean, "visible": .boolean,
    ]))
  nonisolated static let idShape = Shape.named("WindowId", .fields(["id": .string]))

  /// An action that changes window `id` (the main one by default) as `change` says.
  nonisolated static func setter<O: WindowTargeted>(
    _ name: String, options: Shape, summary: String, _ change: @escaping @Sendable (O) -> WindowChange
  ) -> Action<WindowPlugin> {
    Action(name, options: options, summary: summary) { (plugin, options: O, _) in
      try plugin.host().changeWindow(id: options.id, change(options))
      return JSONValue.null
    }
  }

  nonisolated static let setterActions: [Action<WindowPlugin>] = [
    setter(
      "setTitle", options: .fields(["title": .string, "id?": .string]), summary: "Sets the window's title."
    ) { (o: TitleOptions) in .title(o.title) },
    setter(
      "setSize", options: .fields(["width": .integer, "height": .integer, "id?": .string]),
      summary: "Resizes the window's content (pixels, 100 to 16384)."
    ) { (o: SizeOptions) in .size(width: o.width, height: o.height) },
    setter(
      "setMinSize", options: .fields(["width": .integer, "height": .integer, "id?": .string]),
      summary: "The smallest size the user may give the window's content (pixels, 1 to 16384)."
    ) { (o: MinSizeOptions) in .minSize(width: o.size.width, height: o.size.height) },
    setter("center", options: .fields(idField), summary: "Moves the window to the middle of its monitor's work area.") {
      (_: WindowTarget) in .center
    },
    setter(
      "setPosition", options: .fields(["x": .integer, "y": .integer, "id?": .string]),
      summary: "Moves the window's frame so its top-left corner is at (x, y) on the screen."
    ) { (o: PositionOptions) in .position(x: o.x, y: o.y) },
    setter("minimize", options: .fields(idField), summary: "Minimizes the window.") { (_: WindowTarget) in .minimize },
    setter("maximize", options: .fields(idField), summary: "Maximizes the window.") { (_: WindowTarget) in .maximize },
    setter("unmaximize", options: .fields(idField), summary: "Leaves the maximized state.") {
      (_: WindowTarget) in .unmaximize
    },
    setter(
      "setFullscreen", options: .fields(["fullscreen": .boolean, "id?": .string]),
      summary: "Enters (true) or leaves (false) full screen."
    ) { (o: FullscreenOptions) in .fullscreen(o.value) },
    setter(
      "setAlwaysOnTop", options: .fields(["alwaysOnTop": .boolean, "id?": .string]),
      summary: "Keeps the window above the others (true) or not (false)."
    ) { (o: AlwaysOnTopOptions) in .alwaysOnTop(o.value) },
    setter("show", options: .fields(idField), summary: "Shows the window (hidden or minimized).") {
      (_: WindowTarget) in .show
    },
    setter("hide", options: .fields(idField), summary: "Hides the window; show brings it back.") {
      (_: WindowTarget) in .hide
    },
  ]

  nonisolated static let windowActions: [Action<WindowPlugin>] = [
    Action(
      "getState", result: stateShape,
      summary: "Where the window is (its frame's top-left corner, its content's size) and its state."
    ) { (plugin, options: WindowTarget, _) in
      try plugin.host().windowState(id: options.id)
    },
    Action(
      "create",
      result: idShape,
      summary: "Opens another window of the app showing url (a path of the app, or a URL); its page gets nbridge."
    ) { (plugin, options: CreateOptions, _) in
      WindowID(
        id: try plugin.host().createWindow(
          url: options.url, title: options.title, width: options.width, height: options.height))
    },
    Action(
      "close",
      summary: "Closes the window (main: the app's, which ends the run) without closeRequested."
    ) { (plugin, options: WindowTarget, _) in
      try plugin.host().closeWindow(id: options.id)
      return JSONValue.null
    },
    Action(
      "list", result: .array(.named("WindowSummary", .fields(["id": .string, "url": .string, "title": .string]))),
      summary: "The app's open windows: main first."
    ) { (plugin, _: NoOptions, _) in
      try plugin.host().windowList()
    },
    Action(
      "keepOpen", result: .boolean,
      summary:
        "Keeps a window open whose closeRequested listeners are running; true when a close request was refused."
    ) { (plugin, options: KeepOpenOptions, _) in
      _ = try plugin.host()
      return plugin.keepOpen(options)
    },
  ]

  nonisolated static let events: [EventSpec] = [
    EventSpec(
      "resized", payload: .named("WindowSize", .fields(["id": .string, "width": .integer, "height": .integer])),
      summary: "A window's content changed size."),
    EventSpec(
      "moved", payload: .named("WindowPosition", .fields(["id": .string, "x": .integer, "y": .integer])),
      summary: "A window's frame moved."),
    EventSpec("focus", payload: idShape, summary: "A window got the keyboard focus."),
    EventSpec("blur", payload: idShape, summary: "A window lost the keyboard focus."),
    EventSpec(
      "closeRequested", payload: idShape,
      summary: "The user asked to close a window: return false (or call keepOpen) in the listener to keep it open.",
      answeredBy: "keepOpen"),
    EventSpec("closed", payload: idShape, summary: "A window other than the main one closed."),
  ]
}
