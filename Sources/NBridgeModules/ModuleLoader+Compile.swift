import NBridgeModuleSyntax
import NBridgePlugin
import NBridgeRuntime

/// A module's native half: read (unless its text was given), rewritten by `ModuleRewriter`,
/// compiled by JavaScriptCore, and kept in the run's module cache.
extension ModuleLoader {
  /// `native.compile(source, path, detect)`: `[fn, recordJSON, plain]` for the module at `path`,
  /// its text `source` or, when that is undefined, the file's (undefined when there is no file);
  /// null when `detect` is set and the file holds no module syntax (it is CommonJS); throws a
  /// SyntaxError. The record is JSON text the rewrite writes in UTF-16 (JSON.parse reads it
  /// faster than JSC compiles a literal). A file the run's module cache holds under its current
  /// stamp is neither read nor rewritten.
  func compile(_ args: ExtensionArguments, _ host: ExtensionHost) throws(ThrownValue) -> ScriptValue? {
    let path = args.string(1) ?? ""
    let detect = args.bool(2)
    let source = args.isUndefined(0) ? nil : args.string(0)
    // A file the loader may not read is refused before the cache is asked.
    var real: String?
    if source == nil {
      real = try loadablePath(path, host)
      if real == nil { return host.undefined }
    }
    if cache != nil, let entry = cache?.lookup(path, source: source.map { Array($0.utf16) }) {
      if detect && !entry.hasModuleSyntax { return host.null }
      if let source, host.source(of: path) == nil || !TypeStripper.isTypeScript(path) { host.setSource(source, of: path) }
      return try compiled(
        path: path, script: entry.script, plain: entry.plainScript, program: entry.programScript, record: entry.record,
        host)
    }
    return try compile(path: path, real: real, source: source, detect: detect, host)
  }

  /// Reads (unless `source` is given) from `real` (what `loadablePath(path)` found), rewrites
  /// and compiles the module at `path`; stores the result in the run's module cache when it
  /// came from the file.
  func compile(path: String, real: String?, source: String?, detect: Bool, _ host: ExtensionHost) throws(ThrownValue)
    -> ScriptValue
  {
    let units: [UInt16]
    var stamp: ModuleCache.Stamp?
    if let source {
      // A TypeScript entry's own text was kept by the run (error excerpts show it, not the erased one).
      if host.source(of: path) == nil || !TypeStripper.isTypeScript(path) { host.setSource(source, of: path) }
      units = Array(source.utf16)
      if cache != nil { stamp = .byText }
    } else {
      // The stamp before the read: a file written meanwhile is compiled again next time.
      if cache != nil { stamp = ModuleCache.Stamp(path: path) }
      guard let bytes = try readLoadableFile(path, real: real ?? path, host) else { return host.undefined }
      host.setSource(String(decoding: bytes, as: UTF8.self), of: path)
      units = try runnableUnits(utf16Units(bytes), path: path, host)
    }
    let info: ModuleRecordInfo
    do throws(ModuleSyntaxError) {
      info = try ModuleRewriter.rewrite(units: units)
    } catch {
      throw ThrownValue(value: host.syntaxError(error.message, path: path, line: error.line, column: error.column))
    }
    let hasModuleSyntax =
      !info.requests.isEmpty || !info.exports.isEmpty || info.hasTopLevelAwait
      || (host.source(of: path) ?? "").contains("import.meta")
    if detect && !hasModuleSyntax { return host.null }
    let result = try compiled(
      path: path, script: info.script, plain: info.plainScript, program: info.programScript, record: info.json, host)
    if let stamp {
      cache?.store(
        path, stamp: stamp, source: source == nil ? nil : units, info: info, hasModuleSyntax: hasModuleSyntax)
    }
    return result
  }

  /// `[fn, recordJSON, plain]`: the module's function compiled by JavaScriptCore (the plain form
  /// when there is one; the generator form is kept for the loader to ask for in a cycle), or
  /// instead of a function the handle of its program form, parsed now (its syntax errors are
  /// load errors) and run by `native.evaluateModuleBody`.
  func compiled(
    path: String, script: [UInt16], plain: [UInt16]?, program: [UInt16]?, record: [UInt16], _ host: ExtensionHost
  ) throws(ThrownValue) -> ScriptValue {
    let function: ScriptValue
    if let program {
      try host.checkSyntax(units: program, url: path)
      function = bodyHandle(path: path, program: program, host)
    } else {
      function = try host.evaluate(units: plain ?? script, url: path)
    }
    if plain != nil { generators[path] = script }
    return host.array([function, host.string(units: record), host.value(.bool(plain != nil))])
  }

  /// `native.generator(path)`: the generator function of a module `compile` made a plain
  /// function (the loader found it in a cycle at link time).
  func generator(_ args: ExtensionArguments, _ host: ExtensionHost) throws(ThrownValue) -> ScriptValue? {
    let path = args.string(0) ?? ""
    guard let script = generators[path] else { return nil }
    return try host.evaluate(units: script, url: path)
  }

  /// Keeps the program form of the module at `path` until the loader runs it; returns its handle.
  func bodyHandle(path: String, program: [UInt16], _ host: ExtensionHost) -> ScriptValue {
    bodies.append((path, program))
    return host.value(.number(Double(bodies.count - 1)))
  }

  /// `native.evaluateModuleBody(handle, context)`: runs a module body kept as a program (see
  /// `compiled`) once, with `context` as its `this`; throws what it throws. Its frame is left
  /// out of stack traces.
  func evaluateBody(_ args: ExtensionArguments, _ host: ExtensionHost) throws(ThrownValue) -> ScriptValue? {
    let number = args.number(0)
    let handle = number.isFinite && number >= 0 && number < Double(bodies.count) ? Int(number) : -1
    let context = args.value(1)
    guard handle >= 0, let body = bodies[handle], host.isObject(context) else {
      throw ThrownValue(value: host.string("no module body \(handle)"))
    }
    bodies[handle] = nil
    _ = try host.evaluate(units: body.units, url: body.path, this: context)
    return nil
  }
}

/// UTF-8 `bytes` as UTF-16 code units (ASCII widened without decoding).
func utf16Units(_ bytes: [UInt8]) -> [UInt16] {
  if bytes.allSatisfy({ $0 < 0x80 }) { return bytes.map { UInt16($0) } }
  return Array(String(decoding: bytes, as: UTF8.self).utf16)
}
