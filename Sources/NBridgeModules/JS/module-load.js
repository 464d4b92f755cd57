// The module loader's loading: a record per module URL, each read and compiled by the native
// half (native.compile: the Swift rewrite, then JavaScriptCore's parse), JSON and CommonJS
// modules as synthetic records, and a module's context (its imports, import(), import.meta).
// Takes from internal: native (compile, readFile, moduleRecord), moduleType, shiftColumns,
// requireFile, moduleBodies. From modules: splitSuffix, urlToPath, resolve (module-resolve.js);
// importDynamic (module-entry.js, at call time).
// Gives to modules: registry, preloaded, bodies, importError, record, describe, moduleContext,
// startGenerator, nameDefault, loadGraph.
(function (_global, internal, modules) {
  'use strict';
  const native = internal.native;
  const { splitSuffix, urlToPath, resolve } = modules;
  const registry = new Map();
  // Entry source given by the runtime (a run from a string), by path.
  const preloaded = new Map();
  // Paths of the modules whose bodies run as a script's top-level code (m.fn is then the
  // handle native.evaluateModuleBody takes): stack traces leave out the `global code` name.
  const bodies = new Set();
  if (internal.moduleBodies) internal.moduleBodies((path) => bodies.has(path));

  function site(m, request) {
    return m ? m.path + ':' + request.line + ':' + (request.column + 1) : '';
  }
  // An error about an import, naming where the importer asked for it: in its message (line and
  // column), and as the error's own place (sourceURL, line, column; the uncaught report shows the
  // line with a caret at nbridgeColumn). Its one stack frame gives the file and line only: a
  // frame's column is read as the rewritten module's and shifted back (inspect.js), which the
  // import's column, as written, is not.
  function importError(Type, message, importer, request) {
    const where = site(importer, request);
    const error = new Type(message + (where ? ' (imported at ' + where + ')' : ''));
    if (where) {
      const place = {
        stack: '@' + importer.path + ':' + request.line,
        sourceURL: importer.path,
        line: request.line,
        column: request.column + 1,
        nbridgeColumn: request.column,
      };
      for (const key in place) {
        Object.defineProperty(error, key, { value: place[key], writable: true, configurable: true });
      }
    }
    return error;
  }

  // A file the loader may not read (outside the app's folder, not a regular file, too large;
  // native.compile and native.readFile throw an Error with a code): named where it is imported.
  function refused(e, importer, request) {
    if (!importer || !(e instanceof Error) || typeof e.code !== 'string') return e;
    const error = importError(Error, e.message, importer, request);
    error.code = e.code;
    return error;
  }

  function kindOf(url, type) {
    const [base] = splitSuffix(url);
    if (type === 'json') return 'json';
    if (type !== undefined && type !== null) return 'bad-type';
    if (base.endsWith('.json')) return 'json-untyped';
    if (base.endsWith('.cjs') || base.endsWith('.cts')) return 'cjs';
    if (base.endsWith('.mjs') || base.endsWith('.mts') || internal.moduleType) return 'esm';
    return 'detect';
  }

  // Every field a record ever gets, made at once: all records share one shape.
  function record(url, kind, path) {
    return {
      url,
      path,
      kind,
      status: 'new',
      deps: [],
      asyncParents: [],
      asyncEvaluation: 0,
      pendingAsyncDeps: 0,
      evalError: undefined,
      topPromise: undefined,
      namespace: undefined,
      info: undefined,
      localExports: undefined,
      indirectExports: undefined,
      values: undefined,
      fn: undefined,
      plain: false,
      hasTLA: false,
      defaultLocal: undefined,
      ctx: undefined,
      gen: undefined,
      ready: undefined,
      getters: undefined,
      depsLoaded: false,
      environmentReady: false,
      dfsIndex: 0,
      dfsAncestorIndex: 0,
      cycleRoot: undefined,
      graph: undefined,
      wiring: undefined,
    };
  }

  function instantiate(m, compiled) {
    m.info = compiled;
    m.hasTLA = compiled.tla;
    m.defaultLocal = compiled.defaultLocal;
    describe(m);
    m.ctx = moduleContext(m);
    m.fn = compiled.fn;
    if (typeof m.fn === 'number') bodies.add(m.path);
    m.plain = compiled.plain;
    // A plain function (no cycle seen yet, no top-level await) runs whole when evaluated; its
    // getters exist from then on. A module found in a cycle becomes a generator at link time.
    if (!compiled.plain) startGenerator(m);
  }
  // The module's exports by name (local and indirect), from its record (read now if a cached
  // graph was replayed without it).
  function describe(m) {
    if (m.localExports) return;
    if (!m.info) m.info = JSON.parse(native.moduleRecord(m.path));
    m.localExports = new Map();
    m.indirectExports = new Map();
    for (const e of m.info.exports) {
      if (e.local !== undefined) m.localExports.set(e.name, e.local);
      else m.indirectExports.set(e.name, e);
    }
  }
  // The object a module's function gets: its imports (defined at link time), import() and
  // import.meta; the function sets `export` to its getters.
  function moduleContext(m) {
    const ctx = Object.create(contextPrototype);
    ctx[MODULE] = m;
    return ctx;
  }
  // `import` is made when a module first uses import() or import.meta (few do).
  const MODULE = Symbol('module');
  const contextPrototype = Object.create(null, {
    import: {
      get() {
        const m = this[MODULE];
        let meta;
        const dynamicImport = (specifier, options) => modules.importDynamic(specifier, options, m);
        Object.defineProperty(dynamicImport, 'meta', {
          get() {
            if (!meta) {
              meta = Object.create(null);
              meta.url = m.url;
              meta.resolve = (specifier) => resolve(String(specifier), m.url);
            }
            return meta;
          },
        });
        Object.defineProperty(this, 'import', { value: dynamicImport });
        return dynamicImport;
      },
    },
  });
  // Runs the generator function up to its first `yield`: the module's getters exist from here.
  function startGenerator(m) {
    m.plain = false;
    m.gen = m.fn.call(undefined, m.ctx);
    // An async generator's first `yield` settles a tick later: evaluation waits for `ready`.
    const first = m.gen.next();
    if (m.hasTLA) m.ready = first;
    m.getters = m.ctx.export;
    const d = m.defaultLocal;
    if (d) {
      try {
        nameDefault(m.getters[d]());
      } catch { /* an expression: named when it has run */ }
    }
  }
  function nameDefault(value) {
    const own = typeof value === 'function' && Object.getOwnPropertyDescriptor(value, 'name');
    if (
      own && own.configurable && typeof own.value === 'string' && own.value.startsWith('_$') && own.value.endsWith('d')
    ) {
      Object.defineProperty(value, 'name', { value: 'default', configurable: true });
    }
  }

  function synthetic(m, values) {
    m.values = values;
    m.status = 'evaluated';
    m.cycleRoot = m;
  }

  // The record for `url`, read and compiled (not its dependencies).
  function fetchRecord(url, type, importer, request) {
    const key = url + (type === 'json' ? ' json' : '');
    const cached = registry.get(key);
    if (cached) return cached;
    const path = urlToPath(url);
    let kind = kindOf(url, type);
    if (kind === 'bad-type') {
      throw importError(
        TypeError,
        "Unsupported import type '" + type + "' for '" + request.specifier + "'",
        importer,
        request,
      );
    }
    if (kind === 'json-untyped') {
      throw importError(
        TypeError,
        "'" + request.specifier + "' is a JSON module: import it with { type: 'json' }",
        importer,
        request,
      );
    }
    const given = preloaded.get(path);
    preloaded.delete(path);
    // A module is read, rewritten and evaluated by native.compile in one call: [fn, record JSON].
    let compiled;
    let text;
    if (kind === 'esm' || kind === 'detect') {
      try {
        compiled = native.compile(given, path, kind === 'detect');
      } catch (e) {
        if (importer && e instanceof SyntaxError) {
          e.message += ' (in ' + path + ', imported at ' + site(importer, request) + ')';
        }
        throw refused(e, importer, request);
      }
      if (compiled === null) {
        kind = 'cjs';
      } else if (compiled !== undefined) {
        const info = JSON.parse(compiled[1]);
        info.fn = compiled[0];
        info.plain = compiled[2];
        if (info.shifts.length) internal.shiftColumns(path, info.shifts);
        compiled = info;
        text = '';
      }
    }
    if (text === undefined) {
      try {
        text = given === undefined ? native.readFile(path) : given;
      } catch (e) {
        throw refused(e, importer, request);
      }
    }
    if (text === undefined) {
      throw importError(
        Error,
        "Cannot find module '" + (request ? request.specifier : path) + "' (no file " + path + ')',
        importer,
        request,
      );
    }
    const m = record(url, kind, path);
    registry.set(key, m);
    if (kind === 'json') {
      try {
        synthetic(m, { default: JSON.parse(text) });
      } catch (e) {
        registry.delete(key);
        throw importError(SyntaxError, 'Invalid JSON in ' + path + ': ' + e.message, importer, request);
      }
    } else if (kind === 'cjs') {
      let exports;
      try {
        exports = internal.requireFile(path);
      } catch (e) {
        // Not kept: the next import of the file runs it again (require does the same).
        registry.delete(key);
        throw e;
      }
      const values = { default: exports };
      if (exports !== null && (typeof exports === 'object' || typeof exports === 'function')) {
        for (const k of Object.keys(exports)) if (k !== 'default') values[k] = exports[k];
      }
      synthetic(m, values);
    } else {
      instantiate(m, compiled);
    }
    return m;
  }

  // Loads `url` and every module it imports, statically.
  function loadGraph(url, type, importer, request) {
    const root = fetchRecord(url, type, importer, request);
    const work = [root];
    const seen = new Set([root]);
    while (work.length) {
      const m = work.pop();
      if (m.kind !== 'esm' && m.kind !== 'detect' || m.depsLoaded) continue;
      m.depsLoaded = true;
      const deps = m.info.requests.map((r) => {
        let target;
        try {
          target = resolve(r.specifier, m.url);
        } catch (e) {
          throw importError(e.constructor, e.message, m, r);
        }
        return fetchRecord(target, r.type === null ? undefined : r.type, m, r);
      });
      m.deps = deps;
      for (const d of deps) {
        if (!seen.has(d)) {
          seen.add(d);
          work.push(d);
        }
      }
    }
    return root;
  }

  Object.assign(modules, {
    registry,
    preloaded,
    bodies,
    importError,
    record,
    describe,
    moduleContext,
    startGenerator,
    nameDefault,
    loadGraph,
  });
});
