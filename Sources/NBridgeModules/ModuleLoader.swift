import NBridgeModuleSyntax
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem
import Synchronization

/// The entries of the runs in this process that loaded the module loader (a plain script never does).
package enum ModuleLoaderStatistics {
  /// Entry paths, one per load.
  package static let entries = Mutex<[String]>([])
  /// Entry paths whose graph was replayed from the module cache, one per run.
  package static let replayed = Mutex<[String]>([])
}

/// What the module loader keeps for one run: the loader object of its JS files (evaluated on
/// first use), the native half it is built on (`compile`: the Swift rewrite, then
/// JavaScriptCore's parse), the module cache, and which files it may read.
@BridgeActor
final class ModuleLoader {
  /// The loader object (`internal.loader` of module-entry.js), once a module or `import()` needed it.
  var loader: ScriptValue?
  /// The generator form of each module compiled as a plain function, by path, until the loader
  /// asks for it (a module found in a cycle).
  var generators: [String: [UInt16]] = [:]
  /// The program form of each module whose body runs as a script's top-level code, by the
  /// handle the loader holds (`native.evaluateModuleBody`), until it runs.
  var bodies: [(path: String, units: [UInt16])?] = []
  /// The compiled modules kept between runs of this entry (`RuntimeConfiguration.moduleCacheDirectory`).
  var cache: ModuleCache?
  /// Whether the loader has asked for the entry's recorded module graph (it may once a run).
  var graphAsked = false
  /// The module cache being read on a thread (a module entry's run, until the loader takes it).
  var pendingCache: ThreadedValue<ModuleCache>?
  /// What the module loader and `require()` may read, made on first use (`files(_:)`).
  var fileRule: ModuleFiles?
  /// Whether the claimed entry runs without the loader (`ScriptSyntax.runsWithoutLoader`).
  var entryRunsWithoutLoader = false

  /// Whether the entry `path` with `source` runs as a module: `.mjs`, the manifest's
  /// `"type": "module"`, or a static `import`/`export` at its top level.
  static func isModuleEntry(_ path: String, source: String, _ host: ExtensionHost) -> Bool {
    if path.hasSuffix(".mjs") || path.hasSuffix(".mts") { return true }
    if path.hasSuffix(".cjs") || path.hasSuffix(".cts") { return false }
    if host.configuration.manifest.type == "module" { return true }
    return ScriptSyntax.isModule(source)
  }

  /// Claims a module entry; a `nbridge run` of one that needs the loader starts reading the cache
  /// and asks for a later first garbage collection (`ExtensionHost.prefersLargeFirstHeap`).
  func claimsEntry(_ path: String, source: String, _ host: ExtensionHost) -> Bool {
    guard ModuleLoader.isModuleEntry(path, source: source, host) else { return false }
    entryRunsWithoutLoader = !host.runsTests && ScriptSyntax.runsWithoutLoader(source)
    if !entryRunsWithoutLoader && !host.runsTests {
      startReadingCache(entry: path, source: source, host)
      // The graph's compiled code lives as long as the run: no collection during its load.
      host.prefersLargeFirstHeap()
    }
    return true
  }

  /// Runs the claimed entry: without the loader when it can, else loaded, linked and
  /// evaluated by it (its Promise answered).
  func startEntry(_ path: String, source: String, _ host: ExtensionHost) throws(ThrownValue) -> ScriptValue? {
    if entryRunsWithoutLoader {
      try runWithoutLoader(source, url: path, host)
      return nil
    }
    let loader = try loader(host)
    return try host.call(host.property(loader, "main"), this: loader, [host.string(path), host.string(source)])
  }

  /// The loader object, made on first use.
  func loader(_ host: ExtensionHost) throws(ThrownValue) -> ScriptValue {
    if let loader { return loader }
    let factory = try host.evaluate(ModuleLoader.source, url: "nbridge:modules")
    guard let native = host.native else { throw ThrownValue(value: host.error("the module loader did not load", code: nil)) }
    let manifest = host.configuration.manifest
    var shared: [(String, ScriptValue)] = [
      ("native", native), ("moduleType", host.value(.bool(manifest.type == "module"))),
    ]
    for name in ["requireFile", "Promise", "shiftColumns", "lazyColumnShifts", "moduleBodies"] {
      if let value = host.hook(name) { shared.append((name, value)) }
    }
    if manifest.imports != nil || manifest.scopes != nil {
      func object(_ entries: [String: String]) -> JSONValue {
        var o = JSONObject()
        for (key, value) in entries { o[key] = .string(value) }
        return .object(o)
      }
      var scopes = JSONObject()
      for (scope, entries) in manifest.scopes ?? [:] { scopes[scope] = object(entries) }
      let map: JSONValue = [
        "base": .string(host.entryDirectory), "imports": object(manifest.imports ?? [:]), "scopes": .object(scopes),
      ]
      shared.append(("importMap", host.value(map)))
    }
    let object = host.object(shared)
    _ = try host.call(factory, [host.global, object])
    let entry = host.entryPath
    ModuleLoaderStatistics.entries.withLock { $0.append(entry) }
    if let directory = host.configuration.moduleCacheDirectory, !entry.isEmpty {
      cache = readCache(directory: directory, host)
    }
    let loader = host.property(object, "loader")
    guard host.isObject(loader) else {
      throw ThrownValue(value: host.error("the module loader did not load", code: nil))
    }
    self.loader = loader
    return loader
  }

  /// The loader's files as one script: a function of `(global, internal)` that calls each file's
  /// function in order with a namespace of their own (`modules`) that each file takes from and
  /// gives to, as its head says; `module-entry.js` gives `internal.loader`.
  static let source: String = {
    let files = [
      EmbeddedFiles.module_resolve_js, EmbeddedFiles.module_load_js, EmbeddedFiles.module_link_js,
      EmbeddedFiles.module_evaluate_js, EmbeddedFiles.module_graph_js, EmbeddedFiles.module_entry_js,
    ]
    var source = "(function (global, internal) {\nconst modules = {};\nconst parts = [\n"
    for file in files { source += String(decoding: ScriptFiles.trimmedEnd(file), as: UTF8.self) + ",\n" }
    return source + "];\nfor (const part of parts) part(global, internal, modules);\n})"
  }()

  /// Runs an entry module that imports and exports nothing (`ScriptSyntax.runsWithoutLoader`) as
  /// the body of a strict function called with `this` undefined: what the loader would do with
  /// it, without the loader's start-up. The wrapper's head is on line 1; stack traces take it off.
  func runWithoutLoader(_ source: String, url: String, _ host: ExtensionHost) throws(ThrownValue) {
    let head = "(function(){\"use strict\";"
    let width = head.utf16.count
    host.registerColumnShifts(url, [[1, 0, width]])
    host.shiftFirstLineColumns(of: url, by: width)
    // Called from here, not from the file's own global code (its stack is the module's frames
    // only), through Function.prototype.call: the C API would pass the global object as `this`.
    let body = try host.evaluate(head + source + "\n})", url: url)
    _ = try host.call(host.property(body, "call"), this: body, [host.undefined])
  }
}
