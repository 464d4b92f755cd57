// setTimeout, setInterval, their clear functions and queueMicrotask, over native timers.
(function (global, internal) {
  'use strict';
  const native = internal.native;
  // A function, not an arrow: JavaScriptCore compiles an arrow function at every start for about
  // 9 k instructions more (callgrind, a hello). The globals below stay arrows: a script sees
  // them, and an arrow is no constructor and has no prototype, as the web's functions.
  // The HTML standard takes the delay as a WebIDL `long`: ToInt32 (so 2 ** 31 and 2 ** 32 wrap to
  // 0 or below and fire at once, as in a page), then clamps what is negative to 0.
  const toDelay = function (ms) {
    const delay = Number(ms) | 0;
    return delay > 0 ? delay : 0;
  };
  // A handler that is not a function is code (HTML: converted to a string now, run as a global script).
  const evaluate = eval;
  function schedule(fn, ms, extra, repeat) {
    if (typeof fn !== 'function') {
      const code = String(fn);
      fn = () => evaluate(code);
    }
    const body = extra.length ? () => fn.apply(undefined, extra) : fn;
    return native.timer(body, toDelay(ms), repeat);
  }

  global.setTimeout = (fn, ms, ...extra) => schedule(fn, ms, extra, false);
  global.setInterval = (fn, ms, ...extra) => schedule(fn, ms, extra, true);
  global.clearTimeout = global.clearInterval = (id) => {
    if (typeof id === 'number') native.clearTimer(id);
  };
  // Made on first use: a first Promise.resolve() compiles JavaScriptCore's built-in promise code
  // (0.3 ms of a hello's start-up); the realm's own Promise even if a script replaces the global
  // (the module loader's import() promises are the realm's too).
  const OriginalPromise = internal.OriginalPromise = Promise;
  let resolved;
  global.queueMicrotask = (fn) => {
    if (typeof fn !== 'function') throw new TypeError('queueMicrotask: the callback must be a function');
    resolved ??= OriginalPromise.resolve();
    resolved.then(() => {
      try {
        fn();
      } catch (e) {
        native.reportError(e);
      }
    });
  };
});
