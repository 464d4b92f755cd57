import CJavaScriptCore
import NBridgePlugin

/// The script surface an extension is given (the module loader's): JS values made, evaluated
/// and called through the host, held as `ScriptValue`s, never as JavaScriptCore pointers.
extension ExtensionHost {
  private var js: JSContext { runtime.js }

  private func wrap(_ value: JSValueRef) -> ScriptValue { ScriptValue(value, in: runtime.js) }

  /// What `body` answers, its JS exception thrown as a `ThrownValue`.
  private func rethrowing<R>(_ body: () throws(JSException) -> R) throws(ThrownValue) -> R {
    do throws(JSException) { return try body() } catch { throw ThrownValue(value: wrap(error.value)) }
  }

  /// The global object.
  package var global: ScriptValue { wrap(js.global) }

  /// Asks for the run's JS context to collect garbage first after 4 MiB instead of 1 MiB
  /// (`JSContext.largeFirstHeap`): for an entry that loads a module graph, called before the
  /// context is made (when the entry is claimed); later, it changes nothing.
  package func prefersLargeFirstHeap() {
    JSContext.largeFirstHeap = true
  }

  /// The prelude's `internal.native`: the runtime's native functions and the extensions'.
  package var native: ScriptValue? { runtime.nativeObject }

  /// The prelude's hook `name` (`hooks.js`: `shiftColumns`, `requireFile`, `Promise`, ...).
  package func hook(_ name: String) -> ScriptValue? { runtime.hook(name).map(wrap) }

  /// `undefined`.
  package var undefined: ScriptValue { wrap(JSValueMakeUndefined(js.ref)) }
  /// `null`.
  package var null: ScriptValue { wrap(JSValueMakeNull(js.ref)) }

  /// `value` as JS (objects and arrays made anew).
  package func value(_ value: JSONValue) -> ScriptValue { wrap(js.value(value)) }

  /// The string `text`.
  package func string(_ text: String) -> ScriptValue { wrap(js.string(text)) }

  /// `value` as a string, as `String(value)` makes it.
  package func text(_ value: ScriptValue) -> String { js.toString(value.ref) }

  /// `value` when it is a number, else nil.
  package func number(_ value: ScriptValue) -> Double? {
    JSValueIsNumber(js.ref, value.ref) ? JSValueToNumber(js.ref, value.ref, nil) : nil
  }

  /// Whether `value` is an object (a function included).
  package func isObject(_ value: ScriptValue) -> Bool { JSValueIsObject(js.ref, value.ref) }

  /// Whether `value` is a function.
  package func isFunction(_ value: ScriptValue) -> Bool {
    guard let object = js.object(value.ref) else { return false }
    return JSObjectIsFunction(js.ref, object)
  }

  /// A string of the UTF-16 `units` (no Swift string made on the way).
  package func string(units: [UInt16]) -> ScriptValue { wrap(js.string(units)) }

  /// An array of `values`.
  package func array(_ values: [ScriptValue]) -> ScriptValue {
    let refs: [JSValueRef?] = values.map(\.ref)
    return wrap(refs.withUnsafeBufferPointer { JSObjectMakeArray(js.ref, $0.count, $0.baseAddress, nil) })
  }

  /// A plain object with `properties`, in order.
  package func object(_ properties: [(String, ScriptValue)]) -> ScriptValue {
    let object = JSObjectMake(js.ref, nil, nil)!
    for (name, value) in properties { js.setProperty(object, name, value.ref) }
    return wrap(object)
  }

  /// Property `name` of `object` (undefined when `object` is not an object).
  package func property(_ object: ScriptValue, _ name: String) -> ScriptValue {
    guard let target = js.object(object.ref) else { return undefined }
    return wrap(js.property(target, name) ?? JSValueMakeUndefined(js.ref))
  }

  /// Evaluates `source` as a script named `url`: its completion value (a function expression's
  /// function); throws what it throws (a SyntaxError included).
  package func evaluate(_ source: String, url: String) throws(ThrownValue) -> ScriptValue {
    try rethrowing { () throws(JSException) in wrap(try js.evaluate(source, url: url)) }
  }

  /// Evaluates a user's script `source` (a CommonJS module's wrapper, a `load()`ed file) named
  /// `url`, kept for error reports, its `import()` routed to the module loader (nbridge's own
  /// `nbridge:` files may not import); its completion value.
  package func evaluateUserScript(_ source: String, url: String) throws(ThrownValue) -> ScriptValue {
    runtime.sources[url] = source
    guard !url.hasPrefix("nbridge:") else { return try evaluate(source, url: url) }
    let (script, shifts) = runtime.runnableScript(source, url: url)
    runtime.registerColumnShifts(url, shifts)
    return try evaluate(script, url: url)
  }

  /// Evaluates the UTF-16 `units` as a script named `url`, its top-level `this` being `this`
  /// (the global object when nil); throws what it throws.
  package func evaluate(units: [UInt16], url: String, this: ScriptValue? = nil) throws(ThrownValue) -> ScriptValue {
    try rethrowing { () throws(JSException) in
      wrap(try js.evaluate(units, url: url, this: this.flatMap { js.object($0.ref) }))
    }
  }

  /// Parses the UTF-16 `units` as a script named `url` without running it; throws its SyntaxError.
  package func checkSyntax(units: [UInt16], url: String) throws(ThrownValue) {
    try rethrowing { () throws(JSException) in try js.checkSyntax(units, url: url) }
  }

  /// Parses `source` as a script named `url` without running it; throws its SyntaxError.
  package func checkSyntax(_ source: String, url: String) throws(ThrownValue) {
    try rethrowing { () throws(JSException) in try js.checkSyntax(source, url: url) }
  }

  /// Calls `function` with `this` (when nil, the C API's: the global object) and `arguments`;
  /// throws what it throws, or an `Error` when `function` is not one.
  package func call(_ function: ScriptValue, this: ScriptValue? = nil, _ arguments: [ScriptValue]) throws(ThrownValue)
    -> ScriptValue
  {
    guard let callee = js.object(function.ref), JSObjectIsFunction(js.ref, callee) else {
      throw ThrownValue(value: error("not a function", code: nil))
    }
    return try rethrowing { () throws(JSException) in
      wrap(try js.call(callee, this: this.flatMap { js.object($0.ref) }, arguments.map(\.ref)))
    }
  }

  /// An `Error` with `message` and, when given, a `code` property.
  package func error(_ message: String, code: String?) -> ScriptValue {
    let error = js.error(message)
    if let code, let object = js.object(error) { js.setProperty(object, "code", js.string(code)) }
    return wrap(error)
  }

  /// A `SyntaxError` at `path:line` (the error report shows the line and a caret at `column`).
  package func syntaxError(_ message: String, path: String, line: Int, column: Int) -> ScriptValue {
    wrap(runtime.syntaxError(message, path: path, line: line, column: column))
  }

  /// Tells the prelude's stack formatting the widths a rewrite inserted into the script `url`
  /// (`[line, generated column, width]` each).
  package func registerColumnShifts(_ url: String, _ shifts: [[Int]]) { runtime.registerColumnShifts(url, shifts) }
}
