import NBridgePlugin
import NBridgeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// The app's XDG autostart entry, `$XDG_CONFIG_HOME/autostart/<app id>.desktop`
/// (`~/.config/autostart`): the session starts what its `Exec` says at login. The entry carries
/// `X-NBridge-App=<id>`, which is how an entry is known to be this app's.
struct AutostartEntry: Sendable {
  /// The key that marks an entry as written by nbridge for an app.
  static let marker = "X-NBridge-App"

  /// The app id (valid: checked by `init`).
  let appID: String
  /// The entry's path.
  let path: String

  /// The entry for `appID` under `environment`'s `XDG_CONFIG_HOME` (else `$HOME/.config`);
  /// `unavailable` when the id cannot name a file.
  init(appID: String, environment: [String: String]) throws(BridgeError) {
    if let problem = AppID.problem(appID) {
      throw BridgeError.unavailable(
        "the app id \(JSONValue.string(appID).jsonText) cannot name an autostart entry: it \(problem)")
    }
    self.appID = appID
    let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? (environment["HOME"] ?? "/tmp") + "/.config"
    path = config + "/autostart/" + appID + ".desktop"
  }

  /// The folder the entry lives in.
  var folder: String { String(path[..<path.lastIndex(of: "/")!]) }

  /// The entry's text for an app named `name` started by `command` (program and arguments);
  /// `unavailable` naming what cannot be written.
  func text(name: String, command: [String]) throws(BridgeError) -> String {
    guard let name = DesktopEntryText.escaped(name) else {
      throw BridgeError.unavailable("the app's name holds a control character a desktop entry cannot hold")
    }
    var exec: [String] = []
    for argument in command {
      guard let word = DesktopEntryText.execArgument(argument) else {
        throw BridgeError.unavailable(
          "\(JSONValue.string(argument).jsonText) cannot stand in a desktop entry's Exec (empty or a control character)")
      }
      exec.append(word)
    }
    let lines = [
      "[Desktop Entry]",
      "Type=Application",
      "Version=1.0",
      "Name=" + name,
      "Exec=" + exec.joined(separator: " "),
      "Terminal=false",
      "NoDisplay=true",
      "X-GNOME-Autostart-enabled=true",
      "\(Self.marker)=\(appID)",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// Writes `text` in place of the entry, atomically (a temporary file renamed over it).
  func write(_ text: String) throws(BridgeError) {
    do {
      try POSIX.makeDirectories(folder)
      try POSIX.writeAtomically(path, Array(text.utf8), mode: 0o644)
    } catch {
      throw BridgeError.unavailable("cannot write \(path): \(error)")
    }
  }

  /// Whether the entry exists and is this app's (it carries `X-NBridge-App=<id>`).
  var isOurs: Bool {
    guard let text = POSIX.readText(path) else { return false }
    return text.split(separator: "\n").contains { $0 == "\(Self.marker)=\(appID)" }
  }

  /// Removes the entry when it is this app's; an entry the app did not write is left alone.
  func remove() throws(BridgeError) {
    guard isOurs else { return }
    do {
      try POSIX.unlink(path)
    } catch {
      throw BridgeError.unavailable("cannot remove \(path): \(error)")
    }
  }
}
