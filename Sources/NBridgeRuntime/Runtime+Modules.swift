import CJavaScriptCore
import NBridgeModuleSyntax
import NBridgePlugin
import NBridgeSystem
import Synchronization

/// The entries of the runs in this process that loaded the module loader (a plain script never does).
package enum ModuleLoaderStatistics {
  /// Entry paths, one per load.
  package static let entries = Mutex<[String]>([])
  /// Entry paths whose graph was replayed from the module cache, one per run.
  package static let replayed = Mutex<[String]>([])
}

/// ES modules: which entries are modules, the loader (JS/modules.js, evaluated on first use) and
/// the native half it is built on (`native.compile`: the Swift rewrite, then JavaScriptCore's parse).
extension Runtime {
  /// Whether the entry `path` with `source` runs as a module: `.mjs`, the manifest's
  /// `"type": "module"`, or a static `import`/`export` at its top level.
  func isModuleEntry(_ path: String, source: String) -> Bool {
    if path.hasSuffix(".mjs") || path.hasSuffix(".mts") { return true }
    if path.hasSuffix(".cjs") || path.hasSuffix(".cts") { return false }
    if configuration.manifest.type == "module" { return true }
    return ScriptSyntax.isModule(source)
  }

  /// The loader object (`internal.loader` of modules.js), made on first use.
  func moduleLoader() throws(JSException) -> JSObjectRef {
    if let loader = protectedLoader?.value, let object = js.object(loader) { return object }
    var text = String(decoding: PackageResources.modules_js, as: UTF8.self)
    while let last = text.last, last == "\n" || last == " " || last == ";" { text.removeLast() }
    let factory = try js.evaluate(text, url: "nbridge:modules")
    guard let factoryFunction = js.object(factory), let native = nativeObject?.value else {
      throw JSException(value: js.string("the module loader did not load"))
    }
    let shared = JSObjectMake(js.ref, nil, nil)!
    js.setProperty(shared, "native", native)
    js.setProperty(shared, "moduleType", JSValueMakeBoolean(js.ref, configuration.manifest.type == "module"))
    for name in ["requireFile", "Promise", "shiftColumns", "lazyColumnShifts", "moduleBodies"] {
      if let value = js.property(hooks, name) { js.setProperty(shared, name, value) }
    }
    let manifest = configuration.manifest
    if manifest.imports != nil || manifest.scopes != nil {
      func object(_ entries: [String: String]) -> JSONValue {
        var o = JSONObject()
        for (key, value) in entries { o[key] = .string(value) }
        return .object(o)
      }
      var scopes = JSONObject()
      for (scope, entries) in manifest.scopes ?? [:] { scopes[scope] = object(entries) }
      let map: JSONValue = [
        "base": .string(entryDirectory), "imports": object(manifest.imports ?? [:]), "scopes": .object(scopes),
      ]
      js.setProperty(shared, "importMap", js.value(map))
    }
    try js.call(factoryFunction, [js.global, shared])
    let entry = entryPath
    ModuleLoaderStatistics.entries.withLock { $0.append(entry) }
    if let directory = configuration.moduleCacheDirectory, !entry.isEmpty {
      moduleCache = readModuleCache(directory: directory)
    }
    guard let object = js.object(js.property(shared, "loader")) else {
      throw JSException(value: js.string("the module loader did not load"))
    }
    protectedLoader = Protected(object, in: js)
    return object
  }

  /// Loads, links and evaluates the module `path` as the run's entry; errors are reported as uncaught.
  func runModuleMain(_ path: String, source: String) {
    do throws(JSException) {
      let loader = try moduleLoader()
      if let run = js.object(js.property(loader, "run")) {
        var exception: JSValueRef?
        let arguments: [JSValueRef?] = [js.string(path), js.string(source)]
        _ = arguments.withUnsafeBufferPointer {
          JSObjectCallAsFunction(js.ref, run, loader, 2, $0.baseAddress, &exception)
        }
        if let exception { throw JSException(value: exception) }
      }
    } catch {
      reportUncaught(error.value)
    }
  }

