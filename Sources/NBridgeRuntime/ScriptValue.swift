import CJavaScriptCore
import NBridgePlugin

/// A JS value kept from the garbage collector for exactly as long as this object lives:
/// `JSValueProtect` here, `JSValueUnprotect` in the destructor, so no code pairs them by hand.
/// What the runtime keeps across calls (a timer's function, the prelude's hooks), and what an
/// extension holds without seeing JavaScriptCore (made by `ExtensionHost`, handed back as a
/// native function's answer or kept in its state). It holds its context too, so the context
/// cannot be released first. (A pending call, of which there may be 100,000 at once, protects
/// its callback itself the same way, without this allocation.)
@BridgeActor
package final class ScriptValue {
  /// The raw value (an object's `JSObjectRef` is the same pointer); it stays in this module.
  let ref: JSValueRef
  private let context: JSContext

  /// Protects `value` in `context`.
  init(_ value: JSValueRef, in context: JSContext) {
    ref = value
    self.context = context
    JSValueProtect(context.ref, value)
  }

  isolated deinit { JSValueUnprotect(context.ref, ref) }
}

/// A JS value thrown by what an extension ran through its host (or thrown by the extension):
/// a native function that throws it throws it into the JS that called it.
package struct ThrownValue: Error, @unchecked Sendable {
  /// What was thrown.
  package let value: ScriptValue

  /// Throws `value` (an error the host made).
  package init(value: ScriptValue) { self.value = value }
}
