import NBridgePlugin
import NBridgeSystem

/// The main window's place and state, kept in the app's data dir between launches (the
/// manifest's `window.rememberState`, on by default): the size and position it had when last
/// neither maximized nor full screen, and whether it was either.
struct WindowPlacement: Codable, Equatable {
  var x: Int
  var y: Int
  var width: Int
  var height: Int
  var maximized = false
  var fullscreen = false

  /// The file in `dataDirectory`.
  static func path(in dataDirectory: String) -> String { dataDirectory + "/window-state.json" }

  /// The placement saved in `dataDirectory`; nil when there is none or it cannot be read (a
  /// size out of the manifest's bounds included).
  static func load(from dataDirectory: String) -> WindowPlacement? {
    guard let text = POSIX.readText(path(in: dataDirectory)),
      let value = try? JSONValue(parsing: text),
      let placement = try? JSONValueDecoder().decode(WindowPlacement.self, from: value),
      (100...16384).contains(placement.width), (100...16384).contains(placement.height),
      abs(placement.x) <= 65536, abs(placement.y) <= 65536
    else { return nil }
    return placement
  }

  /// Writes the placement to `dataDirectory` at once (a temporary file renamed over the old one).
  func save(in dataDirectory: String) throws {
    let value = try JSONValueEncoder().encode(self)
    try POSIX.writeAtomically(Self.path(in: dataDirectory), Array(value.jsonText.utf8), syncs: false)
  }
}
