import NBridgePlugin
import NBridgeSystem

/// The folders a scope is made of: the app's own data, cache and config folders, and the
/// user's folders the manifest's `fs.scope` variables stand for.
struct AppFolders: Sendable {
  /// `$APPDATA`: `<app data folder>/files` (the data folder itself holds the app's storage and
  /// the user's picks, which a script must not be able to rewrite).
  let data: String
  /// `$APPCACHE`: `$XDG_CACHE_HOME/<app id>` (`~/.cache/<app id>`).
  let cache: String
  /// `$APPCONFIG`: `$XDG_CONFIG_HOME/<app id>` (`~/.config/<app id>`).
  let config: String
  /// The variables' values, `$HOME` to `$APPCONFIG`.
  let variables: [String: String]

  /// The folders of the app `appID` whose data folder is `dataDirectory`, under `environment`;
  /// `contained` (`nbridge test`) keeps the cache and config folders in the data folder too, so
  /// a test never writes the user's `~/.cache` or `~/.config`.
  init(appID: String, dataDirectory: String, environment: [String: String], contained: Bool = false) {
    let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/"
    func xdg(_ name: String, _ fallback: String) -> String {
      environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + fallback
    }
    data = dataDirectory + "/files"
    cache = contained ? dataDirectory + "/cache" : xdg("XDG_CACHE_HOME", "/.cache") + "/" + appID
    config = contained ? dataDirectory + "/config" : xdg("XDG_CONFIG_HOME", "/.config") + "/" + appID
    let user = UserDirectories(home: home, configHome: xdg("XDG_CONFIG_HOME", "/.config"))
    variables = [
      "$HOME": home, "$DOCUMENTS": user.folder("DOCUMENTS", "Documents"),
      "$DOWNLOAD": user.folder("DOWNLOAD", "Downloads"), "$DESKTOP": user.folder("DESKTOP", "Desktop"),
      "$PICTURES": user.folder("PICTURES", "Pictures"), "$MUSIC": user.folder("MUSIC", "Music"),
      "$VIDEOS": user.folder("VIDEOS", "Videos"),
      "$TEMP": environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp",
      "$APPDATA": data, "$APPCACHE": cache, "$APPCONFIG": config,
    ]
  }

  /// `entry` (valid: `FileSystemSettings.problem` passed it) with its variable replaced.
  func expand(_ entry: String) -> String {
    guard entry.hasPrefix("$"),
      let variable = FileSystemSettings.variables.first(where: { entry == $0 || entry.hasPrefix($0 + "/") }),
      let value = variables[variable]
    else { return entry }
    return value + entry.dropFirst(variable.count)
  }
}

/// The user's folders as `xdg-user-dirs` records them in `$XDG_CONFIG_HOME/user-dirs.dirs`
/// (`XDG_DOCUMENTS_DIR="$HOME/Documents"`), else their English defaults under `$HOME`.
struct UserDirectories {
  private var recorded: [String: String] = [:]
  private let home: String

  init(home: String, configHome: String) {
    self.home = home
    guard let text = POSIX.readText(configHome + "/user-dirs.dirs") else { return }
    for line in text.split(separator: "\n") where line.hasPrefix("XDG_") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      let key = line[line.index(line.startIndex, offsetBy: 4)..<equals]
      guard key.hasSuffix("_DIR") else { continue }
      var value = line[line.index(after: equals)...]
      guard value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 else { continue }
      value = value.dropFirst().dropLast()
      let path = value.hasPrefix("$HOME") ? home + value.dropFirst(5) : String(value)
      guard path.hasPrefix("/") else { continue }
      recorded[String(key.dropLast(4))] = path
    }
  }

  /// The folder recorded for `key` (`DOCUMENTS`), else `$HOME/<fallback>`.
  func folder(_ key: String, _ fallback: String) -> String { recorded[key] ?? home + "/" + fallback }
}