  /// Runs an entry module that imports and exports nothing (`ScriptSyntax.runsWithoutLoader`) as
  /// the body of a strict function called with `this` undefined: what the loader would do with
  /// it, without the loader's start-up. The wrapper's head is on line 1; stack traces take it off.
  func runModuleWithoutLoader(_ source: String, url: String) {
    let head = "(function(){\"use strict\";"
    let width = head.utf16.count
    registerColumnShifts(url, [[1, 0, width]])
    logColumnShifts[url] = width
    do throws(JSException) {
      // Called from here, not from the file's own global code (its stack is the module's frames
      // only), through Function.prototype.call: the C API would pass the global object as `this`.
      if let body = js.object(try js.evaluate(head + source + "\n})", url: url)),
        let call = js.object(js.property(body, "call"))
      {
        var exception: JSValueRef?
        var this: JSValueRef? = JSValueMakeUndefined(js.ref)
        _ = JSObjectCallAsFunction(js.ref, call, body, 1, &this, &exception)
        if let exception { throw JSException(value: exception) }
      }
    } catch {
      reportUncaught(error.value)
    }
  }

  /// Starts evaluating the module `path` for `nbridge test`; returns its promise (or throws a load error).
  func startModuleTest(_ path: String) throws(JSException) -> JSValueRef {
    let loader = try moduleLoader()
    guard let main = js.object(js.property(loader, "main")) else { return JSValueMakeUndefined(js.ref) }
    var exception: JSValueRef?
    var argument: JSValueRef? = js.string(path)
    let result = JSObjectCallAsFunction(js.ref, main, loader, 1, &argument, &exception)
    if let exception { throw JSException(value: exception) }
    return result ?? JSValueMakeUndefined(js.ref)
  }

  /// A script's source with `import(...)` routed to the loader, relative to the script's file.
  func scriptWithDynamicImports(_ source: String, url: String) -> String {
    let call = "$nbridge$import(" + jsonQuoted(url) + ","
    guard let (rewritten, shifts) = ScriptSyntax.rewriteDynamicImports(source, replacement: call) else { return source }
    columnShifts[url] = shifts
    return rewritten
  }

  /// Tells the prelude's stack formatting the widths a rewrite inserted into `url`.
  func registerColumnShifts(_ url: String, _ shifts: [[Int]]) {
    guard !shifts.isEmpty else { return }
    let value = js.value(.array(shifts.map { .array($0.map { .number(Double($0)) }) }))
    _ = try? callHook("shiftColumns", [js.string(url), value])
  }
}

/// `"text"` as a JS string literal.
package func jsonQuoted(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\u{2028}": out += "\\u2028"
    case "\u{2029}": out += "\\u2029"
    default:
      if scalar.value < 0x20 {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}

/// `native.compile(source, path, detect)`: `[fn, recordJSON, plain]` for the module at `path`, its text
/// `source` or, when that is undefined, the file's (undefined when there is no file); null when
/// `detect` is set and the file holds no module syntax (it is CommonJS); throws a SyntaxError.
/// The record is JSON text the rewrite writes in UTF-16 (JSON.parse reads it faster than JSC compiles a literal).
/// A file the run's module cache holds under its current stamp is neither read nor rewritten.
let nativeCompile: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  let args = NativeArguments(count: argc, values: argv)
  let result: NativeResult = BridgeActor.assumeIsolated { () -> NativeResult in
    guard let runtime = Runtime.current else { return NativeResult() }
    let path = runtime.js.toString(args[1])
    let detect = JSValueToBoolean(runtime.js.ref, args[2])
    let source = JSValueIsUndefined(runtime.js.ref, args[0]) ? nil : runtime.js.toString(args[0])
    // A file the loader may not read is refused before the cache is asked.
    var real: String?
    if source == nil {
      do throws(JSException) {
        real = try runtime.loadablePath(path)
      } catch {
        return NativeResult(exception: error.value)
      }
      if real == nil { return NativeResult(value: JSValueMakeUndefined(runtime.js.ref)) }
    }
    if runtime.moduleCache != nil, let entry = runtime.moduleCache?.lookup(path, source: source.map { Array($0.utf16) })
    {
      if detect && !entry.hasModuleSyntax { return NativeResult(value: JSValueMakeNull(runtime.js.ref)) }
      if let source, runtime.sources[path] == nil || !TypeStripper.isTypeScript(path) { runtime.sources[path] = source }
      return runtime.compiledModule(
        path: path, script: entry.script, plain: entry.plainScript, program: entry.programScript, record: entry.record)
    }
    return runtime.compileModule(path: path, real: real, source: source, detect: detect)
  }
  if let thrown = result.exception { exception?.pointee = thrown }
  return result.value
}

