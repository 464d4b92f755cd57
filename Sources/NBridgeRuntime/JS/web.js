// The web APIs' globals, registered lazily (lazy.js): each group's file (events.js, abort.js, ...)
// is kept out of the prelude and evaluated by native.loadDeferred on the first touch of one of its
// names, so a script that uses none of them pays neither for building nor for parsing them.
// Also the runtime's hooks for the global `error` and `unhandledrejection` events, `reportError`
// and internal.eventHandler (an `on<type>` attribute). The webnet globals register the same way.
(function (global, internal) {
  'use strict';
  const native = internal.native;
  const deferred = (file, names) => internal.lazyGlobals(names, () => native.loadDeferred(file)(global, internal));
  internal.deferredGlobals = deferred;
  // Prototypes of the platform objects the web APIs define (URL, Event, ...): structuredClone refuses them.
  internal.platformObjects = new Set();

  deferred('domexception', ['DOMException']);
  deferred('encoding', ['btoa', 'atob', 'TextEncoder', 'TextDecoder', 'structuredClone']);

  const events = deferred('events', [
    'Event',
    'CustomEvent',
    'EventTarget',
    'ErrorEvent',
    'PromiseRejectionEvent',
    'addEventListener',
    'removeEventListener',
    'dispatchEvent',
  ]);
  internal.events = events;
  internal.abort = deferred('abort', ['AbortController', 'AbortSignal']);
  deferred('performance', ['performance', 'Performance', 'PerformanceEntry', 'PerformanceMark', 'PerformanceMeasure']);
  deferred('crypto', ['Crypto', 'SubtleCrypto', 'crypto']);
  deferred('navigator', ['Navigator', 'navigator']);
  internal.url = deferred('url', ['URL', 'URLSearchParams']);

  // An `on<type>` attribute on a prototype: the handler runs among the listeners, at the place it
  // was first set; a handler that returns false cancels the event.
  internal.eventHandler = function eventHandler(proto, type) {
    const handlers = new WeakMap();
    Object.defineProperty(proto, 'on' + type, {
      get() {
        return handlers.get(this)?.value ?? null;
      },
      set(value) {
        let slot = handlers.get(this);
        if (!slot) {
          slot = { value: null };
          handlers.set(this, slot);
          this.addEventListener(type, (event) => {
            if (typeof slot.value !== 'function') return;
            if (slot.value.call(this, event) === false) event.preventDefault();
          });
        }
        slot.value = typeof value === 'function' || (value && typeof value === 'object') ? value : null;
      },
      configurable: true,
      enumerable: true,
    });
  };

  // The global `onerror`/`onunhandledrejection` are plain properties a script may assign; they are
  // called (page style: onerror gets message, filename, line, column, error; true cancels) before
  // the listeners.
  function where(error) {
    const e = error !== null && typeof error === 'object' ? error : {};
    return {
      filename: typeof e.sourceURL === 'string' ? e.sourceURL : '',
      lineno: typeof e.line === 'number' ? e.line : 0,
      colno: typeof e.column === 'number' ? e.column : 0,
    };
  }
  function describe(error) {
    try {
      return 'Uncaught ' + (error instanceof Error ? error.name + ': ' + error.message : String(error));
    } catch {
      return 'Uncaught exception';
    }
  }
  let reporting = false;

  // Fires the global `error` event for an uncaught `error`; true when a listener prevented its
  // default (the run goes on).
  internal.uncaught = function uncaught(error) {
    const handler = global.onerror;
    if (reporting || (!events.loaded && typeof handler !== 'function')) return false;
    reporting = true;
    try {
      const { ErrorEvent, fire } = events();
      const { filename, lineno, colno } = where(error);
      const message = describe(error);
      const event = new ErrorEvent('error', { cancelable: true, message, filename, lineno, colno, error });
      if (typeof handler === 'function' && handler.call(global, message, filename, lineno, colno, error) === true) {
        event.preventDefault();
      }
      fire(global, event);
      return event.defaultPrevented;
    } catch {
      return false;
    } finally {
      reporting = false;
    }
  };

  // Fires the global `unhandledrejection` event; true when a listener prevented its default.
  internal.unhandledRejection = function unhandledRejection(promise, reason) {
    const handler = global.onunhandledrejection;
    if (!events.loaded && typeof handler !== 'function') return false;
    const { PromiseRejectionEvent, fire } = events();
    const event = new PromiseRejectionEvent('unhandledrejection', { cancelable: true, promise, reason });
    if (typeof handler === 'function') {
      try {
        if (handler.call(global, event) === false) event.preventDefault();
      } catch (error) {
        native.reportError(error);
      }
    }
    fire(global, event);
    return event.defaultPrevented;
  };

  global.reportError = function reportError(error) {
    if (arguments.length === 0) throw new TypeError("Failed to execute 'reportError': 1 argument required");
    native.reportError(error);
  };
});
