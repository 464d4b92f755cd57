import NBridgePlugin


/// One queued write's outcome: set when its transaction finishes, whether or not its
/// call is already waiting for it (a commit on the loop often finishes first).
@BridgeActor
final class WriteTicket {
  private var result: Result<Void, any Error>?
  private var waiter: CheckedContinuation<Void, any Error>?

  /// Records the outcome and resumes the call waiting for it, if any.
  func settle(_ outcome: Result<Void, any Error>) {
    result = outcome
    waiter?.resume(with: outcome)
    waiter = nil
  }

  /// Whether the outcome is known.
  var isSettled: Bool { result != nil }

  /// The known outcome (call when settled).
  func outcome() throws { try result?.get() }

  /// Returns (or throws) once the outcome is known.
  func wait() async throws {
    if let result { return try result.get() }
    try await withCheckedThrowingContinuation { waiter = $0 }
  }
}
