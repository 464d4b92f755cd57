// The module loader's entry points: a run's or a test's entry module, import() in a module
// (import.meta beside it, module-load.js) and in a script, and require() of an ES module.
// Takes from internal: native (cachedGraph, reportError). From modules: everything above.
// Gives to modules: importDynamic. Gives to internal: loader (what the runtime and require.js call).
(function (_global, internal, modules) {
  'use strict';
  const native = internal.native;
  const { pathToURL, resolve, preloaded, loadGraph, hasOwn, namespaceOf, link } = modules;
  const { Promise, evaluate, recordGraph, replay } = modules;

  function loadLinked(url, type, importer, request) {
    const m = loadGraph(url, type, importer, request);
    link(m);
    return m;
  }
  // Evaluates a linked graph once the async generators of its modules wait at their start.
  function evaluateWhenReady(m) {
    const waiting = [];
    const seen = new Set();
    const visit = (x) => {
      if (seen.has(x)) return;
      seen.add(x);
      if (x.ready) {
        waiting.push(x.ready);
        x.ready = undefined;
      }
      x.deps.forEach(visit);
    };
    visit(m);
    // Always one way, so two imports of one module settle in the order they were made.
    return Promise.all(waiting).then(() => evaluate(m));
  }
  // import(): the specifier and options are read now; loading, linking and evaluation follow.
  function importFrom(specifier, options, base) {
    // Where import() is called: the rewriter does not record it, so the stack of this call is
    // kept for an error about the specifier itself (the loader's own frames are not printed).
    const call = new Error();
    return new Promise((resolvePromise, reject) => {
      let type;
      if (options !== undefined) {
        if (options === null || typeof options !== 'object') {
          throw new TypeError('import(): the options must be an object');
        }
        const attributes = options.with;
        if (attributes !== undefined) {
          if (attributes === null || typeof attributes !== 'object') {
            throw new TypeError("import(): the options' with must be an object");
          }
          for (const key of Object.keys(attributes)) {
            if (typeof attributes[key] !== 'string') throw new TypeError('import(): attribute values must be strings');
          }
          type = attributes.type;
        }
      }
      const text = String(specifier);
      Promise.resolve().then(() => {
        let m;
        try {
          m = loadLinked(resolve(text, base), type, undefined, { specifier: text, line: 0, column: 0 });
        } catch (e) {
          if (e instanceof Error && !hasOwn(e, 'nbridgeColumn')) {
            Object.defineProperty(e, 'stack', { value: call.stack, writable: true, configurable: true });
          }
          throw e;
        }
        return evaluateWhenReady(m).then(() => namespaceOf(m));
      }).then(resolvePromise, reject);
    });
  }

  modules.importDynamic = function importDynamic(specifier, options, importer) {
    return importFrom(specifier, options, importer.url);
  };

  internal.loader = {
    // `import()` in a script: relative to the script's file.
    importFromScript(specifier, options, path) {
      return importFrom(specifier, options, pathToURL(path));
    },
    // The entry of `nbridge run`/`nbridge test`: load and link now (errors throw), evaluate (a promise).
    main(path, source) {
      const cached = native.cachedGraph(path, source);
      if (cached) {
        const [m, awaits] = replay(cached[0], cached[1]);
        return awaits ? evaluateWhenReady(m) : Promise.resolve().then(() => evaluate(m));
      }
      if (source !== undefined) preloaded.set(path, source);
      const m = loadLinked(pathToURL(path), undefined, undefined, undefined);
      if (cached === null) recordGraph(m);
      return evaluateWhenReady(m);
    },
    // require() of an ES module (Node's rule since 22): evaluated synchronously unless it awaits.
    require(path) {
      const m = loadLinked(pathToURL(path), undefined, undefined, undefined);
      const pending = (x, seen) => {
        if (seen.has(x)) return false;
        seen.add(x);
        return x.hasTLA || x.deps.some((d) => pending(d, seen));
      };
      if (m.status !== 'evaluated' && pending(m, new Set())) {
        const error = new Error(
          'require() of ' + path + ': the module or one it imports uses top-level await; use import()',
        );
        error.code = 'ERR_REQUIRE_ASYNC_MODULE';
        throw error;
      }
      const promise = evaluate(m);
      if (m.evalError) {
        promise.catch(() => {});
        throw m.evalError.value;
      }
      return namespaceOf(m);
    },
  };
});