extension Runtime {
  /// Reads (unless `source` is given) from `real` (what `loadablePath(path)` found), rewrites
  /// and compiles the module at `path`; stores the result in the run's module cache when it
  /// came from the file.
  func compileModule(path: String, real: String?, source: String?, detect: Bool) -> NativeResult {
    let units: [UInt16]
    var stamp: ModuleCache.Stamp?
    if let source {
      // A TypeScript entry's own text was kept by the run (error excerpts show it, not the erased one).
      if sources[path] == nil || !TypeStripper.isTypeScript(path) { sources[path] = source }
      units = Array(source.utf16)
      if moduleCache != nil { stamp = .byText }
    } else {
      // The stamp before the read: a file written meanwhile is compiled again next time.
      if moduleCache != nil { stamp = ModuleCache.Stamp(path: path) }
      let read: [UInt8]?
      do throws(JSException) {
        read = try readLoadableFile(path, real: real ?? path)
      } catch {
        return NativeResult(exception: error.value)
      }
      guard let bytes = read else { return NativeResult(value: JSValueMakeUndefined(js.ref)) }
      sources[path] = String(decoding: bytes, as: UTF8.self)
      do throws(JSException) {
        units = try runnableUnits(utf16Units(bytes), path: path)
      } catch {
        return NativeResult(exception: error.value)
      }
    }
    let info: ModuleRecordInfo
    do throws(ModuleSyntaxError) {
      info = try ModuleRewriter.rewrite(units: units)
    } catch {
      return NativeResult(exception: syntaxError(error.message, path: path, line: error.line, column: error.column))
    }
    let hasModuleSyntax =
      !info.requests.isEmpty || !info.exports.isEmpty || info.hasTopLevelAwait
      || (sources[path] ?? "").contains("import.meta")
    if detect && !hasModuleSyntax { return NativeResult(value: JSValueMakeNull(js.ref)) }
    let result = compiledModule(
      path: path, script: info.script, plain: info.plainScript, program: info.programScript, record: info.json)
    if result.exception == nil, let stamp {
      moduleCache?.store(
        path, stamp: stamp, source: source == nil ? nil : units, info: info, hasModuleSyntax: hasModuleSyntax)
    }
    return result
  }

  /// `[fn, recordJSON, plain]`: the module's function compiled by JavaScriptCore (the plain form
  /// when there is one; the generator form is kept for the loader to ask for in a cycle), or
  /// instead of a function the handle of its program form, parsed now (its syntax errors are
  /// load errors) and run by `native.evaluateModuleBody`.
  func compiledModule(
    path: String, script: [UInt16], plain: [UInt16]?, program: [UInt16]?, record: [UInt16]
  ) -> NativeResult {
    let function: JSValueRef
    do throws(JSException) {
      if let program {
        try js.checkSyntax(units: program, url: path)
        function = moduleBodyHandle(path: path, program: program)
      } else {
        function = try js.evaluate(units: plain ?? script, url: path)
      }
    } catch {
      return NativeResult(exception: error.value)
    }
    if plain != nil { moduleGenerators[path] = script }
    let text = record.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count) }
    defer { JSStringRelease(text) }
    // The function is kept while the record's string is made (that may collect garbage).
    var result = KeptValues(in: js.ref)
    result.append(function)
    result.append(JSValueMakeString(js.ref, text))
    result.append(JSValueMakeBoolean(js.ref, plain != nil))
    return NativeResult(
      value: result.values.withUnsafeBufferPointer { JSObjectMakeArray(js.ref, 3, $0.baseAddress, nil) })
  }
}

