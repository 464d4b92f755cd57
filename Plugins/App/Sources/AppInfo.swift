import NBridgePlugin

/// `app.appInfo()`'s result: the manifest and the launch record.
struct AppInfo: Encodable, Equatable {
  /// The app id (reverse-DNS), from the manifest or derived from the script's folder.
  var id: String
  /// The display name.
  var name: String
  /// The version string.
  var version: String
  /// The build string.
  var build: String
  /// Runs started so far, this one included.
  var launchCount: Int
  /// When the first run started, ISO 8601 UTC with milliseconds.
  var firstLaunchDate: String
  /// Whole days since the first run, rounded down.
  var daysSinceFirstLaunch: Int

  /// The info for `manifest` and `record`, with days counted up to `now` (milliseconds).
  init(manifest: AppManifest, record: LaunchRecord, now: Int64) {
    id = manifest.id
    name = manifest.name
    version = manifest.version
    build = manifest.build
    launchCount = record.launchCount
    firstLaunchDate = ISO8601.format(milliseconds: record.firstLaunch)
    daysSinceFirstLaunch = max(0, ISO8601.wholeDays(from: record.firstLaunch, to: now))
  }
}
