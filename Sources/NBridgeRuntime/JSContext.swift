import CJavaScriptCore
import NBridgePlugin

/// A JavaScriptCore global context and the handful of operations the runtime needs.
///
/// Every raw JSC pointer of nbridge lives in this module; nothing here is public.
@BridgeActor
final class JSContext {
  let group: JSContextGroupRef
  let ref: JSGlobalContextRef
  var global: JSObjectRef { JSContextGetGlobalObject(ref) }

  init() {
    let setVariables = JSCOptions.set(largeFirstHeap: JSContext.largeFirstHeap)
    group = JSContextGroupCreate()
    for name in setVariables { unsetenv(name) }
    ref = JSGlobalContextCreateInGroup(group, nil)
  }

  /// Whether the process's first context collects garbage first after 4 MiB allocated
  /// instead of JavaScriptCore's 1 MiB (`JSC_smallHeapSize`; later cycles follow from it): for
  /// a run whose entry loads a module graph, whose compiled code lives as long as the run, so
  /// a collection during the load frees little (300 modules: 2.4 MiB marked, 0.8 MiB freed) and
  /// costs 7.3 M of the load's 128 M instructions. Set before the first context is made;
  /// nothing changes after. (Not for every run: 250,000 bridge calls peaked at 77 MiB instead
  /// of 52 with it.)
  static var largeFirstHeap = false

  /// JSC's process-wide options, which it reads once, when the process's first context group
  /// is made. They go in as the `JSC_` environment variables JSC reads then, and come out of the
  /// environment again (child processes do not inherit them). `jsc_options_set_boolean` would
  /// crash a process where something made a context first (a benchmark's bare floor, a host
  /// program): JSC freezes its options in read-only memory once initialized.
  private enum JSCOptions {
    /// SharedArrayBuffer, which JSC leaves out of a context made through its C API unless asked.
    static let options = [("JSC_useSharedArrayBuffer", "1")]
    /// A first collection after 4 MiB (`largeFirstHeap`).
    static let largeFirstHeap = ("JSC_smallHeapSize", String(4 << 20))

    /// Sets the options' variables the user has not set; returns their names (to unset once
    /// the context group exists).
    static func set(largeFirstHeap large: Bool) -> [String] {
      (options + (large ? [largeFirstHeap] : [])).compactMap { name, value in
        guard getenv(name) == nil, setenv(name, value, 1) == 0 else { return nil }
        return name
      }
    }
  }

  isolated deinit {
    JSGlobalContextRelease(ref)
    JSContextGroupRelease(group)
  }

