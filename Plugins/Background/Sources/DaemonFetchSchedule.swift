import NBridgePlugin
import NBridgeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// An app's schedule for `nbridge daemon`: `<fetch folder>/<id>.json` holding
/// `{id, at, interval, command, environment, log}` (`at` in milliseconds since 1970), and the
/// daemon itself, started when none holds the folder's lock.
struct DaemonFetchSchedule: Sendable {
  /// The app id.
  let appID: String
  /// `$XDG_DATA_HOME/nbridge/fetch`.
  let folder: String
  /// Where the daemon and the runs it wakes write their output.
  let logFolder: String
  /// The run's environment (the daemon inherits this process's).
  let environment: [String: String]

  /// The schedule of `appID` in `environment`'s folders.
  init(appID: String, environment: [String: String]) {
    self.appID = appID
    self.environment = environment
    folder = FetchWakeFolder.path(environment: environment)
    logFolder = FetchWakeFolder.logFolder(environment: environment)
  }

  /// The record's path.
  var path: String { "\(folder)/\(appID).json" }

  /// The record's text.
  func record(dueAt: Int64, interval: Double, command: FetchWakeCommand) -> String {
    var variables = JSONObject()
    for (name, value) in command.environment { variables[name] = .string(value) }
    let value: JSONValue = [
      "id": .string(appID), "at": .number(Double(dueAt)), "interval": .number(interval),
      "command": .array(command.arguments.map { .string($0) }), "environment": .object(variables),
      "log": .string("\(logFolder)/\(appID).log"),
    ]
    return value.jsonText + "\n"
  }

  /// Writes the record and makes sure a daemon is there to read it.
  func install(dueAt: Int64, interval: Double, command: FetchWakeCommand) throws {
    try POSIX.makeDirectories(folder)
    try POSIX.writeAtomically(path, Array(record(dueAt: dueAt, interval: interval, command: command).utf8))
    try ensureDaemon(executable: command.arguments[0])
  }

  /// Removes the record; the daemon leaves once no record is left.
  func remove() { _ = try? POSIX.unlink(path) }

  /// Starts `nbridge daemon` unless one holds `daemon.lock`. Called after the record is written,
  /// so a daemon that is just leaving either saw the record or had released its lock already.
  func ensureDaemon(executable: String) throws {
    let lock = try POSIX.open("\(folder)/daemon.lock", O_RDWR | O_CREAT)
    defer { close(lock) }
    guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { return }  // a daemon holds it
    flock(lock, LOCK_UN)
    try POSIX.makeDirectories(logFolder)
    _ = try Spawn.detached([executable, "daemon"], environment: environment, output: "\(logFolder)/daemon.log")
  }
}
