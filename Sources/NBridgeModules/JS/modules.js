// The ES module loader, evaluated only when a run loads its first module. The Swift side
// (native.compile) rewrites each module into a generator function; this file resolves, links
// and evaluates them as the specification's module records do (link with a DFS index, evaluate
// with cycles and top-level await in the specification's order).
(function (global, internal) {
  'use strict';
  const native = internal.native;
  const NAMESPACE = Symbol('namespace');
  const AMBIGUOUS = Symbol('ambiguous');
  const registry = new Map();
  // Entry source given by the runtime (a run from a string), by path.
  const preloaded = new Map();
  // The realm's Promise when the run started: import() returns one even if a script replaced it.
  const Promise = internal.Promise || global.Promise;
  let asyncOrder = 0;
  // Paths of the modules whose bodies run as a script's top-level code (m.fn is then the
  // handle native.evaluateModuleBody takes): stack traces leave out the `global code` name.
  const bodies = new Set();
  if (internal.moduleBodies) internal.moduleBodies((path) => bodies.has(path));

  // MARK: URLs (file: only)

  // Percent-encodes what a URL cannot hold as is (string operations: a regular expression
  // costs its compilation at every start).
  function encodeWith(text, special) {
    let out = '';
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x20 && c < 0x7f && !special.includes(text[i])) continue;
      const end = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? i + 2 : i + 1;
      out += text.slice(from, i) + encodeURIComponent(text.slice(i, end));
      from = end;
      i = end - 1;
    }
    return from === 0 ? text : out + text.slice(from);
  }
  function encodePath(p) {
    return encodeWith(p, '"<>`{}|\\^%?#');
  }
  function encodeSpecifier(s) {
    return encodeWith(s, '"<>`{}|\\^');
  }
  function pathToURL(path) {
    return 'file://' + encodePath(path);
  }
  function splitSuffix(url) {
    const q = url.indexOf('?');
    const h = url.indexOf('#');
    const i = q < 0 ? h : h < 0 ? q : Math.min(q, h);
    return i < 0 ? [url, ''] : [url.slice(0, i), url.slice(i)];
  }
  function urlToPath(url) {
    const [base] = splitSuffix(url);
    try {
      return decodeURIComponent(base.slice('file://'.length));
    } catch {
      return base.slice('file://'.length);
    }
  }
  function normalize(path) {
    const out = [];
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      if (part === '.' || (part === '' && i > 0 && i < parts.length - 1)) continue;
      if (part === '..') {
        if (out.length > 1) out.pop();
        continue;
      }
      out.push(part);
    }
    if (parts.length > 1 && (parts[parts.length - 1] === '.' || parts[parts.length - 1] === '..')) out.push('');
    const joined = out.join('/');
    return joined.startsWith('/') ? joined : '/' + joined;
  }
  // A URL for a specifier that is one (absolute, or relative to `base`); null for a bare specifier.
  function urlLike(specifier, base) {
    if (specifier.startsWith('file:')) {
      const [head, suffix] = splitSuffix(specifier.replace(/^file:(\/\/)?/, ''));
      return 'file://' + normalize(head.startsWith('/') ? head : '/' + head) + suffix;
    }
    if (specifier.startsWith('/') || specifier.startsWith('./') || specifier.startsWith('../')) {
      const [head, suffix] = splitSuffix(encodeSpecifier(specifier));
      const [basePath] = splitSuffix(base.slice('file://'.length));
      const dir = basePath.slice(0, basePath.lastIndexOf('/') + 1);
      return 'file://' + normalize(head.startsWith('/') ? head : dir + head) + suffix;
    }
    if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(specifier) && !specifier.startsWith('nbridge:')) {
      throw new TypeError("Cannot load '" + specifier + "': nbridge loads file: URLs and paths only");
    }
    return null;
  }

  // MARK: The import map (manifest "imports" and "scopes")

  const map = { imports: [], scopes: [] };
  function sortedEntries(object, base) {
    return Object.keys(object || {}).map((
      key,
    ) => [urlLike(key, base) || key, urlLike(object[key], base) || object[key]])
      .sort((a, b) => b[0].length - a[0].length);
  }
  if (internal.importMap) {
    const base = pathToURL(internal.importMap.base + '/');
    map.imports = sortedEntries(internal.importMap.imports, base);
    map.scopes = Object.keys(internal.importMap.scopes || {}).map((key) => [
      urlLike(key, base) || key,
      sortedEntries(internal.importMap.scopes[key], base),
    ]).sort((a, b) => b[0].length - a[0].length);
  }
  function matchImports(normalized, entries) {
    for (const [key, address] of entries) {
      if (key === normalized) return address;
      if (key.endsWith('/') && normalized.startsWith(key)) {
        return address + encodeSpecifier(normalized.slice(key.length));
      }
    }
    return null;
  }
  // Resolutions by folder and specifier: a graph asks for the same few files many times.
  const resolved = new Map();
  function resolve(specifier, base) {
    const folder = base.slice(0, base.lastIndexOf('/') + 1);
    const key = folder + '\n' + specifier;
    let found = resolved.get(key);
    if (found === undefined) {
      found = resolveUncached(specifier, base);
      if (map.scopes.length === 0) resolved.set(key, found);
    }
    return found;
  }
  function resolveUncached(specifier, base) {
    const asURL = urlLike(specifier, base);
    const normalized = asURL || specifier;
    for (const [scope, entries] of map.scopes) {
      if (scope === base || (scope.endsWith('/') && base.startsWith(scope))) {
        const found = matchImports(normalized, entries);
        if (found) return found;
      }
    }
    const found = matchImports(normalized, map.imports);
    if (found) return found;
    if (asURL) return asURL;
    if (specifier.startsWith('nbridge:')) {
      throw new TypeError("Unknown built-in module '" + specifier + "' (nbridge: specifiers are reserved)");
    }
    throw new TypeError(
      "Cannot resolve the bare specifier '" + specifier + '\': map it in the manifest\'s "imports" (nbridge.json)',
    );
  }

  // MARK: Loading

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
        const dynamicImport = (specifier, options) => importDynamic(specifier, options, m);
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

  // MARK: Linking

  function resolveExport(m, name, resolveSet) {
    if (m.values) return Object.prototype.hasOwnProperty.call(m.values, name) ? { module: m, binding: name } : null;
    for (const r of resolveSet) if (r.module === m && r.name === name) return null;
    resolveSet.push({ module: m, name });
    describe(m);
    const local = m.localExports.get(name);
    if (local !== undefined) return { module: m, binding: local };
    const indirect = m.indirectExports.get(name);
    if (indirect) {
      const dep = m.deps[indirect.request];
      if (indirect.importName === undefined) return { module: dep, binding: NAMESPACE };
      return resolveExport(dep, indirect.importName, resolveSet);
    }
    if (name === 'default') return null;
    let star = null;
    for (const index of m.info.stars) {
      const found = resolveExport(m.deps[index], name, resolveSet);
      if (found === AMBIGUOUS) return AMBIGUOUS;
      if (found) {
        if (!star) star = found;
        else if (found.module !== star.module || found.binding !== star.binding) return AMBIGUOUS;
      }
    }
    return star;
  }

  function exportedNames(m, seen) {
    if (m.values) return Object.keys(m.values);
    if (seen.includes(m)) return [];
    seen.push(m);
    describe(m);
    const names = [...m.localExports.keys(), ...m.indirectExports.keys()];
    for (const index of m.info.stars) {
      for (const n of exportedNames(m.deps[index], seen)) {
        if (n !== 'default' && !names.includes(n)) names.push(n);
      }
    }
    return names;
  }

  function getterOf(resolution) {
    const m = resolution.module;
    if (resolution.binding === NAMESPACE) return () => namespaceOf(m);
    if (m.values) {
      const values = m.values;
      const key = resolution.binding;
      return () => values[key];
    }
    const binding = resolution.binding;
    const read = readExport(m, binding);
    if (read) return read;
    // A plain module not evaluated yet (nothing can read it before it has run but a cycle,
    // and a module in a cycle is a generator with getters from link time).
    return () => {
      const read = readExport(m, binding);
      if (read === undefined) throw new ReferenceError("Cannot access '" + binding + "' before initialization");
      return read();
    };
  }
  const hasOwn = (o, key) => Object.prototype.hasOwnProperty.call(o, key);
  // How to read one of a module's own bindings, undefined while it cannot be read yet: its
  // getter for one that can change, and for a plain module's others the value handed over at its
  // body's end (a module run as a program has no getter for those).
  function readExport(m, binding) {
    const constants = m.plain ? m.ctx.const : undefined;
    if (constants !== undefined && binding in constants) {
      const value = constants[binding];
      return () => value;
    }
    if (m.getters !== undefined && hasOwn(m.getters, binding)) return m.getters[binding];
  }

  function namespaceOf(m) {
    if (m.namespace) return m.namespace;
    const getters = new Map();
    for (const name of exportedNames(m, [])) {
      const found = resolveExport(m, name, []);
      if (found && found !== AMBIGUOUS) getters.set(name, getterOf(found));
    }
    const names = [...getters.keys()].sort();
    const target = Object.create(null);
    for (const name of names) {
      Object.defineProperty(target, name, { value: undefined, writable: true, enumerable: true, configurable: false });
    }
    Object.defineProperty(target, Symbol.toStringTag, { value: 'Module' });
    Object.preventExtensions(target);
    const read = (name) => getters.get(name)();
    m.namespace = new Proxy(target, {
      get(t, key) {
        if (typeof key === 'symbol') return t[key];
        return getters.has(key) ? read(key) : undefined;
      },
      set() {
        return false;
      },
      has(t, key) {
        return typeof key === 'symbol' ? key in t : getters.has(key);
      },
      deleteProperty(t, key) {
        return typeof key === 'symbol' ? Reflect.deleteProperty(t, key) : !getters.has(key);
      },
      getOwnPropertyDescriptor(t, key) {
        if (typeof key === 'symbol') return Reflect.getOwnPropertyDescriptor(t, key);
        if (!getters.has(key)) return undefined;
        return { value: read(key), writable: true, enumerable: true, configurable: false };
      },
      defineProperty(t, key, desc) {
        if (typeof key === 'symbol') return Reflect.defineProperty(t, key, desc);
        if (!getters.has(key)) return false;
        if (desc.configurable === true || desc.enumerable === false || desc.writable === false) return false;
        if ('get' in desc || 'set' in desc) return false;
        if ('value' in desc) return Object.is(desc.value, read(key));
        return true;
      },
      ownKeys(t) {
        return Reflect.ownKeys(t);
      },
      getPrototypeOf() {
        return null;
      },
      setPrototypeOf(_t, proto) {
        return proto === null;
      },
      isExtensible() {
        return false;
      },
      preventExtensions() {
        return true;
      },
    });
    return m.namespace;
  }

  function initializeEnvironment(m) {
    for (const [name, indirect] of m.indirectExports) {
      const found = resolveExport(m, name, []);
      if (!found || found === AMBIGUOUS) {
        const request = m.info.requests[indirect.request];
        throw importError(
          SyntaxError,
          "The requested module '" + request.specifier + "' does not provide " +
            (found ? 'an unambiguous export' : 'an export') + " named '" + indirect.importName + "'",
          m,
          indirect,
        );
      }
    }
    for (const imp of m.info.imports) {
      const dep = m.deps[imp.request];
      let getter;
      if (imp.name === null) {
        getter = () => namespaceOf(dep);
      } else {
        const found = resolveExport(dep, imp.name, []);
        if (!found || found === AMBIGUOUS) {
          const request = m.info.requests[imp.request];
          throw importError(
            SyntaxError,
            "The requested module '" + request.specifier + "' does not provide " +
              (found ? 'an unambiguous export' : 'an export') + " named '" + imp.name + "'",
            m,
            imp,
          );
        }
        getter = getterOf(found);
      }
      Object.defineProperty(m.ctx, imp.local, { get: getter });
    }
  }

  function link(root) {
    const stack = [];
    try {
      innerLink(root, stack, 0);
    } catch (e) {
      for (const m of stack) m.status = 'new';
      throw e;
    }
  }
  function innerLink(m, stack, index) {
    if (m.status !== 'new') return index;
    m.status = 'linking';
    m.dfsIndex = m.dfsAncestorIndex = index++;
    stack.push(m);
    for (const dep of m.deps) {
      index = innerLink(dep, stack, index);
      if (dep.status === 'linking') m.dfsAncestorIndex = Math.min(m.dfsAncestorIndex, dep.dfsAncestorIndex);
    }
    if (!m.environmentReady) {
      initializeEnvironment(m);
      m.environmentReady = true;
    }
    if (m.dfsAncestorIndex === m.dfsIndex) {
      // A component of more than one module, or one that imports itself, is a cycle: its plain
      // modules become generators, so their getters exist before any of them runs.
      const cyclic = stack[stack.length - 1] !== m || m.deps.includes(m);
      let done;
      do {
        done = stack.pop();
        done.status = 'linked';
        if (cyclic && done.plain) {
          done.fn = native.generator(done.path);
          startGenerator(done);
        }
      } while (done !== m);
    }
    return index;
  }

  // MARK: Evaluation

  function deferred() {
    const d = {};
    d.promise = new Promise((resolve, reject) => {
      d.resolve = resolve;
      d.reject = reject;
    });
    return d;
  }

  function evaluate(m) {
    if ((m.status === 'evaluating-async' || m.status === 'evaluated') && m.cycleRoot) m = m.cycleRoot;
    if (m.topPromise) return m.topPromise.promise;
    const stack = [];
    const capability = deferred();
    m.topPromise = capability;
    try {
      innerEvaluate(m, stack, 0);
      if (!m.asyncEvaluation) {
        if (m.evalError) capability.reject(m.evalError.value);
        else capability.resolve();
      }
    } catch (e) {
      for (const x of stack) {
        x.status = 'evaluated';
        x.evalError = { value: e };
      }
      capability.reject(e);
    }
    return capability.promise;
  }

  function innerEvaluate(m, stack, index) {
    if (m.status === 'evaluating-async' || m.status === 'evaluated') {
      if (m.evalError) throw m.evalError.value;
      return index;
    }
    if (m.status === 'evaluating') return index;
    m.status = 'evaluating';
    m.dfsIndex = m.dfsAncestorIndex = index++;
    m.pendingAsyncDeps = 0;
    stack.push(m);
    for (let dep of m.deps) {
      index = innerEvaluate(dep, stack, index);
      if (dep.status === 'evaluating') {
        m.dfsAncestorIndex = Math.min(m.dfsAncestorIndex, dep.dfsAncestorIndex);
      } else {
        dep = dep.cycleRoot;
        if (dep.evalError) throw dep.evalError.value;
      }
      if (dep.asyncEvaluation) {
        m.pendingAsyncDeps++;
        dep.asyncParents.push(m);
      }
    }
    if (m.pendingAsyncDeps > 0 || m.hasTLA) {
      m.asyncEvaluation = ++asyncOrder;
      if (m.pendingAsyncDeps === 0) executeAsync(m);
    } else {
      executeSync(m);
    }
    if (m.dfsAncestorIndex === m.dfsIndex) {
      let done;
      do {
        done = stack.pop();
        done.status = done.asyncEvaluation ? 'evaluating-async' : 'evaluated';
        done.cycleRoot = m;
      } while (done !== m);
    }
    return index;
  }

  function finishBody(m) {
    const read = m.defaultLocal && readExport(m, m.defaultLocal);
    if (read) nameDefault(read());
  }
  function executeSync(m) {
    if (m.wiring) wire(m);
    if (m.plain) {
      try {
        if (typeof m.fn === 'number') native.evaluateModuleBody(m.fn, m.ctx);
        else m.fn.call(undefined, m.ctx);
      } finally {
        if (m.ctx.export) m.getters = m.ctx.export;
      }
    } else {
      m.gen.next();
    }
    finishBody(m);
  }
  function executeAsync(m) {
    if (m.wiring) wire(m);
    let step;
    try {
      step = m.gen.next();
    } catch (e) {
      step = Promise.reject(e);
    }
    Promise.resolve(step).then(() => {
      finishBody(m);
      asyncFulfilled(m);
    }, (e) => asyncRejected(m, e));
  }

  function gatherAncestors(m, list) {
    for (const parent of m.asyncParents) {
      if (!list.includes(parent) && !parent.cycleRoot.evalError) {
        parent.pendingAsyncDeps--;
        if (parent.pendingAsyncDeps === 0) {
          list.push(parent);
          if (!parent.hasTLA) gatherAncestors(parent, list);
        }
      }
    }
  }
  function asyncFulfilled(m) {
    if (m.status === 'evaluated') return;
    m.asyncEvaluation = 0;
    m.status = 'evaluated';
    if (m.topPromise) m.topPromise.resolve();
    const list = [];
    gatherAncestors(m, list);
    list.sort((a, b) => a.asyncEvaluation - b.asyncEvaluation);
    for (const x of list) {
      if (x.status === 'evaluated') continue;
      if (x.hasTLA) {
        executeAsync(x);
      } else {
        try {
          executeSync(x);
        } catch (e) {
          asyncRejected(x, e);
          continue;
        }
        x.asyncEvaluation = 0;
        x.status = 'evaluated';
        if (x.topPromise) x.topPromise.resolve();
      }
    }
  }
  function asyncRejected(m, error) {
    if (m.status === 'evaluated') return;
    m.evalError = { value: error };
    m.status = 'evaluated';
    m.asyncEvaluation = 0;
    // The module's own promise first, then its importers' (the specification's order since 2024:
    // an import of the failing module hears of it before an import of a module above it).
    if (m.topPromise) m.topPromise.reject(error);
    for (const parent of m.asyncParents) asyncRejected(parent, error);
  }

  // MARK: The entry's cached graph

  // A run's entry graph of modules only, once linked, is kept in the module cache (native.saveGraph)
  // as rows [path, url, flags (1: a generator, 2: awaits at top level), default local, dependency
  // indexes, wiring], the entry first; wiring holds [local, module index, binding] per import
  // (binding null: the module's namespace), each import resolved through re-exports already.
  function recordGraph(root) {
    const order = [root];
    const index = new Map([[root, 0]]);
    for (let k = 0; k < order.length; k++) {
      const m = order[k];
      if (m.values || m.fn === undefined || m.status !== 'linked') return;
      for (const d of m.deps) {
        if (!index.has(d)) {
          index.set(d, order.length);
          order.push(d);
        }
      }
    }
    const rows = order.map((m) => {
      const wiring = [];
      for (const imp of m.info.imports) {
        const dep = m.deps[imp.request];
        const found = imp.name === null ? { module: dep, binding: NAMESPACE } : resolveExport(dep, imp.name, []);
        wiring.push(imp.local, index.get(found.module), found.binding === NAMESPACE ? null : found.binding);
      }
      const flags = (m.plain ? 0 : 1) | (m.hasTLA ? 2 : 0);
      return [m.path, m.url, flags, m.defaultLocal, m.deps.map((d) => index.get(d)), wiring];
    });
    native.saveGraph(JSON.stringify(rows));
  }

  // The records of a graph native.cachedGraph found unchanged, linked as recordGraph wrote them;
  // `functions` are the modules' functions, compiled. Returns the entry's record.
  function replay(text, functions) {
    const rows = JSON.parse(text);
    const modules = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const m = record(row[1], 'esm', row[0]);
      m.fn = functions[i];
      if (typeof m.fn === 'number') bodies.add(m.path);
      m.plain = (row[2] & 1) === 0;
      m.hasTLA = (row[2] & 2) !== 0;
      m.defaultLocal = row[3];
      m.ctx = moduleContext(m);
      m.depsLoaded = true;
      m.environmentReady = true;
      m.status = 'linked';
      m.graph = modules;
      registry.set(m.url, m);
      modules[i] = m;
    }
    let awaits = false;
    for (let i = 0; i < rows.length; i++) {
      const m = modules[i];
      const indexes = rows[i][4];
      const deps = new Array(indexes.length);
      for (let k = 0; k < indexes.length; k++) deps[k] = modules[indexes[k]];
      m.deps = deps;
      m.wiring = rows[i][5];
      if (m.hasTLA) awaits = true;
      if (!m.plain) startGenerator(m);
    }
    // Stack traces ask for a module's inserted widths only when they name it.
    if (internal.lazyColumnShifts) {
      internal.lazyColumnShifts((path) => {
        const m = modules.find((x) => x.path === path);
        if (!m) return undefined;
        describe(m);
        return m.info.shifts;
      });
    }
    return [modules[0], awaits];
  }
  // Defines a replayed module's imports, just before its body first runs (what it imports has
  // run by then, or is in its cycle and has its getters). A constant of a module in no cycle
  // whose body has run (it handed its constants over at its end) is read by value.
  const constantImport = { value: undefined, writable: false, enumerable: false, configurable: false };
  const liveImport = { get: undefined, enumerable: false, configurable: false };
  function wire(m) {
    const wiring = m.wiring;
    m.wiring = undefined;
    for (let k = 0; k < wiring.length; k += 3) {
      const target = m.graph[wiring[k + 1]];
      const binding = wiring[k + 2];
      const constants = target.plain ? target.ctx.const : undefined;
      if (constants !== undefined && binding !== null && binding in constants) {
        constantImport.value = constants[binding];
        Object.defineProperty(m.ctx, wiring[k], constantImport);
        continue;
      }
      liveImport.get = binding === null ? () => namespaceOf(target) : getterOf({ module: target, binding });
      Object.defineProperty(m.ctx, wiring[k], liveImport);
    }
    constantImport.value = undefined;
    liveImport.get = undefined;
  }

  // MARK: Entry points

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

  function importDynamic(specifier, options, importer) {
    return importFrom(specifier, options, importer.url);
  }

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
    // `nbridge run`: an evaluation error is reported as uncaught.
    run(path, source) {
      this.main(path, source).then(undefined, (e) => native.reportError(e));
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