/// `native.generator(path)`: the generator function of a module `native.compile` made a plain
/// function (the loader found it in a cycle at link time).
let nativeGenerator: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  let args = NativeArguments(count: argc, values: argv)
  let result: NativeResult = BridgeActor.assumeIsolated { () -> NativeResult in
    guard let runtime = Runtime.current else { return NativeResult() }
    let path = runtime.js.toString(args[0])
    guard let script = runtime.moduleGenerators[path] else { return NativeResult() }
    do throws(JSException) {
      return NativeResult(value: try runtime.js.evaluate(units: script, url: path))
    } catch {
      return NativeResult(exception: error.value)
    }
  }
  if let thrown = result.exception { exception?.pointee = thrown }
  return result.value
}

/// UTF-8 `bytes` as UTF-16 code units (ASCII widened without decoding).
func utf16Units(_ bytes: [UInt8]) -> [UInt16] {
  if bytes.allSatisfy({ $0 < 0x80 }) { return bytes.map { UInt16($0) } }
  return Array(String(decoding: bytes, as: UTF8.self).utf16)
}

/// `native.loader()`: the module loader, evaluated on first use (for `require()` of a module and
/// `import()` in scripts).
let nativeLoader: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  let result: NativeResult = BridgeActor.assumeIsolated { () -> NativeResult in
    guard let runtime = Runtime.current else { return NativeResult() }
    do throws(JSException) {
      return NativeResult(value: try runtime.moduleLoader())
    } catch {
      return NativeResult(exception: error.value)
    }
  }
  if let thrown = result.exception { exception?.pointee = thrown }
  return result.value
}

extension Runtime {
  /// A JS `SyntaxError` at `path:line` (the error report shows the line and a caret at `column`).
  func syntaxError(_ message: String, path: String, line: Int, column: Int) -> JSValueRef {
    var exception: JSValueRef?
    var argument: JSValueRef? = js.string(message)
    let constructor = js.object(js.property(js.global, "SyntaxError"))!
    let error = JSObjectCallAsConstructor(js.ref, constructor, 1, &argument, &exception)!
    js.setProperty(error, "line", JSValueMakeNumber(js.ref, Double(line)))
    js.setProperty(error, "sourceURL", js.string(path))
    js.setProperty(error, "nbridgeColumn", JSValueMakeNumber(js.ref, Double(column)))
    return error
  }
}

extension Runtime {
  /// Keeps the program form of the module at `path` until the loader runs it; returns its handle.
  func moduleBodyHandle(path: String, program: [UInt16]) -> JSValueRef {
    moduleBodies.append((path, program))
    return JSValueMakeNumber(js.ref, Double(moduleBodies.count - 1))
  }

  /// Runs the module body `handle` (once) with `context` as its `this`; throws what it throws.
  func evaluateModuleBody(_ handle: Int, context: JSObjectRef?) throws(JSException) {
    guard moduleBodies.indices.contains(handle), let body = moduleBodies[handle], let context else {
      throw JSException(value: js.string("no module body \(handle)"))
    }
    moduleBodies[handle] = nil
    _ = try js.evaluate(units: body.units, url: body.path, this: context)
  }
}

/// `native.evaluateModuleBody(handle, context)`: runs a module body kept as a program (see
/// `Runtime.compiledModule`); its frame is left out of stack traces.
let nativeEvaluateModuleBody: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args throws(JSException) in
    try runtime.evaluateModuleBody(
      Int(saturating: JSValueToNumber(runtime.js.ref, args[0], nil)), context: runtime.js.object(args[1]))
    return nil
  }
}
