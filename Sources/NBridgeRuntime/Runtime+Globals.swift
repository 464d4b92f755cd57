import CJavaScriptCore
import Glibc
import NBridgePlugin
import NBridgeSystem

/// Installs the prelude and the native functions it is built on.
extension Runtime {
  func installGlobals(entry: String) throws(JSException) {
    let ctx = js.ref
    let native = JSObjectMake(ctx, nil, nil)!
    for (name, callback) in [("start", nativeStart), ("startAll", nativeStartAll)] {
      js.setProperty(native, name, js.function(name, callback))
    }
    installNativeFunctions(on: native)

    nativeObject = ScriptValue(native, in: js)
    let shared = JSObjectMake(ctx, nil, nil)!
    js.setProperty(shared, "native", native)
    js.setProperty(shared, "version", js.string(NBridgeVersion.current))
    // The entry script's path, for the global files' bodies (CommonJS's globals, fetch's base).
    js.setProperty(shared, "entry", js.string(entry))
    js.setProperty(shared, "args", js.value(.array(configuration.arguments.map { .string($0) })))
    js.setProperty(shared, "nbridgeScripts", js.value(.array(extensionScripts.map { .string($0.name) })))
    for (name, value) in extensionValues() { js.setProperty(shared, name, js.value(value)) }
    let globalScripts = configuration.extensions.flatMap(\.globalScripts)
    let prelude = try js.evaluate(
      immortal: PreludeText.headless(scripts: globalScripts.map(\.source)), url: "nbridge:prelude")
    guard let preludeFunction = js.object(prelude) else { return }
    let result = try js.call(preludeFunction, [js.global, shared])
    protectedHooks = js.object(result).map { ScriptValue($0, in: js) }
    (makeErrorFunction, emitFunction) = (hook("makeError"), hook("emit"))
    if let one = hook("answer"), let fail = hook("fail"), let all = hook("answerAll") {
      answerFunctions = (one, fail, all)
    }
    // Each extension's entry handler (`internal.onEntry`), called here: no JS function of the core's between.
    if let handlers = hook("onEntry"), let count = js.property(handlers, "length") {
      let path = js.string(entry)
      for index in 0..<Int(saturating: JSValueToNumber(ctx, count, nil)) {
        if let handler = js.object(JSObjectGetPropertyAtIndex(ctx, handlers, UInt32(index), nil)) {
          try js.call(handler, [path])
        }
      }
    }
    let folder = entry.lastIndex(of: "/").map { String(entry[..<$0]) } ?? "."
    let readable = configuration.readableFolder ?? folder
    readableFolder = (readable, PageFolder(readable))

    var exception: JSValueRef?
    JSGlobalContextSetUnhandledRejectionCallback(ctx, js.function("onUnhandledRejection", nativeUnhandled), &exception)
  }

  /// What `bridge.js` is built from, asked for when it first loads (not at every start): each
  /// service with its actions and events, the error codes, the messages of the bridge's errors and its limits.
  /// `permissions`: a remote page's (`remote` in the manifest); a service outside them is not allowed.
  package func bridgeTables(permissions: Set<String>? = nil) -> JSONValue {
    let services: [JSONValue] = slots.map { slot in
      let actions = slot.actions
      return [
        "name": .string(slot.definition.service),
        "permission": .string(slot.definition.permission),
        "allowed": .bool(slot.allowed && (permissions?.contains(slot.definition.permission) ?? true)),
        "actions": .array(actions.map { .string($0.name) }),
        "events": .array(slot.events.map { .string($0.name) }), "answers": slot.definition.eventAnswers,
        "bytes": slot.definition.byteActions,
        // The actions whose calls start together at the end of the turn (`ActionInfo.startsAtTurnEnd`), by index.
        "atTurnEnd": .array(actions.indices.filter { actions[$0].startsAtTurnEnd }.map { .number(Double($0)) }),
      ]
    }
    let (codes, messages) = BridgeMessages.prelude
    return ["services": .array(services), "codes": codes, "messages": messages, "limits": BridgeLimits.json]
  }

  /// The prelude's hook `name` (`hooks[name]`) as an object, if it is one.
  func hook(_ name: String) -> JSObjectRef? { hooks.flatMap { js.object(js.property($0, name)) } }

  /// Calls `hooks[name](args...)`, for the test prelude and other optional hooks.
  func callHook(_ name: String, _ arguments: [JSValueRef?]) throws(JSException) -> JSValueRef? {
    guard let function = hook(name) else { return nil }
    return try js.call(function, arguments)
  }
}

// MARK: - Native functions (they run on the loop thread inside a JS call)

/// A function of the prelude's `internal.native`: its name and its body, which reads its
/// arguments as an extension's do (and the raw values, `args[i]`); nil answers `undefined`.
struct NativeFunction: Sendable {
  let name: String
  let body: @BridgeActor @Sendable (Runtime, ExtensionArguments) throws(JSException) -> JSValueRef?
}

