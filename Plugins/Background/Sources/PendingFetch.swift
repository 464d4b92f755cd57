import NBridgePlugin

/// The fetch delivered and not yet answered: at most one at a time.
@BridgeActor
final class PendingFetch {
  /// Its id.
  let id: Int
  /// `schedule` or `simulated`.
  let reason: String
  /// When it was delivered, in milliseconds since 1970.
  let startedAt: Int64
  /// When it counts as late, in milliseconds since 1970.
  let deadline: Int64
  /// Whether a listener has been called with it.
  var delivered = false
  /// Told how it ended.
  var observers: [@BridgeActor (FetchHistoryEntry) -> Void] = []
  /// Fires at the deadline.
  var timer: LoopTimer?
  /// Keeps the run alive while it is pending.
  var hold: KeepAlive?
  /// Keeps the app from suspending while it is pending (and wakes a suspended one).
  var awake: AwakeHold?

  init(id: Int, reason: String, startedAt: Int64, deadline: Int64) {
    self.id = id
    self.reason = reason
    self.startedAt = startedAt
    self.deadline = deadline
  }

  /// The `fetch` event's payload.
  var payload: JSONValue {
    ["id": .number(Double(id)), "reason": .string(reason), "deadline": .string(ISO8601.format(milliseconds: deadline))]
  }

  /// Cancels the timer and lets go of both holds.
  func close() {
    timer?.cancel()
    hold?.release()
    awake?.release()
  }
}
