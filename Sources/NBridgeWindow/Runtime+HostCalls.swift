import NBridgePlugin
import NBridgeRuntime

/// Calls the window makes itself, not for a page's script: `navigator.geolocation` in the window
/// takes its positions from `location.watch`, so a page's own web API and `nbridge.location`
/// share one position source. Such a call passes the app's permission check as a page's does.
extension Runtime {
  /// Starts `service.action` with `options`; `sink` gets a streaming action's partial results
  /// and `done` its end, once (not after `cancel`). Returns what cancels it while it runs.
  func startHostCall(
    _ service: String, _ action: String, options: JSONValue, sink: @escaping @BridgeActor (JSONValue) -> Void,
    done: @escaping @BridgeActor (Result<JSONValue, BridgeError>) -> Void
  ) -> HostCall {
    let call = HostCall()
    call.id = callByName(service, action, options, permissions: nil, sink: { value in
      if !call.isCancelled { sink(value) }
    }) { outcome in
      guard !call.isCancelled else { return }
      call.id = nil
      done(outcome)
    }
    call.cancelling = { [weak self, weak call] in
      guard let self, let id = call?.id else { return }
      self.cancelCall(id, BridgeError(.unknownError, "cancelled by the window"))
    }
    return call
  }
}

/// A call `Runtime.startHostCall` started: `cancel()` ends it, telling the action (its cancel
/// handlers run, as for a page's call whose time limit passed) and answering nobody.
@BridgeActor
final class HostCall {
  fileprivate var id: Int?
  fileprivate var cancelling: (@BridgeActor () -> Void)?
  /// Whether `cancel()` was called.
  private(set) var isCancelled = false

  /// Ends the call if it still runs; its `sink` and `done` hear nothing more.
  func cancel() {
    guard !isCancelled else { return }
    isCancelled = true
    cancelling?()
    cancelling = nil
  }
}
