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
  /// The streaming callback, protected from the GC while the call is pending.
  nonisolated(unsafe) let callback: JSObjectRef?
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
  /// The context the callback is protected in, kept alive with it (nil without a callback).
  private let context: JSContext?
  /// `context`'s reference, for the destructor.
  nonisolated(unsafe) private let contextRef: JSGlobalContextRef?

  /// A pending call; `context` is asked for only when there is a callback to keep. The callback
  /// is protected here and unprotected in the destructor, with no allocation of its own. A
  /// Promise's functions are kept by the prelude's table of calls in flight, not here.
  init(label: String, settlement: Settlement, callback: JSObjectRef?, context: () -> JSContext) {
    self.label = label
    self.settlement = settlement
    self.callback = callback
    self.context = callback != nil ? context() : nil
    contextRef = self.context?.ref
    if let callback, let contextRef { JSValueProtect(contextRef, callback) }
  }

  // Not isolated: it only unprotects, which JavaScriptCore allows from the thread that drops the
  // slot (the loop's, in practice), and an isolated destructor costs a check of the executor.
  deinit { if let callback, let contextRef { JSValueUnprotect(contextRef, callback) } }

  func cancel() {
    task?.cancel()
    goesOnAs?.cancel()
    let cancelled = reply
    reply = nil
    cancelled?.cancel()
  }
}
