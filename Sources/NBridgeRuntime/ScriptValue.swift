import CJavaScriptCore
import NBridgePlugin

/// A JS value an extension holds without seeing JavaScriptCore: made by `ExtensionHost` (a
/// compiled function, a string from UTF-16, an array of such values), handed back as a native
/// function's answer or kept in the extension's state. It is kept from the garbage collector for
/// as long as the Swift value lives.
@BridgeActor
package struct ScriptValue {
  let kept: Protected

  /// The raw value; it stays in this module.
  var ref: JSValueRef { kept.value }

  init(_ value: JSValueRef, in context: JSContext) { kept = Protected(value, in: context) }
}

/// A JS value thrown by what an extension ran through its host (or thrown by the extension):
/// a native function that throws it throws it into the JS that called it.
package struct ThrownValue: Error, @unchecked Sendable {
  /// What was thrown.
  package let value: ScriptValue

  /// Throws `value` (an error the host made).
  package init(value: ScriptValue) { self.value = value }
}
