import NBridgePlugin
import NBridgeSystem

/// What the app's fetches leave behind in `background.json` in its data dir: the interval, the
/// backoff, when the next fetch is due, the next id and the last 50 fetches (oldest first).
struct FetchState: Codable, Equatable, Sendable {
  /// How many fetches the history keeps.
  static let historyLimit = 50

  /// Seconds between fetches before backoff; nil: `never`.
  var interval: Double?
  /// The backoff after the last fetches.
  var backoff = FetchBackoff()
  /// When the next fetch is due, in milliseconds since 1970; nil when none is.
  var nextFetchAt: Int64?
  /// The id the next fetch gets.
  var nextID = 1
  /// The last fetches, oldest first.
  var history: [FetchHistoryEntry] = []

  /// Adds a finished fetch, dropping the oldest beyond the limit.
  mutating func append(_ entry: FetchHistoryEntry) {
    history.append(entry)
    if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
  }
}

/// Reads and writes `background.json`.
struct FetchStore: Sendable {
  /// The file's path.
  let path: String

  /// A store in the app's data dir.
  init(directory: String) { path = directory + "/background.json" }

  /// The saved state; the defaults when there is no file. An unreadable file is reported and replaced.
  func load(warn: (String) -> Void) -> FetchState {
    guard let text = POSIX.readText(path) else { return FetchState() }
    do {
      var state = try JSONValueDecoder().decode(FetchState.self, from: JSONValue(parsing: text))
      state.interval = state.interval.map(FetchInterval.clamped)
      return state
    } catch {
      warn("ignoring \(path): \(error)")
      return FetchState()
    }
  }

  /// Replaces the file with `state` (atomically).
  func save(_ state: FetchState) throws {
    let text = try JSONValueEncoder().encode(state).jsonText
    try POSIX.writeAtomically(path, Array(text.utf8))
  }
}
