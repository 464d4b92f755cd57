import NBridgePlugin

/// One fetch in `getFetchStatus().history`.
struct FetchHistoryEntry: Codable, Equatable, Sendable {
  /// The fetch's id, counting across runs.
  var id: Int
  /// `schedule` (woken by the scheduler) or `simulated` (`nbridge simulate fetch`).
  var reason: String
  /// What it ended with.
  var result: FetchResult
  /// Whether nobody answered within the time limit.
  var late: Bool
  /// When it was delivered, ISO 8601 UTC.
  var startedAt: String
  /// Milliseconds from delivery to the answer.
  var duration: Int

  /// The entry's shape for `nbridge types`.
  static let shape = Shape.named(
    "BackgroundFetchRecord",
    .fields([
      "id": .integer, "reason": .oneOf([.literal("schedule"), .literal("simulated")]),
      "result": .oneOf([.literal("newData"), .literal("noData"), .literal("failed")]), "late": .boolean,
      "startedAt": .string, "duration": .integer,
    ]))
}
