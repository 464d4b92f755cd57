import CJavaScriptCore
import Glibc
import NBridgePlugin

/// A JS function an extension keeps past the call that handed it over (`fetch`'s progress
/// handler) and calls later from the loop, kept from the collector while this object lives.
@BridgeActor
package final class ExtensionCallback {
  private let function: ScriptValue
  /// Weak: the runtime keeps the extension's state, which keeps this.
  private weak var runtime: Runtime?

  init(_ function: JSObjectRef, runtime: Runtime) {
    self.function = ScriptValue(function, in: runtime.js)
    self.runtime = runtime
  }

  /// Calls the function with `arguments` (an `.error` among them passes `undefined`); what it
  /// throws is reported as uncaught, then what follows a callback runs (unhandled rejections).
  /// When the runtime is gone, nothing is called and the `ArrayBuffer` memory given is freed.
  package func call(_ arguments: [ExtensionResult]) {
    guard let runtime else {
      for case .arrayBuffer(let bytes) in arguments { free(bytes.baseAddress) }
      return
    }
    let js = runtime.js
    var kept = KeptValues(in: js.ref)
    for argument in arguments { kept.append((try? js.value(argument)) ?? JSValueMakeUndefined(js.ref)) }
    do { try js.call(function.ref, kept.values) } catch { runtime.reportUncaught(error.value) }
    runtime.afterCallback()
  }
}
