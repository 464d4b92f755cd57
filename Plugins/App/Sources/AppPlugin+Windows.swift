import NBridgePlugin

/// Popup web windows (NBridgeKit's `PopupWebWindow`): `openWindow` shows a URL in a second
/// window over the app's, `closeWindow` closes it, and `windowClosed` says when one closed. The
/// window is `PluginContext.window`; a headless run has none (`unavailable`).
extension AppPlugin {
  nonisolated static let windowShape = Shape.named("AppWindowId", .fields(["id": .string]))

  nonisolated static let windowActions: [Action<AppPlugin>] = [
    Action(
      "openWindow", options: .fields(["url": .string, "title?": .string, "navigation?": .boolean]),
      result: windowShape,
      summary:
        "Opens a popup web window with a title bar (back/forward, close); an app-origin page there gets nbridge, others none."
    ) { (plugin, options: OpenWindowOptions, _) in
      guard let window = plugin.context.window else {
        throw BridgeError.unavailable("openWindow needs the app's window (nbridge app); this run has no page")
      }
      let id = try window.openWindow(url: options.url, title: options.title, navigation: options.navigation) {
        [weak plugin] id in plugin?.context.emit("windowClosed", WindowID(id: id))
      }
      return WindowID(id: id)
    },
    Action(
      "closeWindow",
      summary: "Closes a window openWindow opened (windowClosed follows); not_found for an unknown id."
    ) { (plugin, options: WindowID, _) in
      guard let window = plugin.context.window else {
        throw BridgeError.unavailable("closeWindow needs the app's window (nbridge app); this run has no page")
      }
      try window.closeWindow(id: options.id)
      return JSONValue.null
    },
  ]

  nonisolated static let windowEvents: [EventSpec] = [
    EventSpec(
      "windowClosed", payload: windowShape, summary: "A window openWindow opened closed (the user, or closeWindow).")
  ]
}

/// `openWindow`'s options: `{url, title?, navigation?}` (navigation defaults to true). The url is
/// held to `openURL`'s limits; the title to 1 KiB, without control characters.
struct OpenWindowOptions: Decodable {
  /// The longest title, in bytes of UTF-8.
  static let maxTitleBytes = 1024
  let url: String
  let title: String?
  let navigation: Bool

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    // A wrong type is invalid_parameter naming the field (the bridge's decoder says so).
    let title = try fields.decodeIfPresent(String.self, forKey: .title)
    if let title {
      _ = try BridgeLimits.text(title, field: "title", maxBytes: Self.maxTitleBytes)
      if title.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
        throw BridgeError.invalidParameter("title", "must not contain control characters")
      }
    }
    self.title = title
    navigation = try fields.decodeIfPresent(Bool.self, forKey: .navigation) ?? true
    url = try URLOptions(from: decoder).url
  }

  private enum Field: String, CodingKey { case url, title, navigation }
}

/// A popup window's id: `openWindow`'s result, `closeWindow`'s options, `windowClosed`'s payload.
struct WindowID: Codable {
  let id: String

  init(id: String) { self.id = id }

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    guard let id = try? fields.decode(String.self, forKey: .id) else {
      throw BridgeError.invalidParameter("id", "must be a string")
    }
    self.id = id
  }

  private enum Field: String, CodingKey { case id }
}
