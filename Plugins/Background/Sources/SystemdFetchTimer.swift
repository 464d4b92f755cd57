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
    SystemdFetchUnits.service(appID: appID, arguments: command.arguments, environment: command.environment)
  }

  /// `YYYY-MM-DD HH:MM:SS UTC`, the next whole second at or after `milliseconds`.
  static func calendar(milliseconds: Int64) -> String {
    let seconds = (milliseconds + 999) / 1000
    let iso = ISO8601.format(milliseconds: seconds * 1000)  // 2026-11-23T19:30:05.000Z
    return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8)) + " UTC"
  }

  /// The packaged service's drop-in folder in the user's units: `<unit>.service.d`.
  var dropInFolder: String { "\(servicePath).d" }
  /// The drop-in this runtime writes there.
  var dropInPath: String { "\(dropInFolder)/run.conf" }

  /// The service `nbridge bundle` shipped for this app (`/usr/lib/systemd/user/<unit>.service`),
  /// when it is this executable's: its command starts with the executable running now.
  func packagedService(for command: FetchWakeCommand) -> String? {
    guard let text = POSIX.readText("\(packagedFolder)/\(unitName).service"),
      let executable = command.arguments.first,
      text.contains("\nExecStart=\(SystemdFetchUnits.quoted(executable)) ")
    else { return nil }
    return text
  }

  /// Where packaged units are looked for (`/usr/lib/systemd/user`).
  var packagedFolder: String { SystemdFetchUnits.packagedFolder }

  /// Writes both units and (re)starts the timer; false when `systemctl --user` refused.
  func install(dueAt: Int64, command: FetchWakeCommand) throws -> Bool {
    try POSIX.makeDirectories(folder)
    if let packaged = packagedService(for: command) {
      // The package's service runs this app: a copy of it here would hide it. Only what this run
      // adds (its variables, another command) goes into a drop-in.
      _ = try POSIX.unlink(servicePath)
      if let dropIn = SystemdFetchUnits.dropIn(
        packaged: packaged, appID: appID, arguments: command.arguments, environment: command.environment)
      {
        try POSIX.makeDirectories(dropInFolder)
        try POSIX.writeAtomically(dropInPath, Array(dropIn.utf8), mode: 0o644, syncs: false)
      } else {
        removeDropIn()
      }
    } else {
      removeDropIn()
      try POSIX.writeAtomically(servicePath, Array(serviceText(command).utf8), mode: 0o644, syncs: false)
    }
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
    removeDropIn()
    if existed { _ = Spawn.run(["systemctl", "--user", "daemon-reload"]) }
  }

  /// Removes this runtime's drop-in for the packaged service, and its folder when that is left empty.
  func removeDropIn() {
    _ = try? POSIX.unlink(dropInPath)
    rmdir(dropInFolder)
  }

  /// Whether a systemd user manager answers (`systemctl --user show-environment` succeeds).
  static func managerAnswers() -> Bool {
    Spawn.run(["systemctl", "--user", "--no-pager", "show-environment"]) == 0
  }
}
