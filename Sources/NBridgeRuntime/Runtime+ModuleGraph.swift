import CJavaScriptCore
import NBridgePlugin
import NBridgeSystem

/// The entry's linked module graph, kept in the module cache between runs: the loader records
/// how it loaded and linked the graph (`native.saveGraph`); a later run whose modules are all
/// unchanged gets every module compiled in one call (`native.cachedGraph`) and replays the
/// record instead of resolving, reading records and linking again.
extension Runtime {
  /// What a recorded graph depends on besides its files: the manifest's module type and import map.
  var moduleGraphKey: String {
    let manifest = configuration.manifest
    var key = "type " + (manifest.type ?? "") + "\n"
    for (name, address) in (manifest.imports ?? [:]).sorted(by: { $0.key < $1.key }) {
      key += "import " + jsonQuoted(name) + " " + jsonQuoted(address) + "\n"
    }
    for (scope, entries) in (manifest.scopes ?? [:]).sorted(by: { $0.key < $1.key }) {
      for (name, address) in entries.sorted(by: { $0.key < $1.key }) {
        key += "scope " + jsonQuoted(scope) + " " + jsonQuoted(name) + " " + jsonQuoted(address) + "\n"
      }
    }
    return key
  }

  /// Starts reading the module cache of the entry `path` whose text is `source` on a thread of
  /// its own (its file, and a stat of each module of its recorded graph, overlap the set-up of
  /// the JS context); `moduleLoader()` takes it.
  func startReadingModuleCache(entry path: String, source: String) {
    guard let directory = configuration.moduleCacheDirectory else { return }
    let key = moduleGraphKey
    // The entry's text is widened to UTF-16 there too, off the main thread.
    pendingModuleCache = ThreadedValue {
      ModuleCache(entry: path, directory: directory, graphKey: key, entrySource: Array(source.utf16))
    }
  }

  /// The module cache of the run's entry: the one read on a thread if it was started, else read now.
  func readModuleCache(directory: String) -> ModuleCache {
    if let pending = pendingModuleCache {
      pendingModuleCache = nil
      let cache = pending.value
      if cache.entry == entryPath { return cache }
    }
    return ModuleCache(
      entry: entryPath, directory: directory, graphKey: moduleGraphKey,
      entrySource: sources[entryPath].map { Array($0.utf16) })
  }

  /// `native.cachedGraph(path, source)`: for the run's entry `path` (its text `source`), the
  /// recorded graph when every module in it is unchanged: `[record, functions]`, each module
  /// compiled in the form the record says. Null when there is a cache but no valid graph (the
  /// loader records one), undefined when there is no cache or it was asked before.
  func cachedModuleGraph(path: String, source: String?) throws(JSException) -> JSValueRef {
    guard moduleCache != nil, !moduleGraphAsked, path == moduleCache?.entry else { return JSValueMakeUndefined(js.ref) }
    moduleGraphAsked = true
    // Checked when the cache was read, against the entry's text as the runtime read it. Each
    // module passed the loader's folder rule (`ModuleFiles`) when the graph was recorded, under
    // the same import map (the plan's key); its stamp (device, inode, times) is unchanged, so
    // it is still that file: moved out of the folder, it would have a new change time.
    guard let plan = moduleCache?.validPlan, source == nil || source == sources[path] else {
      return JSValueMakeNull(js.ref)
    }
    // Kept from the collector while the rest compile: a graph of a thousand modules collects
    // garbage meanwhile, and JavaScriptCore does not scan a Swift array.
    var functions = KeptValues(in: js.ref)
    for module in plan.modules {
      guard let entry = moduleCache?.usedEntry(module.path) else { return JSValueMakeNull(js.ref) }
      // A replayed module is linked already: its generator form is never asked for. A body
      // that runs as a program is parsed when it runs (it compiled before, unchanged).
      if !module.generator, let program = entry.programScript {
        functions.append(moduleBodyHandle(path: module.path, program: program))
        continue
      }
      let plain = module.generator ? nil : entry.plainScript
      functions.append(try js.evaluate(units: plain ?? entry.script, url: module.path))
    }
    ModuleLoaderStatistics.replayed.withLock { $0.append(path) }
    // The list, then the record's text (made while the list is kept): `[text, list]`.
    var result = KeptValues(in: js.ref)
    result.append(functions.values.withUnsafeBufferPointer { JSObjectMakeArray(js.ref, $0.count, $0.baseAddress, nil) })
    let text = plan.text.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count) }
    defer { JSStringRelease(text) }
    result.append(JSValueMakeString(js.ref, text))
    let pair = [result.values[1], result.values[0]]
    return pair.withUnsafeBufferPointer { JSObjectMakeArray(js.ref, 2, $0.baseAddress, nil) }
  }

  /// `native.saveGraph(record)`: keeps the loader's record of the entry's graph, a JSON array
  /// with a row per module that starts `[path, url, flags]` (flags bit 1: compiled as a generator).
  func saveModuleGraph(_ value: JSValueRef?) {
    guard moduleCache != nil, let value, case .array(let rows)? = try? js.parseJSONString(value) else { return }
    var modules: [(path: String, generator: Bool)] = []
    for row in rows {
      guard case .array(let cells) = row, cells.count > 2, case .string(let path) = cells[0],
        case .number(let flags) = cells[2]
      else { return }
      modules.append((path, Int(flags) & 1 != 0))
    }
    let text = Array(js.toString(value).utf16)
    moduleCache?.record(ModuleCache.GraphPlan(key: moduleGraphKey, text: text, modules: modules))
  }

  /// The record (JSON) of a module this run took from the cache or compiled into it.
  func cachedModuleRecord(_ path: String) -> JSValueRef {
    guard let record = moduleCache?.usedEntry(path)?.record else { return JSValueMakeUndefined(js.ref) }
    let text = record.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count) }
    defer { JSStringRelease(text) }
    return JSValueMakeString(js.ref, text)
  }
}

/// `native.cachedGraph(path, source)` (see `Runtime.cachedModuleGraph`).
let nativeCachedGraph: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args throws(JSException) in
    let source = JSValueIsUndefined(runtime.js.ref, args[1]) ? nil : runtime.js.toString(args[1])
    return try runtime.cachedModuleGraph(path: runtime.js.toString(args[0]), source: source)
  }
}

/// `native.saveGraph(record)` (see `Runtime.saveModuleGraph`).
let nativeSaveGraph: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    runtime.saveModuleGraph(args[0])
    return nil
  }
}

/// `native.moduleRecord(path)`: a cached module's record JSON, read when the loader first needs it.
let nativeModuleRecord: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    runtime.cachedModuleRecord(runtime.js.toString(args[0]))
  }
}

