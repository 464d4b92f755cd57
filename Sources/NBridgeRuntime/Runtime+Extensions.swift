import CJavaScriptCore
import NBridgePlugin

/// The runtime's side of `RuntimeExtension`: each extension's state, its native functions on
/// `internal.native`, its JS files, and its hooks.
extension Runtime {
  /// Each extension with its state for this run, in order.
  private var extensionsAndStates: Zip2Sequence<[RuntimeExtension], [AnyObject]> {
    zip(configuration.extensions, extensionStates)
  }

  /// The extensions' `values`, for the JS files' `internal` object.
  package func extensionValues() -> [String: JSONValue] {
    var values: [String: JSONValue] = [:]
    for item in configuration.extensions { values.merge(item.values(extensionHost)) { _, new in new } }
    return values
  }

  /// The extensions' JS files run when the `nbridge` object is built, in order.
  package var extensionScripts: [RuntimeExtension.Script] { configuration.extensions.flatMap(\.nbridgeScripts) }

  /// The extension file `native.loadDeferred(name)` evaluates: a deferred file, else an `nbridge` one.
  func extensionScript(named name: String) -> RuntimeExtension.Script? {
    let deferred = configuration.extensions.lazy.flatMap(\.deferredScripts)
    return deferred.first { $0.name == name } ?? extensionScripts.first { $0.name == name }
  }

  /// Puts every extension's native functions on `native`, numbered in order.
  func installExtensionFunctions(on native: JSObjectRef) {
    for (index, function) in configuration.extensions.flatMap(\.functions).enumerated() {
      let object = JSObjectMake(js.ref, Runtime.extensionFunctionClass, UnsafeMutableRawPointer(bitPattern: index + 1))
      js.setProperty(native, function.name, object)
    }
  }

  /// Calls the extension function numbered `index` (in the order of `configuration.extensions`).
  func callExtensionFunction(_ index: Int, _ arguments: ExtensionArguments) -> ExtensionResult? {
    var index = index
    for (item, state) in extensionsAndStates {
      if index < item.functions.count { return item.functions[index].body(state, extensionHost, arguments) }
      index -= item.functions.count
    }
    return nil
  }

  /// Hands a window's page message to the `pageMessage` hook of the extension named `name`.
  package func deliver(pageMessage text: Substring, to name: String) {
    for (item, state) in extensionsAndStates where item.name == name { item.hooks.pageMessage?(state, extensionHost, text) }
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

  /// Runs each extension's `clearCaches` hook; the kinds removed.
  func clearExtensionCaches() -> [String] {
    extensionsAndStates.flatMap { item, state in item.hooks.clearCaches?(state, extensionHost) ?? [] }
  }

  /// Runs each extension's `hook` (`\.start`, `\.close`...), in order or last first.
  func runHooks(_ hook: KeyPath<RuntimeExtension.Hooks<AnyObject>, RunHook?>, lastFirst: Bool = false) {
    let extensions = Array(extensionsAndStates)
    for (item, state) in lastFirst ? extensions.reversed() : extensions { item.hooks[keyPath: hook]?(state, extensionHost) }
  }

  /// Runs each extension's `output` hook.
  func extensionsSaw(output text: String, level: LogLevel) {
    for (item, state) in extensionsAndStates { item.hooks.output?(state, extensionHost, text, level) }
  }

  /// The class of extension functions: callable objects whose private data is their number + 1.
  static let extensionFunctionClass: JSClassRef = {
    var definition = kJSClassDefinitionEmpty
    definition.className = UnsafeRawPointer(("ExtensionFunction" as StaticString).utf8Start)
      .assumingMemoryBound(to: CChar.self)
    definition.callAsFunction = callExtensionFunctionCallback
    return JSClassCreate(&definition)
  }()
}

/// An extension function's call from JS.
private let callExtensionFunctionCallback: JSObjectCallAsFunctionCallback = { ctx, function, _, argc, argv, exception in
  let index = Int(bitPattern: JSObjectGetPrivate(function)) - 1
  return withRuntime(argc, argv, exception) { runtime, args throws(JSException) in
    guard let result = runtime.callExtensionFunction(index, ExtensionArguments(js: runtime.js, args)) else {
      return JSValueMakeUndefined(runtime.js.ref)  // a callback's NULL would reach JS as null
    }
    return try runtime.js.value(result)
  }
}
