/// The app's `nbridge.json` (or the defaults used without one).
public struct AppManifest: Sendable, Hashable, Codable {
  /// Reverse-DNS id; names the data dir.
  public var id: String
  /// The name people see (window titles, `appInfo().name`); the id when the manifest has none.
  public var name: String
  /// The app's version as its author writes it, such as `1.2.0` (default `0.0.0`).
  public var version: String
  /// The app's build number or label, such as `42` (default `0`).
  public var build: String
  /// One line saying what the app does (`description`): its packages' summary and the desktop's comment.
  public var description: String?
  /// Services the app may use; nil means every registered service.
  public var permissions: [String]?

  /// The window of `nbridge app` (`window` in `nbridge.json`).
  public var window: WindowSettings?
  /// Origins the page may navigate to inside the window (`allowNavigation`).
  public var allowNavigation: [String]?
  /// `https` origins whose pages get `nbridge` in the window, each with its own subset of the
  /// app's permissions (`remote`).
  public var remote: [RemoteOrigin]?
  /// The seed system whose page protocol the window speaks besides nbridge's own (`pageProtocol`):
  /// `wkbridgekit` (the default) or `nbridgekit` (a global `nBridge`, as NBridgeKit's pages expect).
  public var pageProtocol: PageProtocol?
  /// What `nbridge.log` prints and forwards (`log` in `nbridge.json`).
  public var log: LogSettings?
  /// How the app follows the desktop (`lifecycle`).
  public var lifecycle: LifecycleSettings?
  /// Limits of background execution (`background`).
  public var background: BackgroundSettings?
  /// The URL schemes the app handles (`urlSchemes`: lowercase, such as `dbuurl`); `nbridge install`
  /// registers them with the desktop and `nbridge open` hands their URLs to the app.
  public var urlSchemes: [String]?
  /// What `nbridge bundle` needs besides the fields above (`bundle`).
  public var bundle: BundleSettings?
  /// The files the `fs` service may reach besides the app's own folders (`fs`).
  public var fs: FileSystemSettings?
  /// The bundler's dev server for `nbridge app --dev` (`dev`).
  package var dev: DevSettings?

  /// `"module"`: every `.js` file of a headless run is an ES module (`type`; default: detected).
  public var type: String?
  /// The import map's bare specifiers, as a page's `<script type="importmap">` gives them (`imports`).
  public var imports: [String: String]?
  /// The import map's per-folder overrides (`scopes`): scope prefix to specifier map.
  public var scopes: [String: [String: String]]?

  /// A manifest with the given fields; `permissions` nil allows every registered service.
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
  /// The window's width in pixels (default 1024).
  public var width: Int?
  /// The window's height in pixels (default 768).
  public var height: Int?
  /// Whether the user may resize it (default true).
  public var resizable: Bool?
  /// The smallest width the user may give it, in pixels (default: the page's own minimum).
  public var minWidth: Int?
  /// The smallest height the user may give it, in pixels (default: the page's own minimum).
  public var minHeight: Int?
  /// Whether the window manager draws its frame and title bar (default true).
  public var decorations: Bool?
  /// Whether its size, position, maximized and full-screen state are saved when it closes and
  /// restored at the next launch (default true).
  public var rememberState: Bool?

  /// Settings; nil fields take the defaults.
  public init(
    title: String? = nil, width: Int? = nil, height: Int? = nil, resizable: Bool? = nil, minWidth: Int? = nil,
    minHeight: Int? = nil, decorations: Bool? = nil, rememberState: Bool? = nil
  ) {
    self.title = title
    self.width = width
    self.height = height
    self.resizable = resizable
    self.minWidth = minWidth
    self.minHeight = minHeight
    self.decorations = decorations
    self.rememberState = rememberState
  }
}

/// `log` in `nbridge.json`: `{"level": "info"}`, the least level `nbridge.log` prints and forwards.
public struct LogSettings: Sendable, Hashable, Codable {
  /// The minimum level (default: debug, everything); `--log-level` overrides it.
  public var level: LogLevel?

  /// Settings; a nil level takes the default.
  public init(level: LogLevel? = nil) { self.level = level }
}

/// An entry of `remote` in `nbridge.json`: pages of `origin` get `nbridge` in the window, with `permissions`.
public struct RemoteOrigin: Sendable, Hashable, Codable {
  /// The origin whose pages get the bridge: `https://host[:port]`, lowercased.
  public var origin: String
  /// The services its pages may use: a subset of the app's permissions.
  public var permissions: [String]

  /// An entry for `origin` allowed `permissions`.
  public init(origin: String, permissions: [String]) {
    self.origin = origin
    self.permissions = permissions
  }
}

/// `pageProtocol` in `nbridge.json`: which seed system's page protocol the window speaks.
public enum PageProtocol: String, Sendable, Hashable, Codable, CaseIterable {
  /// WKBridgeKit's: `webkit.messageHandlers.WKBridge.postMessage`, no global `nBridge`.
  case wkbridgekit
  /// NBridgeKit's: a global `nBridge` (`callFromWeb`, `onBridgeReady`) answered through
  /// `nbridge.resolvePromise`/`finallyResolvePromise`; `WKBridge` is answered too.
  case nbridgekit
}
