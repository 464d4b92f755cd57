// The module loader's linking, as the specification's module records link: exports resolved
// through re-exports and stars, namespaces, each module's imports defined as getters, and the
// DFS over the graph that turns the plain modules of a cycle into generators.
// Takes from internal: native (generator). From modules: describe, importError, startGenerator
// (module-load.js).
// Gives to modules: NAMESPACE, hasOwn, resolveExport, getterOf, readExport, namespaceOf, link.
(function (_global, internal, modules) {
  'use strict';
  const native = internal.native;
  const { describe, importError, startGenerator } = modules;
  const NAMESPACE = Symbol('namespace');
  const AMBIGUOUS = Symbol('ambiguous');

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
    if (constants !== undefined && hasOwn(constants, binding)) {
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

  Object.assign(modules, { NAMESPACE, hasOwn, resolveExport, getterOf, readExport, namespaceOf, link });
});
