import CJavaScriptCore
import NBridgePlugin

/// How a call's outcome reaches its caller: a headless script's Promise, or a handler (a page's reply).
@BridgeActor
enum Settlement {
  /// A headless call: its Promise's resolve and reject functions wait in the prelude's table of
  /// calls in flight under this id (bridge.js), answered through `hooks.answer`/`hooks.fail`.
  case call(Int)
  /// A Swift handler, called once.
  case handler(@BridgeActor (Result<JSONValue, BridgeError>) -> Void)
  /// Another call's slot in `callSlots`, closed with the outcome as it is (that slot's own
  /// settlement labels it): a call that waited there for its plugin to start.
  case slot(Int)
}

/// What a call is answered with. A headless call's Promise takes bytes as a `Uint8Array` and JSON
/// text as the value JavaScriptCore parses from it; a handler takes `outcome`.
enum CallAnswer {
  /// A value, or the error.
  case outcome(Result<JSONValue, BridgeError>)
  /// The bytes of a `Bytes` action, adopted by a `Uint8Array` without a copy.
  case bytes(ByteStore)
  /// A value's JSON text (a `Reply` that answers with text).
  case jsonText(String)

  /// A value.
  static func success(_ value: JSONValue) -> CallAnswer { .outcome(.success(value)) }

  /// An error.
  static func failure(_ error: BridgeError) -> CallAnswer { .outcome(.failure(error)) }

  /// The answer as a value: bytes as Base64 text, JSON text parsed.
  var outcome: Result<JSONValue, BridgeError> {
    switch self {
    case .outcome(let outcome): outcome
    case .bytes(let store): .success(.string(Base64Text.encode(UnsafeRawBufferPointer(start: store.base, count: store.count))))
    case .jsonText(let text): Result { try JSONValue(parsing: text) }.mapError { BridgeError(.unknownError, "\($0)") }
    }
  }
}

/// A native call not settled yet: how it settles, its streaming callback kept from the GC, its task or reply.
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
  /// The call this one went on as once its plugin had started (this slot waited for the start):
  /// cancelling this one cancels that one.
  var goesOnAs: CallSlot?
  /// The context its callback is protected in (kept alive with it), when it has one.
  private let context: JSContext?
  /// The callback, protected while the call is pending.
  private let protected: ProtectedFunction?

  /// A pending call; `context` is asked for only when there is a callback to keep. The callback
  /// is protected here and unprotected in the destructor, with no allocation of its own. A
  /// Promise's functions are kept by the prelude's table of calls in flight, not here.
  init(label: String, settlement: Settlement, callback: JSObjectRef?, context: () -> JSContext) {
    self.label = label
    self.settlement = settlement
    self.callback = callback
    let held = callback != nil ? context() : nil
    self.context = held
    protected = held.map { ProtectedFunction(context: $0.ref, callback) }
  }

  // Not isolated: it only unprotects, which JavaScriptCore allows from the thread that drops the
  // slot (the loop's, in practice), and an isolated destructor costs a check of the executor.
  deinit { protected?.unprotect() }

  func cancel() {
    task?.cancel()
    goesOnAs?.cancel()
    let cancelled = reply
    reply = nil
    cancelled?.cancel()
  }
}

/// A JS function protected from the GC while a call is pending, unprotected by `unprotect()`.
private struct ProtectedFunction: @unchecked Sendable {
  let context: JSGlobalContextRef
  let function: JSObjectRef?

  init(context: JSGlobalContextRef, _ function: JSObjectRef?) {
    self.context = context
    self.function = function
    if let function { JSValueProtect(context, function) }
  }

  func unprotect() {
    if let function { JSValueUnprotect(context, function) }
  }
}
