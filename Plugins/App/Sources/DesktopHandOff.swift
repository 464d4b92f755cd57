import NBridgePlugin

/// What `openBrowser`, `goSettings` and `share` hand to the desktop: the program and its
/// arguments, worked out from the options alone (the plugin runs them).
enum DesktopHandOff {
  /// `gnome-control-center`'s panel for a `goSettings` type: the Apps panel on the app's own
  /// page (its argument is the desktop id without `.desktop`, as `nbridge install` names the
  /// entry), the notifications panel, the location panel.
  static func settings(type: SettingsType, appID: String) -> [String] {
    switch type {
    case .normal: ["gnome-control-center", "applications", appID]
    case .push: ["gnome-control-center", "notifications"]
    case .location: ["gnome-control-center", "location"]
    }
  }

  /// `xdg-email` with a new message: the title as the subject, the text and then the URL (on a
  /// line of its own) as the body, and no recipient, so the composer asks for one.
  static func share(_ options: ShareOptions) -> [String] {
    var arguments = ["xdg-email"]
    if let title = options.title, !title.isEmpty { arguments += ["--subject", title] }
    let body = [options.text, options.url].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n")
    arguments += ["--body", body]
    return arguments
  }

  /// Why the run may not start a desktop program, or nil when it may: `nbridge test` without
  /// `--desktop`, or no display.
  static func missingDesktop(headless: Bool, environment: [String: String]) -> String? {
    if headless { return "the run is headless (nbridge test without --desktop)" }
    if environment["DISPLAY"] == nil && environment["WAYLAND_DISPLAY"] == nil {
      return "there is no desktop session (DISPLAY and WAYLAND_DISPLAY are unset)"
    }
    return nil
  }
}

/// `goSettings`'s `type`: which settings page.
enum SettingsType: String, Decodable {
  /// The app's own page (its permissions, notifications and defaults).
  case normal
  /// The notification settings.
  case push
  /// The location settings (NBridgeKit's `gps` is taken as this).
  case location
}

/// `goSettings({type?})`: `normal` when omitted.
struct SettingsOptions: Decodable {
  let type: SettingsType

  init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer(), single.decodeNil() {
      type = .normal
      return
    }
    let fields = try decoder.container(keyedBy: Field.self)
    guard fields.contains(.type), try !fields.decodeNil(forKey: .type) else {
      type = .normal
      return
    }
    guard let name = try? fields.decode(String.self, forKey: .type) else {
      throw BridgeError.invalidParameter("type", "must be \"normal\", \"push\" or \"location\"")
    }
    guard let type = SettingsType(rawValue: name == "gps" ? "location" : name) else {
      throw BridgeError.invalidParameter("type", "must be \"normal\", \"push\" or \"location\" (got \(QuotedValue.text(name)))")
    }
    self.type = type
  }

  private enum Field: String, CodingKey { case type }
}

/// `share({text, url?, title?})`: handed to the mail composer as one `mailto:` argument, so
/// the text is at most 16 KiB, the URL 32 KiB and the title (the subject) 1 KiB of UTF-8.
struct ShareOptions: Decodable {
  /// The longest text, in bytes of UTF-8 (percent-encoded, it stays under an argument's 128 KiB).
  static let maxTextBytes = 16 * 1024
  /// The longest title, in bytes of UTF-8.
  static let maxTitleBytes = 1024
  let text: String
  let url: String?
  let title: String?

  init(text: String, url: String? = nil, title: String? = nil) {
    self.text = text
    self.url = url
    self.title = title
  }

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    guard let text = try? fields.decode(String.self, forKey: .text) else {
      throw BridgeError.invalidParameter("text", "must be a string")
    }
    self.text = text
    func optional(_ field: Field) throws -> String? {
      guard fields.contains(field), try !fields.decodeNil(forKey: field) else { return nil }
      guard let value = try? fields.decode(String.self, forKey: field) else {
        throw BridgeError.invalidParameter(field.rawValue, "must be a string")
      }
      return value
    }
    url = try optional(.url)
    title = try optional(.title)
    _ = try BridgeLimits.text(text, field: "text", maxBytes: Self.maxTextBytes)
    if let url { _ = try BridgeLimits.text(url, field: "url", maxBytes: URLOptions.maxBytes) }
    if let title { _ = try BridgeLimits.text(title, field: "title", maxBytes: Self.maxTitleBytes) }
  }

  private enum Field: String, CodingKey { case text, url, title }
}
