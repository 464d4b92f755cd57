import NBridgeModuleSyntax
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// The entry's linked module graph, kept in the module cache between runs: the loader records
/// how it loaded and linked the graph (`native.saveGraph`); a later run whose modules are all
/// unchanged gets every module compiled in one call (`native.cachedGraph`) and replays the
/// record instead of resolving, reading records and linking again.
extension ModuleLoader {
  /// What a recorded graph depends on besides its files: the manifest's module type and import map.
  static func graphKey(_ configuration: RuntimeConfiguration) -> String {
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
  /// the JS context); `loader(_:)` takes it.
  func startReadingCache(entry path: String, source: String, _ host: ExtensionHost) {
    guard let directory = host.configuration.moduleCacheDirectory else { return }
    let key = ModuleLoader.graphKey(host.configuration)
    // The entry's text is widened to UTF-16 there too, off the main thread.
    pendingCache = ThreadedValue {
      ModuleCache(entry: path, directory: directory, graphKey: key, entrySource: Array(source.utf16))
    }
  }

  /// The module cache of the run's entry: the one read on a thread if it was started, else read now.
  func readCache(directory: String, _ host: ExtensionHost) -> ModuleCache {
    if let pending = pendingCache {
      pendingCache = nil
      let cache = pending.value
      if cache.entry == host.entryPath { return cache }
    }
    return ModuleCache(
      entry: host.entryPath, directory: directory, graphKey: ModuleLoader.graphKey(host.configuration),
      entrySource: host.source(of: host.entryPath).map { Array($0.utf16) })
  }

  /// `native.cachedGraph(path, source)`: for the run's entry `path` (its text `source`), the
  /// recorded graph when every module in it is unchanged: `[record, functions]`, each module
  /// compiled in the form the record says. Null when there is a cache but no valid graph (the
  /// loader records one), undefined when there is no cache or it was asked before.
  func cachedGraph(_ args: ExtensionArguments, _ host: ExtensionHost) throws(ThrownValue) -> ScriptValue? {
    let path = args.string(0) ?? ""
    let source = args.isUndefined(1) ? nil : args.string(1)
    guard cache != nil, !graphAsked, path == cache?.entry else { return host.undefined }
    graphAsked = true
    // Checked when the cache was read, against the entry's text as the runtime read it. Each
    // module passed the loader's folder rule (`ModuleFiles`) when the graph was recorded, under
    // the same import map (the plan's key); its stamp (device, inode, times) is unchanged, so
    // it is still that file: moved out of the folder, it would have a new change time.
    guard let plan = cache?.validPlan, source == nil || source == host.source(of: path) else { return host.null }
    // Each kept from the collector while the rest compile (a graph of a thousand modules
    // collects garbage meanwhile).
    var functions: [ScriptValue] = []
    functions.reserveCapacity(plan.modules.count)
    for module in plan.modules {
      guard let entry = cache?.usedEntry(module.path) else { return host.null }
      // A replayed module is linked already: its generator form is never asked for. A body
      // that runs as a program is parsed when it runs (it compiled before, unchanged).
      if !module.generator, let program = entry.programScript {
        functions.append(bodyHandle(path: module.path, program: program, host))
        continue
      }
      let plain = module.generator ? nil : entry.plainScript
      functions.append(try host.evaluate(units: plain ?? entry.script, url: module.path))
    }
    ModuleLoaderStatistics.replayed.withLock { $0.append(path) }
    return host.array([host.string(units: plan.text), host.array(functions)])
  }

  /// `native.saveGraph(record)`: keeps the loader's record of the entry's graph, a JSON array
  /// with a row per module that starts `[path, url, flags]` (flags bit 1: compiled as a generator).
  func saveGraph(_ args: ExtensionArguments, _ host: ExtensionHost) -> JSONValue? {
    guard cache != nil else { return nil }
    let record = try? args.withUTF16(0) { units throws(JSONSyntaxError) in try JSONValue(parsingUTF16: units) }
    guard case .array(let rows)? = record else { return nil }
    var modules: [(path: String, generator: Bool)] = []
    for row in rows {
      guard case .array(let cells) = row, cells.count > 2, case .string(let path) = cells[0],
        case .number(let flags) = cells[2]
      else { return nil }
      modules.append((path, Int(flags) & 1 != 0))
    }
    let text = args.withUTF16(0) { Array($0) } ?? []
    cache?.record(ModuleCache.GraphPlan(key: ModuleLoader.graphKey(host.configuration), text: text, modules: modules))
    return nil
  }

  /// `native.moduleRecord(path)`: the record (JSON) of a module this run took from the cache or
  /// compiled into it, read when the loader first needs it.
  func moduleRecord(_ args: ExtensionArguments, _ host: ExtensionHost) -> ScriptValue? {
    guard let path = args.string(0), let record = cache?.usedEntry(path)?.record else { return host.undefined }
    return host.string(units: record)
  }

  /// Removes the entry's cache file (read or not); nothing is kept or written again for the
  /// rest of the run.
  func clearCache(_ host: ExtensionHost) -> [String] {
    guard let directory = host.configuration.moduleCacheDirectory else { return [] }
    let file = cache?.file ?? directory + "/" + ModuleCache.hashName(host.entryPath)
    pendingCache = nil
    cache = nil
    _ = try? POSIX.unlink(file)
    return ["moduleCache"]
  }

  /// Writes the module cache, once, when the run takes nothing more.
  func saveCache() {
    cache?.save()
    cache = nil
  }
}
