import Glibc
import NBridgePlugin
import NBridgeSystem

/// Finds an app's manifest and folders the way `nbridge run` and `nbridge test` do.
public enum AppSetup {
  /// A manifest that cannot be used, or a folder that cannot be found; the CLI exits 2.
  public struct Problem: Error, CustomStringConvertible {
    /// One clear line.
    public var description: String
  }

  static let manifestFields: Set<String> = [
    "id", "name", "version", "build", "permissions", "window", "allowNavigation", "lifecycle", "background",
    "urlSchemes", "type", "imports", "scopes", "log", "remote", "pageProtocol", "description", "bundle",
    "fs", "dev",
  ]
  static let windowFields: Set<String> = [
    "title", "width", "height", "resizable", "minWidth", "minHeight", "decorations", "rememberState",
  ]

  /// Loads `nbridge.json` beside `entry`, or makes the defaults when there is none: the folder's
  /// name plus a short hash of its path, every service allowed.
  public static func manifest(forEntry entry: String) throws(Problem) -> AppManifest {
    if let manifest = try manifestFile(forEntry: entry) { return manifest }
    let path = POSIX.absolutePath(entry)
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    let name = folder.split(separator: "/").last.map(String.init) ?? "app"
    return AppManifest(id: defaultID(folder: folder), name: name)
  }

  /// Parses manifest text; unknown fields and wrong types are errors naming the field.
  public static func parseManifest(_ text: String, path: String) throws(Problem) -> AppManifest {
    let json: JSONValue
    do { json = try JSONValue(parsing: text) } catch { throw Problem(description: "\(path): \(error)") }
    guard case .object(let object) = json else { throw Problem(description: "\(path): must be a JSON object") }
    if let key = duplicateKey(in: json) {
      throw Problem(description: "\(path): the key \"\(key)\" is given twice; give each key once")
    }
    for key in object.keys where !manifestFields.contains(key) {
      throw Problem(
        description:
          "\(path): unknown field \"\(key)\" (allowed: \(manifestFields.sorted().joined(separator: ", ")))")
    }
    func string(_ key: String) throws(Problem) -> String? {
      guard let value = object[key] else { return nil }
      guard case .string(let s) = value, !s.isEmpty else {
        throw Problem(description: "\(path): field \"\(key)\" must be a non-empty string")
      }
      try checkLine(s, field: key, path: path)
      return s
    }
    guard let id = try string("id") else { throw Problem(description: "\(path): field \"id\" is required") }
    if let problem = AppID.problem(id) {
      throw Problem(description: "\(path): field \"id\" \(problem), got \(JSONValue.string(id).jsonText)")
    }
    func strings(_ key: String, _ what: String) throws(Problem) -> [String]? {
      guard let value = object[key] else { return nil }
      guard case .array(let items) = value else {
        throw Problem(description: "\(path): field \"\(key)\" must be an array of \(what)")
      }
      var list: [String] = []
      for item in items {
        guard case .string(let s) = item else {
          throw Problem(description: "\(path): field \"\(key)\" must be an array of \(what)")
        }
        list.append(s)
      }
      return list
    }
    var manifest = AppManifest(
      id: id, name: try string("name") ?? id, version: try string("version") ?? "0.0.0",
      build: try string("build") ?? "0", permissions: try strings("permissions", "service names"))
    manifest.window = try windowSettings(object["window"], path: path)
    manifest.allowNavigation = try origins(strings("allowNavigation", "origins"), path: path)
    manifest.remote = try remoteOrigins(object["remote"], permissions: manifest.permissions, path: path)
    manifest.pageProtocol = try pageProtocol(object["pageProtocol"], path: path)
    if let type = object["type"] {
      guard case .string(let s) = type, s == "module" || s == "script" else {
        throw Problem(description: "\(path): field \"type\" must be \"module\" or \"script\"")
      }
      manifest.type = s
    }
    manifest.imports = try specifierMap(object["imports"], field: "imports", path: path)
    if let scopes = object["scopes"] {
      guard case .object(let entries) = scopes else {
        throw Problem(description: "\(path): field \"scopes\" must be an object of import maps")
      }
      var result: [String: [String: String]] = [:]
      for (scope, value) in entries {
        result[scope] = try specifierMap(value, field: "scopes[\"\(scope)\"]", path: path)
      }
      manifest.scopes = result
    }
    manifest.log = try logSettings(object["log"], path: path)
    manifest.lifecycle = try lifecycleSettings(object["lifecycle"], path: path)
    manifest.background = try backgroundSettings(object["background"], path: path)
    manifest.urlSchemes = try urlSchemes(object["urlSchemes"], path: path)
    manifest.description = try descriptionLine(object["description"], path: path)
    manifest.bundle = try bundleSettings(object["bundle"], path: path)
    manifest.fs = try fileSystemSettings(object["fs"], path: path)
    manifest.dev = try devSettings(object["dev"], path: path)
    return manifest
  }

