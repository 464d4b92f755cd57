import CJavaScriptCore
import NBridgePlugin

/// How a call's outcome reaches its caller: a headless script's Promise, or a handler (a page's reply).
@BridgeActor
enum Settlement {
  /// The resolve and reject functions of a deferred Promise in the runtime's context.
  case promise(resolve: JSObjectRef, reject: JSObjectRef)
  /// A Swift handler, called once.
  case handler(@BridgeActor (Result<JSONValue, BridgeError>) -> Void)
}

/// A native call not settled yet: how it settles (its JS functions kept from the GC), its task or reply.
@BridgeActor
final class PendingCall {
  let label: String
  let settlement: Settlement
  let callback: JSObjectRef?
  var task: Task<Void, Never>?
  /// The reply of a `Reply` action; weak, so a reply the plugin drops is seen (and rejects).
  weak var reply: PendingReply?
  var timer: Int?
  /// Its JS functions, kept from the GC until the call is forgotten.
  private let held: [Protected]

  /// A pending call; `context` is asked for only when there are JS values to keep.
  init(label: String, settlement: Settlement, callback: JSObjectRef?, context: () -> JSContext) {
    self.label = label
    self.settlement = settlement
    self.callback = callback
    var values: [JSValueRef] = []
    if case .promise(let resolve, let reject) = settlement { values += [resolve, reject] }
    if let callback { values.append(callback) }
    if values.isEmpty {
      held = []
    } else {
      let context = context()
      held = values.map { Protected($0, in: context) }
    }
  }

  func cancel() {
    task?.cancel()
    reply?.cancel()
  }
}
