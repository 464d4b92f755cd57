// The web APIs' globals, registered lazily (lazy.js): each group's file (events.js, abort.js, ...)
// is kept out of the prelude and evaluated by native.loadDeferred on the first touch of one of its
// names, so a script that uses none of them pays neither for building nor for parsing them.
// Also `reportError` and the runtime's hooks for the global `error` and `unhandledrejection`
// events (built in events.js). The webnet globals register the same way.
// Takes: internal.lazyGlobals (lazy.js), internal.native.loadDeferred, internal.native.reportError.
// Gives: the deferred globals below; internal.deferredGlobals, internal.platformObjects, internal.events,
//   internal.abort, internal.url (each group's loader), internal.eventHandler, internal.uncaught,
//   internal.unhandledRejection (the runtime's hooks, through hooks.js); global reportError.
(function (global, internal) {
  'use strict';
  const native = internal.native;
  // Functions, not arrows, where nothing reads `this`: JavaScriptCore parses and compiles an arrow
  // function at every start for about 8 k instructions more.
  const deferred = function (file, names) {
    return internal.lazyGlobals(names, function () {
      return native.loadDeferred(file)(global, internal);
    });
  };
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
  // WebAssembly's asynchronous compile refused (webassembly.js) on the first read of `WebAssembly`.
  const webAssembly = global.WebAssembly;
  if (typeof webAssembly === 'object' && webAssembly) {
    internal.lazyGlobals(['WebAssembly'], function () {
      return native.loadDeferred('webassembly')(webAssembly);
    });
  }

  // events.js holds the `on<type>` attributes and the global error events: until it is loaded
  // (a first touch of an event global, or a script's own onerror) there is no listener to tell.
  internal.eventHandler = function (proto, type) {
    return events().eventHandler(proto, type);
  };
  // Fires the global `error` event for an uncaught `error`; true when a listener prevented its
  // default (the run goes on).
  internal.uncaught = function (error) {
    return events.loaded || typeof global.onerror === 'function' ? events().uncaught(error) : false;
  };
  // Fires the global `unhandledrejection` event; true when a listener prevented its default.
  internal.unhandledRejection = function (promise, reason) {
    return events.loaded || typeof global.onunhandledrejection === 'function'
      ? events().unhandledRejection(promise, reason)
      : false;
  };

  global.reportError = function reportError(error) {
    if (arguments.length === 0) throw new TypeError("Failed to execute 'reportError': 1 argument required");
    native.reportError(error);
  };
});
