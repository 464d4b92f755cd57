/// The app's `nbridge.json` (or the defaults used without one).
public struct AppManifest: Sendable, Hashable, Codable {
  /// Reverse-DNS id; names the data dir.
  public var id: String
  /// Display name.
  public var name: String
  /// Version string.
  public var version: String
  /// Build string.
  public var build: String
  /// Services the app may use; nil means every registered service.
  public var permissions: [String]?

  /// The window of `nbridge app` (`window` in `nbridge.json`).
  public var window: WindowSettings?
  /// Origins the page may navigate to inside the window (`allowNavigation`).
  public var allowNavigation: [String]?
  /// What `nbridge.log` prints and forwards (`log` in `nbridge.json`).
  public var log: LogSettings?

  /// A manifest.
  public init(id: String, name: String, version: String = "0.0.0", build: String = "0", permissions: [String]? = nil)
  {
    self.id = id
    self.name = name
    self.version = version
    self.build = build
    self.permissions = permissions
  }
}

/// `window` in `nbridge.json`: how `nbridge app` opens the app's window.
public struct WindowSettings: Sendable, Hashable, Codable {
  /// The window's title (default: the app's name).
  public var title: String?
  /// The window's width and height in pixels (default 1024 by 768).
  public var width: Int?
  public var height: Int?
  /// Whether the user may resize it (default true).
  public var resizable: Bool?

  /// Settings; nil fields take the defaults.
  public init(title: String? = nil, width: Int? = nil, height: Int? = nil, resizable: Bool? = nil) {
    self.title = title
    self.width = width
    self.height = height
    self.resizable = resizable
  }
}

/// `log` in `nbridge.json`: `{"level": "info"}`, the least level `nbridge.log` prints and forwards.
public struct LogSettings: Sendable, Hashable, Codable {
  /// The minimum level (default: debug, everything); `--log-level` overrides it.
  public var level: LogLevel?

  /// Settings; a nil level takes the default.
  public init(level: LogLevel? = nil) { self.level = level }
}
