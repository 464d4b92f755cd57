import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// An app registered by `nbridge install`: `$XDG_DATA_HOME/nbridge/installed/<id>.json`.
struct InstalledApp: Equatable {
  /// The app id.
  var id: String
  /// Its display name.
  var name: String
  /// The absolute entry: a script (`nbridge run`) or a page (`nbridge app`).
  var entry: String
  /// Whether the entry is a page opened in a window.
  var window: Bool
  /// The schemes it claims.
  var urlSchemes: [String]
  /// `--data-dir` given at install, if any.
  var dataDirectory: String?

  /// The record's path.
  static func recordPath(_ id: String) -> String { XDGPaths.installed + "/" + id + ".json" }

  /// The record as written: stable key order, so a reinstall writes identical bytes.
  var json: JSONValue {
    var fields: JSONValue = [
      "id": .string(id), "name": .string(name), "entry": .string(entry), "window": .bool(window),
      "urlSchemes": .array(urlSchemes.map { .string($0) }),
    ]
    if let dataDirectory, case .object(var object) = fields {
      object["dataDir"] = .string(dataDirectory)
      fields = .object(object)
    }
    return fields
  }

  init(id: String, name: String, entry: String, window: Bool, urlSchemes: [String], dataDirectory: String?) {
    self.id = id
    self.name = name
    self.entry = entry
    self.window = window
    self.urlSchemes = urlSchemes
    self.dataDirectory = dataDirectory
  }

  init?(json: JSONValue) {
    guard let id = json["id"]?.stringValue, AppID.isValid(id), let entry = json["entry"]?.stringValue else { return nil }
    self.id = id
    name = json["name"]?.stringValue ?? id
    self.entry = entry
    window = json["window"]?.boolValue ?? false
    urlSchemes = json["urlSchemes"]?.arrayValue?.compactMap(\.stringValue) ?? []
    dataDirectory = json["dataDir"]?.stringValue
  }

  /// The installed app `id`, or nil.
  static func load(_ id: String) -> InstalledApp? {
    guard AppID.isValid(id), let text = POSIX.readText(recordPath(id)), let json = try? JSONValue(parsing: text),
      let app = InstalledApp(json: json), app.id == id
    else { return nil }
    return app
  }

  /// Every installed app, by id.
  static func all() -> [InstalledApp] {
    var apps: [InstalledApp] = []
    for name in Directory.names(XDGPaths.installed) ?? [] {
      if name.hasSuffix(".json"), let app = load(String(name.dropLast(5))) { apps.append(app) }
    }
    return apps.sorted { $0.id < $1.id }
  }

  /// The installed app that gets `scheme`'s URLs: the desktop's default when it is one of ours,
  /// else the first by id.
  static func claiming(_ scheme: String) -> InstalledApp? {
    let candidates = all().filter { $0.urlSchemes.contains(scheme) }
    guard candidates.count > 1 else { return candidates.first }
    let preferred = MimeAppsList.read().defaultHandler(for: "x-scheme-handler/" + scheme)
    return candidates.first { $0.id + ".desktop" == preferred } ?? candidates.first
  }
}
