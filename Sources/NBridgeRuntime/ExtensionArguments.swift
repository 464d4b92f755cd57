import CJavaScriptCore
import NBridgePlugin

/// The arguments of an extension's native function, read without a raw JavaScriptCore value in sight.
@BridgeActor
package struct ExtensionArguments {
  private let js: JSContext
  private let arguments: NativeArguments

  init(js: JSContext, _ arguments: NativeArguments) {
    self.js = js
    self.arguments = arguments
  }

  /// How many arguments the caller passed.
  package var count: Int { arguments.count }

  /// Argument `i` as it is (nil when missing), for the core's own functions.
  subscript(_ i: Int) -> JSValueRef? { arguments[i] }

  /// Argument `i` as a number (`Number(value)`; NaN when it is missing).
  package func number(_ i: Int) -> Double {
    arguments[i].map { JSValueToNumber(js.ref, $0, nil) } ?? .nan
  }

  /// Argument `i` as a boolean (`Boolean(value)`; false when it is missing).
  package func bool(_ i: Int) -> Bool {
    arguments[i].map { JSValueToBoolean(js.ref, $0) } ?? false
  }

  /// Calls `body` with the bytes argument `i` holds when it is an `ArrayBuffer` or a typed
  /// array (the view's part of its buffer), borrowed for the call's duration: `body` may write
  /// them and must not keep the pointer. nil for any other value.
  package func withBytes<R>(_ i: Int, _ body: (UnsafeMutableRawBufferPointer) -> R) -> R? {
    guard let bytes = js.bufferBytes(arguments[i]) else { return nil }
    return body(UnsafeMutableRawBufferPointer(mutating: bytes))
  }

  /// Calls `body` with argument `i` as a string's UTF-16 (`String(value)`: a missing argument is
  /// `undefined`), valid during the call; nil when converting it threw.
  package func withUTF16<R, E: Error>(_ i: Int, _ body: (UnsafeBufferPointer<UInt16>) throws(E) -> R) throws(E) -> R? {
    try js.withUTF16(arguments[i], body)
  }

  /// Argument `i` as a function the extension may keep and call later; nil when it is not a function.
  package func callback(_ i: Int) -> ExtensionCallback? {
    guard let object = js.object(arguments[i]), JSObjectIsFunction(js.ref, object), let runtime = Runtime.current
    else { return nil }
    return ExtensionCallback(object, runtime: runtime)
  }

  /// Argument `i` as a string (`String(value)`; nil when converting it threw).
  package func string(_ i: Int) -> String? {
    withUTF16(i) { String(decoding: $0, as: UTF16.self) }
  }

  /// Whether argument `i` is `undefined` (or missing).
  package func isUndefined(_ i: Int) -> Bool {
    arguments[i].map { JSValueIsUndefined(js.ref, $0) } ?? true
  }

  /// Argument `i` as a value to hand back through the host.
  package func value(_ i: Int) -> ScriptValue {
    ScriptValue(arguments[i] ?? JSValueMakeUndefined(js.ref), in: js)
  }
}
