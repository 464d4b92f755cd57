import CJavaScriptCore
import NBridgePlugin

/// A Promise an extension's native function answers with and settles later (`simulate`'s move,
/// once JS may hear of it): `ExtensionHost.promise()` makes it, the function answers with its
/// `value`. Settling enters JS at once or, while the app is suspended, when it resumes (as a
/// plugin's answer does); the first settlement counts. What follows a callback runs after it.
@BridgeActor
package final class ExtensionPromise {
  /// The Promise, to answer with (`.value(promise.value)`).
  package let value: ScriptValue
  private let resolveFunction: ScriptValue
  private let rejectFunction: ScriptValue
  /// Weak: the extension's state keeps this, and the runtime keeps the state.
  private weak var runtime: Runtime?
  private var settled = false

  init?(runtime: Runtime) {
    let js = runtime.js
    var resolve: JSObjectRef?
    var reject: JSObjectRef?
    guard let promise = JSObjectMakeDeferredPromise(js.ref, &resolve, &reject, nil), let resolve, let reject else {
      return nil
    }
    value = ScriptValue(promise, in: js)
    resolveFunction = ScriptValue(resolve, in: js)
    rejectFunction = ScriptValue(reject, in: js)
    self.runtime = runtime
  }

  /// Resolves the Promise with `result` (nil: `undefined`; an `.error` rejects it with that Error).
  package func resolve(_ result: ExtensionResult? = nil) {
    guard !settled, let runtime else { return }
    settled = true
    runtime.deliverToJS { [weak runtime, resolveFunction, rejectFunction] in
      guard let runtime else { return }
      let js = runtime.js
      do throws(JSException) {
        let value: JSValueRef = if let result { try js.value(result) } else { JSValueMakeUndefined(js.ref) }
        js.settle(resolveFunction.ref, value)
      } catch {
        js.settle(rejectFunction.ref, error.value)
      }
      runtime.afterCallback()
    }
  }
}
