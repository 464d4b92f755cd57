import Glibc
import NBridgeRuntime
import NBridgeSystem

/// An app's background-fetch wake-up as the background plugin arms it: a systemd user timer
/// (`nbridge-fetch-<id>.timer` and `.service`, or a drop-in `.service.d/run.conf` for a
/// packaged app's service, enabled in `timers.target.wants`) or a schedule
/// for `nbridge daemon` (`$XDG_DATA_HOME/nbridge/fetch/<id>.json`). `nbridge uninstall` removes it.
enum FetchWakeUp {
  /// Stops and removes whatever wakes `appID`; true when there was something. The daemon sees its
  /// schedule go (inotify) and leaves once none is left.
  static func remove(appID: String) -> Bool {
    let environment = ProcessEnvironment.current
    let folder = FetchWakeFolder.systemdFolder(environment: environment)
    let unit = FetchWakeFolder.systemdUnit(appID: appID)
    let timerArmed = access("\(folder)/\(unit).timer", F_OK) == 0
    // Where a user manager answers it still has the timer loaded: stop and disable it first.
    if timerArmed { _ = Spawn.run(["systemctl", "--user", "disable", "--now", "\(unit).timer"]) }
    var removed = false
    let paths = [
      "\(folder)/\(unit).timer", "\(folder)/\(unit).service", "\(folder)/timers.target.wants/\(unit).timer",
      "\(folder)/\(unit).service.d/run.conf", FetchWakeFolder.path(environment: environment) + "/\(appID).json",
    ]
    for path in paths where (try? POSIX.unlink(path)) == true { removed = true }
    rmdir("\(folder)/\(unit).service.d")
    if timerArmed { _ = Spawn.run(["systemctl", "--user", "daemon-reload"]) }
    return removed
  }
}
