import NBridgePlugin

extension BackgroundPlugin {
  /// The control socket's `fetch` op: `{"op":"fetch","reason":"schedule"}` from `nbridge run --fetch`
  /// (answered at once: `{delivered}`; skipped while the app is active or a fetch is pending) and
  /// `{"op":"fetch","reason":"simulated"}` from `nbridge simulate fetch` (answered once the fetch
  /// ends: `{fetch, result, late, duration, line}`).
  func handleFetchOp(_ request: ControlRequest) async throws -> JSONObject {
    switch request.fields["reason"]?.stringValue ?? "schedule" {
    case "schedule":
      var reply = JSONObject()
      reply["delivered"] = .bool(fetches.scheduledFetchArrived())
      return reply
    case "simulated":
      let fetches = self.fetches
      let entry = try await withCheckedThrowingContinuation { (done: CheckedContinuation<FetchHistoryEntry, any Error>) in
        do {
          try fetches.deliver(reason: "simulated") { done.resume(returning: $0) }
        } catch {
          done.resume(throwing: error)
        }
      }
      var reply = JSONObject()
      reply["fetch"] = .number(Double(entry.id))
      reply["result"] = .string(entry.result.rawValue)
      reply["late"] = .bool(entry.late)
      reply["duration"] = .number(Double(entry.duration))
      reply["line"] = .string(FetchService.line(entry))
      return reply
    default:
      throw BridgeError.invalidParameter("reason", "must be 'schedule' or 'simulated'")
    }
  }
}
