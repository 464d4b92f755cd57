// The module loader's evaluation, in the specification's order: a module's dependencies first,
// cycles as one component, top-level await through async evaluation and its ancestors.
// Takes from internal: native (evaluateModuleBody), Promise. From modules: nameDefault
// (module-load.js), readExport (module-link.js); wire (module-graph.js, at call time).
// Gives to modules: Promise, evaluate.
(function (global, internal, modules) {
  'use strict';
  const native = internal.native;
  const { nameDefault, readExport } = modules;
  // The realm's Promise when the run started: import() returns one even if a script replaced it.
  const Promise = internal.Promise || global.Promise;
  let asyncOrder = 0;

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
    if (m.wiring) modules.wire(m);
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
    if (m.wiring) modules.wire(m);
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

  Object.assign(modules, { Promise, evaluate });
});