  /// An import map's `{specifier: address}`: addresses are relative (`./`, `../`, `/`) or `file:` URLs,
  /// and a specifier ending in `/` maps to an address ending in `/`.
  static func specifierMap(_ value: JSONValue?, field: String, path: String) throws(Problem) -> [String: String]? {
    guard let value else { return nil }
    guard case .object(let entries) = value else {
      throw Problem(description: "\(path): field \"\(field)\" must be an object of specifier: address")
    }
    var map: [String: String] = [:]
    for (specifier, address) in entries {
      guard case .string(let s) = address,
        s.hasPrefix("./") || s.hasPrefix("../") || s.hasPrefix("/") || s.hasPrefix("file:")
      else {
        throw Problem(
          description:
            "\(path): field \"\(field)[\"\(specifier)\"]\" must be an address starting with ./, ../, / or file:")
      }
      if specifier.hasSuffix("/") && !s.hasSuffix("/") {
        throw Problem(
          description: "\(path): field \"\(field)[\"\(specifier)\"]\" must end in / like its specifier")
      }
      map[specifier] = s
    }
    return map
  }

  /// `allowNavigation`: each an `http(s)://host[:port]` origin, lowercased.
  static func origins(_ list: [String]?, path: String) throws(Problem) -> [String]? {
    guard let list else { return nil }
    var origins: [String] = []
    for (index, origin) in list.enumerated() {
      let scheme = origin.prefix { $0 != ":" }
      let host = origin.dropFirst(scheme.count + 3)
      guard scheme == "http" || scheme == "https", origin.dropFirst(scheme.count).hasPrefix("://"), !host.isEmpty,
        !host.contains("/")
      else {
        throw Problem(
          description:
            "\(path): allowNavigation[\(index)] must be an origin such as \"https://example.com\", got \"\(origin)\"")
      }
      origins.append(origin.lowercased())
    }
    return origins
  }

  /// `window`: `{title, width, height, resizable, minWidth, minHeight, decorations, rememberState}`,
  /// each optional.
  static func windowSettings(_ value: JSONValue?, path: String) throws(Problem) -> WindowSettings? {
    guard let value else { return nil }
    guard case .object(let fields) = value else {
      throw Problem(description: "\(path): field \"window\" must be an object")
    }
    for key in fields.keys where !windowFields.contains(key) {
      throw Problem(
        description:
          "\(path): unknown field \"window.\(key)\" (allowed: \(windowFields.sorted().joined(separator: ", ")))")
    }
    var settings = WindowSettings()
    if let title = fields["title"] {
      guard case .string(let s) = title else {
        throw Problem(description: "\(path): field \"window.title\" must be a string")
      }
      try checkLine(s, field: "window.title", path: path)
      settings.title = s
    }
    for key in ["width", "height", "minWidth", "minHeight"] {
      guard let size = fields[key] else { continue }
      guard case .number(let n) = size, n == n.rounded(), n >= 100, n <= 16384 else {
        throw Problem(
          description: "\(path): field \"window.\(key)\" must be a whole number of pixels from 100 to 16384")
      }
      switch key {
      case "width": settings.width = Int(n)
      case "height": settings.height = Int(n)
      case "minWidth": settings.minWidth = Int(n)
      default: settings.minHeight = Int(n)
      }
    }
    for (least, size) in [("minWidth", "width"), ("minHeight", "height")] {
      let minimum = least == "minWidth" ? settings.minWidth : settings.minHeight
      let value = size == "width" ? settings.width : settings.height
      if let minimum, let value, minimum > value {
        throw Problem(
          description:
            "\(path): field \"window.\(least)\" (\(minimum)) must not be larger than \"window.\(size)\" (\(value))")
      }
    }
    for key in ["resizable", "decorations", "rememberState"] {
      guard let flag = fields[key] else { continue }
      guard case .bool(let b) = flag else {
        throw Problem(description: "\(path): field \"window.\(key)\" must be true or false")
      }
      switch key {
      case "resizable": settings.resizable = b
      case "decorations": settings.decorations = b
      default: settings.rememberState = b
      }
    }
    return settings
  }

