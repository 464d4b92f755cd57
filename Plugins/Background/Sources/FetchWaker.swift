import NBridgePlugin
import NBridgeSystem

/// Keeps the app's wake-up for its next fetch in step with its schedule, through the systemd
/// user manager when it answers, else `nbridge daemon` (`NBRIDGE_SCHEDULER=systemd|daemon|off`).
struct FetchWaker: Sendable {
  /// Who wakes the app.
  enum Mode: String, Sendable {
    case systemd, daemon, off
  }

  /// The variable a run started by the CLI carries its absolute entry script in.
  static let entryVariable = "NBRIDGE_RUN_ENTRY"
  /// Set by the CLI to the data dir when `--data-dir`/`NBRIDGE_DATA_DIR` chose one.
  static let dataDirectoryVariable = "NBRIDGE_RUN_DATA_DIR"

  let mode: Mode
  let appID: String
  let command: FetchWakeCommand?
  let environment: [String: String]

  /// The waker for a run; `off` when the run has no entry script (tests in process, `nbridge test`).
  init(appID: String, environment: [String: String]) {
    self.appID = appID
    var kept = environment
    for name in [Self.entryVariable, Self.dataDirectoryVariable, FetchLaunch.variable] { kept[name] = nil }
    self.environment = kept
    if let entry = environment[Self.entryVariable], let executable = Spawn.currentExecutable {
      command = FetchWakeCommand(
        executable: executable, entry: entry, dataDirectory: environment[Self.dataDirectoryVariable],
        environment: kept)
    } else {
      command = nil
    }
    switch environment["NBRIDGE_SCHEDULER"] {
    case _ where command == nil: mode = .off
    case "off": mode = .off
    case "daemon": mode = .daemon
    case "systemd": mode = .systemd
    default: mode = SystemdFetchTimer.managerAnswers() ? .systemd : .daemon
    }
  }

  /// Arranges a wake-up at `dueAt` (milliseconds since 1970), or none when nil.
  func schedule(dueAt: Int64?, interval: Double?) throws {
    guard let command else { return }
    // The id names the timer's unit and the daemon's schedule file: never a path or a new line.
    if let problem = AppID.problem(appID) {
      throw BridgeError.unavailable("the app id \(JSONValue.string(appID).jsonText) cannot name a fetch wake-up: it \(problem)")
    }
    let systemd = SystemdFetchTimer(appID: appID, environment: environment)
    let daemon = DaemonFetchSchedule(appID: appID, environment: environment)
    guard let dueAt, let interval else {
      systemd.remove()
      daemon.remove()
      return
    }
    switch mode {
    case .off: return
    case .systemd:
      daemon.remove()
      if try !systemd.install(dueAt: dueAt, command: command) {
        throw BridgeError.unavailable("systemctl --user could not start \(systemd.unitName).timer")
      }
    case .daemon:
      try daemon.install(dueAt: dueAt, interval: interval, command: command)
    }
  }
}
