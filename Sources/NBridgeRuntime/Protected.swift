import CJavaScriptCore
import NBridgePlugin

/// A JS value kept from the garbage collector for exactly as long as this object lives:
/// `JSValueProtect` here, `JSValueUnprotect` in the destructor, so no code pairs them by hand.
/// It holds its context too, so the context cannot be released first. (A pending call, of which
/// there may be 100,000 at once, protects its functions itself the same way, without this
/// allocation.)
@BridgeActor
final class Protected {
  /// The value (an object's `JSObjectRef` is the same pointer).
  let value: JSValueRef
  private let context: JSContext

  /// Protects `value` in `context`.
  init(_ value: JSValueRef, in context: JSContext) {
    self.value = value
    self.context = context
    JSValueProtect(context.ref, value)
  }

  isolated deinit { JSValueUnprotect(context.ref, value) }
}
