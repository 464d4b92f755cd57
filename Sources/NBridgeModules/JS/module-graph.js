// The entry's module graph kept between runs: recorded once linked (native.saveGraph), and
// replayed from the module cache (native.cachedGraph) without resolving, reading records or
// linking again; a replayed module's imports are wired just before its body first runs.
// Takes from internal: native (saveGraph), lazyColumnShifts. From modules: registry, bodies,
// record, describe, moduleContext, startGenerator (module-load.js); NAMESPACE, hasOwn,
// resolveExport, getterOf, namespaceOf (module-link.js).
// Gives to modules: recordGraph, replay, wire.
(function (_global, internal, modules) {
  'use strict';
  const native = internal.native;
  const { registry, bodies, record, describe, moduleContext, startGenerator } = modules;
  const { NAMESPACE, hasOwn, resolveExport, getterOf, namespaceOf } = modules;

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
      if (constants !== undefined && binding !== null && hasOwn(constants, binding)) {
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

  Object.assign(modules, { recordGraph, replay, wire });
});