extension Runtime {
  /// The core's functions on `internal.native` (besides `start` and `startAll`).
  static let nativeFunctions: [NativeFunction] = [
    .init(name: "print") { runtime, args in
      // The console's level (0 debug ... 3 error), for the log viewer.
      let level = args.count > 2 ? LogLevel(rawValue: Int(saturating: args.number(2))) : nil
      runtime.emitOutput(args.number(0) == 2 ? 2 : 1, runtime.js.toString(args[1]), level: level)
      return nil
    },
    .init(name: "timer") { runtime, args in
      // (function, milliseconds, repeats, weak: it does not keep the run alive)
      guard let function = runtime.js.object(args[0]) else { return nil }
      let ms = args.number(1).isFinite ? max(args.number(1), 0) : 0
      let id = runtime.addJSTimer(function, milliseconds: ms, repeats: args.bool(2), keepsAlive: !args.bool(3))
      return JSValueMakeNumber(runtime.js.ref, Double(id))
    },
    .init(name: "clearTimer") { runtime, args in
      runtime.clearJSTimer(Int(saturating: args.number(0)))
      return nil
    },
    .init(name: "reportError") { runtime, args in
      if let value = args[0] { runtime.reportUncaught(value) }
      return nil
    },
    .init(name: "listeners") { runtime, args in
      // (service number, event, count)
      let sid = Int(saturating: args.number(0))
      let count = Int(saturating: args.number(2))
      guard runtime.slots.indices.contains(sid) else { return nil }
      runtime.listenersChanged(slot: runtime.slots[sid], event: runtime.js.toString(args[1]), count: count)
      return nil
    },
    // What `bridge.js` is built from (`Runtime.bridgeTables()`).
    .init(name: "bridgeTables") { runtime, _ in runtime.js.value(runtime.bridgeTables()) },
    // `loadDeferred(name)`: evaluates a deferred prelude file (`PreludeSource.deferred`, else an
    // extension's deferred or `nbridge` file) and returns its function.
    .init(name: "loadDeferred") { runtime, args throws(JSException) in
      let name = runtime.js.toString(args[0])
      guard let source = PreludeSource.deferred[name] ?? runtime.extensionScript(named: name)?.source
      else { return nil }
      return try runtime.js.evaluate(String(decoding: source, as: UTF8.self), url: "nbridge:\(name).js")
    },
  ] + BytesNatives.functions
}

/// The arguments of a native call, carried into `@BridgeActor` code (it is the same thread).
struct NativeArguments: @unchecked Sendable {
  let count: Int
  let values: UnsafePointer<JSValueRef?>?
  subscript(_ i: Int) -> JSValueRef? { i < count ? values?[i] : nil }
}

/// The outcome of a native call, carried back out of `@BridgeActor` code.
struct NativeResult: @unchecked Sendable {
  var value: JSValueRef?
  var exception: JSValueRef?
}

/// Runs a native function's body on the current runtime, turning a thrown JSException into the JS exception.
func withRuntime(
  _ argc: Int, _ argv: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?,
  _ body: @BridgeActor (Runtime, NativeArguments) throws(JSException) -> JSValueRef?
) -> JSValueRef? {
  // Not escaping: the closures here live on the stack (an escaping body cost two allocations a call).
  let args = NativeArguments(count: argc, values: argv)
  let result: NativeResult = BridgeActor.assumeIsolated { () -> NativeResult in
    guard let runtime = Runtime.current else { return NativeResult() }
    do throws(JSException) {
      return NativeResult(value: try runtime.js.withLock { () throws(JSException) in try body(runtime, args) })
    } catch {
      return NativeResult(exception: error.value)
    }
  }
  if let thrown = result.exception { exception?.pointee = thrown }
  return result.value
}

/// `native.start(code, id[, json[, callback]])` (a function of its own, as is `startAll`: a call
/// of either is the bridge's hot path): starts a call of `nbridge.<service>.<action>`
/// (code = sid * 65536 + aid) that bridge.js keeps in flight under `id`.
private let nativeStart: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args throws(JSException) in
    let code = Int(saturating: JSValueToNumber(runtime.js.ref, args[0], nil))
    let id = Int(saturating: JSValueToNumber(runtime.js.ref, args[1], nil))
    return try runtime.start(
      code: code, id: id, json: argc > 2 ? args[2] : nil, callback: argc > 3 ? runtime.js.object(args[3]) : nil)
  }
}

/// `native.startAll(records)`: starts the calls bridge.js queued in one turn, in order
/// (`Runtime.startAll`); `records` holds each call's code, id and JSON text, one a line.
private let nativeStartAll: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    if let records = args[0] { runtime.startAll(records) }
    return nil
  }
}

private let nativeUnhandled: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    guard let promise = args[0], let reason = args[1] else { return nil }
    runtime.unhandled.append((ScriptValue(promise, in: runtime.js), ScriptValue(reason, in: runtime.js)))
    return nil
  }
}
