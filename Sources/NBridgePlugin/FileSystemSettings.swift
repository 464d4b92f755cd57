/// `fs` in `nbridge.json`: `{"scope": ["$DOCUMENTS/Notes", "/srv/shared"]}`, the folders and
/// files the `fs` service may reach besides the app's own data, cache and config folders.
public struct FileSystemSettings: Sendable, Hashable, Codable {
  /// Absolute paths, or paths starting with one of `variables` (`$HOME`, `$DOCUMENTS`...); each
  /// covers what it names and everything beneath it.
  public var scope: [String]?

  /// Settings; a nil scope adds nothing.
  public init(scope: [String]? = nil) { self.scope = scope }

  /// The variables a scope entry may start with, each standing for a folder of the user or the app.
  public static let variables: [String] = [
    "$HOME", "$DOCUMENTS", "$DOWNLOAD", "$DESKTOP", "$PICTURES", "$MUSIC", "$VIDEOS", "$TEMP", "$APPDATA",
    "$APPCACHE", "$APPCONFIG",
  ]

  /// Why `entry` cannot be a scope entry (a phrase for "must ..."), or nil when it can: it must
  /// start with `/` or a variable followed by `/` or nothing, hold no NUL, no `.` or `..`
  /// component, and be at most 4096 bytes.
  public static func problem(_ entry: String) -> String? {
    let rule = "must be an absolute path or start with one of \(variables.joined(separator: ", "))"
    guard entry.utf8.count <= 4096 else { return "must be at most 4096 bytes" }
    guard !entry.utf8.contains(0) else { return "must not contain NUL" }
    var rest = Substring(entry)
    if entry.hasPrefix("$") {
      guard let variable = variables.first(where: { entry == $0 || entry.hasPrefix($0 + "/") }) else { return rule }
      rest = entry.dropFirst(variable.count)
    } else if !entry.hasPrefix("/") {
      return rule
    }
    if rest.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) {
      return "must not contain '.' or '..' components"
    }
    return nil
  }
}
