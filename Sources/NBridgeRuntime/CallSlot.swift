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
  /// The reply of a `Reply` action, not kept alive by the slot, so a reply the plugin drops is
  /// seen (and rejects). Unowned rather than weak (a weak reference allocates a side table per
  /// reply): a reply that goes away unanswered closes its slot first, and a cancelled one is
  /// let go of here when it is cancelled.
  unowned var reply: AnyReply?
  var timer: Int?
  /// The context its JS functions are protected in (kept alive with them), when it has any.
  private let context: JSContext?
  /// What the slot protects: the context and up to three functions (resolve, reject, callback).
  private let protected: ProtectedFunctions?

  /// A pending call; `context` is asked for only when there are JS values to keep. Its JS
  /// functions are protected here and unprotected in the destructor: a call holds them, with
  /// no allocation of its own for that (there may be 100,000 calls in flight).
  init(label: String, settlement: Settlement, callback: JSObjectRef?, context: () -> JSContext) {
    self.label = label
    self.settlement = settlement
    self.callback = callback
    var functions: (JSObjectRef?, JSObjectRef?) = (nil, nil)
    if case .promise(let resolve, let reject) = settlement { functions = (resolve, reject) }
    let needsContext = callback != nil || functions.0 != nil
    let held = needsContext ? context() : nil
    self.context = held
    protected = held.map { ProtectedFunctions(context: $0.ref, functions.0, functions.1, callback) }
  }

  // Not isolated: it only unprotects, which JavaScriptCore allows from the thread that drops the
  // slot (the loop's, in practice), and an isolated destructor costs a check of the executor.
  deinit { protected?.unprotect() }

  func cancel() {
    task?.cancel()
    let cancelled = reply
    reply = nil
    cancelled?.cancel()
  }
}

/// JS functions protected from the GC while a call is pending, unprotected by `unprotect()`.
private struct ProtectedFunctions: @unchecked Sendable {
  let context: JSGlobalContextRef
  let first: JSObjectRef?
  let second: JSObjectRef?
  let third: JSObjectRef?

  init(context: JSGlobalContextRef, _ first: JSObjectRef?, _ second: JSObjectRef?, _ third: JSObjectRef?) {
    self.context = context
    self.first = first
    self.second = second
    self.third = third
    if let first { JSValueProtect(context, first) }
    if let second { JSValueProtect(context, second) }
    if let third { JSValueProtect(context, third) }
  }

  func unprotect() {
    if let first { JSValueUnprotect(context, first) }
    if let second { JSValueUnprotect(context, second) }
    if let third { JSValueUnprotect(context, third) }
  }
}
