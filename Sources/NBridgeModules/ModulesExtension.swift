import NBridgeModuleSyntax
import NBridgePlugin
import NBridgeRuntime

/// ES modules and CommonJS as an extension of the runtime: the loader (`module-*.js`, evaluated
/// on a run's first module or `import()`), `require()` and `load()` (`require.js`, on first
/// use), the native functions they are built on, the module cache between runs, and the run's
/// entry when it is a module.
package enum ModulesExtension {
  /// The extension.
  package static func make() -> RuntimeExtension {
    var hooks = RuntimeExtension.Hooks<ModuleLoader>()
    hooks.claimsEntry = { loader, host, path, source in loader.claimsEntry(path, source: source, host) }
    hooks.startEntry = { loader, host, path, source throws(ThrownValue) in
      try loader.startEntry(path, source: source, host)
    }
    hooks.transformSource = { _, host, stage, source, url throws(ModuleSyntaxError) in
      try ScriptTransform.transform(stage, source, url: url, host)
    }
    hooks.clearCaches = { loader, host in loader.clearCache(host) }
    hooks.close = { loader, _ in loader.saveCache() }
    typealias Function = RuntimeExtension.Function<ModuleLoader>
    return RuntimeExtension(
      name: "modules", state: { _ in ModuleLoader() },
      globalScripts: [.init(name: "commonjs", source: EmbeddedFiles.commonjs_js)],
      deferredScripts: [.init(name: "require", source: EmbeddedFiles.require_js)],
      functions: [
        Function("loader", script: { loader, host, _ throws(ThrownValue) in try loader.loader(host) }),
        Function("compile", script: { loader, host, args throws(ThrownValue) in try loader.compile(args, host) }),
        Function("generator", script: { loader, host, args throws(ThrownValue) in try loader.generator(args, host) }),
        Function("readFile", script: { loader, host, args throws(ThrownValue) in try loader.readFile(args, host) }),
        Function(
          "evaluateModuleBody", script: { loader, host, args throws(ThrownValue) in try loader.evaluateBody(args, host) }),
        Function(
          "cachedGraph", script: { loader, host, args throws(ThrownValue) in try loader.cachedGraph(args, host) }),
        Function("saveGraph") { loader, host, args in loader.saveGraph(args, host) },
        Function("moduleRecord", script: { loader, host, args in loader.moduleRecord(args, host) }),
        // require.js's `evaluate(source, url)`: a CommonJS wrapper or a `load()`ed file, at its path.
        Function("evaluate", script: { _, host, args throws(ThrownValue) in
          try host.evaluateUserScript(args.string(0) ?? "", url: args.string(1) ?? "")
        }),
      ],
      hooks: hooks)
  }
}