  /// What `body` answers, run holding the VM's API lock: each C API call in it then takes the
  /// lock again recursively instead of acquiring it (a few hundred instructions each, and
  /// JavaScriptCore releases the lock before it calls a native function).
  func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    JSLock(ref)
    defer { JSUnlock(ref) }
    return try body()
  }

  /// Evaluates `source` as a script named `url`, its top-level `this` being `this` (the global
  /// object when nil); returns the result or throws the JS exception.
  @discardableResult
  func evaluate(_ source: some JSText, url: String, this: JSObjectRef? = nil) throws(JSException) -> JSValueRef {
    try withScript(source.makeJSString(), url: url) { script, name, exception in
      JSEvaluateScript(ref, script, this, name, 1, &exception) ?? JSValueMakeUndefined(ref)
    }
  }

  /// Parses `source` as a script named `url` without running it; throws its SyntaxError.
  func checkSyntax(_ source: some JSText, url: String) throws(JSException) {
    try withScript(source.makeJSString(), url: url) { script, name, exception in
      _ = JSCheckScriptSyntax(ref, script, name, 1, &exception)
    }
  }

  /// Hands `script` (released after) and the JS string of `url` to `body`, and throws the
  /// exception `body` left.
  private func withScript<Result>(
    _ script: JSStringRef, url: String, _ body: (JSStringRef, JSStringRef, inout JSValueRef?) -> Result
  ) throws(JSException) -> Result {
    defer { JSStringRelease(script) }
    let name = url.makeJSString()
    defer { JSStringRelease(name) }
    var exception: JSValueRef?
    let result = body(script, name, &exception)
    if let exception { throw JSException(value: exception) }
    return result
  }

  /// Calls `function` with `this` (nil: the C API's, the global object) and `arguments`; throws the JS exception.
  @discardableResult
  func call(_ function: JSObjectRef, this: JSObjectRef? = nil, _ arguments: [JSValueRef?]) throws(JSException) -> JSValueRef {
    var exception: JSValueRef?
    let result = arguments.withUnsafeBufferPointer {
      JSObjectCallAsFunction(ref, function, this, $0.count, $0.baseAddress, &exception)
    }
    if let exception { throw JSException(value: exception) }
    return result ?? JSValueMakeUndefined(ref)
  }

  /// Calls a promise's resolve or reject function with one value; they cannot throw.
  func settle(_ function: JSObjectRef, _ value: JSValueRef) {
    var argument: JSValueRef? = value
    _ = JSObjectCallAsFunction(ref, function, nil, 1, &argument, nil)
  }

  /// Calls a function of the prelude that settles a call with two values (no array made for them).
  func settle(_ function: JSObjectRef, _ first: JSValueRef?, _ second: JSValueRef?) {
    var arguments: (JSValueRef?, JSValueRef?) = (first, second)
    withUnsafePointer(to: &arguments) {
      $0.withMemoryRebound(to: JSValueRef?.self, capacity: 2) {
        _ = JSObjectCallAsFunction(ref, function, nil, 2, $0, nil)
      }
    }
  }

  /// Reads `object[name]`.
  func property(_ object: JSObjectRef, _ name: String) -> JSValueRef? {
    releasing(name.makeJSString()) { JSObjectGetProperty(ref, object, $0, nil) }
  }

  /// Sets `object[name] = value`.
  func setProperty(_ object: JSObjectRef, _ name: String, _ value: JSValueRef?) {
    releasing(name.makeJSString()) {
      JSObjectSetProperty(ref, object, $0, value, JSPropertyAttributes(kJSPropertyAttributeNone), nil)
    }
  }

  /// A JS string of `text`.
  func string(_ text: some JSText) -> JSValueRef { releasing(text.makeJSString()) { JSValueMakeString(ref, $0) } }

  /// A JS string of NUL-terminated UTF-8 (`""` for NULL), made without a Swift `String`.
  func utf8String(_ text: UnsafePointer<CChar>?) -> JSValueRef {
    releasing(text.map { JSStringCreateWithUTF8CString($0) } ?? JSStringCreateWithUTF8CString("")) {
      JSValueMakeString(ref, $0)
    }
  }

  /// What `body` makes of `string`, which this releases after.
  private func releasing<R>(_ string: JSStringRef, _ body: (JSStringRef) -> R) -> R {
    defer { JSStringRelease(string) }
    return body(string)
  }

  /// A JS `Error` with `message`.
  func error(_ message: String) -> JSValueRef {
    var argument: JSValueRef? = string(message)
    return JSObjectMakeError(ref, 1, &argument, nil) ?? JSValueMakeUndefined(ref)
  }

  /// A value as a Swift string (`String(value)` in JS).
  func toString(_ value: JSValueRef?) -> String {
    guard let value else { return "undefined" }
    guard let s = JSValueToStringCopy(ref, value, nil) else { return "" }
    return releasing(s) { String(jsString: $0) }
  }

  /// A value as an object, if it is one.
  func object(_ value: JSValueRef?) -> JSObjectRef? {
    guard let value, JSValueIsObject(ref, value) else { return nil }
    return JSValueToObject(ref, value, nil)
  }

  /// The bytes an ArrayBuffer or a typed array (any kind) views, nil for any other value; an
  /// empty one has no base address.
  func bufferBytes(_ value: JSValueRef?) -> UnsafeRawBufferPointer? {
    // JSValueIsObject first (`object`): JSValueToObject of undefined or null makes a TypeError,
    // and JavaScriptCore symbolizes the native stack of every error it makes (~0.5 ms).
    guard let value, let object = object(value) else { return nil }
    switch JSValueGetTypedArrayType(ref, value, nil) {
    case kJSTypedArrayTypeNone:
      return nil
    case kJSTypedArrayTypeArrayBuffer:
      let count = JSObjectGetArrayBufferByteLength(ref, object, nil)
      return UnsafeRawBufferPointer(start: count > 0 ? JSObjectGetArrayBufferBytesPtr(ref, object, nil) : nil, count: count)
    default:
      let count = JSObjectGetTypedArrayByteLength(ref, object, nil)
      guard count > 0, let base = JSObjectGetTypedArrayBytesPtr(ref, object, nil) else {
        return UnsafeRawBufferPointer(start: nil, count: 0)
      }
      return UnsafeRawBufferPointer(start: base + JSObjectGetTypedArrayByteOffset(ref, object, nil), count: count)
    }
  }

  /// Calls `body` with `String(value)`'s UTF-16 code units (nil is `undefined`), valid during
  /// the call; nil when converting it threw.
  func withUTF16<R, E: Error>(_ value: JSValueRef?, _ body: (UnsafeBufferPointer<UInt16>) throws(E) -> R) throws(E) -> R? {
    guard let string = JSValueToStringCopy(ref, value ?? JSValueMakeUndefined(ref), nil) else { return nil }
    defer { JSStringRelease(string) }
    let length = JSStringGetLength(string)
    return try body(UnsafeBufferPointer(start: length > 0 ? JSStringGetCharactersPtr(string) : nil, count: length))
  }

  /// The JS value of a `JSONValue`: scalars directly, containers through JSON text (one C call).
  func value(_ json: JSONValue) -> JSValueRef {
    switch json {
    case .null: return JSValueMakeNull(ref)
    case .bool(let b): return JSValueMakeBoolean(ref, b)
    case .number(let n): return JSValueMakeNumber(ref, n)
    case .string(let s): return string(s)
    case .array, .object:
      return json.withJSONTextUTF16 { value(parsing: JSStringCreateWithCharacters($0.baseAddress, $0.count)) }
    }
  }

  /// The JS value `text` (JSON text, checked) holds, parsed by JavaScriptCore: no `JSONValue` between.
  func value(jsonText text: String) -> JSValueRef { value(parsing: text.makeJSString()) }

  /// The JS value the JSON text `text` holds (null if it holds none); this releases `text`.
  private func value(parsing text: JSStringRef) -> JSValueRef {
    releasing(text) { JSValueMakeFromJSONString(ref, $0) ?? JSValueMakeNull(ref) }
  }

  /// `value` as a JS value when making it allocates nothing (null, a boolean, a number), else nil.
  func immediateValue(_ value: JSONValue) -> JSValueRef? {
    switch value {
    case .null: JSValueMakeNull(ref)
    case .bool(let b): JSValueMakeBoolean(ref, b)
    case .number(let n): JSValueMakeNumber(ref, n)
    case .string, .array, .object: nil
    }
  }

  /// Parses a call's options, a JS string of JSON text, straight from its UTF-16 buffer: at most
  /// `BridgeLimits.maxTextLength` code units, and strings must be well-formed UTF-16.
  func parseOptions(_ value: JSValueRef) throws(BridgeError) -> JSONValue {
    guard let s = JSValueToStringCopy(ref, value, nil) else { return .null }
    defer { JSStringRelease(s) }
    let length = JSStringGetLength(s)
    guard length <= BridgeLimits.maxTextLength else { throw BridgeError.optionsTooLong(length) }
    guard let chars = JSStringGetCharactersPtr(s) else { return .null }
    do {
      return try JSONValue(parsingOptionsUTF16: UnsafeBufferPointer(start: chars, count: length))
    } catch {
      throw BridgeError(optionsParsing: error)
    }
  }

  /// Reads a call's options, a JS string of JSON text, as UTF-8 text left unparsed (for an action
  /// that reads it in place): at most `BridgeLimits.maxTextLength` code units, checked as
  /// `parseOptions` checks them. The text is `JSON.stringify`'s, which escapes lone surrogates,
  /// so its UTF-8 is exact (no U+FFFD is made).
  func optionsText(_ value: JSValueRef) throws(BridgeError) -> OptionsText {
    guard let s = JSValueToStringCopy(ref, value, nil) else { return OptionsText() }
    defer { JSStringRelease(s) }
    let length = JSStringGetLength(s)
    guard length <= BridgeLimits.maxTextLength else { throw BridgeError.optionsTooLong(length) }
    // Through the UTF-16 buffer: JavaScriptCore's own UTF-8 conversion (JSStringGetUTF8CString)
    // costs ~30 instructions a character, the copy of ASCII text here ~2.
    do { return try OptionsText(scanning: String(jsString: s)) } catch { throw BridgeError(optionsParsing: error) }
  }

  /// Makes a function object that calls `callback`.
  func function(_ name: String, _ callback: JSObjectCallAsFunctionCallback) -> JSObjectRef {
    releasing(name.makeJSString()) { JSObjectMakeFunctionWithCallback(ref, $0, callback) }
  }
}

/// A JavaScript exception caught at the boundary.
struct JSException: Error, @unchecked Sendable {
  let value: JSValueRef
}
