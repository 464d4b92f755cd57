import CJavaScriptCore
import NBridgePlugin

/// The runtime's side of `RuntimeExtension`: each extension's state, its native functions on
/// `internal.native`, its JS files, and its hooks.
extension Runtime {
  /// Each extension with its state for this run, in order.
  private var extensionsAndStates: Zip2Sequence<[RuntimeExtension], [AnyObject]> {
    zip(configuration.extensions, extensionStates)
  }

  /// The extensions' `values`, for the JS files' `internal` object, in order (a later one of the
  /// same name replaces an earlier one as it is set).
  package func extensionValues() -> [(name: String, value: JSONValue)] {
    configuration.extensions.flatMap { item in item.values(extensionHost).map { (name: $0.key, value: $0.value) } }
  }

  /// The extensions' JS files run when the `nbridge` object is built, in order.
  package var extensionScripts: [RuntimeExtension.Script] { configuration.extensions.flatMap(\.nbridgeScripts) }

  /// The extension file `native.loadDeferred(name)` evaluates: a deferred file, else an `nbridge` one.
  func extensionScript(named name: String) -> RuntimeExtension.Script? {
    let deferred = configuration.extensions.lazy.flatMap(\.deferredScripts)
    return deferred.first { $0.name == name } ?? extensionScripts.first { $0.name == name }
  }

  /// Puts the core's native functions, then every extension's, on `native`, numbered in that order.
  func installNativeFunctions(on native: JSObjectRef) {
    var names = Runtime.nativeFunctions.map { $0.name }
    for item in configuration.extensions { names += item.functions.map { $0.name } }
    for (index, name) in names.enumerated() {
      let function = JSObjectMake(js.ref, Runtime.nativeFunctionClass, UnsafeMutableRawPointer(bitPattern: index + 1))
      js.setProperty(native, name, function)
    }
  }

  /// Calls native function `index`: one of the core's (`nativeFunctions`), then the extensions' in order.
  func callNativeFunction(_ index: Int, _ args: NativeArguments) throws(JSException) -> JSValueRef? {
    let arguments = ExtensionArguments(js: js, args)
    if index < Runtime.nativeFunctions.count { return try Runtime.nativeFunctions[index].body(self, arguments) }
    var index = index - Runtime.nativeFunctions.count
    for (item, state) in extensionsAndStates {
      if index < item.functions.count {
        let result = item.functions[index].body(state, extensionHost, arguments)
        return try result.map { result throws(JSException) in try js.value(result) }
      }
      index -= item.functions.count
    }
    return nil
  }

  /// Hands a window's page message to the `pageMessage` hook of the extension named `name`.
  package func deliver(pageMessage text: Substring, to name: String) {
    for (item, state) in extensionsAndStates where item.name == name {
      item.hooks.pageMessage?(state, extensionHost, text)
    }
  }

  /// The extension that runs the entry `path` (text `source`) itself, if one claims it.
  func extensionClaimingEntry(_ path: String, source: String) -> Int? {
    configuration.extensions.indices.first { position in
      configuration.extensions[position].hooks.claimsEntry?(extensionStates[position], extensionHost, path, source) ?? false
    }
  }

  /// Runs the entry the extension numbered `position` claimed; answers its Promise, if any.
  func startClaimedEntry(_ position: Int, path: String, source: String) throws(JSException) -> JSValueRef? {
    guard let start = configuration.extensions[position].hooks.startEntry else { return nil }
    do throws(ThrownValue) {
      return try start(extensionStates[position], extensionHost, path, source)?.ref
    } catch {
      throw JSException(value: error.value.ref)
    }
  }

  /// How the uncaught `value` prints after `prefix`: as the first extension that describes it
  /// says, else as JavaScriptCore gives it, with its stack when it has one.
  func describeUncaught(_ value: JSValueRef, prefix: String) -> String {
    let script = ScriptValue(value, in: js)
    for (item, state) in extensionsAndStates {
      if let text = item.hooks.describeUncaught?(state, extensionHost, script) { return "\(prefix) \(text)" }
    }
    let stack = js.object(value).flatMap { js.property($0, "stack") }.flatMap { JSValueIsString(js.ref, $0) ? $0 : nil }
    return "\(prefix) \(js.toString(value))" + (stack.map { "\n" + js.toString($0) } ?? "")
  }

  /// Runs each extension's `clearCaches` hook; the kinds removed.
  func clearExtensionCaches() -> [String] {
    extensionsAndStates.flatMap { item, state in item.hooks.clearCaches?(state, extensionHost) ?? [] }
  }

  /// Runs each extension's hook that `hook` picks (`{ $0.start }`), in order or last first.
  /// (A closure, not a key path: making a key path costs ~40,000 instructions at each start.)
  func runHooks(lastFirst: Bool = false, _ hook: (RuntimeExtension.Hooks<AnyObject>) -> RunHook?) {
    let extensions = Array(extensionsAndStates)
    for (item, state) in lastFirst ? extensions.reversed() : extensions { hook(item.hooks)?(state, extensionHost) }
  }

  /// Runs each extension's `output` hook.
  func extensionsSaw(output text: String, level: LogLevel) {
    for (item, state) in extensionsAndStates { item.hooks.output?(state, extensionHost, text, level) }
  }

  /// The class of native functions: callable objects whose private data is their number + 1.
  static let nativeFunctionClass: JSClassRef = {
    var definition = kJSClassDefinitionEmpty
    definition.className = UnsafeRawPointer(("NativeFunction" as StaticString).utf8Start)
      .assumingMemoryBound(to: CChar.self)
    definition.callAsFunction = callNativeFunctionCallback
    return JSClassCreate(&definition)
  }()
}

/// A native function's call from JS.
private let callNativeFunctionCallback: JSObjectCallAsFunctionCallback = { _, function, _, argc, argv, exception in
  let index = Int(bitPattern: JSObjectGetPrivate(function)) - 1
  return withRuntime(argc, argv, exception) { runtime, args throws(JSException) in
    // A callback's NULL would reach JS as null.
    try runtime.callNativeFunction(index, args) ?? JSValueMakeUndefined(runtime.js.ref)
  }
}
