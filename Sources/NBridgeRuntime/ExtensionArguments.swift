import CJavaScriptCore
import NBridgePlugin

/// The arguments of an extension's native function, read without a raw JavaScriptCore value in
/// sight: from a JS call in a headless run, or from the values a window's page sent in a message.
@BridgeActor
package struct ExtensionArguments {
  /// An argument a page's message carried.
  package enum Value {
    case number(Double)
    case utf16([UInt16])
  }

  private enum Storage {
    case js(JSContext, NativeArguments)
    case values([Value])
  }

  private let storage: Storage

  init(js: JSContext, _ arguments: NativeArguments) {
    storage = .js(js, arguments)
  }

  /// Arguments given as values (a page's message).
  package init(values: [Value]) {
    storage = .values(values)
  }

  /// How many arguments the caller passed.
  package var count: Int {
    switch storage {
    case .js(_, let arguments): arguments.count
    case .values(let values): values.count
    }
  }

  /// Argument `i` as a number (`Number(value)`; NaN when it is missing or is not a number).
  package func number(_ i: Int) -> Double {
    switch storage {
    case .js(let js, let arguments): arguments[i].map { JSValueToNumber(js.ref, $0, nil) } ?? .nan
    case .values(let values):
      if i < values.count, case .number(let number) = values[i] { number } else { .nan }
    }
  }

  /// Argument `i` as a boolean (`Boolean(value)`; false when it is missing).
  package func bool(_ i: Int) -> Bool {
    switch storage {
    case .js(let js, let arguments): arguments[i].map { JSValueToBoolean(js.ref, $0) } ?? false
    case .values(let values):
      if i < values.count, case .number(let number) = values[i] { number != 0 && !number.isNaN } else { i < values.count }
    }
  }

  /// Calls `body` with the bytes argument `i` holds when it is an `ArrayBuffer` or a typed
  /// array (the view's part of its buffer), borrowed for the call's duration: `body` may write
  /// them and must not keep the pointer. nil for any other value (and for a page's message).
  package func withBytes<R>(_ i: Int, _ body: (UnsafeMutableRawBufferPointer) -> R) -> R? {
    guard case .js(let js, let arguments) = storage, let bytes = js.bufferBytes(arguments[i]) else { return nil }
    return body(UnsafeMutableRawBufferPointer(mutating: bytes))
  }

  /// Calls `body` with argument `i` as a string's UTF-16 (`String(value)`: a missing argument is
  /// `undefined`), valid during the call; nil when converting it threw.
  package func withUTF16<R, E: Error>(_ i: Int, _ body: (UnsafeBufferPointer<UInt16>) throws(E) -> R) throws(E) -> R? {
    switch storage {
    case .js(let js, let arguments):
      return try js.withUTF16(arguments[i], body)
    case .values(let values):
      let units: [UInt16]
      if i >= values.count {
        units = Array("undefined".utf16)
      } else {
        switch values[i] {
        case .utf16(let given): units = given
        case .number(let number): units = Array(String(number).utf16)
        }
      }
      return try units.withUnsafeBufferPointer { buffer throws(E) in try body(buffer) }
    }
  }

  /// Calls `body` with argument `i` as a byte string (`String(value)`, each code unit's low byte:
  /// the Fetch standard's methods, header names and values), NUL-terminated, valid during the call.
  package func withByteString<R>(_ i: Int, _ body: (UnsafePointer<CChar>) -> R) -> R {
    withUTF16(i) { units in
      withUnsafeTemporaryAllocation(of: CChar.self, capacity: units.count + 1) { bytes in
        for (n, unit) in units.enumerated() { bytes[n] = CChar(truncatingIfNeeded: unit) }
        bytes[units.count] = 0
        return body(UnsafePointer(bytes.baseAddress!))
      }
    } ?? body("")
  }

  /// Argument `i` as a function the extension may keep and call later; nil when it is not a
  /// function (or in a page's message).
  package func callback(_ i: Int) -> ExtensionCallback? {
    guard case .js(let js, let arguments) = storage, let object = js.object(arguments[i]), JSObjectIsFunction(js.ref, object),
      let runtime = Runtime.current
    else { return nil }
    return ExtensionCallback(object, runtime: runtime)
  }

  /// Argument `i` as a string (`String(value)`; nil when converting it threw).
  package func string(_ i: Int) -> String? {
    withUTF16(i) { String(decoding: $0, as: UTF16.self) }
  }

  /// Whether argument `i` is `undefined` (or missing).
  package func isUndefined(_ i: Int) -> Bool {
    switch storage {
    case .js(let js, let arguments): arguments[i].map { JSValueIsUndefined(js.ref, $0) } ?? true
    case .values(let values): i >= values.count
    }
  }

  /// Argument `i` as a value to hand back through the host (undefined from a page's message).
  package func value(_ i: Int, in host: ExtensionHost) -> ScriptValue {
    switch storage {
    case .js(let js, let arguments): ScriptValue(arguments[i] ?? JSValueMakeUndefined(js.ref), in: js)
    case .values: host.undefined
    }
  }

  /// Argument `i`, a JSON text, parsed by JavaScriptCore (nil when it is not one, or in a page's message).
  package func json(_ i: Int, in host: ExtensionHost) -> JSONValue? {
    switch storage {
    case .js(let js, let arguments): try? js.withUTF16(arguments[i]) { units throws(JSONSyntaxError) in try JSONValue(parsingUTF16: units) }
    case .values: nil
    }
  }
}
