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
  /// The context its JS values are protected in; nil when it holds none (a handler settles it).
  private let context: JSGlobalContextRef?

  /// A pending call; `context` is asked for only when there are JS values to protect.
  init(label: String, settlement: Settlement, callback: JSObjectRef?, context: () -> JSGlobalContextRef) {
    self.label = label
    self.settlement = settlement
    self.callback = callback
    var protected: JSGlobalContextRef?
    if case .promise(let resolve, let reject) = settlement {
      let context = context()
      JSValueProtect(context, resolve)
      JSValueProtect(context, reject)
      protected = context
    }
    if let callback {
      let context = protected ?? context()
      JSValueProtect(context, callback)
      protected = context
    }
    self.context = protected
  }

  func release() {
    guard let context else { return }
    if case .promise(let resolve, let reject) = settlement {
      JSValueUnprotect(context, resolve)
      JSValueUnprotect(context, reject)
    }
    if let callback { JSValueUnprotect(context, callback) }
  }

  func cancel() {
    task?.cancel()
    reply?.cancel()
  }
}
