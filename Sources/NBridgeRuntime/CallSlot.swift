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
final class CallSlot {
  let label: String
  let settlement: Settlement
  let callback: JSObjectRef?
  var task: Task<Void, Never>?
  /// The reply of a `Reply` action; weak, so a reply the plugin drops is seen (and rejects).
  weak var reply: AnyReply?
  var timer: Int?
  /// The context its JS functions are protected in (kept alive with them), when it has any.
  private let context: JSContext?
  private let contextRef: JSGlobalContextRef?

  /// A pending call; `context` is asked for only when there are JS values to keep. Its JS
  /// functions are protected here and unprotected in the destructor: a call holds them, with
  /// no allocation of its own for that (there may be 100,000 calls in flight).
  init(label: String, settlement: Settlement, callback: JSObjectRef?, context: () -> JSContext) {
    self.label = label
    self.settlement = settlement
    self.callback = callback
    var needsContext = callback != nil
    if case .promise = settlement { needsContext = true }
    let held = needsContext ? context() : nil
    self.context = held
    contextRef = held?.ref
    guard let contextRef else { return }
    if case .promise(let resolve, let reject) = settlement {
      JSValueProtect(contextRef, resolve)
      JSValueProtect(contextRef, reject)
    }
    if let callback { JSValueProtect(contextRef, callback) }
  }

  isolated deinit {
    guard let contextRef else { return }
    if case .promise(let resolve, let reject) = settlement {
      JSValueUnprotect(contextRef, resolve)
      JSValueUnprotect(contextRef, reject)
    }
    if let callback { JSValueUnprotect(contextRef, callback) }
  }

  func cancel() {
    task?.cancel()
    reply?.cancel()
  }
}
