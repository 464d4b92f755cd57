/// When the next fetch is due: last + interval × 2^k, where k counts the consecutive fetches that
/// brought no new data (a late one counts 2), at most 3 — a slow or idle app is pushed back, as
/// iOS does, but deterministically.
struct FetchBackoff: Equatable, Sendable, Codable {
  /// The largest k: at most eight intervals between fetches.
  static let cap = 3
  /// The current k.
  var level = 0

  /// The level after a fetch that ended with `result` (`late`: nobody answered in time).
  mutating func record(_ result: FetchResult, late: Bool) {
    if result == .newData && !late {
      level = 0
    } else {
      level = min(Self.cap, level + (late ? 2 : 1))
    }
  }

  /// The delay after the last fetch, in seconds, for `interval` seconds.
  func delay(interval: Double) -> Double { interval * Double(1 << level) }
}
