import CJavaScriptCore
import Glibc
import NBridgePlugin

/// What an extension's native function answers when a `JSONValue` cannot carry it: a string
/// made from UTF-16 code units (lone surrogates kept), an array of such values, bytes, or an
/// error to throw. The runtime makes the JS value; the extension never sees a raw one.
package enum ExtensionResult {
  /// A value JSON carries (containers through JSON text, scalars directly).
  case json(JSONValue)
  /// A string of these UTF-16 code units, as they are.
  case utf16([UInt16])
  /// A string of NUL-terminated UTF-8 (nil: empty), read when the JS value is made: the memory
  /// must live until then (a C library's text during its callback).
  case utf8(UnsafePointer<CChar>?)
  /// An array of these values, in order.
  case array([ExtensionResult])
  /// An `ArrayBuffer` that takes over this memory from `malloc` (JavaScriptCore frees it).
  case arrayBuffer(UnsafeMutableRawBufferPointer)
  /// A JS `Error` with this message, thrown from the call.
  case error(String)
  /// A value the extension made through its host (a compiled function, an `Error` with a code).
  case value(ScriptValue)
  /// A value the extension made through its host, thrown from the call (a SyntaxError, a coded `Error`).
  case thrown(ScriptValue)
}

extension JSContext {
  /// The JS value of an extension's answer; `.error` is thrown.
  func value(_ result: ExtensionResult) throws(JSException) -> JSValueRef {
    switch result {
    case .json(let json):
      return value(json)
    case .utf16(let units):
      return string(units)
    case .utf8(let text):
      return utf8String(text)
    case .array(let items):
      var kept = KeptValues(in: ref)
      for item in items { kept.append(try value(item)) }
      return kept.values.withUnsafeBufferPointer { JSObjectMakeArray(ref, $0.count, $0.baseAddress, nil) }
    case .arrayBuffer(let bytes):
      let base = bytes.baseAddress ?? malloc(1)!
      return JSObjectMakeArrayBufferWithBytesNoCopy(ref, base, bytes.count, freeBytes, nil, nil)
    case .error(let message):
      throw JSException(value: error(message))
    case .value(let value):
      return value.ref
    case .thrown(let value):
      throw JSException(value: value.ref)
    }
  }
}
