import NBridgeSystem
import NBridgePlugin

/// What the app plugin keeps in the data dir: launches, the first launch, the device id.
///
/// Stored as `app.json` (`{"launchCount":3,"firstLaunchDate":"2024-05-01T09:30:00.000Z",
/// "deviceId":"…"}`), replaced atomically at each launch. Counting costs one small read
/// and one small write, no database and no fsync: a launch survives the process being
/// killed; a power cut right after a launch may lose that one count.
struct LaunchRecord: Equatable, Sendable {
  /// How many runs have started, this one included.
  var launchCount: Int
  /// When the first run started, in milliseconds since the epoch.
  var firstLaunch: Int64
  /// A random UUID made at the first run.
  var deviceId: String

  /// The file name inside the data directory.
  static let fileName = "app.json"

  /// Counts one launch at `now` in `directory` and returns the updated record.
  ///
  /// A missing record starts the count; an unreadable or damaged one is reported and
  /// replaced by a fresh one (through `warn`), since a launch must never fail over it.
  static func recordLaunch(in directory: String, now: Int64, warn: (String) -> Void) throws -> LaunchRecord {
    let path = directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
    return try POSIX.withLock(on: directory) {
      var record: LaunchRecord
      if let text = POSIX.readText(path) {
        if let stored = LaunchRecord(json: text) {
          record = stored
          record.launchCount += 1
        } else {
          warn("\(path) is damaged; counting launches from this one")
          record = LaunchRecord(launchCount: 1, firstLaunch: now, deviceId: RandomID.uuid())
        }
      } else {
        record = LaunchRecord(launchCount: 1, firstLaunch: now, deviceId: RandomID.uuid())
      }
      do {
        // No fsync on this path: it runs before every script (see the type's summary).
        try POSIX.writeAtomically(path, Array(record.json.utf8), mode: 0o644, syncs: false)
      } catch {
        throw BridgeError.unavailable("cannot record this launch: \(error)")
      }
      return record
    }
  }

  /// Decodes the stored JSON; nil when a field is missing or wrong.
  init?(json: String) {
    guard let value = try? JSONValue(parsing: json), let count = value["launchCount"]?.numberValue,
      count >= 1, count == count.rounded(), let first = value["firstLaunchDate"]?.stringValue,
      let firstLaunch = ISO8601.parse(first), let deviceId = value["deviceId"]?.stringValue, RandomID.isUUID(deviceId)
    else { return nil }
    self.init(launchCount: Int(count), firstLaunch: firstLaunch, deviceId: deviceId)
  }

  init(launchCount: Int, firstLaunch: Int64, deviceId: String) {
    self.launchCount = launchCount
    self.firstLaunch = firstLaunch
    self.deviceId = deviceId
  }

  /// The JSON text stored.
  var json: String {
    let value: JSONValue = [
      "launchCount": .number(Double(launchCount)),
      "firstLaunchDate": .string(ISO8601.format(milliseconds: firstLaunch)),
      "deviceId": .string(deviceId),
    ]
    return value.jsonText + "\n"
  }
}
