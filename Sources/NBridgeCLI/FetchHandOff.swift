import NBridgeControl
import NBridgePlugin
import NBridgeRuntime

/// Hands a background fetch to a run of the app that is already going, over its control socket
/// (`{"op":"fetch","reason":...}`, answered by the background plugin).
enum FetchHandOff {
  /// What came of it.
  enum Outcome {
    /// No run of the app is listening: start one.
    case notRunning
    /// The run answered with these members.
    case answered(JSONObject)
    /// The run refused (`code: message`), or could not be reached.
    case failed(String)
  }

  /// Sends one fetch with `reason` to the app `id`; waits up to `timeout` seconds for the answer.
  static func send(reason: String, toApp id: String, timeout: Double) -> Outcome {
    do {
      let reply = try ControlClient.send(["op": "fetch", "reason": .string(reason)], toApp: id, timeout: timeout)
      guard reply.ok else {
        let code = reply.fields["code"]?.stringValue ?? "unknown_error"
        return .failed("\(id): \(code): \(reply.fields["message"]?.stringValue ?? "refused the fetch")")
      }
      return .answered(reply.fields)
    } catch .notRunning {
      return .notRunning
    } catch {
      return .failed("\(id): \(error)")
    }
  }
}
