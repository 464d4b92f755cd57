// AbortController and AbortSignal by the DOM standard: abort(), timeout() (a timer that does not
// keep the run alive by itself), any() with dependent signals, reason, throwIfAborted(), onabort.
// Exports internal.isAbortSignal and internal.addAbortAlgorithm (events.js uses them for `signal`).
// Takes: internal.events (events.js's loader), internal.eventHandler, internal.platformObjects,
//   internal.native.timer.
// Gives: internal.isAbortSignal, internal.addAbortAlgorithm; its function's result: { AbortController, AbortSignal }.
(function (_global, internal) {
  'use strict';
  const native = internal.native;
  const signals = new WeakMap();
  internal.isAbortSignal = (value) => value !== null && typeof value === 'object' && signals.has(value);
  internal.addAbortAlgorithm = (signal, algorithm) => {
    const s = signals.get(signal);
    if (!s.aborted) s.algorithms.add(algorithm);
    return () => s.algorithms.delete(algorithm);
  };

  function build() {
    const { EventTarget, Event, fire } = internal.events();
    const stateOf = (signal) => {
      const s = signals.get(signal);
      if (!s) throw new TypeError('Illegal invocation: not an AbortSignal');
      return s;
    };
    let constructing = false;

    class AbortSignal extends EventTarget {
      constructor() {
        if (!constructing) throw new TypeError('Illegal constructor: use new AbortController().signal');
        super();
        signals.set(this, {
          aborted: false,
          reason: undefined,
          algorithms: new Set(),
          dependent: false,
          sources: new Set(),
          dependents: new Set(),
        });
      }
      get aborted() {
        return stateOf(this).aborted;
      }
      get reason() {
        return stateOf(this).reason;
      }
      throwIfAborted() {
        const s = stateOf(this);
        if (s.aborted) throw s.reason;
      }
      static abort(reason = undefined) {
        const signal = create();
        const s = signals.get(signal);
        s.aborted = true;
        s.reason = reason === undefined ? abortError() : reason;
        return signal;
      }
      static timeout(milliseconds) {
        const ms = Number(milliseconds);
        if (arguments.length === 0 || !Number.isFinite(ms) || ms < 0 || ms > Number.MAX_SAFE_INTEGER) {
          throw new TypeError("Failed to execute 'timeout': the delay must be a finite number of milliseconds >= 0");
        }
        const signal = create();
        native.timer(
          () => {
            signalAbort(signal, new DOMException('The operation timed out: signal timed out', 'TimeoutError'));
          },
          Math.trunc(ms),
          false,
          true,
        );
        return signal;
      }
      static any(list) {
        const sources = Array.from(list);
        for (const source of sources) stateOf(source);
        const signal = create();
        const s = signals.get(signal);
        const aborted = sources.find((source) => signals.get(source).aborted);
        if (aborted) {
          s.aborted = true;
          s.reason = signals.get(aborted).reason;
          return signal;
        }
        s.dependent = true;
        for (const source of sources) {
          const t = signals.get(source);
          for (const origin of t.dependent ? t.sources : [source]) {
            s.sources.add(origin);
            signals.get(origin).dependents.add(signal);
          }
        }
        return signal;
      }
    }
    Object.defineProperty(AbortSignal.prototype, Symbol.toStringTag, { value: 'AbortSignal', configurable: true });
    internal.eventHandler(AbortSignal.prototype, 'abort');

    function create() {
      constructing = true;
      try {
        return new AbortSignal();
      } finally {
        constructing = false;
      }
    }
    function abortError() {
      return new DOMException('The operation was aborted: signal is aborted without reason', 'AbortError');
    }
    function signalAbort(signal, reason) {
      const s = signals.get(signal);
      if (s.aborted) return;
      s.aborted = true;
      s.reason = reason === undefined ? abortError() : reason;
      const dependents = [];
      for (const dependent of s.dependents) {
        const d = signals.get(dependent);
        if (d.aborted) continue;
        d.aborted = true;
        d.reason = s.reason;
        dependents.push(dependent);
      }
      runAbortSteps(signal);
      for (const dependent of dependents) runAbortSteps(dependent);
    }
    function runAbortSteps(signal) {
      const s = signals.get(signal);
      const algorithms = Array.from(s.algorithms);
      s.algorithms.clear();
      for (const algorithm of algorithms) algorithm();
      fire(signal, new Event('abort'));
    }

    class AbortController {
      #signal = create();
      get signal() {
        return this.#signal;
      }
      abort(reason = undefined) {
        signalAbort(this.#signal, reason);
      }
    }
    Object.defineProperty(AbortController.prototype, Symbol.toStringTag, {
      value: 'AbortController',
      configurable: true,
    });
    internal.platformObjects.add(AbortController.prototype);
    return { AbortController, AbortSignal };
  }
  return build();
});
