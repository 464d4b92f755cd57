import NBridgePlugin
import NBridgeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// The systemd user timer that wakes an app for its next fetch:
/// `$XDG_CONFIG_HOME/systemd/user/nbridge-fetch-<id>.timer` and its `.service`. A calendar
/// time (not a monotonic one) with `Persistent=true`: it survives a reboot and fires after a
/// suspend that slept through it; nothing of nbridge stays resident.
struct SystemdFetchTimer: Sendable {
  /// The app id.
  let appID: String
  /// `$XDG_CONFIG_HOME/systemd/user` (`~/.config/systemd/user`).
  let folder: String

  /// The timer for `appID`, with the folder from `environment`.
  init(appID: String, environment: [String: String]) {
    self.appID = appID
    folder = FetchWakeFolder.systemdFolder(environment: environment)
  }

  /// `nbridge-fetch-<id>`.
  var unitName: String { FetchWakeFolder.systemdUnit(appID: appID) }
  /// The timer unit's path.
  var timerPath: String { "\(folder)/\(unitName).timer" }
  /// The service unit's path.
  var servicePath: String { "\(folder)/\(unitName).service" }

  /// The `.timer` text for a fetch due at `dueAt` (milliseconds since 1970), rounded up to the second.
  func timerText(dueAt: Int64) -> String {
    """
    [Unit]
    Description=nbridge background fetch for \(appID)

    [Timer]
    OnCalendar=\(Self.calendar(milliseconds: dueAt))
    Persistent=true
    AccuracySec=1s
    Unit=\(unitName).service

    [Install]
    WantedBy=timers.target

    """
  }

  /// The `.service` text that runs `command`.
  func serviceText(_ command: FetchWakeCommand) -> String {
    var text = """
      [Unit]
      Description=nbridge background fetch for \(appID)

      [Service]
      Type=oneshot

      """
    for (name, value) in command.environment { text += "Environment=\(Self.quoted("\(name)=\(value)"))\n" }
    text += "ExecStart=\(command.arguments.map(Self.quoted).joined(separator: " "))\n"
    return text
  }

  /// `YYYY-MM-DD HH:MM:SS UTC`, the next whole second at or after `milliseconds`.
  static func calendar(milliseconds: Int64) -> String {
    let seconds = (milliseconds + 999) / 1000
    let iso = ISO8601.format(milliseconds: seconds * 1000)  // 2026-11-23T19:30:05.000Z
    return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8)) + " UTC"
  }

  /// An argument as systemd reads it: double-quoted, with `\`, `"`, `%` and `$` escaped, when needed.
  static func quoted(_ word: String) -> String {
    let special: Set<Character> = [" ", "\t", "\"", "'", "\\", "%", "$", ";"]
    guard word.contains(where: { special.contains($0) }) || word.isEmpty else { return word }
    var out = "\""
    for c in word {
      switch c {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "%": out += "%%"
      case "$": out += "$$"
      default: out.append(c)
      }
    }
    return out + "\""
  }

  /// Writes both units and (re)starts the timer; false when `systemctl --user` refused.
  func install(dueAt: Int64, command: FetchWakeCommand) throws -> Bool {
    try POSIX.makeDirectories(folder)
    try POSIX.writeAtomically(servicePath, Array(serviceText(command).utf8), mode: 0o644, syncs: false)
    try POSIX.writeAtomically(timerPath, Array(timerText(dueAt: dueAt).utf8), mode: 0o644, syncs: false)
    guard Spawn.run(["systemctl", "--user", "daemon-reload"]) == 0 else { return false }
    return Spawn.run(["systemctl", "--user", "enable", "\(unitName).timer"]) == 0
      && Spawn.run(["systemctl", "--user", "restart", "\(unitName).timer"]) == 0
  }

  /// Stops the timer and removes both units.
  func remove() {
    let existed = access(timerPath, F_OK) == 0
    if existed { _ = Spawn.run(["systemctl", "--user", "disable", "--now", "\(unitName).timer"]) }
    _ = try? POSIX.unlink(timerPath)
    _ = try? POSIX.unlink(servicePath)
    if existed { _ = Spawn.run(["systemctl", "--user", "daemon-reload"]) }
  }

  /// Whether a systemd user manager answers (`systemctl --user show-environment` succeeds).
  static func managerAnswers() -> Bool {
    Spawn.run(["systemctl", "--user", "--no-pager", "show-environment"]) == 0
  }
}