  /// `log`: `{level}`, the least level `nbridge.log` prints and forwards.
  static func logSettings(_ value: JSONValue?, path: String) throws(Problem) -> LogSettings? {
    guard let value else { return nil }
    guard case .object(let fields) = value else { throw Problem(description: "\(path): field \"log\" must be an object") }
    for key in fields.keys where key != "level" {
      throw Problem(description: "\(path): unknown field \"log.\(key)\" (allowed: level)")
    }
    guard let level = fields["level"] else { return LogSettings() }
    guard case .string(let name) = level, let parsed = LogLevel(name: name) else {
      throw Problem(description: "\(path): field \"log.level\" must be one of \(LogLevel.accepted), got \(level.jsonText)")
    }
    return LogSettings(level: parsed)
  }

  /// `lifecycle`: `{followSession}`.
  static func lifecycleSettings(_ value: JSONValue?, path: String) throws(Problem) -> LifecycleSettings? {
    guard let fields = try section("lifecycle", value, allowed: ["followSession"], path: path) else { return nil }
    var settings = LifecycleSettings()
    if let follow = fields["followSession"] {
      guard case .bool(let b) = follow else {
        throw Problem(description: "\(path): field \"lifecycle.followSession\" must be true or false")
      }
      settings.followSession = b
    }
    return settings
  }

  /// `background`: `{taskBudget, fetchTimeLimit}`, each a number of seconds.
  static func backgroundSettings(_ value: JSONValue?, path: String) throws(Problem) -> BackgroundSettings? {
    let allowed: Set<String> = ["taskBudget", "fetchTimeLimit"]
    guard let fields = try section("background", value, allowed: allowed, path: path) else { return nil }
    func seconds(_ key: String) throws(Problem) -> Double? {
      guard let value = fields[key] else { return nil }
      guard case .number(let n) = value, n > 0, n <= 86_400 else {
        throw Problem(
          description: "\(path): field \"background.\(key)\" must be a number of seconds above 0, at most 86400")
      }
      return n
    }
    return BackgroundSettings(taskBudget: try seconds("taskBudget"), fetchTimeLimit: try seconds("fetchTimeLimit"))
  }

  /// An object-valued field whose keys must be among `allowed`.
  static func section(_ name: String, _ value: JSONValue?, allowed: Set<String>, path: String) throws(Problem)
    -> JSONObject?
  {
    guard let value else { return nil }
    guard case .object(let fields) = value else {
      throw Problem(description: "\(path): field \"\(name)\" must be an object")
    }
    for key in fields.keys where !allowed.contains(key) {
      throw Problem(
        description: "\(path): unknown field \"\(name).\(key)\" (allowed: \(allowed.sorted().joined(separator: ", ")))")
    }
    return fields
  }

  /// `$XDG_DATA_HOME/nbridge` (or `~/.local/share/nbridge`).
  public static var dataHome: String {
    if let xdg = POSIX.environmentValue("XDG_DATA_HOME") { return xdg + "/nbridge" }
    return (POSIX.environmentValue("HOME") ?? "/tmp") + "/.local/share/nbridge"
  }

  /// The app's data folder: the flag, else `NBRIDGE_DATA_DIR`, else `<data home>/apps/<id>`.
  public static func dataDirectory(flag: String?, manifest: AppManifest) -> String {
    if let flag { return POSIX.absolutePath(flag) }
    if let env = POSIX.environmentValue("NBRIDGE_DATA_DIR") { return POSIX.absolutePath(env) }
    return dataHome + "/apps/" + manifest.id
  }

  /// The user's shared folder: `NBRIDGE_SHARED_DIR`, else `<data home>/shared`.
  public static var sharedDirectory: String {
    if let env = POSIX.environmentValue("NBRIDGE_SHARED_DIR") { return POSIX.absolutePath(env) }
    return dataHome + "/shared"
  }

  /// The id of an app without a manifest: its folder's name (ASCII letters, digits, '-' and '_'
  /// kept, anything else a '-'; at most 100 bytes) plus a short hash of the folder's path.
  static func defaultID(folder: String) -> String {
    let name = folder.split(separator: "/").last.map(String.init) ?? ""
    var cleaned = ""
    for scalar in name.unicodeScalars.prefix(100) {
      let plain = scalar.isASCII && scalar != "." && AppID.isAllowed(UInt8(scalar.value))
      cleaned.unicodeScalars.append(plain ? scalar : "-")
    }
    if cleaned.isEmpty { cleaned = "app" }
    return cleaned + "-" + shortHash(folder)
  }

  /// Eight hex digits of FNV-1a over the text.
  static func shortHash(_ text: String) -> String {
    fnv1aHex(text, offset: UInt32(2_166_136_261), prime: 16_777_619)
  }
}
